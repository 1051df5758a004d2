/**
 * `npm run bench:server`: the reference server's figures in one run, each next to its goal.
 *
 * - ingestion: pages per second through `assist-server ingest` (HTTP pages API, HTML
 *   reduction, indexing, one transaction per page) into a server on an embedded database in
 *   a temporary directory, with a slice of the PostgreSQL manual;
 * - search speed: server time p50/p95 at 10,000 and 100,000 pages on PGlite
 *   (bench/search-speed.ts); goals p95 ≤ 5 ms and ≤ 20 ms;
 * - search quality: success@3 and MRR@10 against MiniSearch on the PostgreSQL manual
 *   (bench/search-quality.ts); goal: ours beats MiniSearch on both;
 * - answer latency: time to the first `token` event of a streamed chat, embedded engine
 *   (bench/answer-latency.ts).
 *
 *   npm run bench:server [-- --fresh] [-- --quick]
 *
 * `--fresh` rebuilds the cached corpora in bench/.cache/; `--quick` measures only 10,000
 * pages and fewer runs. Exit code 1 when a goal is missed. `runServerBench()` returns the
 * figures for a combined benchmark.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ingest } from '../server/ingest/ingest.js';
import { startServer } from '../server/main.js';
import { optimiseEmbeddedDatabase } from '../server/store/db.js';
import { runAnswerLatency, type LatencyReport } from './answer-latency.js';
import { ensureManual, MANUAL_BASE_URL, MANUAL_DIR } from './corpus/manual.js';
import { runSearchQuality, type QualityReport } from './search-quality.js';
import { runSearchSpeed, type SpeedReport } from './search-speed.js';

export interface IngestionReport {
  pages: number;
  pagesPerSecond: number;
  seconds: number;
}

export interface Goal {
  name: string;
  met: boolean;
  detail: string;
}

export interface ServerBenchReport {
  ingestion: IngestionReport;
  speed: SpeedReport;
  quality: QualityReport;
  latency: LatencyReport;
  goals: Goal[];
}

export interface ServerBenchOptions {
  /** Rebuild the cached corpora. */
  fresh?: boolean;
  /** Only 10,000 pages, fewer runs: a smoke run of the benchmark itself. */
  quick?: boolean;
  log?: (line: string) => void;
}

const INGESTED_PAGES = 300;
const SPEED_GOALS_MS: Record<number, number> = { 10_000: 5, 100_000: 20 };

