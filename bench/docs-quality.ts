/**
 * Search and answers on two real documentation sets, as a new user meets them: the PostgreSQL
 * 15 manual and the Python 3.11 docs (bench/corpus/docs.ts), pushed whole, as the HTML files
 * ship, through the pages API by `ingest()` (what `assist-server ingest` runs, one page at a
 * time so that every run writes them in the same order) into the real server started in this
 * process on an embedded database in memory (or on PostgreSQL when DATABASE_URL is set).
 * Nothing is pre-cleaned or cached: every run reads the pages with the server's current reader.
 *
 * Search: each judged query (bench/corpus/queries-<corpus>.json) goes through the widget search
 * API over HTTP, as a visitor's would. Printed per corpus, beside MiniSearch (fuzzy 0.2,
 * prefix, title boost 3, over the same pages' text as the server stored it, read back through
 * the pages API) in the same run:
 * - success@3 (a relevant page among the first three hits) and MRR@10, overall and per kind;
 *   ranks are positions in the hit list as a visitor sees it, so three sections of one wrong
 *   page push a right page down to fourth place;
 * - our latency p50/p95/max per kind, as server time (the search route's `Server-Timing`),
 *   over `runs` passes after a warm-up pass;
 * - the share of top-3 hits' fragments (`#…`) that exist in the page's HTML as an `id` or `name`;
 * - the queries where we return nothing and MiniSearch finds something.
 *
 * Answers: each judged question (bench/corpus/questions-<corpus>.json, or its -sample file)
 * goes to the chat API (embedded engine, no model). Printed: the share answered (one of the
 * phrases, case and white space folded, and one of the pages cited), the share of answers with
 * code whose fenced blocks are each byte-identical to a `<pre>` block of a page they cite, and
 * the share of off-topic questions refused with no sources (and how many in the visitor's
 * language, sent as `Accept-Language`), and how long the whole reply to a question took (p50
 * and p95, as the client waits for it: retrieval and the embedded engine on the real corpus).
 * The later questions (bench/corpus/questions-<corpus>-fresh.json, written after the engine
 * was tuned against the judged ones, and questions-<corpus>-unseen.json, written by someone
 * who saw neither the engine nor its answers, and questions-<corpus>-chatty.json, asked as
 * visitors chat: a preamble or what went wrong first, the question within a sentence, thanks or
 * "any ideas?" after it) are measured alike and printed apart: what a visitor asking something
 * new, in their own way, meets.
 *
 *   node --import tsx bench/docs-quality.ts [--corpus postgres|python] [--verbose] [--runs 3]
 *
 * `--verbose` lists the misses: query, kind, our top 3 and MiniSearch's; questions not
 * answered with what was answered and cited. `runDocsQuality()` is exported for
 * `npm run bench:server`, and `docsGoals()` holds the issues' goals.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Parser } from 'htmlparser2';
import MiniSearch from 'minisearch';
import type { ChatReply, Hit, Page, SearchResponse } from '../wire/contract.js';
import { noAnswerText } from '../server/answer/embedded.js';
import { mapConcurrently } from '../server/ingest/documents.js';
import { ingest } from '../server/ingest/ingest.js';
import { PagesClient } from '../server/ingest/pages-client.js';
import { startServer, type RunningServer } from '../server/main.js';
import { optimiseEmbeddedDatabase } from '../server/store/db.js';
import {
  CORPORA,
  CORPUS_IDS,
  ensureCorpus,
  loadLaterQuestionSets,
  loadQuestionSet,
  loadSearchSet,
  pathOf,
  QUERY_KINDS,
  type Corpus,
  type CorpusId,
  type JudgedQuery,
  type LoadedQuestionSet,
  UNLIMITED,
} from './corpus/docs.js';
import { percentile } from './figures.js';
import type { Goal } from './server.js';

export interface EngineScore {
  successAt3: number;
  mrrAt10: number;
  byKind: Record<string, { successAt3: number; mrrAt10: number; queries: number }>;
}

export interface LatencySummary {
  p50: number;
  p95: number;
  max: number;
  samples: number;
}

export interface SearchReport {
  queries: number;
  ours: EngineScore;
  minisearch: EngineScore;
  /** Server time of our searches, all queries and per kind. */
  latency: LatencySummary;
  latencyByKind: Record<string, LatencySummary>;
  /** Fragments of top-3 hits, and how many of them are an `id` or `name` in the page. */
  fragments: { total: number; existing: number; missing: string[] };
  /** Queries where we return nothing and MiniSearch finds something. */
  emptyWhereMiniSearchFinds: string[];
}

