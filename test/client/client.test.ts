import { expect } from '@esm-bundle/chai';
import { http, HttpResponse, delay } from 'msw';
import { createClient } from '../../src/client/client.js';
import { AssistError } from '../../src/core/errors.js';
import { SESSION_STORAGE_KEY } from '../../src/core/session.js';
import { API, CONFIG, FAST_RETRY, REPLY, WIDGET_ID, WIDGET_KEY, hit, ownStorageKeys, rejectionOf, useMockApi, worker } from './support.js';

const api = useMockApi();

describe('createClient', () => {
  it('refuses a key that is not two public ids joined by one slash, naming the expected form', () => {
    for (const key of ['acme', 'acme/help/x', '', ' acme/help', 'acme//help', 'ac me/help']) {
      let thrown: unknown;
      try {
        createClient(key);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, key).to.be.instanceOf(AssistError);
      expect((thrown as AssistError).code).to.equal('invalid_key');
      expect((thrown as AssistError).message).to.contain('{organisation}/{widget}');
    }
  });

  it('refuses a malformed user, context or baseUrl at once', () => {
    expect(() => createClient(WIDGET_KEY, { user: { id: '' } })).to.throw(AssistError);
    expect(() => createClient(WIDGET_KEY, { user: 'user-1' as never })).to.throw(AssistError);
    expect(() => createClient(WIDGET_KEY, { context: 'page' as never })).to.throw(AssistError);
    expect(() => createClient(WIDGET_KEY, { baseUrl: 'javascript:alert(1)' })).to.throw(AssistError);
  });

  it('talks to /api/v1/{organisation}/widgets/{widget} on baseUrl, with the preview token as bearer', async () => {
    let seen: { url: string; authorization: string | null } | null = null;
    worker.use(
      http.post(`https://assist.example.test/api/v1/acme/widgets/${WIDGET_ID}/search`, ({ request }) => {
        seen = { url: request.url, authorization: request.headers.get('Authorization') };
        return HttpResponse.json({ sessionId: 's_1', queryId: 'q_1', hits: [] });
      }),
    );
    const client = createClient(WIDGET_KEY, { baseUrl: 'https://assist.example.test/', token: 'pt_preview' });
    await client.search('x');
    expect(seen).to.deep.equal({ url: `https://assist.example.test/api/v1/acme/widgets/${WIDGET_ID}/search`, authorization: 'Bearer pt_preview' });
  });

  it('sends no Authorization header and no cookies without a token', async () => {
    worker.use(http.post(`${API}/search`, () => HttpResponse.json({ sessionId: 's_1', queryId: 'q_1', hits: [] })));
    await createClient(WIDGET_KEY).search('x');
    expect(api.requests[0]!.headers.get('Authorization')).to.equal(null);
    expect(api.requests[0]!.credentials).to.equal('omit');
  });
});

