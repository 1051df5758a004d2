/**
 * Requests per second the reference server answers for a widget's two busiest routes, GET
 * config and POST search, from a browser origin, next to a bare `node:http` server on the same
 * machine answering the same bytes (the baseline: what Node itself costs). Each server runs in
 * its own process; the load comes from this one over keep-alive connections on 127.0.0.1,
 * a fixed number of requests in flight for a fixed time.
 *
 * And the memory (RSS) of the server process with 100,000 pages: a copy of the 100,000-page
 * PGlite database that bench/search-speed.ts builds in bench/.cache/, after start and after a
 * round of searches, next to the same server with the small test fixture, also on disk.
 *
 *   node --import tsx bench/throughput.ts [--seconds 4] [--concurrency 16]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { CACHE_DIR } from './corpus/database.js';
import { loadJudgedQueries } from './search-quality.js';
import { benchFixture } from './host-page.js';
import { printSection, type Section } from './figures.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'node', 'server', 'cli.js');
const ORIGIN = 'http://127.0.0.1:8080';

interface Route {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** A process that prints `listening on URL` when ready. */
async function startProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk) => (errors = (errors + chunk).slice(-2000)));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = line.match(/^listening on (\S+)/);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before listening: ${errors}`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The bare baseline: answers every request with the body recorded for its method and path. */
const BARE_SERVER = `
const http = require('node:http');
const answers = JSON.parse(process.env.BARE_ANSWERS);
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const answer = answers[req.method + ' ' + req.url];
    if (!answer) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': req.headers.origin || '*', Vary: 'Origin' });
    res.end(answer);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