export interface AnswerReport {
  /** The question file used (a sample until the full set is written). */
  file: string;
  questions: number;
  answered: number;
  /** Answers holding fenced code, and those whose every block is byte-identical to a `<pre>` of a page they cite. */
  withCode: number;
  codeIdentical: number;
  offTopic: number;
  refusedWithoutSources: number;
  refusedInLanguage: number;
  /** How long the visitor waits for the whole reply to a question (`POST …/chat` answered as JSON), in ms. */
  replyTime: LatencySummary;
}

/** The answers to a later question set, with its label ("fresh", "unseen", "chatty") and what sets it apart. */
export interface LaterAnswerReport extends AnswerReport {
  label: string;
  about: string;
}

export interface CorpusReport {
  corpus: CorpusId;
  name: string;
  pages: number;
  ingestion: { seconds: number; pagesPerSecond: number };
  search: SearchReport;
  answers?: AnswerReport;
  /** The same measures on the later question sets, fresh, unseen and chatty (bench/corpus/docs.ts, LATER_SETS). */
  later: LaterAnswerReport[];
  /** The machine's load average (1 minute) when this corpus's measuring began and ended: server times are only as steady as that. */
  load: { start: number; end: number };
}

export interface DocsQualityReport {
  corpora: CorpusReport[];
}

export interface DocsQualityOptions {
  corpora?: CorpusId[];
  /** Timed passes over the queries after the warm-up pass. */
  runs?: number;
  verbose?: boolean;
  log?: (line: string) => void;
}

const ORGANISATION = 'bench';
const INGEST_KEY = 'ak_bench_docs';
const searchWidget = (corpus: CorpusId) => ({ id: `find-${corpus}`, secret: `ws_bench_find_${corpus}` });
const chatWidget = (corpus: CorpusId) => ({ id: `ask-${corpus}`, secret: `ws_bench_ask_${corpus}` });

/**
 * Pages the generators write as indexes of the others (Sphinx's `genindex*.html`,
 * `py-modindex.html`, `search.html`): a site's search does not serve them, and `ingest` is to
 * skip them by default. Left out of the copy the benchmark ingests, so every run measures the
 * documentation itself whether or not the `ingest` at hand skips them already.
 */
const GENERATED_PAGE = /^(?:genindex(?:-[^/]*)?|py-modindex|search)\.html$/;

function fixture(corpora: CorpusId[]) {
  return {
    organisations: [
      {
        id: ORGANISATION,
        name: 'Bench',
        credits: 1_000_000,
        sources: corpora.map((corpus) => ({ id: corpus, name: CORPORA[corpus].name, pages: [] })),
        apiKeys: [{ name: 'ingest', key: INGEST_KEY, permissions: ['pages.read', 'pages.write'] }],
        widgets: corpora.flatMap((corpus) => [
          { ...searchWidget(corpus), type: 'search', name: `Find in ${CORPORA[corpus].name}`, sources: [corpus], websites: [] },
          { ...chatWidget(corpus), type: 'chatbot', name: `Ask ${CORPORA[corpus].name}`, sources: [corpus], websites: [], signingSecret: `sig_bench_${corpus}` },
        ]),
      },
    ],
  };
}

/** Copies the corpus's HTML files, generated index pages left out, to a folder `ingest` reads. */
function copyPages(corpus: Corpus, into: string): void {
  cpSync(corpus.folder, into, {
    recursive: true,
    filter: (path) => path === corpus.folder || !/\.[a-z0-9]+$/i.test(basename(path)) || (/\.html$/.test(path) && !GENERATED_PAGE.test(basename(path))),
  });
}