describe('search', () => {
  it('posts {query, limit, sessionId} and returns hits with the queryId', async () => {
    let body: any;
    worker.use(
      http.post(`${API}/search`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ sessionId: body.sessionId, queryId: 'q_1', hits: [hit(1), hit(2)] });
      }),
    );
    const client = createClient(WIDGET_KEY);
    const result = await client.search('reset password', { limit: 2 });
    expect(body).to.deep.equal({ query: 'reset password', limit: 2, sessionId: client.sessionId });
    expect(result.queryId).to.equal('q_1');
    expect(result.hits.map((entry) => entry.id)).to.deep.equal(['h1', 'h2']);
  });

  it('drops the late answer of an older search: it rejects as aborted and the newer one wins', async () => {
    worker.use(
      http.post(`${API}/search`, async ({ request }) => {
        const { query } = (await request.json()) as { query: string };
        if (query === 'old') await delay(150);
        return HttpResponse.json({ sessionId: 's_1', queryId: `q_${query}`, hits: [hit(query === 'old' ? 1 : 2)] });
      }),
    );
    const client = createClient(WIDGET_KEY);
    const older = client.search('old');
    const newer = client.search('new');
    const [olderOutcome, newerResult] = await Promise.all([rejectionOf(older), newer]);
    expect(olderOutcome).to.be.instanceOf(AssistError);
    expect(olderOutcome.code).to.equal('aborted');
    expect(newerResult.queryId).to.equal('q_new');
  });

  it('drops an older answer even when it arrives before the newer search starts its request', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    worker.use(
      http.post(`${API}/search`, async ({ request }) => {
        const { query } = (await request.json()) as { query: string };
        if (query === 'new') await gate;
        return HttpResponse.json({ sessionId: 's_1', queryId: `q_${query}`, hits: [] });
      }),
    );
    const client = createClient(WIDGET_KEY);
    const seen: string[] = [];
    const older = client.search('old').then((result) => seen.push(result.queryId), (error) => seen.push(error.code));
    const newer = client.search('new').then((result) => seen.push(result.queryId));
    await older;
    release();
    await newer;
    expect(seen).to.deep.equal(['aborted', 'q_new']);
  });

  it('drops an answer whose body was read just as a newer search started', async () => {
    worker.use(
      http.post(`${API}/search`, async ({ request }) => {
        const { query } = (await request.json()) as { query: string };
        return HttpResponse.json({ sessionId: 's_1', queryId: `q_${query}`, hits: [] });
      }),
    );
    const client = createClient(WIDGET_KEY);
    const originalFetch = window.fetch;
    let newer = null as Promise<unknown> | null;
    window.fetch = async (...args: Parameters<typeof fetch>) => {
      const response = await originalFetch(...args);
      const readText = response.text.bind(response);
      // The newer search starts after the older one's body has arrived, before it is handed back.
      response.text = async () => {
        const text = await readText();
        if (!newer) newer = client.search('new');
        return text;
      };
      return response;
    };
    try {
      const error = await rejectionOf(client.search('old'));
      expect(error.code).to.equal('aborted');
      expect(((await newer) as { queryId: string }).queryId).to.equal('q_new');
    } finally {
      window.fetch = originalFetch;
    }
  });

  it('rejects an empty query without a request', async () => {
    const error = await rejectionOf(createClient(WIDGET_KEY).search('   '));
    expect(error.code).to.equal('invalid_request');
    expect(api.requests).to.have.length(0);
  });

  it('cancels through its AbortSignal', async () => {
    worker.use(
      http.post(`${API}/search`, async () => {
        await delay(200);
        return HttpResponse.json({ sessionId: 's_1', queryId: 'q_1', hits: [] });
      }),
    );
    const controller = new AbortController();
    const pending = createClient(WIDGET_KEY).search('x', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await rejectionOf(pending);
    expect(error).to.be.instanceOf(AssistError);
    expect(error.code).to.equal('aborted');
    expect(error.status).to.equal(0);
  });
});

describe('sessionId', () => {
  it('is created on first use, kept in sessionStorage under assist:session, and reused', async () => {
    const sent: string[] = [];
    worker.use(
      http.post(`${API}/search`, async ({ request }) => {
        const { sessionId } = (await request.json()) as { sessionId: string };
        sent.push(sessionId);
        return HttpResponse.json({ sessionId, queryId: 'q', hits: [] });
      }),
    );
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).to.equal(null);
    const client = createClient(WIDGET_KEY);
    const sessionId = client.sessionId;
    expect(sessionId).to.match(/^s_[0-9a-f]{32}$/);
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).to.equal(sessionId);
    await client.search('a');
    await client.search('c');
    // Both searches carry the tab's session (a late request of an earlier test may also arrive here).
    expect(sent.filter((id) => id === sessionId)).to.have.length(2);
    expect(createClient(WIDGET_KEY).sessionId).to.equal(sessionId);
  });

  it('adopts the sessionId the server answers with, for later requests and the beacon', async () => {
    const sent: string[] = [];
    worker.use(
      http.post(`${API}/search`, async ({ request }) => {
        sent.push(((await request.json()) as { sessionId: string }).sessionId);
        return HttpResponse.json({ sessionId: 's_from_server', queryId: 'q', hits: [] });
      }),
    );
    const client = createClient(WIDGET_KEY);
    await client.search('a');
    await client.search('b');
    expect(sent[1]).to.equal('s_from_server');
    expect(client.sessionId).to.equal('s_from_server');
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).to.equal('s_from_server');
  });
});

