/**
 * The search route says how long the search itself took, in a `Server-Timing` header that
 * browsers' developer tools show and the documentation benchmark reads (bench/docs-quality.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.js';
import { answerFixture } from './answer-helpers.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: answerFixture() });
});
after(() => server.stop());

test('a search answers with the time it took as Server-Timing search;dur', async () => {
  for (const query of ['proxy windows', 'credtis', 'nothing like this anywhere']) {
    const response = await server.request('POST', '/api/v1/acme/widgets/find/search', { token: 'ws_test_find', body: { query } });
    assert.equal(response.status, 200);
    const timing = /^search;dur=(\d+(?:\.\d+)?)$/.exec(response.headers.get('server-timing') ?? '');
    assert.ok(timing, `Server-Timing of "${query}": ${response.headers.get('server-timing')}`);
    assert.ok(Number(timing[1]) >= 0 && Number(timing[1]) < 60_000);
  }
});
