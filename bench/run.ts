/**
 * `npm run bench`: every speed and size figure of the project, each printed next to a
 * baseline measured in the same run and the goal it is held to, then written with the machine
 * they came from to bench/RESULTS.md.
 *
 * 1. bytes a visitor downloads (bench/size.ts)
 * 2. cost to the host page in Chromium (bench/host-page.ts)
 * 3. streaming render of a long answer (bench/render.ts)
 * 4. the server: search speed and quality, answer latency (bench/server.ts, in a process of
 *    its own, as the server runs), reading a large page (bench/reader.ts), requests per second
 *    and memory (bench/throughput.ts)
 *
 *   npm run bench [-- --no-build] [-- --only size,host,render,server,reader,throughput]
 *
 * Builds first (`npm run build`) unless `--no-build`. Exit status 1 when a goal is missed or a
 * part could not run. Only a run of every part rewrites RESULTS.md, keeping whatever it says
 * below its `<!-- notes -->` line; `--only` prints its parts and leaves the file as it is.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { optimiseEmbeddedDatabase } from '../server/store/db.js';
import { CHROMIUM_PATH } from '../test/e2e/harness.js';
import { printSection, sectionMarkdown, type Figure, type Section } from './figures.js';
import { runHostPageBench } from './host-page.js';
import { runReaderBench } from './reader.js';
import { runRenderBench } from './render.js';
import { runSizeBench } from './size.js';
import { runThroughputBench } from './throughput.js';

const ROOT = join(import.meta.dirname, '..');
const RESULTS = join(ROOT, 'bench', 'RESULTS.md');
const NOTES_MARKER = '<!-- notes -->';

type Part = 'size' | 'host' | 'render' | 'server' | 'reader' | 'throughput';
const PARTS: Part[] = ['size', 'host', 'render', 'server', 'reader', 'throughput'];

/** The fields of bench/server.ts's report this summary shows; read defensively, the report is that file's to shape. */
interface ServerReport {
  ingestion?: { pages: number; pagesPerSecond: number };
  speed?: { rows: { pages: number; search: { p50: number; p95: number }; baseline: { p50: number; p95: number } }[] };
  docs?: {
    corpora: {
      name: string;
      search: {
        queries: number;
        ours: { successAt3: number; mrrAt10: number };
        minisearch: { successAt3: number; mrrAt10: number };
        latency: { p50: number; p95: number; max: number };
        fragments: { total: number; existing: number };
        emptyWhereMiniSearchFinds: string[];
      };
      answers?: { file: string; questions: number; answered: number; withCode: number; codeIdentical: number; offTopic: number; refusedWithoutSources: number; replyTime?: { p50: number; p95: number } };
      later?: { label: string; about: string; file: string; questions: number; answered: number; withCode: number; codeIdentical: number }[];
    }[];
  };
  latency?: Record<'healthzFirstByte' | 'firstEvent' | 'firstToken' | 'done', { p50: number; p95: number } | undefined>;
  goals?: { name: string; met: boolean; detail: string }[];
}

function machine(): string[] {
  const chromium = spawnSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8' }).stdout?.trim() || 'not found';
  return [
    `CPU: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores`,
    `memory: ${(totalmem() / 1024 ** 3).toFixed(1)} GB`,
    `Node ${process.version}, ${chromium}`,
    `load average at the start (1, 5, 15 min): ${loadavg().map((value) => value.toFixed(2)).join(', ')}`,
  ];
}

