/**
 * What a query can cost: a word of hundreds of letters, or a pasted wall of words, answers
 * like any other search on search, chat and summarize, and does not hold up the server.
 * Every bound compares with an ordinary query on the same server in the same run, so a CI
 * machine's speed does not decide; absolute speed targets are the benchmarks' (bench/).
 * `npm run test:server` runs this file after the others, on its own: beside another test
 * file on a two-core machine, the searches it times waited for a core, not for the server.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { median } from '../../../bench/figures.js';
import { startTestServer, type TestServer } from '../harness.js';
import { CHAT, SUMMARIZE, answerFixture, streamRequest } from '../answer-helpers.js';

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

/** The median time of `runs` runs of `work`, each checked by `check`. */
async function medianTime<T>(work: () => Promise<T>, check: (result: T) => void, runs = 3): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const { result, ms } = await timed(work);
    check(result);
    times.push(ms);
  }
  return median(times);
}

/**
 * A costly query may take this many times an ordinary one, or this floor, whichever is more:
 * room for a busy machine, far below what spell-correcting a 1,000-letter word cost (1.5 s
 * against a few milliseconds), or every word of a pasted wall of words.
 */
const COST_FACTOR = 5;
const COST_FLOOR_MS = 150;
const quickEnough = (ms: number, ordinaryMs: number) => ms < Math.max(COST_FLOOR_MS, COST_FACTOR * ordinaryMs);

/** `/healthz`'s median answer under load may exceed its median at rest by this much (the issue's figure). */
const HEALTH_MEDIAN_MS = 100;

describe('query limits', () => {
  test('a word of 256 letters or more answers 200 about as quickly as an ordinary word on search, summarize and chat', async () => {
    const ok = (response: { status: number; text: string }) => assert.equal(response.status, 200, response.text);
    const search = (query: string) => () => server.request('POST', SEARCH, { token: 'ws_test_find', body: { query } });
    const summarize = (query: string) => () => server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query } });
    const chat = (message: string) => () => streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message } });
    const ended = (result: Awaited<ReturnType<ReturnType<typeof chat>>>) => {
      assert.equal(result.status, 200);
      assert.equal(result.events.at(-1)?.event, 'done', 'chat ends with done');
    };
    // An ordinary word of the same queries, measured on this server now.
    const ordinary = {
      search: await medianTime(search('proxy windows'), ok),
      summarize: await medianTime(summarize('proxy windows'), ok),
      chat: await medianTime(chat('proxy windows'), ended),
    };
    for (const length of [65, 256, 1000]) {
      for (const query of [longWord(length), `proxy ${longWord(length)} windows`, `${longWord(length)} `]) {
        const ms = await medianTime(search(query), ok);
        assert.ok(quickEnough(ms, ordinary.search), `search ${JSON.stringify(query.slice(0, 20))}… with a ${length}-letter word took ${ms.toFixed(0)} ms, an ordinary one ${ordinary.search.toFixed(0)} ms`);
      }
      const summarizeMs = await medianTime(summarize(`proxy ${longWord(length)}`), ok);
      assert.ok(quickEnough(summarizeMs, ordinary.summarize), `summarize with a ${length}-letter word took ${summarizeMs.toFixed(0)} ms, an ordinary one ${ordinary.summarize.toFixed(0)} ms`);
      const chatMs = await medianTime(chat(`proxy ${longWord(length)}`), ended);
      assert.ok(quickEnough(chatMs, ordinary.chat), `chat with a ${length}-letter word took ${chatMs.toFixed(0)} ms, an ordinary one ${ordinary.chat.toFixed(0)} ms`);
    }
  });

  test('a long question with a misspelt word in it still finds the page, about as quickly as a short one', async () => {
    const words = Array.from({ length: 40 }, (_, index) => `filler${String.fromCharCode(97 + (index % 26))}`);
    const search = (query: string) => () => server.request('POST', SEARCH, { token: 'ws_test_find', body: { query } });
    const findsProxy = (response: Awaited<ReturnType<ReturnType<typeof search>>>) => {
      assert.equal(response.status, 200);
      assert.equal(response.json.hits[0]?.title, 'Proxy settings');
    };
    const short = await medianTime(search('proxu windows'), findsProxy);
    // Each of forty unknown words spell-corrected would cost forty times the short question.
    const long = await medianTime(search(`proxu ${words.join(' ')} windows`), findsProxy);
    assert.ok(quickEnough(long, short), `the long question took ${long.toFixed(0)} ms, the short one ${short.toFixed(0)} ms`);
  });

  test('/healthz answers within 100 ms of its time at rest while several searches with 1,000-letter words run', async () => {
    /**
     * Fifteen probes of `/healthz`, each 50 ms after the previous one; their times are counted
     * from when each was due, so an event loop held between two probes counts too.
     */
    const probes = async () => {
      const waits: number[] = [];
      while (waits.length < 15) {
        const due = performance.now() + 50;
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal((await server.request('GET', '/healthz')).status, 200);
        waits.push(performance.now() - due);
      }
      return waits;
    };
    const atRest = await probes();
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
    const underLoad = await probes();
    running = false;
    const searches = await Promise.all(loops);
    assert.ok(searches.every((count) => count > 0));
    // A few slow probes are a busy machine; the median is the server.
    assert.ok(
      median(underLoad) < HEALTH_MEDIAN_MS + median(atRest),
      `/healthz median ${median(underLoad).toFixed(0)} ms under load (${underLoad.map((ms) => ms.toFixed(0)).join(', ')}), ${median(atRest).toFixed(0)} ms at rest`,
    );
  });
});