describe('context', () => {
  async function sentContext(options: Parameters<typeof createClient>[1]): Promise<unknown> {
    let body: any;
    worker.use(
      http.post(`${API}/chat`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(REPLY);
      }),
    );
    await createClient(WIDGET_KEY, options).chat('hi');
    return 'context' in body ? body.context : 'none';
  }

  it('defaults to the page URL and title', async () => {
    document.title = 'Pricing – Acme';
    expect(await sentContext({})).to.deep.equal({ url: location.href, title: 'Pricing – Acme' });
  });

  it('merges an object over the default', async () => {
    document.title = 'Pricing – Acme';
    expect(await sentContext({ context: { title: 'Custom', plan: 'pro' } })).to.deep.equal({ url: location.href, title: 'Custom', plan: 'pro' });
  });

  it('sends none with false', async () => {
    expect(await sentContext({ context: false })).to.equal('none');
  });
});

describe('sendFeedback', () => {
  let originalBeacon: typeof navigator.sendBeacon;
  beforeEach(() => {
    originalBeacon = navigator.sendBeacon;
  });
  afterEach(() => {
    navigator.sendBeacon = originalBeacon;
  });

  it('sends a feedback event for a summary’s answerId (from the stream’s meta), with the trimmed comment', async () => {
    const beacons: Blob[] = [];
    navigator.sendBeacon = (_url: string | URL, body?: BodyInit | null) => (beacons.push(body as Blob), true);
    const events = 'event: meta\ndata: {"answerId":"a_sum"}\n\nevent: token\ndata: {"delta":"Hi"}\n\nevent: done\ndata: {"summarized":true,"text":"Hi","sources":[]}\n\n';
    worker.use(http.post(`${API}/summarize`, () => new HttpResponse(events, { headers: { 'Content-Type': 'text/event-stream' } })));
    const client = createClient(WIDGET_KEY);
    const result = await client.summarize('x', { onToken: () => undefined });
    expect(result.answerId).to.equal('a_sum');
    expect(client.sendFeedback(result.answerId!, 'unhelpful', '  Too short  ')).to.equal(undefined);
    client.sendFeedback('a_chat', 'helpful');
    const sent = await Promise.all(beacons.map(async (body) => JSON.parse(await body.text()).events[0]));
    expect(sent.map((event) => ({ name: event.name, props: event.props }))).to.deep.equal([
      { name: 'feedback', props: { answerId: 'a_sum', value: 'unhelpful', comment: 'Too short' } },
      { name: 'feedback', props: { answerId: 'a_chat', value: 'helpful' } },
    ]);
  });

  it('sends the signed visitor with the rating, so their conversation\'s answers can be rated from any session; an anonymous one sends none', async () => {
    const beacons: Blob[] = [];
    navigator.sendBeacon = (_url: string | URL, body?: BodyInit | null) => (beacons.push(body as Blob), true);
    const client = createClient(WIDGET_KEY, { user: { id: 'alice', hash: 'a'.repeat(64) } });
    client.sendFeedback('a_chat', 'helpful');
    client.identify(null);
    client.sendFeedback('a_chat', 'unhelpful');
    const sent = await Promise.all(beacons.map(async (body) => JSON.parse(await body.text())));
    expect(sent.map((body) => body.user ?? null)).to.deep.equal([{ id: 'alice', hash: 'a'.repeat(64) }, null]);
  });

  it('throws invalid_request at once on a missing answer id, another value or a comment over 1,000 characters', () => {
    const client = createClient(WIDGET_KEY);
    for (const call of [() => client.sendFeedback('', 'helpful'), () => client.sendFeedback('a_1', 'meh' as 'helpful'), () => client.sendFeedback('a_1', 'unhelpful', 'x'.repeat(1001))]) {
      expect(call).to.throw(AssistError).with.property('code', 'invalid_request');
    }
  });
});

