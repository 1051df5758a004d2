/**
 * `npm run bench:server`: the reference server's figures in one run, each next to its goal.
 *
 * - ingestion: pages per second through `assist-server ingest` (HTTP pages API, HTML
 *   reading, indexing, one transaction per page) into a server on an embedded database in
 *   a temporary directory, with a slice of the PostgreSQL manual;
 * - search speed: server time p50/p95 at 10,000 and 100,000 pages on PGlite
 *   (bench/search-speed.ts); goals p95 ≤ 5 ms and ≤ 20 ms;
 * - search and answers on two real documentation sets, the PostgreSQL 15 manual and the
 *   Python 3.11 docs, ingested whole through the pages API (bench/docs-quality.ts): per
 *   corpus, success@3 and MRR@10 beside MiniSearch, server time per query kind, fragments
 *   that exist in the page, empty results, answers with the phrase and the page, code quoted
 *   as on the page, off-topic questions refused; goals from the search and answer issues
 *   (success@3 ≥ MiniSearch + 5 points and MRR@10 above it, p95 ≤ 10 ms, every fragment
 *   exists, nothing empty where MiniSearch finds something; ≥ 80% answered, code identical,
 *   every off-topic question refused with no sources);
 * - answer latency: time to the first `token` event of a streamed chat, embedded engine
 *   (bench/answer-latency.ts).
 *
 *   npm run bench:server [-- --fresh] [-- --quick] [-- --verbose] [-- --report file]
 *
 * `--fresh` rebuilds the cached corpora of search speed in bench/.cache/; `--quick` measures
 * only 10,000 pages and fewer runs; `--verbose` lists the documentation sets' misses;
 * `--report` writes the figures to a file as JSON, which is how `npm run bench` reads them (it
 * runs this file in a process of its own). Exit code 1 when a goal is missed.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ingest } from '../server/ingest/ingest.js';
import { DEFAULT_SELECTION, selects } from '../server/ingest/select.js';
import { startServer } from '../server/main.js';
import { optimiseEmbeddedDatabase } from '../server/store/db.js';
import { runAnswerLatency, type LatencyReport } from './answer-latency.js';
import { docsGoals, runDocsQuality, type DocsQualityReport } from './docs-quality.js';
import { UNLIMITED } from './corpus/docs.js';
import { ensureManual, MANUAL_BASE_URL, MANUAL_DIR } from './corpus/manual.js';
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
  docs: DocsQualityReport;
  latency: LatencyReport;
  goals: Goal[];
}

export interface ServerBenchOptions {
  /** Rebuild the cached corpora. */
  fresh?: boolean;
  /** Only 10,000 pages, fewer runs: a smoke run of the benchmark itself. */
  quick?: boolean;
  /** List the documentation sets' misses. */
  verbose?: boolean;
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
  // The pages ingest takes (not the manual's generated index), so every one of them must be created.
  const taken = selects(DEFAULT_SELECTION);
  const files = readdirSync(MANUAL_DIR).filter((file) => file.endsWith('.html') && taken(file)).sort().slice(0, pages);
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
    { port: 0, host: '127.0.0.1', dataDir: join(scratch, 'data'), fixture, rateLimit: 0, limits: UNLIMITED },
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

function goalsOf(speed: SpeedReport, docs: DocsQualityReport): Goal[] {
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
  return [...goals, ...docsGoals(docs)];
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
  log('');
  const docs = await runDocsQuality({ runs: options.quick ? 1 : 3, verbose: options.verbose, log });
  log('');
  const latency = await runAnswerLatency({ runs: options.quick ? 10 : 50, log });
  const goals = goalsOf(speed, docs);

  log('\nserver benchmark summary');
  log(`  ingestion (HTTP pages API)       ${ingestion.pagesPerSecond.toFixed(0)} pages/s`);
  for (const row of speed.rows) {
    log(
      `  search at ${`${row.pages.toLocaleString('en')} pages`.padEnd(22)} p50 ${row.search.p50.toFixed(2)} ms, p95 ${row.search.p95.toFixed(2)} ms ` +
        `(CPU p50 ${row.searchCpu.p50.toFixed(2)} ms, p95 ${row.searchCpu.p95.toFixed(2)} ms)`,
    );
  }
  for (const corpus of docs.corpora) {
    const { search } = corpus;
    log(
      `  ${`${corpus.name} (${search.queries} queries)`.padEnd(32)} success@3 ${(search.ours.successAt3 * 100).toFixed(1)}% (MiniSearch ${(search.minisearch.successAt3 * 100).toFixed(1)}%), ` +
        `MRR@10 ${search.ours.mrrAt10.toFixed(3)} (${search.minisearch.mrrAt10.toFixed(3)}), server time p95 ${search.latency.p95.toFixed(2)} ms`,
    );
  }
  log(`  first token, embedded engine     p50 ${latency.firstToken.p50.toFixed(2)} ms, p95 ${latency.firstToken.p95.toFixed(2)} ms`);
  for (const goal of goals) log(`  goal: ${goal.name.padEnd(58)} ${goal.detail.padEnd(30)} ${goal.met ? 'met' : 'NOT met'}`);
  log(`  (benchmark took ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  return { ingestion, speed, docs, latency, goals };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  optimiseEmbeddedDatabase(); // as the server runs it (server/main.ts)
  runServerBench({ fresh: process.argv.includes('--fresh'), quick: process.argv.includes('--quick'), verbose: process.argv.includes('--verbose') }).then(
    (report) => {
      // `--report <file>`: the figures as JSON too, for `npm run bench`, which runs this file in a process of its own.
      const reportAt = process.argv.indexOf('--report');
      const reportFile = reportAt === -1 ? undefined : process.argv[reportAt + 1];
      if (reportFile) writeFileSync(reportFile, JSON.stringify(report));
      if (report.goals.some((goal) => !goal.met)) process.exitCode = 1;
    },
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
