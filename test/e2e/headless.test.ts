/**
 * The headless client as a website uses it: the built `assist.js` loaded with one script tag
 * from the real server into a page on another origin, `Assist.headless(key)` driving every
 * function of the client against the real routes. Needs `npm run build:widget` first.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { AssistClient } from '../../src/client/types.js';
import { answerFixture } from '../server/answer-helpers.js';
import { hostPage, startE2E, type E2E } from './harness.js';

/** The part of the global `Assist` these tests use (src/assist.ts defines it in full). */
interface AssistGlobal {
  version: string;
  headless(widgetKey: string, options?: { user?: { id: string; hash?: string } }): AssistClient;
  markdown(text: string): string;
  AssistError: new (...args: never[]) => Error;
  isAssistError(value: unknown): boolean;
}

declare global {
  interface Window {
    Assist?: AssistGlobal;
    // What the host pages below keep between evaluate calls.
    beacons?: { url: string; type: string }[];
    executed?: string[];
  }
}

/** What a failed call looks like from the page: the AssistError's fields. */
interface Failure {
  isAssistError: boolean;
  name: string;
  code: string;
  status: number;
}

let e2e: E2E;
before(async () => {
  const fixture = answerFixture();
  for (const widget of fixture.organisations[0]!.widgets) widget.websites.push('127.0.0.1');
  e2e = await startE2E({ fixture });
  e2e.site.pages.set('/', hostPage(e2e.server));
});
after(() => e2e.close());

const signature = (id: string, secret = 'sig_test_help') => createHmac('sha256', secret).update(id).digest('hex');

/** A fresh browser on the host page, with `window.Assist` loaded and page errors collected. */
async function openHostPage(path = '/'): Promise<{ page: Page; errors: string[]; apiRequests: { url: string; accept: string | undefined }[] }> {
  const { page, errors } = await e2e.newPage();
  // tsx compiles these tests keeping function names through a `__name` helper, which the
  // functions handed to page.evaluate carry into the page.
  await page.addInitScript('window.__name = (target) => target');
  const apiRequests: { url: string; accept: string | undefined }[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/')) apiRequests.push({ url: request.url(), accept: request.headers().accept });
  });
  await page.goto(`${e2e.site.origin}${path}`);
  await page.waitForFunction(() => typeof window.Assist === 'object');
  return { page, errors, apiRequests };
}

/** Runs `body` in the page and returns its result, or the AssistError it rejected with. */
function failureOf(page: Page, body: string): Promise<Failure | { resolved: unknown }> {
  return page.evaluate(async (source) => {
    try {
      return { resolved: await new Function('Assist', `return (async () => { ${source} })()`)(window.Assist) };
    } catch (error) {
      const failure = error as { name: string; code: string; status: number };
      return { isAssistError: window.Assist!.isAssistError(error) && error instanceof window.Assist!.AssistError, name: failure.name, code: failure.code, status: failure.status };
    }
  }, body);
}

test('one script tag defines Assist; the headless client talks to the origin of the script, not of the page', async () => {
  const { page, errors, apiRequests } = await openHostPage();
  assert.notEqual(new URL(page.url()).origin, e2e.server.url);
  const result = await page.evaluate(async () => {
    const client = window.Assist!.headless('acme/find');
    const { hits, queryId, sessionId } = await client.search('install the widget', { limit: 3 });
    return { version: window.Assist!.version, hits, queryId, sessionId, clientSession: client.sessionId };
  });
  assert.equal(result.version, '1');
  assert.ok(result.hits.length > 0 && result.hits.length <= 3);
  assert.equal(result.hits[0]!.url.split('#')[0], 'https://acme.test/docs/install');
  assert.match(result.queryId, /\S/);
  // The server's session is adopted, so later clicks join the same session.
  assert.equal(result.clientSession, result.sessionId);
  assert.deepEqual(apiRequests.map((request) => request.url), [`${e2e.server.url}/api/v1/acme/widgets/find/search`]);
  assert.deepEqual(errors, []);
});

