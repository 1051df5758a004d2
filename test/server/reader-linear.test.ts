/**
 * Reading a page costs time linear in its size (issue: one page write froze the server).
 * A megabyte of each shape that used to cost the square of its size (`" **a"`, `" ~~a"`,
 * `"[a]("` as markdown, `"<div>"` as HTML) and of real-looking HTML is read in under a
 * second, written through the pages API, and `/healthz` keeps answering within 100 ms while
 * it is read (large pages are read on a worker thread).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PageFormat } from '../../wire/contract.js';
import { OFF_THREAD_CHARS, readPageWrite, readPageWriteHere } from '../../server/content/page-reader.js';
import { baseFixture, onPostgres, startTestServer, type TestServer } from './harness.js';

const MiB = 1024 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(MiB / unit.length));
/** The Sphinx fixture's body repeated to a megabyte: headings, API entries, code, tables. */
const realLooking = () => {
  const page = readFileSync(join(import.meta.dirname, 'fixtures', 'pages', 'sphinx.html'), 'utf8');
  const body = page.slice(page.indexOf('<section'), page.lastIndexOf('</section>') + '</section>'.length);
  return `<html lang="en"><body><div class="body" role="main">${body.repeat(Math.ceil(MiB / body.length))}</div></body></html>`;
};

const SHAPES: { name: string; format: PageFormat; content: () => string }[] = [
  { name: '" **a" as markdown', format: 'markdown', content: () => fill(' **a') },
  { name: '" ~~a" as markdown', format: 'markdown', content: () => fill(' ~~a') },
  { name: '"[a](" as markdown', format: 'markdown', content: () => fill('[a](') },
  { name: '"<div>" as HTML', format: 'html', content: () => fill('<div>') },
  { name: 'real-looking HTML', format: 'html', content: realLooking },
];

/**
 * Reading alone: the algorithm's bound, in CPU time (best of three), so a machine shared
 * with other work does not decide; the quadratic reading took minutes for a megabyte.
 */
const READ_LIMIT_MS = 1000;
/**
 * A whole write adds the database's work on a megabyte of text (its full-text vectors and
 * vocabulary) to the reading, and PostgreSQL runs in processes of its own on the same
 * machine: a documented margin of several seconds, still far from the minutes it took.
 */
const WRITE_LIMIT_MS = onPostgres ? 8000 : 5000;
/**
 * `/healthz` answers within 100 ms while a page is read; on a machine busy with other work
 * the slowest answer measured at rest, for as long, is added.
 */
const HEALTH_LIMIT_MS = 100;

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: baseFixture() });
  // The server's first request and first large page start what they need once (routes, the
  // reader's thread): a cost of starting, not of reading.
  assert.equal((await server.request('GET', '/healthz')).status, 200);
  for (const format of ['markdown', 'html'] as const) await readPageWrite({ format, content: '<p>warm **up**</p>\n'.repeat(OFF_THREAD_CHARS / 8) });
});
after(() => server?.stop());

/** Polls `/healthz` every 10 ms until `work` settles; resolves to the slowest answer's time. */
async function slowestHealthWhile(work: Promise<unknown>): Promise<number> {
  let done = false;
  let slowest = 0;
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      // A kept-alive connection the server closed as idle fails at once; the time of the
      // second try counts as well.
      const response = await server.request('GET', '/healthz').catch(() => server.request('GET', '/healthz'));
      assert.equal(response.status, 200);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    await work;
  } finally {
    done = true;
    await poll;
  }
  return slowest;
}

describe('a megabyte page', { timeout: 120_000 }, () => {
  for (const shape of SHAPES) {
    test(`${shape.name} is read in under a second`, () => {
      const content = shape.content();
      let best = Infinity;
      let wall = 0;
      for (let run = 0; run < 3 && best >= READ_LIMIT_MS; run++) {
        const started = performance.now();
        const cpu = process.cpuUsage();
        const { sections } = readPageWriteHere({ format: shape.format, content });
        const used = process.cpuUsage(cpu);
        best = Math.min(best, (used.user + used.system) / 1000);
        wall = performance.now() - started;
        assert.ok(sections.length > 0);
      }
      assert.ok(best < READ_LIMIT_MS, `read in ${best.toFixed(0)} ms of CPU time (${wall.toFixed(0)} ms on the clock)`);
    });

    test(`${shape.name}: /healthz answers within ${HEALTH_LIMIT_MS} ms while it is read`, async () => {
      const content = shape.content();
      const started = performance.now();
      const slowest = await slowestHealthWhile(readPageWrite({ format: shape.format, content }));
      const took = performance.now() - started;
      const atRest = await slowestHealthWhile(new Promise((resolve) => setTimeout(resolve, took)));
      assert.ok(slowest < HEALTH_LIMIT_MS + atRest, `slowest /healthz ${slowest.toFixed(0)} ms while reading, ${atRest.toFixed(0)} ms at rest`);
    });

    test(`${shape.name} is written through the pages API`, async () => {
      const started = performance.now();
      const response = await server.request('POST', '/api/v1/acme/sources/docs/pages', {
        token: 'ak_test_all',
        body: { url: `https://acme.test/large/${encodeURIComponent(shape.name)}`, format: shape.format, content: shape.content() },
      });
      const took = performance.now() - started;
      assert.equal(response.status, 201, response.text);
      assert.ok(took < WRITE_LIMIT_MS, `written in ${took.toFixed(0)} ms`);
    });
  }
});
