import { expect } from '@esm-bundle/chai';
import { http, HttpResponse, delay } from 'msw';
import { createClient } from '../../src/client/client.js';
import type { AssistClient, ClientEvents } from '../../src/client/types.js';
import { AssistError } from '../../src/core/errors.js';
import { API, REPLY, WIDGET_KEY, chatEvents, encodeEvents, hit, rejectionOf, sseResponse, streamResponse, useMockApi, worker, type StreamEvent } from './support.js';

const api = useMockApi();

/** Records every status change of a client as `status` or `status:stage`. */
function recordStatus(client: AssistClient): string[] {
  const history: string[] = [];
  client.on('status', ({ status, stage }) => history.push(stage ? `${status}:${stage}` : status));
  return history;
}

function recordErrors(client: AssistClient): ClientEvents['error'][] {
  const errors: ClientEvents['error'][] = [];
  client.on('error', (event) => errors.push(event));
  return errors;
}

describe('chat without onToken', () => {
  it('asks for JSON and resolves with the full reply', async () => {
    let accept: string | null = null;
    let body: any;
    worker.use(
      http.post(`${API}/chat`, async ({ request }) => {
        accept = request.headers.get('Accept');
        body = await request.json();
        return HttpResponse.json(REPLY);
      }),
    );
    const client = createClient(WIDGET_KEY, { context: false });
    const status = recordStatus(client);
    const replies: unknown[] = [];
    client.on('reply', (event) => replies.push(event));
    const reply = await client.chat('How do I reset my password?', { conversationId: 'c_1' });
    expect(accept).to.equal('application/json');
    expect(body).to.deep.equal({ message: 'How do I reset my password?', conversationId: 'c_1', sessionId: client.sessionId });
    expect(reply).to.deep.equal(REPLY);
    expect(replies).to.deep.equal([{ operation: 'chat', reply: REPLY }]);
    expect(status).to.deep.equal(['submitted', 'ready']);
    expect(client.status).to.equal('ready');
  });

  it('streams anyway when the server answers a stream', async () => {
    worker.use(http.post(`${API}/chat`, () => sseResponse(chatEvents())));
    expect(await createClient(WIDGET_KEY).chat('hi')).to.deep.equal(REPLY);
  });

  it('rejects an empty message without a request', async () => {
    const error = await rejectionOf(createClient(WIDGET_KEY).chat(''));
    expect(error.code).to.equal('invalid_request');
    expect(api.requests).to.have.length(0);
  });
});