test('chat without onToken returns the whole reply with its sources', async () => {
  const { page, errors, apiRequests } = await openHostPage();
  const reply = await page.evaluate(() => window.Assist!.headless('acme/help').chat('How do I install the widget?'));
  assert.match(reply.text, /script tag/i);
  assert.ok(reply.sources.some((source) => source.url.startsWith('https://acme.test/docs/install')));
  assert.match(reply.conversationId, /\S/);
  assert.match(reply.answerId, /\S/);
  assert.equal(apiRequests.length, 1);
  assert.match(apiRequests[0]!.accept ?? '', /application\/json/);
  assert.deepEqual(errors, []);
});

test('chat with onToken streams tokens that add up to the reply, and onStatus sees searching', async () => {
  const { page, errors, apiRequests } = await openHostPage();
  const streamed = await page.evaluate(async () => {
    const deltas: string[] = [];
    const fulls: string[] = [];
    const statuses: string[] = [];
    const reply = await window.Assist!.headless('acme/help').chat('Where do I set the proxy on Linux?', {
      onToken: (delta, full) => {
        deltas.push(delta);
        fulls.push(full);
      },
      onStatus: (status) => statuses.push(status),
    });
    return { reply, deltas, fulls, statuses };
  });
  assert.ok(streamed.deltas.length > 1, 'the answer arrives in several tokens');
  assert.equal(streamed.deltas.join(''), streamed.reply.text);
  assert.equal(streamed.fulls.at(-1), streamed.reply.text);
  assert.ok(streamed.statuses.includes('searching'));
  assert.match(streamed.reply.text, /etc\/assist\.conf/);
  assert.ok(streamed.reply.sources.some((source) => source.url.startsWith('https://acme.test/docs/proxy')));
  assert.match(apiRequests[0]!.accept ?? '', /text\/event-stream/);
  assert.deepEqual(errors, []);
});

test('summarize answers whole or streamed', async () => {
  const { page, errors } = await openHostPage();
  const result = await page.evaluate(async () => {
    const client = window.Assist!.headless('acme/find');
    const whole = await client.summarize('accent colour');
    const deltas: string[] = [];
    const streamed = await client.summarize('accent colour', { onToken: (delta) => deltas.push(delta) });
    return { whole, streamed, deltas };
  });
  assert.equal(result.whole.summarized, true);
  assert.match(result.whole.text, /accent colour/i);
  assert.ok(result.whole.sources.some((source) => source.url.startsWith('https://acme.test/docs/colours')));
  assert.equal(result.streamed.summarized, true);
  assert.ok(result.deltas.length > 0);
  assert.equal(result.deltas.join(''), result.streamed.text);
  assert.deepEqual(errors, []);
});