/** Ingests the first pages of the manual, as files in a folder, through the HTTP pages API. */
export async function runIngestion(pages = INGESTED_PAGES, log: (line: string) => void = console.log): Promise<IngestionReport> {
  ensureManual(log);
  const scratch = mkdtempSync(join(tmpdir(), 'assist-bench-ingest-'));
  const folder = join(scratch, 'html');
  mkdirSync(folder);
  const files = readdirSync(MANUAL_DIR).filter((file) => file.endsWith('.html')).sort().slice(0, pages);
  for (const file of files) copyFileSync(join(MANUAL_DIR, file), join(folder, file));
  const fixture = join(scratch, 'fixture.json');
  writeFileSync(
    fixture,
    JSON.stringify({
      organisations: [
        {
          id: 'bench',
          name: 'Bench',
          sources: [{ id: 'manual', name: 'Manual', pages: [] }],
          apiKeys: [{ name: 'ingest', key: 'ak_bench_ingest', permissions: ['pages.read', 'pages.write'] }],
        },
      ],
    }),
  );
  const server = await startServer(
    { port: 0, host: '127.0.0.1', dataDir: join(scratch, 'data'), fixture, rateLimit: 0 },
    () => {},
  );
  try {
    const summary = await ingest({
      serverUrl: server.url,
      apiKey: 'ak_bench_ingest',
      organisation: 'bench',
      source: 'manual',
      input: { kind: 'folder', folder, baseUrl: MANUAL_BASE_URL },
    });
    if (summary.failed > 0 || summary.created !== files.length) {
      throw new Error(`ingestion created ${summary.created} of ${files.length} pages: ${summary.failures[0]?.error ?? ''}`);
    }
    const report = { pages: files.length, pagesPerSecond: summary.pagesPerSecond, seconds: summary.seconds };
    log(
      `\ningestion: ${report.pages} manual pages through \`assist-server ingest\` (HTTP pages API, 4 in flight, PGlite on disk): ` +
        `${report.pagesPerSecond.toFixed(0)} pages/s`,
    );
    return report;
  } finally {
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function goalsOf(speed: SpeedReport, quality: QualityReport): Goal[] {
  const goals: Goal[] = [];
  for (const row of speed.rows) {
    const limit = SPEED_GOALS_MS[Math.round(row.pages / 10_000) * 10_000];
    if (limit === undefined) continue;
    goals.push({
      name: `search p95 at ${row.pages.toLocaleString('en')} pages ≤ ${limit} ms`,
      met: row.search.p95 <= limit,
      detail: `${row.search.p95.toFixed(2)} ms (CPU ${row.searchCpu.p95.toFixed(2)} ms)`,
    });
  }
  const { ours, minisearch } = quality;
  goals.push({
    name: 'success@3 beats MiniSearch',
    met: ours.successAt3 > minisearch.successAt3,
    detail: `${(ours.successAt3 * 100).toFixed(1)}% vs ${(minisearch.successAt3 * 100).toFixed(1)}%`,
  });
  goals.push({
    name: 'MRR@10 beats MiniSearch',
    met: ours.mrrAt10 > minisearch.mrrAt10,
    detail: `${ours.mrrAt10.toFixed(3)} vs ${minisearch.mrrAt10.toFixed(3)}`,
  });
  return goals;
}

/**
 * Runs every server benchmark and prints each, then the goals; resolves to the figures.
 *
 * @example
 *   const { speed, goals } = await runServerBench({ log: () => {} });
 *   console.log(speed.rows[0].search.p95, goals.every((goal) => goal.met));
 */
export async function runServerBench(options: ServerBenchOptions = {}): Promise<ServerBenchReport> {
  const log = options.log ?? console.log;
  const started = performance.now();
  const ingestion = await runIngestion(options.quick ? 100 : INGESTED_PAGES, log);
  const speed = await runSearchSpeed({ sizes: options.quick ? [10_000] : [10_000, 100_000], runs: options.quick ? 1 : 3, fresh: options.fresh, log });
  const quality = await runSearchQuality({ fresh: options.fresh, log });
  log('');
  const latency = await runAnswerLatency({ runs: options.quick ? 10 : 50, log });
  const goals = goalsOf(speed, quality);

  log('\nserver benchmark summary');
  log(`  ingestion (HTTP pages API)       ${ingestion.pagesPerSecond.toFixed(0)} pages/s`);
  for (const row of speed.rows) {
    log(
      `  search at ${`${row.pages.toLocaleString('en')} pages`.padEnd(22)} p50 ${row.search.p50.toFixed(2)} ms, p95 ${row.search.p95.toFixed(2)} ms ` +
        `(CPU p50 ${row.searchCpu.p50.toFixed(2)} ms, p95 ${row.searchCpu.p95.toFixed(2)} ms)`,
    );
  }
  log(`  quality (${quality.queries} judged queries)     success@3 ${(quality.ours.successAt3 * 100).toFixed(1)}%, MRR@10 ${quality.ours.mrrAt10.toFixed(3)}`);
  log(`  MiniSearch, same corpus          success@3 ${(quality.minisearch.successAt3 * 100).toFixed(1)}%, MRR@10 ${quality.minisearch.mrrAt10.toFixed(3)}`);
  log(`  first token, embedded engine     p50 ${latency.firstToken.p50.toFixed(2)} ms, p95 ${latency.firstToken.p95.toFixed(2)} ms`);
  for (const goal of goals) log(`  goal: ${goal.name.padEnd(40)} ${goal.detail.padEnd(30)} ${goal.met ? 'met' : 'NOT met'}`);
  log(`  (benchmark took ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  return { ingestion, speed, quality, latency, goals };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  optimiseEmbeddedDatabase(); // as the server runs it (server/main.ts)
  runServerBench({ fresh: process.argv.includes('--fresh'), quick: process.argv.includes('--quick') }).then(
    (report) => {
      if (report.goals.some((goal) => !goal.met)) process.exitCode = 1;
    },
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