describe('chat with onToken (streaming)', () => {
  it('asks for text/event-stream, reports tokens, stages and sources, and resolves with the done reply', async () => {
    let accept: string | null = null;
    worker.use(
      http.post(`${API}/chat`, ({ request }) => {
        accept = request.headers.get('Accept');
        return sseResponse(chatEvents());
      }),
    );
    const client = createClient(WIDGET_KEY);
    const status = recordStatus(client);
    const tokens: [string, string][] = [];
    const stages: string[] = [];
    const sources: unknown[] = [];
    const tokenEvents: unknown[] = [];
    client.on('token', (event) => tokenEvents.push(event));
    const reply = await client.chat('hi', {
      onToken: (delta, text) => tokens.push([delta, text]),
      onStatus: (stage) => stages.push(stage),
      onSources: (list) => sources.push(list),
    });
    expect(accept).to.equal('text/event-stream');
    expect(reply).to.deep.equal(REPLY);
    expect(tokens).to.deep.equal([
      ['Open ', 'Open '],
      ['**Settings**', 'Open **Settings**'],
      ['.', 'Open **Settings**.'],
    ]);
    expect(stages).to.deep.equal(['searching', 'generating']);
    expect(sources).to.deep.equal([REPLY.sources]);
    expect(tokenEvents).to.have.length(3);
    expect(tokenEvents[2]).to.deep.equal({ operation: 'chat', delta: '.', text: 'Open **Settings**.' });
    expect(status).to.deep.equal(['submitted', 'streaming', 'streaming:searching', 'streaming:generating', 'ready']);
  });

  it('puts events together from chunks split at every byte boundary, including inside UTF-8 characters', async () => {
    const reply = { ...REPLY, text: 'Grüße, 日本語 and 🎉.' };
    const events = chatEvents(reply, ['Grüße, ', '日本語', ' and 🎉', '.']);
    worker.use(http.post(`${API}/chat`, () => sseResponse(events, { chunkSize: 1 })));
    let full = '';
    const result = await createClient(WIDGET_KEY).chat('hi', { onToken: (_delta, text) => (full = text) });
    expect(full).to.equal('Grüße, 日本語 and 🎉.');
    expect(result.text).to.equal(reply.text);
  });

  it('reads CRLF line ends', async () => {
    worker.use(http.post(`${API}/chat`, () => streamResponse(encodeEvents(chatEvents(), '\r\n'), { chunkSize: 7 })));
    expect(await createClient(WIDGET_KEY).chat('hi', { onToken: () => undefined })).to.deep.equal(REPLY);
  });

  it('skips events it does not know', async () => {
    const events: StreamEvent[] = [['ping', {}], ...chatEvents()];
    worker.use(http.post(`${API}/chat`, () => sseResponse(events)));
    expect(await createClient(WIDGET_KEY).chat('hi', { onToken: () => undefined })).to.deep.equal(REPLY);
  });

  it('keeps streaming when an onToken callback throws, reporting the exception', async () => {
    const original = window.reportError;
    const reported: unknown[] = [];
    window.reportError = (error: unknown) => reported.push(error);
    try {
      worker.use(http.post(`${API}/chat`, () => sseResponse(chatEvents())));
      const reply = await createClient(WIDGET_KEY).chat('hi', {
        onToken: () => {
          throw new Error('bad callback');
        },
      });
      expect(reply).to.deep.equal(REPLY);
      expect(reported).to.have.length(3);
    } finally {
      window.reportError = original;
    }
  });

  it('fails with stream_interrupted when the stream ends before done', async () => {
    const events = chatEvents().slice(0, -1);
    worker.use(http.post(`${API}/chat`, () => sseResponse(events)));
    const client = createClient(WIDGET_KEY);
    const status = recordStatus(client);
    const errors = recordErrors(client);
    let text = '';
    const error = await rejectionOf(client.chat('hi', { onToken: (_delta, full) => (text = full) }));
    expect(error).to.be.instanceOf(AssistError);
    expect(error.code).to.equal('stream_interrupted');
    expect(text).to.equal('Open **Settings**.');
    expect(status.at(-1)).to.equal('error');
    expect(errors.map((event) => [event.operation, event.error.code])).to.deep.equal([['chat', 'stream_interrupted']]);
  });

  it('fails with stream_interrupted when the connection breaks in the middle', async () => {
    worker.use(http.post(`${API}/chat`, () => sseResponse(chatEvents().slice(0, 5), { breakConnection: true })));
    const error = await rejectionOf(createClient(WIDGET_KEY).chat('hi', { onToken: () => undefined }));
    expect(error.code).to.equal('stream_interrupted');
  });

  it('does not accept a done event cut before its blank line', async () => {
    const text = encodeEvents(chatEvents()).replace(/\n\n$/, '\n');
    worker.use(http.post(`${API}/chat`, () => streamResponse(text)));
    expect((await rejectionOf(createClient(WIDGET_KEY).chat('hi', { onToken: () => undefined }))).code).to.equal('stream_interrupted');
  });

  it('turns an error event into an AssistError with its code and message', async () => {
    const events: StreamEvent[] = [...chatEvents().slice(0, 4), ['error', { error: { code: 'internal', message: 'The model went away.' } }]];
    worker.use(http.post(`${API}/chat`, () => sseResponse(events)));
    const client = createClient(WIDGET_KEY);
    const status = recordStatus(client);
    const error = await rejectionOf(client.chat('hi', { onToken: () => undefined }));
    expect(error).to.be.instanceOf(AssistError);
    expect(error).to.include({ code: 'internal', message: 'The model went away.', status: 500 });
    expect(status.at(-1)).to.equal('error');
  });

  it('rejects malformed event data as invalid_response', async () => {
    worker.use(http.post(`${API}/chat`, () => streamResponse('event: meta\ndata: {"conversationId":"c_1","answerId":"a_1"}\n\nevent: token\ndata: not json\n\n')));
    expect((await rejectionOf(createClient(WIDGET_KEY).chat('hi', { onToken: () => undefined }))).code).to.equal('invalid_response');
  });

  it('rejects a done event of the wrong shape as invalid_response', async () => {
    worker.use(http.post(`${API}/chat`, () => sseResponse([['done', { text: 42 }]])));
    expect((await rejectionOf(createClient(WIDGET_KEY).chat('hi', { onToken: () => undefined }))).code).to.equal('invalid_response');
  });

  it('cancels through its AbortSignal mid-stream: aborted, status back to ready, no error event', async () => {
    worker.use(http.post(`${API}/chat`, () => sseResponse(chatEvents(), { delayMs: 40 })));
    const client = createClient(WIDGET_KEY);
    const status = recordStatus(client);
    const errors = recordErrors(client);
    const controller = new AbortController();
    const pending = client.chat('hi', {
      signal: controller.signal,
      onToken: () => controller.abort(),
    });
    const error = await rejectionOf(pending);
    expect(error).to.be.instanceOf(AssistError);
    expect(error.code).to.equal('aborted');
    expect(status.at(-1)).to.equal('ready');
    expect(errors).to.have.length(0);
  });

  it('stop() cancels the running answer', async () => {
    worker.use(http.post(`${API}/chat`, () => sseResponse(chatEvents(), { delayMs: 40 })));
    const client = createClient(WIDGET_KEY);
    const pending = client.chat('hi', { onStatus: () => client.stop() });
    expect((await rejectionOf(pending)).code).to.equal('aborted');
    expect(client.status).to.equal('ready');
  });

  it('does not record an interrupted answer in the local history', async () => {
    worker.use(http.post(`${API}/chat`, () => sseResponse(chatEvents().slice(0, -1))));
    const client = createClient(WIDGET_KEY);
    await rejectionOf(client.chat('hi', { onToken: () => undefined }));
    expect(client.history.load()).to.equal(null);
  });
});