test('trackEvent sends a text/plain beacon that the server stores with the session', async () => {
  const { page, errors } = await openHostPage();
  const sent = await page.evaluate(async () => {
    window.beacons = [];
    const original = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      window.beacons!.push({ url: String(url), type: data instanceof Blob ? data.type : typeof data });
      return original(url, data);
    };
    const client = window.Assist!.headless('acme/find');
    const url = 'https://acme.test/docs/proxy#linux';
    const returned = client.trackEvent('click', { url, rank: 2, source: 'result' }, { queryId: 'q_e2e_click' });
    return { queryId: 'q_e2e_click', url, sessionId: client.sessionId, returned: returned === undefined, beacons: window.beacons };
  });
  assert.equal(sent.returned, true, 'fire-and-forget: nothing to await');
  assert.deepEqual(sent.beacons, [{ url: `${e2e.server.url}/api/v1/acme/widgets/find/events`, type: 'text/plain' }]);
  let rows: { query_id: string | null; name: string; url: string; rank: number | null; source: string | null }[] = [];
  for (let attempt = 0; attempt < 50 && rows.length === 0; attempt++) {
    rows = await e2e.server.db.query('SELECT query_id, name, url, rank, source FROM analytics_events WHERE session_id = $1', [sent.sessionId]);
    if (rows.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.deepEqual(rows, [{ query_id: sent.queryId, name: 'click', url: sent.url, rank: 2, source: 'result' }]);
  assert.deepEqual(errors, []);
});

test('fetchConfig returns the widget’s presentation settings', async () => {
  const { page, errors } = await openHostPage();
  const config = await page.evaluate(async () => {
    const client = window.Assist!.headless('acme/help');
    const first = await client.fetchConfig();
    const again = await client.fetchConfig();
    return { first, same: JSON.stringify(first) === JSON.stringify(again), locale: client.resolveLocale() };
  });
  assert.equal(config.first.greeting, 'Hi!');
  assert.equal(config.first.variant, 'bubble');
  assert.equal(config.same, true);
  assert.equal(config.locale, 'en');
  assert.deepEqual(errors, []);
});

test('a signed visitor lists, reads, keeps and deletes their conversations', async () => {
  const { page, errors } = await openHostPage();
  const visitor = { id: 'visitor-e2e-1', hash: signature('visitor-e2e-1') };
  const otherVisitor = { id: 'visitor-e2e-3', hash: signature('visitor-e2e-3') };
  const flow = await page.evaluate(async ([user, otherUser]) => {
    const client = window.Assist!.headless('acme/help');
    client.identify(user);
    const first = await client.chat('How do I install the widget?');
    const second = await client.chat('And on Windows?', { conversationId: first.conversationId });
    const other = await client.chat('What are answer credits?');
    const listed = await client.listConversations();
    const listedForOther = await window.Assist!.headless('acme/help', { user: otherUser }).listConversations();
    const transcript = await client.getConversation(first.conversationId);
    const kept = await client.keepConversation(first.conversationId);
    const released = await client.keepConversation(first.conversationId, false);
    await client.deleteConversation(first.conversationId);
    const afterDelete = await client.listConversations();
    let deletedRead = '';
    await client.getConversation(first.conversationId).catch((error: { code: string; status: number }) => (deletedRead = `${error.status} ${error.code}`));
    await client.deleteConversations();
    const afterDeleteAll = await client.listConversations();
    return {
      sameConversation: second.conversationId === first.conversationId,
      listed: listed.map((summary) => summary.id),
      listedForOther,
      ids: [first.conversationId, other.conversationId],
      transcript: transcript.messages.map((message) => [message.role, message.text.slice(0, 40)]),
      transcriptId: transcript.id,
      kept: kept.kept,
      released: released.kept,
      afterDelete: afterDelete.map((summary) => summary.id),
      deletedRead,
      afterDeleteAll,
    };
  }, [visitor, otherVisitor] as const);
  assert.equal(flow.sameConversation, true);
  assert.deepEqual(new Set(flow.listed), new Set(flow.ids));
  assert.equal(flow.listed[0], flow.ids[1], 'newest first');
  assert.deepEqual(flow.listedForOther, [], 'another visitor does not see them');
  assert.equal(flow.transcriptId, flow.ids[0]);
  assert.deepEqual(
    flow.transcript.map(([role]) => role),
    ['user', 'assistant', 'user', 'assistant'],
  );
  assert.deepEqual(flow.transcript[0], ['user', 'How do I install the widget?']);
  assert.equal(flow.kept, true);
  assert.equal(flow.released, false);
  assert.deepEqual(flow.afterDelete, [flow.ids[1]]);
  assert.equal(flow.deletedRead, '404 not_found');
  assert.deepEqual(flow.afterDeleteAll, []);
  // The browser logs the refused read of the deleted conversation; nothing else.
  assert.deepEqual(errors.filter((error) => !error.includes('404 (Not Found)')), []);
});

test('a wrong identity hash rejects with invalid_identity 403; without a signed visitor history is refused', async () => {
  const { page } = await openHostPage();
  const wrongHash = JSON.stringify({ id: 'visitor-e2e-2', hash: signature('visitor-e2e-2', 'not-the-secret') });
  const expected: Failure = { isAssistError: true, name: 'AssistError', code: 'invalid_identity', status: 403 };
  assert.deepEqual(await failureOf(page, `const client = Assist.headless('acme/help', { user: ${wrongHash} }); return client.listConversations();`), expected);
  assert.deepEqual(await failureOf(page, `const client = Assist.headless('acme/help'); client.identify(${wrongHash}); return client.chat('hello');`), expected);
  // Anonymous: refused before any request, with the same code (status 0: no server answered).
  assert.deepEqual(await failureOf(page, `return Assist.headless('acme/help').listConversations();`), { ...expected, status: 0 });
});

test('a widget that does not list this website refuses with origin_not_allowed', async () => {
  const { page } = await openHostPage();
  const expected: Failure = { isAssistError: true, name: 'AssistError', code: 'origin_not_allowed', status: 403 };
  assert.deepEqual(await failureOf(page, `return Assist.headless('other/bot').fetchConfig();`), expected);
  assert.deepEqual(await failureOf(page, `return Assist.headless('other/bot').chat('hello', { onToken() {} });`), expected);
});

test('a malformed widget key throws at once', async () => {
  const { page, apiRequests } = await openHostPage();
  for (const key of ['acme', 'acme/help/extra', '/help', 'acme/', 'ac me/help', '']) {
    const thrown = await page.evaluate((widgetKey) => {
      try {
        window.Assist!.headless(widgetKey);
        return null;
      } catch (error) {
        return { code: (error as { code: string }).code, isAssistError: window.Assist!.isAssistError(error) };
      }
    }, key);
    assert.deepEqual(thrown, { code: 'invalid_key', isAssistError: true }, JSON.stringify(key));
  }
  assert.deepEqual(apiRequests, []);
});

test('loading the script twice keeps the first Assist and its clients working', async () => {
  e2e.site.pages.set('/twice', hostPage(e2e.server, `<script src="${e2e.server.url}/widget/v1/assist.js"></script>`));
  const { page, errors } = await openHostPage('/twice');
  const result = await page.evaluate(async (scriptUrl) => {
    const first = window.Assist!;
    const client = first.headless('acme/help');
    // A third copy added later, as a tag manager would.
    await new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = scriptUrl;
      script.onload = resolve;
      script.onerror = reject;
      document.head.append(script);
    });
    const config = await client.fetchConfig();
    return { same: window.Assist === first, scripts: document.querySelectorAll('script[src*="assist.js"]').length, greeting: config.greeting };
  }, `${e2e.server.url}/widget/v1/assist.js`);
  assert.deepEqual(result, { same: true, scripts: 3, greeting: 'Hi!' });
  assert.deepEqual(errors, []);
});