/** bench/server.ts's figures as a section; that file may not exist in every checkout. */
async function serverSection(log: (line: string) => void): Promise<Section> {
  const section: Section = {
    title: 'Server: search speed and quality, answer latency (npm run bench:server)',
    baselineIs: 'search speed: the same queries as an ILIKE scan over the same pages; quality: MiniSearch (fuzzy 0.2, prefix, title boost 3) on the same documentation set, as the server stored it; latency: first byte of /healthz from the same server.',
    figures: [],
    details: [],
  };
  // In a process of its own, as the server runs: alone, not beside what the browser parts left in this process's heap
  // (their traces), whose collection would be timed with the searches. Only loader flags are passed on (not --inspect).
  const folder = mkdtempSync(join(tmpdir(), 'assist-bench-server-'));
  const reportFile = join(folder, 'report.json');
  let report: ServerReport;
  try {
    const loaders = process.execArgv.flatMap((flag, index, flags) => (/^--(?:import|require|loader|experimental-loader)$/.test(flag) ? [flag, flags[index + 1]!] : /^--(?:import|require|loader|experimental-loader)=/.test(flag) ? [flag] : []));
    log('server part: bench/server.ts in a process of its own');
    const child = spawnSync(process.execPath, [...loaders, join(ROOT, 'bench', 'server.ts'), '--report', reportFile], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    if (!existsSync(reportFile)) {
      section.problem = `bench/server.ts wrote no report (${child.error?.message ?? (child.signal ? `killed by ${child.signal}` : `exit status ${child.status}`)}; its output is above).`;
      return section;
    }
    report = JSON.parse(readFileSync(reportFile, 'utf8')) as ServerReport;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  // JSON writes a figure that could not be measured (NaN, an empty run's -Infinity) as null.
  const hundredfold = (share: number | null) => (share == null ? null : share * 100);
  const fixed = (value: number | null | undefined, digits = 2, unit = ' ms') => (value == null || !Number.isFinite(value) ? 'n/a' : `${value.toFixed(digits)}${unit}`);
  const goals = report.goals ?? [];
  const usedGoals = new Set<string>();
  const goalFor = (pattern: RegExp | string, target?: string): Pick<Figure, 'goal' | 'met'> => {
    const goal = goals.find((candidate) => (typeof pattern === 'string' ? candidate.name.startsWith(pattern) : pattern.test(candidate.name)));
    if (!goal) return {};
    usedGoals.add(goal.name);
    return { goal: target ?? goal.name.match(/(≤ .+|beats .+)$/)?.[1] ?? goal.name, met: goal.met };
  };
  const percent = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((part / whole) * 100).toFixed(1)}% (${part}/${whole})`);
  if (report.ingestion) section.figures.push({ what: 'ingestion through the pages API', value: fixed(report.ingestion.pagesPerSecond, 0, ' pages/s'), baseline: 'n/a' });
  for (const row of report.speed?.rows ?? []) {
    const pages = row.pages.toLocaleString('en');
    section.figures.push(
      { what: `search at ${pages} pages, p50`, value: fixed(row.search.p50), baseline: fixed(row.baseline.p50) },
      { what: `search at ${pages} pages, p95`, value: fixed(row.search.p95), baseline: fixed(row.baseline.p95), ...goalFor(new RegExp(`p95 at ${pages} pages`)) },
    );
  }
  for (const { name, search, answers, later } of report.docs?.corpora ?? []) {
    section.figures.push(
      { what: `${name}: success@3 (${search.queries} judged queries)`, value: fixed(hundredfold(search.ours.successAt3), 1, '%'), baseline: fixed(hundredfold(search.minisearch.successAt3), 1, '%'), ...goalFor(`${name}: success@3`, '≥ MiniSearch + 5 points') },
      { what: `${name}: MRR@10`, value: fixed(search.ours.mrrAt10, 3, ''), baseline: fixed(search.minisearch.mrrAt10, 3, ''), ...goalFor(`${name}: MRR@10`, 'above MiniSearch') },
      { what: `${name}: search server time p50 / p95 (max)`, value: `${fixed(search.latency.p50, 2, '')} / ${fixed(search.latency.p95)} (${fixed(search.latency.max, 0)})`, baseline: 'n/a', ...goalFor(`${name}: search p95`, 'p95 ≤ 10 ms') },
      { what: `${name}: top-3 fragments that exist in the page`, value: percent(search.fragments.existing, search.fragments.total), baseline: 'n/a', ...goalFor(`${name}: top-3 fragments`, '100%') },
      { what: `${name}: nothing found where MiniSearch finds something`, value: String(search.emptyWhereMiniSearchFinds.length), baseline: '0', ...goalFor(`${name}: nothing empty`, 'none') },
    );
    if (!answers) continue;
    section.figures.push(
      { what: `${name}: questions answered, phrase and page (${answers.file})`, value: percent(answers.answered, answers.questions), baseline: 'n/a', ...goalFor(`${name}: ≥ 80% of questions`, '≥ 80%') },
      { what: `${name}: answers quoting code as on the page`, value: percent(answers.codeIdentical, answers.withCode), baseline: 'n/a', ...goalFor(`${name}: quoted code`, '100%') },
      { what: `${name}: off-topic questions refused with no sources`, value: percent(answers.refusedWithoutSources, answers.offTopic), baseline: 'n/a', ...goalFor(`${name}: off-topic`, '100%') },
      { what: `${name}: whole chat reply to a judged question, p50 / p95`, value: `${fixed(answers.replyTime?.p50, 1, '')} / ${fixed(answers.replyTime?.p95, 1)}`, baseline: 'n/a' },
    );
    for (const set of later ?? [])
      section.figures.push(
        { what: `${name}: ${set.label} questions answered, ${set.about} (${set.file})`, value: percent(set.answered, set.questions), baseline: 'n/a', ...goalFor(`${name}: ≥ 80% of ${set.label}`, '≥ 80%') },
        { what: `${name}: ${set.label} answers quoting code as on the page`, value: percent(set.codeIdentical, set.withCode), baseline: 'n/a', ...goalFor(`${name}: ${set.label} quoted code`, '100%') },
      );
  }
  if (report.latency) {
    const healthz = report.latency.healthzFirstByte;
    for (const [key, label] of [['firstEvent', 'first SSE event of a chat'], ['firstToken', 'first token event (embedded engine)']] as const) {
      const summary = report.latency[key];
      if (summary) section.figures.push({ what: `${label}, p50 / p95`, value: `${fixed(summary.p50, 1, '')} / ${fixed(summary.p95, 1)}`, baseline: `${fixed(healthz?.p50, 1, '')} / ${fixed(healthz?.p95, 1)}` });
    }
  }
  for (const goal of goals) {
    if (!usedGoals.has(goal.name)) section.figures.push({ what: goal.name, value: goal.detail, baseline: 'see above', goal: 'as named', met: goal.met });
  }
  return section;
}

function build(log: (line: string) => void): void {
  log('building (npm run build)…');
  const result = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`npm run build failed with status ${result.status}`);
}

function resultsMarkdown(sections: Section[], machineLines: string[], minutes: number, missed: string[]): string {
  const previous = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '';
  const notes = previous.includes(NOTES_MARKER) ? previous.slice(previous.indexOf(NOTES_MARKER)) : `${NOTES_MARKER}\n`;
  return [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} in ${minutes.toFixed(1)} minutes. Every figure is measured next to its baseline in the same run; a goal that is missed is in bold.`,
    '',
    '## Machine',
    '',
    ...machineLines.map((line) => `- ${line}`),
    '',
    '## Goals missed',
    '',
    ...(missed.length ? missed.map((line) => `- ${line}`) : ['None.']),
    '',
    ...sections.map(sectionMarkdown),
    notes.trimEnd(),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  optimiseEmbeddedDatabase(); // as the server runs it (server/main.ts)
  const started = performance.now();
  const log = (line: string) => console.log(line);
  const onlyIndex = process.argv.indexOf('--only');
  const parts = onlyIndex === -1 ? PARTS : (process.argv[onlyIndex + 1] ?? '').split(',').filter((part): part is Part => PARTS.includes(part as Part));
  const machineLines = machine();
  log('machine:');
  for (const line of machineLines) log(`  ${line}`);
  if (!process.argv.includes('--no-build')) build(log);

  const runners: Record<Part, () => Promise<Section>> = {
    size: () => runSizeBench(log),
    host: () => runHostPageBench({ log }),
    render: () => runRenderBench(log),
    server: () => serverSection(log),
    reader: () => runReaderBench(log),
    throughput: () => runThroughputBench({ log }),
  };
  const sections: Section[] = [];
  for (const part of parts) {
    const partStarted = performance.now();
    let section: Section;
    try {
      section = await runners[part]();
    } catch (error) {
      section = { title: part, baselineIs: 'n/a', figures: [], details: [], problem: (error as Error).stack ?? String(error) };
    }
    section.details.push(`(${((performance.now() - partStarted) / 1000).toFixed(0)} s)`);
    printSection(section, log);
    sections.push(section);
  }

  const minutes = (performance.now() - started) / 60_000;
  machineLines.push(`load average at the end: ${loadavg().map((value) => value.toFixed(2)).join(', ')}`);
  const missed = sections.flatMap((section) => [
    ...section.figures.filter((figure) => figure.goal && !figure.met).map((figure) => `${section.title}: ${figure.what}: ${figure.value}, goal ${figure.goal}`),
    ...(section.problem ? [`${section.title}: not measured: ${section.problem.split('\n')[0]}`] : []),
  ]);
  // RESULTS.md holds one whole run; a run of some parts only prints them.
  const whole = parts.length === PARTS.length;
  if (whole) writeFileSync(RESULTS, resultsMarkdown(sections, machineLines, minutes, missed));
  log('');
  log(`== ${missed.length ? `${missed.length} goal(s) missed or not measured` : 'every goal met'} (${minutes.toFixed(1)} minutes)${whole ? '; written to bench/RESULTS.md' : ''}`);
  for (const line of missed) log(`   ${line}`);
  if (missed.length) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