describe('trackEvent', () => {
  let originalBeacon: typeof navigator.sendBeacon;
  beforeEach(() => {
    originalBeacon = navigator.sendBeacon;
  });
  afterEach(() => {
    navigator.sendBeacon = originalBeacon;
  });

  it('sends a text/plain beacon of {sessionId, events: [{name, props, queryId, ts}]}', async () => {
    const beacons: { url: string; body: Blob }[] = [];
    navigator.sendBeacon = (url: string | URL, body?: BodyInit | null) => {
      beacons.push({ url: String(url), body: body as Blob });
      return true;
    };
    worker.use(http.post(`${API}/search`, () => HttpResponse.json({ sessionId: 's_9', queryId: 'q_7', hits: [hit(1)] })));
    const client = createClient(WIDGET_KEY);
    await client.search('x');
    const result = client.trackEvent('click', { url: 'https://acme.test/p1', rank: 1, source: 'result' });
    expect(result).to.equal(undefined);
    expect(beacons).to.have.length(1);
    expect(beacons[0]!.url).to.equal(`${API}/events`);
    expect(beacons[0]!.body.type).to.equal('text/plain');
    const payload = JSON.parse(await beacons[0]!.body.text());
    expect(payload.sessionId).to.equal('s_9');
    expect(payload.events).to.have.length(1);
    expect(payload.events[0]).to.include({ name: 'click', queryId: 'q_7' });
    expect(payload.events[0].props).to.deep.equal({ url: 'https://acme.test/p1', rank: 1, source: 'result' });
    expect(Date.parse(payload.events[0].ts)).to.be.closeTo(Date.now(), 5000);
  });

  it('reaches the server through a real beacon', async () => {
    let received: { contentType: string | null; body: any } | null = null;
    worker.use(
      http.post(`${API}/events`, async ({ request }) => {
        received = { contentType: request.headers.get('Content-Type'), body: JSON.parse(await request.text()) };
        return new HttpResponse(null, { status: 202 });
      }),
    );
    createClient(WIDGET_KEY).trackEvent('click', { url: 'https://acme.test/p2', rank: 2, source: 'summary' }, { queryId: null });
    for (let i = 0; i < 50 && !received; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received!.contentType).to.contain('text/plain');
    expect(received!.body.events[0].props).to.deep.equal({ url: 'https://acme.test/p2', rank: 2, source: 'summary' });
    expect(received!.body.events[0]).to.not.have.property('queryId');
  });

  it('falls back to fetch with keepalive when the beacon is refused or throws, and never throws itself', async () => {
    const fetched: Request[] = [];
    worker.use(
      http.post(`${API}/events`, ({ request }) => {
        fetched.push(request);
        return new HttpResponse(null, { status: 202 });
      }),
    );
    navigator.sendBeacon = () => false;
    const client = createClient(WIDGET_KEY);
    client.trackEvent('click', { url: 'https://acme.test/a' });
    navigator.sendBeacon = () => {
      throw new TypeError('beacons disabled');
    };
    client.trackEvent('click', { url: 'https://acme.test/b' });
    for (let i = 0; i < 50 && fetched.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetched).to.have.length(2);
    expect(fetched.every((request) => request.keepalive)).to.equal(true);
    expect(fetched[0]!.headers.get('Content-Type')).to.contain('text/plain');
  });

  it('swallows a failing fallback too', async () => {
    navigator.sendBeacon = () => false;
    worker.use(http.post(`${API}/events`, () => HttpResponse.error()));
    const unhandled: unknown[] = [];
    const onUnhandled = (event: PromiseRejectionEvent) => {
      unhandled.push(event.reason);
      event.preventDefault();
    };
    window.addEventListener('unhandledrejection', onUnhandled);
    expect(() => createClient(WIDGET_KEY).trackEvent('click', { url: 'https://acme.test/a' })).to.not.throw();
    await new Promise((resolve) => setTimeout(resolve, 100));
    window.removeEventListener('unhandledrejection', onUnhandled);
    expect(unhandled).to.deep.equal([]);
  });

  it('uses fetch with the bearer when a preview token is set (a beacon cannot carry it)', async () => {
    let authorization: string | null = null;
    navigator.sendBeacon = () => {
      throw new Error('must not be used with a token');
    };
    worker.use(
      http.post(`${API}/events`, ({ request }) => {
        authorization = request.headers.get('Authorization');
        return new HttpResponse(null, { status: 202 });
      }),
    );
    createClient(WIDGET_KEY, { token: 'pt_1' }).trackEvent('click', { url: 'https://acme.test/a' });
    for (let i = 0; i < 50 && !authorization; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(authorization).to.equal('Bearer pt_1');
  });
});

describe('identity and local history', () => {
  function answerChat(conversationId = 'c_1') {
    worker.use(http.post(`${API}/chat`, async () => HttpResponse.json({ ...REPLY, conversationId })));
  }

  it('keeps the current conversation in localStorage across clients (a reload), without the hash', async () => {
    answerChat();
    const client = createClient(WIDGET_KEY, { user: { id: 'u1', hash: 'secret-hash-abc' } });
    await client.chat('How do I reset it?');
    const reloaded = createClient(WIDGET_KEY, { user: { id: 'u1', hash: 'secret-hash-abc' } });
    const conversation = reloaded.history.load();
    expect(conversation?.conversationId).to.equal('c_1');
    expect(conversation?.messages.map((message) => [message.role, message.text])).to.deep.equal([
      ['user', 'How do I reset it?'],
      ['assistant', REPLY.text],
    ]);
    const stored = ownStorageKeys().map((key) => key + localStorage.getItem(key)).join('');
    expect(stored).to.contain('c_1');
    expect(stored).to.not.contain('secret-hash-abc');
    expect(stored).to.not.contain('u1"');
  });

  it('appends to the same conversation and starts over for a new one', async () => {
    const client = createClient(WIDGET_KEY);
    answerChat('c_1');
    await client.chat('one');
    await client.chat('two', { conversationId: 'c_1' });
    expect(client.history.load()?.messages).to.have.length(4);
    answerChat('c_2');
    await client.chat('three');
    expect(client.history.load()?.conversationId).to.equal('c_2');
    expect(client.history.load()?.messages).to.have.length(2);
  });

  it('identify() with another visitor clears the history and emits identity', async () => {
    answerChat();
    const client = createClient(WIDGET_KEY, { user: { id: 'u1', hash: 'h1' } });
    const seen: unknown[] = [];
    client.on('identity', (event) => seen.push(event));
    await client.chat('private question');
    client.identify({ id: 'u2', hash: 'h2' });
    // Gone from the disk, not just hidden: the next person on this browser cannot read it.
    expect(ownStorageKeys()).to.deep.equal([]);
    client.identify({ id: 'u1', hash: 'h1' });
    expect(client.history.load()).to.equal(null);
    expect(seen[0]).to.deep.equal({ user: { id: 'u2', hash: 'h2' }, previous: { id: 'u1', hash: 'h1' } });
    expect(client.user).to.deep.equal({ id: 'u1', hash: 'h1' });
  });

  it('identify() with no argument clears the identity and the history', async () => {
    answerChat();
    const client = createClient(WIDGET_KEY, { user: { id: 'u1', hash: 'h1' } });
    await client.chat('private question');
    client.identify();
    expect(client.user).to.equal(null);
    expect(client.history.load()).to.equal(null);
  });

  it('identify() with the same visitor keeps the history', async () => {
    answerChat();
    const client = createClient(WIDGET_KEY, { user: { id: 'u1' } });
    const seen: unknown[] = [];
    client.on('identity', (event) => seen.push(event));
    await client.chat('question');
    client.identify({ id: 'u1' });
    expect(seen).to.have.length(0);
    client.identify({ id: 'u1', hash: 'h1' });
    expect(seen).to.have.length(1);
    expect(client.history.load()?.messages).to.have.length(2);
  });

  it("does not store an answer under the next visitor when the identity changes while it is on its way", async () => {
    let answer: () => void = () => undefined;
    worker.use(http.post(`${API}/chat`, () => new Promise<Response>((resolve) => (answer = () => resolve(HttpResponse.json(REPLY))))));
    const client = createClient(WIDGET_KEY, { user: { id: 'u1', hash: 'h1' } });
    const pending = client.chat('private question of u1');
    for (let i = 0; i < 50 && !api.requests.length; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    client.identify({ id: 'u2', hash: 'h2' });
    answer();
    // The caller that asked still gets its answer...
    expect((await pending).text).to.equal(REPLY.text);
    // ...but the browser does not keep it as the new visitor's conversation.
    expect(client.history.load()).to.equal(null);
    expect(createClient(WIDGET_KEY, { user: { id: 'u2', hash: 'h2' } }).history.load()).to.equal(null);
    expect(ownStorageKeys().map((key) => localStorage.getItem(key)).join('')).to.not.contain('private question');
  });

  it('does not show one visitor the conversation stored by another (a reload as someone else)', async () => {
    answerChat();
    await createClient(WIDGET_KEY, { user: { id: 'u1', hash: 'h1' } }).chat('private question');
    const other = createClient(WIDGET_KEY, { user: { id: 'u2', hash: 'h2' } });
    expect(other.history.load()).to.equal(null);
    expect(createClient(WIDGET_KEY, { user: { id: 'u1', hash: 'h1' } }).history.load()).to.equal(null);
  });

  it('sends the signed visitor with chat, and nobody when unsigned', async () => {
    const bodies: any[] = [];
    worker.use(
      http.post(`${API}/chat`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(REPLY);
      }),
    );
    await createClient(WIDGET_KEY, { user: { id: 42 as unknown as string, hash: 'abc' } }).chat('a');
    await createClient(WIDGET_KEY, { user: { id: 'u1' } }).chat('b');
    expect(bodies[0].user).to.deep.equal({ id: '42', hash: 'abc' });
    expect(bodies[1]).to.not.have.property('user');
  });
});

describe('locale', () => {
  const own = Object.getOwnPropertyDescriptor(navigator, 'languages');
  const prefer = (languages: string[]) => Object.defineProperty(navigator, 'languages', { configurable: true, get: () => languages });
  afterEach(() => {
    if (own) Object.defineProperty(navigator, 'languages', own);
    else delete (navigator as { languages?: unknown }).languages;
  });

  it('follows the browser languages first', () => {
    prefer(['sv-SE', 'fr-CA', 'de']);
    expect(createClient(WIDGET_KEY).resolveLocale(CONFIG)).to.equal('fr');
  });

  it("falls back to the widget's default_language, then English", () => {
    prefer(['sv-SE']);
    expect(createClient(WIDGET_KEY).resolveLocale(CONFIG)).to.equal('de');
    expect(createClient(WIDGET_KEY).resolveLocale({ default_language: 'xx' })).to.equal('en');
    expect(createClient(WIDGET_KEY).resolveLocale()).to.equal('en');
  });

  it('is resolved once per client, so the UI does not switch language mid-visit', () => {
    prefer(['ja']);
    const client = createClient(WIDGET_KEY);
    expect(client.resolveLocale(CONFIG)).to.equal('ja');
    prefer(['ko']);
    expect(client.resolveLocale(CONFIG)).to.equal('ja');
  });

  it('uses the last fetched config when none is passed', async () => {
    prefer(['sv']);
    worker.use(http.get(`${API}/config`, () => HttpResponse.json(CONFIG)));
    const client = createClient(WIDGET_KEY);
    await client.fetchConfig();
    expect(client.resolveLocale()).to.equal('de');
  });
});

describe('dispose', () => {
  it('cancels running calls, drops subscriptions and refuses later calls', async () => {
    worker.use(
      http.post(`${API}/search`, async () => {
        await delay(200);
        return HttpResponse.json({ sessionId: 's', queryId: 'q', hits: [] });
      }),
    );
    const client = createClient(WIDGET_KEY, { retry: FAST_RETRY });
    let errors = 0;
    client.on('error', () => errors++);
    const running = client.search('x');
    client.dispose();
    expect((await rejectionOf(running)).code).to.equal('aborted');
    expect((await rejectionOf(client.search('y'))).code).to.equal('aborted');
    expect(errors).to.equal(0);
  });
});