process.on('SIGTERM', () => process.exit(0));
`;

function send(agent: Agent, base: string, route: Route): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(route.path, base);
    const outgoing = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: route.method,
        headers: { Origin: ORIGIN, Accept: 'application/json', ...(route.body && { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(route.body) }) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(route.body);
  });
}

/** Requests per second with `concurrency` requests in flight for `seconds`; every answer must be a 200. */
export async function loadTest(base: string, routes: Route[], seconds: number, concurrency: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    // Warm up: connections, the server's caches and its JIT.
    const warmUntil = performance.now() + 500;
    await Promise.all(Array.from({ length: concurrency }, async (_, worker) => {
      for (let index = worker; performance.now() < warmUntil; index += concurrency) await send(agent, base, routes[index % routes.length]!);
    }));
    let completed = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, worker) => {
        for (let index = worker; performance.now() < until; index += concurrency) {
          const route = routes[index % routes.length]!;
          const { status, body } = await send(agent, base, route);
          if (status !== 200) throw new Error(`${route.method} ${route.path} answered ${status}: ${body.slice(0, 200)}`);
          completed++;
        }
      }),
    );
    return completed / ((performance.now() - started) / 1000);
  } finally {
    agent.destroy();
  }
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(status.match(/^VmRSS:\s+(\d+)/m)?.[1] ?? Number.NaN);
  return kilobytes * 1024;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The 100,000-page database bench/search-speed.ts caches, if it has been built. */
function cachedHundredThousandPages(): string | undefined {
  if (!existsSync(CACHE_DIR)) return undefined;
  const name = readdirSync(CACHE_DIR).find((entry) => entry.startsWith('speed-100000-') && !entry.endsWith('.building'));
  return name ? join(CACHE_DIR, name) : undefined;
}

export async function runThroughputBench(options: { seconds?: number; concurrency?: number; log?: (line: string) => void } = {}): Promise<Section> {
  const seconds = options.seconds ?? 4;
  const concurrency = options.concurrency ?? 16;
  const log = options.log ?? console.log;
  const section: Section = {
    title: 'Server throughput and memory',
    baselineIs: `a bare node:http server in its own process answering the same bodies (throughput), and the server with the small test fixture on an embedded database on disk (memory). ${concurrency} requests in flight over keep-alive connections on 127.0.0.1 for ${seconds} s per route, after a 0.5 s warm-up.`,
    figures: [],
    details: [],
  };
  if (!existsSync(CLI)) {
    section.problem = 'dist/node/server/cli.js is missing: run npm run build:server first.';
    return section;
  }
  const work = mkdtempSync(join(tmpdir(), 'assist-bench-'));
  const fixturePath = join(work, 'fixture.json');
  writeFileSync(fixturePath, JSON.stringify(benchFixture()));
  const queries = loadJudgedQueries().map((entry) => entry.query);
  const config: Route = { name: 'GET config', method: 'GET', path: '/api/v1/acme/widgets/find/config' };
  const searches: Route[] = ['install the widget', 'proxy linux', 'answer credits', 'accent colour', 'instal widgt', 'credi'].map((query) => ({
    name: 'POST search',
    method: 'POST',
    path: '/api/v1/acme/widgets/find/search',
    body: JSON.stringify({ query, limit: 10 }),
  }));
  const serverArgs = (data: string, fixture: string) => [CLI, 'start', '--port', '0', '--data', data, '--fixture', fixture, '--rate-limit', '0', '--search-rate-limit', '0', '--events-rate-limit', '0'];
  let smallRss = Number.NaN;
  try {
    // On disk like the 100,000-page database, so the memory figures compare.
    const real = await startProcess(serverArgs(join(work, 'data-small'), fixturePath));
    let bare: Awaited<ReturnType<typeof startProcess>> | undefined;
    try {
      const agent = new Agent({ keepAlive: true });
      const answers: Record<string, string> = {};
      for (const route of [config, ...searches]) {
        const { status, body } = await send(agent, real.url, route);
        if (status !== 200) throw new Error(`${route.method} ${route.path} answered ${status}: ${body.slice(0, 200)}`);
        answers[`${route.method} ${route.path}`] = body;
      }
      agent.destroy();
      smallRss = rssOf(real.child.pid!);
      bare = await startProcess(['-e', BARE_SERVER], { BARE_ANSWERS: JSON.stringify(answers) });
      for (const routes of [[config], searches]) {
        const name = routes[0]!.name;
        log(`throughput: ${name}, ${seconds} s each against the server and the bare baseline…`);
        const ours = await loadTest(real.url, routes, seconds, concurrency);
        const baseline = await loadTest(bare.url, routes, seconds, concurrency);
        section.figures.push({ what: `${name}, requests/s`, value: ours.toFixed(0), baseline: baseline.toFixed(0) });
        section.details.push(`${name}: ${((ours / baseline) * 100).toFixed(0)}% of the bare node:http server's rate`);
      }
      section.figures.push({ what: 'server RSS, small fixture, after the load', value: mb(rssOf(real.child.pid!)), baseline: `${mb(smallRss)} before` });
      section.details.push(`bare node:http server RSS after the load: ${mb(rssOf(bare.child.pid!))}`);
    } finally {
      await bare?.stop();
      await real.stop();
    }

    const cached = cachedHundredThousandPages();
    if (!cached) {
      section.details.push('memory at 100,000 pages: not measured, the 100,000-page database is not built (npm run bench:server builds it).');
      return section;
    }
    log('memory: copying the 100,000-page database and starting the server on it…');
    const data = join(work, 'data-100k');
    cpSync(cached, data, { recursive: true });
    const bigFixture = join(work, 'fixture-100k.json');
    writeFileSync(
      bigFixture,
      JSON.stringify({
        organisations: [
          {
            id: 'bench',
            name: 'Bench',
            credits: 0,
            sources: [{ id: 'docs', name: 'Docs', pages: [] }],
            widgets: [{ id: 'find', type: 'search', name: 'Find', sources: ['docs'], websites: ['127.0.0.1'], secret: 'ws_bench_find', signingSecret: 'sig_bench_find' }],
          },
        ],
      }),
    );
    const big = await startProcess(serverArgs(data, bigFixture));
    try {
      const startedRss = rssOf(big.child.pid!);
      const agent = new Agent({ keepAlive: true });
      let peak = startedRss;
      for (const query of queries) {
        const { status, body } = await send(agent, big.url, { name: 'search', method: 'POST', path: '/api/v1/bench/widgets/find/search', body: JSON.stringify({ query, limit: 10 }) });
        if (status !== 200) throw new Error(`search at 100,000 pages answered ${status}: ${body.slice(0, 200)}`);
        peak = Math.max(peak, rssOf(big.child.pid!));
      }
      agent.destroy();
      const afterRss = rssOf(big.child.pid!);
      section.figures.push(
        { what: 'server RSS at 100,000 pages, after start', value: mb(startedRss), baseline: `${mb(smallRss)} (small fixture)` },
        { what: `server RSS at 100,000 pages, after ${queries.length} searches (peak)`, value: `${mb(afterRss)} (${mb(peak)})`, baseline: `${mb(smallRss)} (small fixture)` },
      );
    } finally {
      await big.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return section;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const value = (name: string) => {
    const index = process.argv.indexOf(`--${name}`);
    return index === -1 ? undefined : Number(process.argv[index + 1]);
  };
  runThroughputBench({ seconds: value('seconds'), concurrency: value('concurrency') })
    .then((section) => printSection(section))
    .catch((error) => {
      console.error(error instanceof Error ? error.stack : error);
      process.exit(1);
    });
}