test('Assist.markdown in the built script renders markdown and lets no script or handler run', async () => {
  const { page, errors } = await openHostPage();
  const rendered = await page.evaluate(async () => {
    window.executed = [];
    const html = window.Assist!.markdown(
      [
        '**Bold** and a [doc](https://docs.example.com/a) link.',
        '<script>window.executed.push("script")</script>',
        '<img src="x" onerror="window.executed.push(\'onerror\')">',
        '[click](javascript:window.executed.push("href"))',
        '<a href="#" onclick="window.executed.push(\'onclick\')" id="clickme">x</a>',
        '<svg><animate onbegin="window.executed.push(\'svg\')" attributeName="x" dur="1s"></animate></svg>',
      ].join('\n\n'),
    );
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    container.querySelectorAll<HTMLAnchorElement>('a:not([target])').forEach((link) => link.click());
    await new Promise((resolve) => setTimeout(resolve, 300));
    const external = container.querySelector('a[href="https://docs.example.com/a"]');
    return { html, executed: window.executed, rel: external?.getAttribute('rel'), bold: container.querySelector('strong')?.textContent, url: location.href };
  });
  assert.deepEqual(rendered.executed, []);
  assert.equal(rendered.bold, 'Bold');
  assert.equal(rendered.rel, 'noopener noreferrer');
  assert.doesNotMatch(rendered.html, /<script|onerror|onclick|onbegin|javascript:/i);
  assert.deepEqual(errors, []);
});
