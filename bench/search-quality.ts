/**
 * Search quality on a real documentation set: the PostgreSQL 15 manual (about 1,170
 * pages), with the judged questions of bench/corpus/queries.json. Prints success@3 (a
 * page that answers the question among the first three hits) and MRR@10 for our search
 * and, on the same pages in the same run, for MiniSearch (fuzzy 0.2, prefix, title boost 3).
 *
 *   node --import tsx bench/search-quality.ts [--fresh] [--verbose]
 *
 * Our pages go in through the product's own write path (`createPage` with the HTML, so the
 * server's HTML reduction and the indexer run as for any API write); MiniSearch gets the
 * same reduced text. Ranks are positions in the hit list as a visitor sees it: ours lists
 * sections, so three sections of one wrong page push a right page down to fourth place.
 *
 * `runSearchQuality()` is exported for a combined benchmark (`npm run bench:server`).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MiniSearch from 'minisearch';
import { searchSections } from '../server/search/search.js';
import { readHtml } from '../server/content/html.js';
import { openDb, type Db } from '../server/store/db.js';
import { createPage } from '../server/store/pages.js';
import { createOrganisation, createSource } from '../server/store/setup.js';
import { cachedDatabase, createDatabase, indexFingerprint } from './corpus/database.js';
import { ensureManual, fileOf, readManual, type ManualPage } from './corpus/manual.js';

export interface JudgedQuery {
  query: string;
  kind: string;
  relevant: string[];
}

export interface EngineScore {
  successAt3: number;
  mrrAt10: number;
  byKind: Record<string, { successAt3: number; mrrAt10: number; queries: number }>;
}

export interface QualityReport {
  pages: number;
  queries: number;
  ours: EngineScore;
  minisearch: EngineScore;
  /** Pages per second through createPage (one transaction per page), when the index was built in this run. */
  ingestPagesPerSecond?: number;
}

const ORGANISATION = 'bench';
const SOURCE = 'manual';
const HERE = dirname(fileURLToPath(import.meta.url));

export function loadJudgedQueries(): JudgedQuery[] {
  return (JSON.parse(readFileSync(join(HERE, 'corpus', 'queries.json'), 'utf8')) as { queries: JudgedQuery[] }).queries;
}

/** Loads the manual through the product's write path; returns pages per second. */
export async function ingestManual(db: Db, pages: ManualPage[]): Promise<number> {
  await createOrganisation(db, { id: ORGANISATION, name: 'Bench' });
  await createSource(db, ORGANISATION, { id: SOURCE, name: 'PostgreSQL manual' });
  const started = performance.now();
  for (const page of pages) {
    await createPage(db, ORGANISATION, SOURCE, { url: page.url, title: page.title, content: page.html, format: 'html' });
  }
  return pages.length / ((performance.now() - started) / 1000);
}

/** The manual as judged: a database built from it, cached under bench/.cache/ while the index code is unchanged. */
export async function manualDatabase(options: { fresh?: boolean; log?: (line: string) => void } = {}) {
  const log = options.log ?? console.log;
  ensureManual(log);
  const pages = readManual();
  let ingestPagesPerSecond: number | undefined;
  const { dir } = await cachedDatabase(
    'manual',
    indexFingerprint(`manual:${pages.length}`),
    (building) =>
      createDatabase(building, async (db) => {
        log(`indexing ${pages.length} manual pages through createPage…`);
        ingestPagesPerSecond = await ingestManual(db, pages);
      }),
    { fresh: options.fresh, log },
  );
  const db = await openDb({ dataDir: dir });
  return { db, pages, ingestPagesPerSecond, organisationId: ORGANISATION, sources: [SOURCE] };
}

