import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inOneRateWindow, startTestServer, type TestServer } from './harness.js';
import { SUMMARIZE, answerFixture, credits, streamRequest } from './answer-helpers.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: answerFixture() });
});
after(() => server.stop());

describe('summarize', () => {
  test('answers one JSON object with a cited summary', async () => {
    const response = await server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query: 'accent colour' } });
    assert.equal(response.status, 200);
    const { summarized, text, sources, sessionId } = response.json;
    assert.equal(summarized, true);
    assert.match(text, /accent colour .*in the dashboard\b.*\[\d\]/);
    assert.ok(sources.some((source: { url: string }) => source.url.split('#')[0] === 'https://acme.test/docs/colours'));
    assert.deepEqual(Object.keys(sources[0]).sort(), ['pageId', 'title', 'url']);
    assert.match(sessionId, /^s_/);
    const [row] = await server.db.query<{ kind: string; status: string; session_id: string }>(
      "SELECT kind, status, session_id FROM answers WHERE kind = 'summary' ORDER BY created_at DESC LIMIT 1",
    );
    assert.deepEqual(row, { kind: 'summary', status: 'complete', session_id: sessionId });
  });

  test('streams like chat, with only an answer id in meta', async () => {
    const result = await streamRequest(server.url, SUMMARIZE, { token: 'ws_test_find', body: { query: 'How do I install the widget?', sessionId: 's_tab1' } });
    assert.equal(result.status, 200);
    const names = result.events.map((event) => event.event);
    assert.deepEqual(names.slice(0, 4), ['meta', 'status', 'sources', 'status']);
    assert.equal(names.at(-1), 'done');
    assert.ok(names.slice(4, -1).every((name) => name === 'token'));
    const meta = result.events[0]!.data;
    assert.match(meta.answerId, /^a_/);
    assert.equal(meta.conversationId, undefined);
    const ids = result.events.map((event) => Number(event.id));
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
    assert.equal(new Set(ids).size, ids.length);
    const done = result.events.at(-1)!.data;
    assert.deepEqual(Object.keys(done).sort(), ['sources', 'summarized', 'text']);
    assert.equal(done.summarized, true);
    assert.equal(result.events.filter((event) => event.event === 'token').map((event) => event.data.delta).join(''), done.text);
    for (const [, number] of done.text.matchAll(/\[(\d+)\]/g)) assert.ok(Number(number) <= done.sources.length);
  });

  test('nothing to summarise is not a summary, and costs nothing', async () => {
    const before = await credits(server.db);
    const response = await server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query: 'zxqv' } });
    assert.equal(response.status, 200);
    assert.deepEqual({ ...response.json, sessionId: undefined }, { summarized: false, text: '', sources: [], sessionId: undefined });
    assert.equal(await credits(server.db), before);
  });

  test('is for search widgets, needs the summarize permission and a query', async () => {
    const onChat = await server.request('POST', '/api/v1/acme/widgets/help/summarize', { token: 'ws_test_help', body: { query: 'x' } });
    assert.equal(onChat.json.error.code, 'wrong_widget_type');
    const readOnly = await server.request('POST', SUMMARIZE, { token: 'ak_test_read', body: { query: 'x' } });
    assert.equal(readOnly.json.error.code, 'permission_denied');
    const withKey = await server.request('POST', SUMMARIZE, { token: 'ak_test_all', body: { query: 'accent colour' } });
    assert.equal(withKey.status, 200);
    const noQuery = await server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { message: 'x' } });
    assert.equal(noQuery.status, 400);
    assert.match(noQuery.json.error.message, /query/);
  });

  test('over the rate limit: 429 with Retry-After', async () => {
    const limited = await startTestServer({ fixture: answerFixture(), rateLimit: 1 });
    try {
      const ask = () => limited.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query: 'accent colour' } });
      await inOneRateWindow();
      assert.equal((await ask()).status, 200);
      const refused = await ask();
      assert.equal(refused.status, 429);
      assert.equal(refused.json.error.code, 'rate_limited');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    } finally {
      await limited.stop();
    }
  });
});
