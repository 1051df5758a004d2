/**
 * A burst of answers: 500 chat streams from 500 addresses arrive at once and stay open, and
 * /healthz still answers about as fast as at rest. Runs on PGlite and, with
 * ASSIST_TEST_DATABASE_URL, on PostgreSQL. `npm run test:server` runs this file on its own:
 * beside another test file on a two-core machine, a probe waited for a core, not the server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createEmbeddedEngine } from '../../../server/answer/embedded.js';
import { median } from '../../../bench/figures.js';
import { onPostgres, startTestServer } from '../harness.js';
import { answerFixture, CHAT } from '../answer-helpers.js';

/** `/healthz`'s median answer with 500 streams open may exceed its median at rest by this much (the issue's figure). */
const HEALTH_MEDIAN_MS = 100;
/** The longest single /healthz probe allowed while the burst arrives: the start of 500 requests at once takes the server a moment on a busy machine. */
const HEALTH_STRETCH_MS = 500;

test('/healthz answers within 100 ms of its time at rest while 500 chat streams from 500 addresses arrive and stay open', { timeout: 300_000 }, async () => {
  // Rate limits and answer caps on, high enough for all 500: each stream's authorisation and
  // rate-limit count are database work of their own, before the answer's.
  const server = await startTestServer({
    fixture: answerFixture(100_000),
    rateLimit: 1000,
    limits: { trustProxy: 1, maxStreams: 1000, maxStreamsPerClient: 8 },
  });
  // Each answer streams for several seconds, so all 500 are open together.
  server.context.services.answerEngine = createEmbeddedEngine({ tokenDelayMs: 250, wordsPerPiece: 1 });
  // The streams come from another process, as they would from other machines.
  const script = `
    const { request } = require('node:http');
    const body = JSON.stringify({ message: 'How do I install the widget?' });
    let opened = 0, ended = 0;
    for (let index = 0; index < 500; index++) {
      const req = request(process.argv[1], { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json',
        Accept: 'text/event-stream', Authorization: 'Bearer ws_test_help', 'Content-Length': Buffer.byteLength(body),
        'X-Forwarded-For': '10.0.' + (index >> 8) + '.' + (index & 255) } }, (res) => {
        if (res.statusCode !== 200) { console.log('error status ' + res.statusCode); process.exit(1); }
        let first = true;
        res.on('data', (chunk) => { if (first && String(chunk).includes('event: meta')) { first = false; if (++opened === 500) console.log('open'); } });
        res.on('end', () => { if (++ended === 500) { console.log('ended'); process.exit(0); } });
      });
      req.on('error', (error) => { console.log('error ' + error.message); process.exit(1); });
      req.end(body);
    }`;
  /**
   * Probes `/healthz` 50 ms after the previous probe; resolves to its time counted from when
   * it was due, so an event loop held between two probes counts too.
   */
  const healthz = async () => {
    const due = performance.now() + 50;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise<void>((resolve, reject) => {
      httpRequest(`${server.url}/healthz`, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`healthz ${res.statusCode}`))));
      })
        .on('error', reject)
        .end();
    });
    return performance.now() - due;
  };
  // The same server at rest, probed the same way, just before.
  const atRest: number[] = [];
  while (atRest.length < 15) atRest.push(await healthz());
  const client = spawn(process.execPath, ['-e', script, server.url + CHAT], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  client.stdout!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => client.once('exit', resolve));
  try {
    // While the 500 arrive (their authorisations) and then while they stream.
    const arriving: number[] = [];
    while (!output.includes('open')) {
      assert.ok(!/error|ended/.test(output), output);
      arriving.push(await healthz());
    }
    const times: number[] = [];
    while (!output.includes('ended') && times.length < 40) times.push(await healthz());
    assert.ok(times.length >= 10, `only ${times.length} probes while the streams were open`);
    // A few slow probes are a busy machine; the median is the server, while the streams arrive
    // and while they are open. On PGlite the database runs on the server's own thread, and the
    // 500 authorisations, run back to back, held it in one stretch (0.85 to 1.9 s): none may now.
    const longestStretch = onPostgres ? 0 : Math.max(...arriving);
    assert.ok(
      median(times) < HEALTH_MEDIAN_MS + median(atRest) &&
        median(arriving) < HEALTH_MEDIAN_MS + median(atRest) &&
        longestStretch < HEALTH_STRETCH_MS + median(atRest),
      `/healthz median ${Math.round(median(times))} ms with the streams open (${times.map(Math.round).join(', ')}), ` +
        `while they arrived ${arriving.map(Math.round).join(', ')} ms, ${Math.round(median(atRest))} ms at rest`,
    );
    assert.equal(await exited, 0, output);
  } finally {
    client.kill();
    await server.stop();
  }
});