function score(rankings: { ranked: string[]; relevant: string[]; kind: string }[]): EngineScore {
  const byKind: EngineScore['byKind'] = {};
  let success = 0;
  let reciprocal = 0;
  for (const { ranked, relevant, kind } of rankings) {
    const first = ranked.slice(0, 10).findIndex((file) => relevant.includes(file));
    const hit3 = first !== -1 && first < 3 ? 1 : 0;
    const rr = first === -1 ? 0 : 1 / (first + 1);
    success += hit3;
    reciprocal += rr;
    const entry = (byKind[kind] ??= { successAt3: 0, mrrAt10: 0, queries: 0 });
    entry.successAt3 += hit3;
    entry.mrrAt10 += rr;
    entry.queries++;
  }
  for (const entry of Object.values(byKind)) {
    entry.successAt3 /= entry.queries;
    entry.mrrAt10 /= entry.queries;
  }
  return { successAt3: success / rankings.length, mrrAt10: reciprocal / rankings.length, byKind };
}

export async function runSearchQuality(
  options: { fresh?: boolean; verbose?: boolean; log?: (line: string) => void } = {},
): Promise<QualityReport> {
  const log = options.log ?? console.log;
  const judged = loadJudgedQueries();
  const { db, pages, ingestPagesPerSecond, organisationId, sources } = await manualDatabase(options);
  try {
    const minisearch = new MiniSearch<{ id: string; title: string; text: string }>({
      fields: ['title', 'text'],
      searchOptions: { fuzzy: 0.2, prefix: true, boost: { title: 3 } },
    });
    minisearch.addAll(pages.map((page) => ({ id: page.file, title: page.title, text: readHtml(page.html).markdown })));

    const ours: { ranked: string[]; relevant: string[]; kind: string }[] = [];
    const theirs: typeof ours = [];
    for (const { query, kind, relevant } of judged) {
      const hits = await searchSections(db, { organisationId, sources, query, limit: 10 });
      const ranked = hits.map((hit) => fileOf(hit.url));
      const baseline = minisearch.search(query).slice(0, 10).map((result) => String(result.id));
      ours.push({ ranked, relevant, kind });
      theirs.push({ ranked: baseline, relevant, kind });
      if (options.verbose) {
        const mark = (list: string[]) => list.slice(0, 5).map((file) => (relevant.includes(file) ? `*${file}*` : file)).join(' ');
        log(`\n${JSON.stringify(query)} [${kind}] → ${relevant.join(', ')}`);
        log(`  ours:       ${mark(ranked)}`);
        log(`  minisearch: ${mark(baseline)}`);
      }
    }
    const report: QualityReport = {
      pages: pages.length,
      queries: judged.length,
      ours: score(ours),
      minisearch: score(theirs),
      ingestPagesPerSecond,
    };
    printReport(report, log);
    return report;
  } finally {
    await db.close();
  }
}

function printReport(report: QualityReport, log: (line: string) => void): void {
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`.padStart(8);
  const mrr = (value: number) => value.toFixed(3).padStart(8);
  log(`\nsearch quality: PostgreSQL 15 manual, ${report.pages} pages, ${report.queries} judged queries`);
  log(`${''.padEnd(22)} ${'ours'.padStart(8)} ${'MiniSearch'.padStart(11)}`);
  log(`${'success@3'.padEnd(22)} ${pct(report.ours.successAt3)} ${pct(report.minisearch.successAt3).padStart(11)}`);
  log(`${'MRR@10'.padEnd(22)} ${mrr(report.ours.mrrAt10)} ${mrr(report.minisearch.mrrAt10).padStart(11)}`);
  for (const [kind, entry] of Object.entries(report.ours.byKind)) {
    const other = report.minisearch.byKind[kind]!;
    log(
      `  ${`${kind} (${entry.queries})`.padEnd(20)} ${pct(entry.successAt3)} ${pct(other.successAt3).padStart(11)}   ` +
        `MRR ${entry.mrrAt10.toFixed(3)} vs ${other.mrrAt10.toFixed(3)}`,
    );
  }
  if (report.ingestPagesPerSecond !== undefined) {
    log(`ingestion through createPage (HTML reduction + indexing, one transaction per page): ${report.ingestPagesPerSecond.toFixed(0)} pages/s`);
  }
  const wins = report.ours.successAt3 > report.minisearch.successAt3 && report.ours.mrrAt10 > report.minisearch.mrrAt10;
  log(wins ? 'ours beats MiniSearch on both measures' : 'ours does NOT beat MiniSearch on both measures');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runSearchQuality({ fresh: process.argv.includes('--fresh'), verbose: process.argv.includes('--verbose') }).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