async function ingestCorpus(server: RunningServer, corpus: Corpus, scratch: string, log: (line: string) => void) {
  const folder = join(scratch, corpus.id);
  copyPages(corpus, folder);
  const started = performance.now();
  const summary = await ingest({
    serverUrl: server.url,
    apiKey: INGEST_KEY,
    organisation: ORGANISATION,
    source: corpus.id,
    input: { kind: 'folder', folder, baseUrl: corpus.baseUrl },
    // One page at a time, in the order listed: four in flight are written in whichever order the server finishes
    // them, and the search takes a common word's candidates in the order written, so two runs of the same code
    // answered a question or two differently. Into an embedded database, which writes one page at a time, it is as quick.
    concurrency: 1,
  });
  const seconds = (performance.now() - started) / 1000;
  if (summary.failed > 0) throw new Error(`ingesting ${corpus.name}: ${summary.failed} pages failed, first ${summary.failures[0]?.url}: ${summary.failures[0]?.error}`);
  log(`${corpus.name}: ${summary.created} pages through the pages API in ${seconds.toFixed(1)} s (${summary.pagesPerSecond.toFixed(0)} pages/s)`);
  return { pages: summary.created, seconds, pagesPerSecond: summary.pagesPerSecond };
}

/** The pages as the server stored them (title and content), read back through the pages API. */
async function storedPages(server: RunningServer, corpus: Corpus): Promise<Page[]> {
  const client = new PagesClient(server.url, INGEST_KEY, ORGANISATION, corpus.id);
  const listed = await client.listAll();
  return mapConcurrently(listed, 4, async (page) => {
    const response = await send(`${server.url}/api/v1/${ORGANISATION}/sources/${corpus.id}/pages/${encodeURIComponent(page.id)}`, {
      headers: { Authorization: `Bearer ${INGEST_KEY}` },
    });
    if (!response.ok) throw new Error(`reading ${page.url} back: ${response.status} ${await response.text()}`);
    return (await response.json()) as Page;
  });
}

/**
 * A request to the server, sent again once when the connection failed before any answer (a
 * kept-alive socket the server closed just then, or a stall of a loaded machine): the
 * benchmark measures answers, not the test client's sockets. The second failure is thrown
 * with its cause.
 */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    console.error(`${init.method ?? 'GET'} ${url} failed (${String((error as { cause?: unknown }).cause ?? error)}); sending it again`);
    try {
      return await fetch(url, init);
    } catch (again) {
      const cause = (again as { cause?: unknown }).cause;
      throw new Error(`${init.method ?? 'GET'} ${url}: ${(again as Error).message}${cause ? ` (${String(cause)})` : ''}`);
    }
  }
}

/** A search through the widget API; `serverMs` is the route's `Server-Timing` search duration. */
async function search(server: RunningServer, corpus: CorpusId, query: string): Promise<{ hits: Hit[]; serverMs: number }> {
  const widget = searchWidget(corpus);
  const response = await send(`${server.url}/api/v1/${ORGANISATION}/widgets/${widget.id}/search`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${widget.secret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, limit: 10, sessionId: 's_bench' }),
  });
  if (response.status !== 200) throw new Error(`search ${JSON.stringify(query)} answered ${response.status}: ${await response.text()}`);
  const timing = /(?:^|,)\s*search;(?:[^,]*;)?\s*dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1];
  if (timing === undefined) throw new Error('the search route sent no `Server-Timing: search;dur=…` header');
  const { hits } = (await response.json()) as SearchResponse;
  return { hits, serverMs: Number(timing) };
}