describe('chat at zero credits (402)', () => {
  it('rejects with credits_exhausted and the fallback hits', async () => {
    worker.use(
      http.post(`${API}/chat`, () =>
        HttpResponse.json({ error: { code: 'credits_exhausted', message: 'No answer credits left.' }, hits: [hit(1), hit(2)] }, { status: 402 }),
      ),
    );
    for (const options of [{}, { onToken: () => undefined }]) {
      const error = await rejectionOf(createClient(WIDGET_KEY).chat('reset password', options));
      expect(error).to.be.instanceOf(AssistError);
      expect(error).to.include({ status: 402, code: 'credits_exhausted', message: 'No answer credits left.' });
      expect(error.hits).to.deep.equal([hit(1), hit(2)]);
    }
  });
});

describe('status', () => {
  it('follows only the latest answer: an older one finishing late does not flip it', async () => {
    worker.use(
      http.post(`${API}/chat`, async ({ request }) => {
        const { message } = (await request.json()) as { message: string };
        if (message === 'slow') await delay(120);
        return HttpResponse.json(REPLY);
      }),
    );
    const client = createClient(WIDGET_KEY);
    const status = recordStatus(client);
    const slow = client.chat('slow');
    const fast = client.chat('fast');
    await fast;
    expect(client.status).to.equal('ready');
    await slow;
    expect(status).to.deep.equal(['submitted', 'ready']);
  });

  it('goes to error after a failure and back to submitted on the next call', async () => {
    let fail = true;
    worker.use(http.post(`${API}/chat`, () => (fail ? HttpResponse.json({ error: { code: 'internal', message: 'x' } }, { status: 500 }) : HttpResponse.json(REPLY))));
    const client = createClient(WIDGET_KEY);
    const status = recordStatus(client);
    await rejectionOf(client.chat('a'));
    fail = false;
    await client.chat('b');
    expect(status).to.deep.equal(['submitted', 'error', 'submitted', 'ready']);
  });
});

describe('summarize', () => {
  const SUMMARY = { summarized: true, text: 'Use **Reset**.', sources: REPLY.sources };

  it('posts {query, sessionId} and resolves with the JSON result', async () => {
    let body: any;
    worker.use(
      http.post(`${API}/summarize`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(SUMMARY);
      }),
    );
    const client = createClient(WIDGET_KEY);
    expect(await client.summarize('reset')).to.deep.equal(SUMMARY);
    expect(body).to.deep.equal({ query: 'reset', sessionId: client.sessionId });
  });

  it('streams with onToken', async () => {
    const events: StreamEvent[] = [
      ['meta', { answerId: 'a_9' }],
      ['status', { status: 'generating' }],
      ['token', { delta: 'Use ' }],
      ['token', { delta: '**Reset**.' }],
      ['done', SUMMARY],
    ];
    worker.use(http.post(`${API}/summarize`, () => sseResponse(events, { chunkSize: 3 })));
    const seen: string[] = [];
    const result = await createClient(WIDGET_KEY).summarize('reset', { onToken: (_delta, text) => seen.push(text) });
    expect(seen).to.deep.equal(['Use ', 'Use **Reset**.']);
    // The answer id comes first, in meta, so the summary can be rated before it ends.
    expect(result).to.deep.equal({ answerId: 'a_9', ...SUMMARY });
  });

  it('passes on summarized: false', async () => {
    worker.use(http.post(`${API}/summarize`, () => HttpResponse.json({ summarized: false, text: '', sources: [] })));
    expect(await createClient(WIDGET_KEY).summarize('reset')).to.deep.equal({ summarized: false, text: '', sources: [] });
  });

  it('a newer summarize cancels an older one', async () => {
    worker.use(
      http.post(`${API}/summarize`, async ({ request }) => {
        const { query } = (await request.json()) as { query: string };
        if (query === 'old') await delay(150);
        return HttpResponse.json({ ...SUMMARY, text: query });
      }),
    );
    const client = createClient(WIDGET_KEY);
    const older = client.summarize('old');
    const newer = client.summarize('new');
    expect((await rejectionOf(older)).code).to.equal('aborted');
    expect((await newer).text).to.equal('new');
  });

  it('rejects a wrong shape as invalid_response', async () => {
    worker.use(http.post(`${API}/summarize`, () => HttpResponse.json({ text: 'no flag' })));
    expect((await rejectionOf(createClient(WIDGET_KEY).summarize('x'))).code).to.equal('invalid_response');
  });
});
