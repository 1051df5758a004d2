/**
 * What a query can cost: a word of hundreds of letters, or a pasted wall of words, answers
 * like any other search on search, chat and summarize, and does not hold up the server.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.js';
import { CHAT, SUMMARIZE, answerFixture, streamRequest } from './answer-helpers.js';

const SEARCH = '/api/v1/acme/widgets/find/search';

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: answerFixture() });
  // A server's first search prepares its statements; this is about the searches after it.
  assert.equal((await server.request('POST', SEARCH, { token: 'ws_test_find', body: { query: 'proxy' } })).status, 200);
});
after(() => server.stop());

/** A word of `length` letters that no page holds, though close to words they do. */
const longWord = (length: number) => 'proxy'.repeat(Math.ceil(length / 5)).slice(0, length);

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

describe('query limits', () => {
  test('a word of 256 letters or more answers 200 quickly on search, summarize and chat', async () => {
    for (const length of [65, 256, 1000]) {
      for (const query of [longWord(length), `proxy ${longWord(length)} windows`, `${longWord(length)} `]) {
        const search = await timed(() => server.request('POST', SEARCH, { token: 'ws_test_find', body: { query } }));
        assert.equal(search.result.status, 200, `search with a ${length}-letter word: ${search.result.text}`);
        assert.ok(search.ms < 500, `search with a ${length}-letter word took ${search.ms.toFixed(0)} ms`);
      }
      const summarize = await timed(() => server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query: `proxy ${longWord(length)}` } }));
      assert.equal(summarize.result.status, 200, `summarize with a ${length}-letter word: ${summarize.result.text}`);
      assert.ok(summarize.ms < 1000, `summarize with a ${length}-letter word took ${summarize.ms.toFixed(0)} ms`);
      const chat = await timed(() => streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message: `proxy ${longWord(length)}` } }));
      assert.equal(chat.result.status, 200);
      assert.equal(chat.result.events.at(-1)?.event, 'done', `chat with a ${length}-letter word ends with done`);
      assert.ok(chat.ms < 1000, `chat with a ${length}-letter word took ${chat.ms.toFixed(0)} ms`);
    }
  });

  test('a long question with a misspelt word in it still finds the page', async () => {
    const words = Array.from({ length: 40 }, (_, index) => `filler${String.fromCharCode(97 + (index % 26))}`);
    const { result, ms } = await timed(() => server.request('POST', SEARCH, { token: 'ws_test_find', body: { query: `proxu ${words.join(' ')} windows` } }));
    assert.equal(result.status, 200);
    assert.equal(result.json.hits[0]?.title, 'Proxy settings');
    assert.ok(ms < 500, `took ${ms.toFixed(0)} ms`);
  });

  test('/healthz answers within 100 ms while several searches with 1,000-letter words run', async () => {
    let running = true;
    const loops = Array.from({ length: 4 }, async (_, client) => {
      let searches = 0;
      while (running) {
        const response = await server.request('POST', SEARCH, { token: 'ws_test_find', body: { query: `${longWord(1000 - client)} proxy` } });
        assert.equal(response.status, 200);
        searches++;
      }
      return searches;
    });
    const waits: number[] = [];
    for (let probe = 0; probe < 10; probe++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const { result, ms } = await timed(() => server.request('GET', '/healthz'));
      assert.equal(result.status, 200);
      waits.push(ms);
    }
    running = false;
    const searches = await Promise.all(loops);
    assert.ok(searches.every((count) => count > 0));
    assert.ok(Math.max(...waits) < 100, `/healthz took up to ${Math.max(...waits).toFixed(0)} ms: ${waits.map((ms) => ms.toFixed(0)).join(', ')}`);
  });
});