async function chat(server: RunningServer, corpus: CorpusId, message: string, language = 'en'): Promise<ChatReply> {
  const widget = chatWidget(corpus);
  const response = await send(`${server.url}/api/v1/${ORGANISATION}/widgets/${widget.id}/chat`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${widget.secret}`, 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': language },
    body: JSON.stringify({ message, sessionId: 's_bench' }),
  });
  if (response.status !== 200) throw new Error(`chat ${JSON.stringify(message)} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as ChatReply;
}

/** What the benchmark needs of a page's original HTML: its ids and names, and its `<pre>` blocks as text. */
interface PageAnchors {
  ids: Set<string>;
  preBlocks: Set<string>;
}

/** Trailing line breaks are not part of a code block: a fence cannot hold them. */
const codeText = (text: string) => text.replace(/\n+$/, '');

export function readAnchors(html: string): PageAnchors {
  const ids = new Set<string>();
  const preBlocks = new Set<string>();
  let preDepth = 0;
  let pre = '';
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (attributes.id) ids.add(attributes.id);
        // Browsers scroll to `<a name>` too; other elements' names (`<meta name>`) are no anchors.
        if (name === 'a' && attributes.name) ids.add(attributes.name);
        if (name === 'pre' && preDepth++ === 0) pre = '';
      },
      ontext(text) {
        if (preDepth > 0) pre += text;
      },
      onclosetag(name) {
        if (name === 'pre' && preDepth > 0 && --preDepth === 0) {
          // A line break right after `<pre>` is not content (HTML parsing drops it).
          preBlocks.add(codeText(pre.replace(/^\r?\n/, '')));
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return { ids, preBlocks };
}

/** Reads each page's anchors once per run, from the corpus's own files. */
function anchorsReader(corpus: Corpus): (path: string) => PageAnchors {
  const read = new Map<string, PageAnchors>();
  return (path) => {
    let anchors = read.get(path);
    if (!anchors) {
      try {
        anchors = readAnchors(readFileSync(join(corpus.folder, path), 'utf8'));
      } catch {
        anchors = { ids: new Set(), preBlocks: new Set() };
      }
      read.set(path, anchors);
    }
    return anchors;
  };
}

function score(rankings: { ranked: string[]; relevant: string[]; kind: string }[]): EngineScore {
  const byKind: EngineScore['byKind'] = {};
  let success = 0;
  let reciprocal = 0;
  for (const { ranked, relevant, kind } of rankings) {
    const first = ranked.slice(0, 10).findIndex((path) => relevant.includes(path));
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
  const count = Math.max(1, rankings.length);
  return { successAt3: success / count, mrrAt10: reciprocal / count, byKind };
}

function summarise(samples: number[]): LatencySummary {
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), max: Math.max(...samples), samples: samples.length };
}

async function measureSearch(
  server: RunningServer,
  corpus: Corpus,
  pages: Page[],
  judged: JudgedQuery[],
  options: { runs: number; verbose: boolean; log: (line: string) => void },
): Promise<SearchReport> {
  const { log } = options;
  const minisearch = new MiniSearch<{ id: string; title: string; text: string }>({
    fields: ['title', 'text'],
    searchOptions: { fuzzy: 0.2, prefix: true, boost: { title: 3 } },
  });
  minisearch.addAll(pages.map((page) => ({ id: pathOf(corpus, page.url) ?? page.url, title: page.title, text: page.content ?? '' })));
  const anchorsOf = anchorsReader(corpus);

  // The warm-up pass is also the judged one: ranking does not depend on timing.
  const ours: { ranked: string[]; relevant: string[]; kind: string }[] = [];
  const theirs: typeof ours = [];
  const fragments = { total: 0, existing: 0, missing: [] as string[] };
  const emptyWhereMiniSearchFinds: string[] = [];
  const misses: string[] = [];
  for (const { query, kind, relevant } of judged) {
    const { hits } = await search(server, corpus.id, query);
    const ranked = hits.map((hit) => pathOf(corpus, hit.url) ?? hit.url);
    const baseline = minisearch.search(query).slice(0, 10).map((result) => String(result.id));
    ours.push({ ranked, relevant, kind });
    theirs.push({ ranked: baseline, relevant, kind });
    for (const hit of hits.slice(0, 3)) {
      const hash = hit.url.indexOf('#');
      if (hash === -1) continue;
      const fragment = decodeURIComponent(hit.url.slice(hash + 1));
      fragments.total++;
      if (anchorsOf(pathOf(corpus, hit.url) ?? '').ids.has(fragment)) fragments.existing++;
      else fragments.missing.push(hit.url);
    }
    if (hits.length === 0 && baseline.length > 0) emptyWhereMiniSearchFinds.push(query);
    const first = ranked.slice(0, 3).findIndex((path) => relevant.includes(path));
    if (first === -1) {
      const mark = (list: string[]) => list.slice(0, 3).map((path) => (relevant.includes(path) ? `*${path}*` : path)).join('  ') || '(nothing)';
      misses.push(
        `${JSON.stringify(query)} [${kind}] → ${relevant.join(', ')}\n` +
          `    ours:       ${hits.slice(0, 3).map((hit) => hit.url.slice(corpus.baseUrl.length)).join('  ') || '(nothing)'}\n` +
          `    minisearch: ${mark(baseline)}`,
      );
    }
  }

  const timings = new Map<string, number[]>(QUERY_KINDS.map((kind) => [kind, []]));
  for (let run = 0; run < options.runs; run++) {
    for (const { query, kind } of judged) timings.get(kind)!.push((await search(server, corpus.id, query)).serverMs);
  }
  const latencyByKind: Record<string, LatencySummary> = {};
  for (const [kind, samples] of timings) if (samples.length > 0) latencyByKind[kind] = summarise(samples);

  if (options.verbose) {
    log(`\n${corpus.name}: ${misses.length} queries without a relevant page in our top 3`);
    for (const miss of misses) log(`  ${miss}`);
    if (fragments.missing.length) log(`  fragments not in their page: ${fragments.missing.slice(0, 20).join('  ')}${fragments.missing.length > 20 ? ' …' : ''}`);
  }
  return {
    queries: judged.length,
    ours: score(ours),
    minisearch: score(theirs),
    latency: summarise([...timings.values()].flat()),
    latencyByKind,
    fragments,
    emptyWhereMiniSearchFinds,
  };
}

const fold = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');
/** An answer as the visitor reads it: inline code is shown without its backticks. */
const rendered = (markdown: string) => markdown.replace(/(?<!`)`([^`\n]+)`(?!`)/g, '$1');

/** The contents of the fenced code blocks of a markdown answer. */
export function fencedBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const fence = /^ {0,3}(`{3,}|~{3,})[^\n]*\n(?:([\s\S]*?)\n)? {0,3}\1[`~]*[ \t]*$/gm;
  for (const match of markdown.matchAll(fence)) blocks.push(codeText(match[2] ?? ''));
  return blocks;
}

async function measureAnswers(
  server: RunningServer,
  corpus: Corpus,
  loaded: LoadedQuestionSet | undefined,
  options: { verbose: boolean; log: (line: string) => void },
): Promise<AnswerReport | undefined> {
  if (!loaded) return undefined;
  const { file, set } = loaded;
  const anchorsOf = anchorsReader(corpus);
  const counts = { answered: 0, withCode: 0, codeIdentical: 0, refusedWithoutSources: 0, refusedInLanguage: 0 };
  const misses: string[] = [];
  const replyTimes: number[] = [];
  for (const { question, phrases, pages } of set.questions) {
    const asked = performance.now();
    const reply = await chat(server, corpus.id, question);
    replyTimes.push(performance.now() - asked);
    const cited = reply.sources.map((source) => pathOf(corpus, source.url) ?? source.url);
    const holdsPhrase = phrases.some((phrase) => fold(rendered(reply.text)).includes(fold(phrase)));
    const citesPage = cited.some((path) => pages.includes(path));
    if (holdsPhrase && citesPage) counts.answered++;
    const blocks = fencedBlocks(reply.text);
    let codeFaithful = true;
    if (blocks.length > 0) {
      counts.withCode++;
      codeFaithful = blocks.every((block) => cited.some((path) => anchorsOf(path).preBlocks.has(block)));
      if (codeFaithful) counts.codeIdentical++;
    }
    if (!(holdsPhrase && citesPage) || !codeFaithful) {
      const why = [!holdsPhrase && 'no phrase', !citesPage && 'no page cited', !codeFaithful && 'code not as on the page'].filter(Boolean).join(', ');
      misses.push(`${JSON.stringify(question)} (${why}) → ${pages.join(', ')}\n    cited: ${cited.join('  ') || '(none)'}\n    ${reply.text.replace(/\s+/g, ' ').slice(0, 240)}`);
    }
  }
  for (const { question, language } of set.offTopic) {
    const reply = await chat(server, corpus.id, question, language);
    if (reply.sources.length === 0) {
      counts.refusedWithoutSources++;
      if (reply.text.trim() === noAnswerText(language)) counts.refusedInLanguage++;
    } else misses.push(`off topic ${JSON.stringify(question)} [${language}] answered, citing ${reply.sources.map((source) => source.url).join('  ')}`);
  }
  if (options.verbose) {
    options.log(`\n${corpus.name}: ${misses.length} answers missed (${file})`);
    for (const miss of misses) options.log(`  ${miss}`);
  }
  return { file, questions: set.questions.length, offTopic: set.offTopic.length, ...counts, replyTime: summarise(replyTimes) };
}

/**
 * Loads the corpora into a fresh server and measures search and answers on each.
 *
 * @example
 *   const { corpora } = await runDocsQuality({ corpora: ['python'], log: () => {} });
 *   console.log(corpora[0].search.ours.successAt3, corpora[0].search.latency.p95);
 */
export async function runDocsQuality(options: DocsQualityOptions = {}): Promise<DocsQualityReport> {
  const log = options.log ?? console.log;
  const corpora = options.corpora ?? CORPUS_IDS;
  for (const corpus of corpora) ensureCorpus(CORPORA[corpus], log);
  const scratch = mkdtempSync(join(tmpdir(), 'assist-bench-docs-'));
  const fixturePath = join(scratch, 'fixture.json');
  writeFileSync(fixturePath, JSON.stringify(fixture(corpora)));
  // DATABASE_URL, as for the server itself, measures PostgreSQL instead of the embedded database.
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir: 'memory', databaseUrl, fixture: fixturePath, rateLimit: 0, limits: UNLIMITED }, () => {});
  try {
    const reports: CorpusReport[] = [];
    for (const id of corpora) {
      const corpus = CORPORA[id];
      const loadAtStart = loadavg()[0]!;
      const ingestion = await ingestCorpus(server, corpus, scratch, log);
      const pages = await storedPages(server, corpus);
      const judged = loadSearchSet(id);
      const searchReport = await measureSearch(server, corpus, pages, judged, { runs: options.runs ?? 3, verbose: Boolean(options.verbose), log });
      const answers = await measureAnswers(server, corpus, loadQuestionSet(id), { verbose: Boolean(options.verbose), log });
      const later: LaterAnswerReport[] = [];
      for (const set of loadLaterQuestionSets(id)) {
        const measured = await measureAnswers(server, corpus, set, { verbose: Boolean(options.verbose) && set.listMisses, log });
        if (measured) later.push({ ...measured, label: set.label, about: set.about });
      }
      const report: CorpusReport = {
        corpus: id,
        name: corpus.name,
        pages: ingestion.pages,
        ingestion: { seconds: ingestion.seconds, pagesPerSecond: ingestion.pagesPerSecond },
        search: searchReport,
        answers,
        later,
        load: { start: loadAtStart, end: loadavg()[0]! },
      };
      printCorpusReport(report, log);
      reports.push(report);
    }
    return { corpora: reports };
  } finally {
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const share = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${part}/${whole} (${pct(part / whole)})`);
const replyTimes = (answers: AnswerReport) => `${answers.replyTime.p50.toFixed(1)} / ${answers.replyTime.p95.toFixed(1)} ms`;

export function printCorpusReport(report: CorpusReport, log: (line: string) => void = console.log): void {
  const { search: s, answers } = report;
  log(`\n${report.name}: ${report.pages} pages, ${s.queries} judged queries (load average ${report.load.start.toFixed(1)} → ${report.load.end.toFixed(1)} on ${cpus().length} cores)`);
  log(`  ${''.padEnd(24)} ${'success@3'.padStart(20)} ${'MRR@10'.padStart(16)}   server time p50 / p95 / max`);
  log(`  ${''.padEnd(24)} ${'ours'.padStart(9)} ${'MiniS.'.padStart(10)} ${'ours'.padStart(7)} ${'MiniS.'.padStart(8)}`);
  const row = (label: string, ours: { successAt3: number; mrrAt10: number }, theirs: { successAt3: number; mrrAt10: number }, latency: LatencySummary | undefined) =>
    `  ${label.padEnd(24)} ${pct(ours.successAt3).padStart(9)} ${pct(theirs.successAt3).padStart(10)} ${ours.mrrAt10.toFixed(3).padStart(7)} ${theirs.mrrAt10.toFixed(3).padStart(8)}   ` +
    (latency ? `${latency.p50.toFixed(2)} / ${latency.p95.toFixed(2)} / ${latency.max.toFixed(2)} ms` : '');
  log(row('all', s.ours, s.minisearch, s.latency));
  for (const kind of QUERY_KINDS) {
    const entry = s.ours.byKind[kind];
    if (entry) log(row(`${kind} (${entry.queries})`, entry, s.minisearch.byKind[kind]!, s.latencyByKind[kind]));
  }
  log(`  top-3 fragments that exist in the page: ${share(s.fragments.existing, s.fragments.total)}`);
  log(`  nothing found where MiniSearch finds something: ${s.emptyWhereMiniSearchFinds.length}${s.emptyWhereMiniSearchFinds.length ? ` (${s.emptyWhereMiniSearchFinds.map((query) => JSON.stringify(query)).join(', ')})` : ''}`);
  if (!answers) {
    log('  answers: no judged question set for this corpus');
    return;
  }
  log(`  answers (${answers.file}, embedded engine): answered ${share(answers.answered, answers.questions)}; code blocks as on the page ${share(answers.codeIdentical, answers.withCode)}; reply p50 / p95 ${replyTimes(answers)}`);
  log(`  off-topic questions refused with no sources ${share(answers.refusedWithoutSources, answers.offTopic)}, in the visitor's language ${share(answers.refusedInLanguage, answers.offTopic)}`);
  for (const set of report.later) log(`  ${set.label} questions (${set.file}, ${set.about}): answered ${share(set.answered, set.questions)}; code blocks as on the page ${share(set.codeIdentical, set.withCode)}; reply p50 / p95 ${replyTimes(set)}`);
}

/** The goals of the search and answer issues, per corpus. */
export function docsGoals(report: DocsQualityReport): Goal[] {
  const goals: Goal[] = [];
  for (const { name, search: s, answers, later } of report.corpora) {
    const points = (s.ours.successAt3 - s.minisearch.successAt3) * 100;
    goals.push(
      { name: `${name}: success@3 ≥ MiniSearch + 5 points`, met: points >= 5 - 1e-9, detail: `${pct(s.ours.successAt3)} vs ${pct(s.minisearch.successAt3)}` },
      { name: `${name}: MRR@10 above MiniSearch`, met: s.ours.mrrAt10 > s.minisearch.mrrAt10, detail: `${s.ours.mrrAt10.toFixed(3)} vs ${s.minisearch.mrrAt10.toFixed(3)}` },
      { name: `${name}: search p95 ≤ 10 ms server time`, met: s.latency.p95 <= 10, detail: `${s.latency.p95.toFixed(2)} ms (typo ${s.latencyByKind.typo?.p95.toFixed(2) ?? 'n/a'} ms)` },
      { name: `${name}: top-3 fragments exist in the page`, met: s.fragments.existing === s.fragments.total, detail: share(s.fragments.existing, s.fragments.total) },
      { name: `${name}: nothing empty where MiniSearch finds`, met: s.emptyWhereMiniSearchFinds.length === 0, detail: `${s.emptyWhereMiniSearchFinds.length} queries` },
    );
    if (!answers) {
      goals.push({ name: `${name}: answers measured`, met: false, detail: 'no judged question set' });
      continue;
    }
    goals.push(
      { name: `${name}: ≥ 80% of questions answered`, met: answers.answered >= 0.8 * answers.questions, detail: share(answers.answered, answers.questions) },
      { name: `${name}: quoted code identical to the page`, met: answers.codeIdentical === answers.withCode, detail: share(answers.codeIdentical, answers.withCode) },
      { name: `${name}: off-topic refused with no sources`, met: answers.refusedWithoutSources === answers.offTopic, detail: share(answers.refusedWithoutSources, answers.offTopic) },
    );
    for (const set of later)
      goals.push(
        { name: `${name}: ≥ 80% of ${set.label} questions answered`, met: set.answered >= 0.8 * set.questions, detail: share(set.answered, set.questions) },
        { name: `${name}: ${set.label} quoted code identical`, met: set.codeIdentical === set.withCode, detail: share(set.codeIdentical, set.withCode) },
      );
  }
  return goals;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const flag = (name: string) => {
    const index = process.argv.indexOf(`--${name}`);
    return index === -1 ? undefined : process.argv[index + 1];
  };
  const corpus = flag('corpus');
  if (corpus !== undefined && !CORPUS_IDS.includes(corpus as CorpusId)) {
    console.error(`--corpus must be one of ${CORPUS_IDS.join(', ')}`);
    process.exit(2);
  }
  optimiseEmbeddedDatabase(); // as the server runs it (server/main.ts)
  runDocsQuality({ corpora: corpus ? [corpus as CorpusId] : undefined, runs: Number(flag('runs') ?? 3), verbose: process.argv.includes('--verbose') }).then(
    (report) => {
      for (const goal of docsGoals(report)) console.log(`  goal: ${goal.name.padEnd(54)} ${goal.detail.padEnd(24)} ${goal.met ? 'met' : 'NOT met'}`);
    },
    (error) => {
      console.error(error instanceof Error ? error.stack : error);
      process.exit(1);
    },
  );
}
