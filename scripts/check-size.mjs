#!/usr/bin/env node
/**
 * The size budgets of the scripts a website loads from /widget/v1/, enforced in CI
 * (`npm run test:size`, after the build): the gzip size of each file a page includes with a
 * script tag must stay under its limit, and is reported against its goal.
 *
 * Every `*.js` file of the folder is read. The two entries are fixed by the contract's URLs
 * (`assist.js`, `assist-analytics.js`); any other file is a chunk that an entry loads later,
 * and belongs to the entry whose code (or whose chunks' code) names it. A visitor pays for
 * the entry on every page, and for its chunks only when a widget needs them, so the limit
 * applies to the entry and the total is reported beside it.
 *
 *   node scripts/check-size.mjs [folder]     (default dist/widget/v1)
 *
 * Exit status: 0 within every limit, 1 over a limit, 2 when the folder or an entry is missing.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

export const KB = 1024;

/** The budget of each entry, in gzip bytes. */
export const BUDGETS = [
  { entry: 'assist.js', what: 'the script tag: SDK and markdown; widgets and languages load from their own files', goal: 40 * KB, limit: 40 * KB },
  { entry: 'assist-analytics.js', what: 'analytics beacon', goal: 2 * KB, limit: 2 * KB },
];

/** gzip at level 9, what size tools and CDNs report for static scripts. */
export function gzipSize(content) {
  return gzipSync(content, { level: 9 }).length;
}

/**
 * Measures every script of `dir` and groups the chunks under the entry that loads them.
 *
 * @example
 * const { entries } = measureWidgetFiles('dist/widget/v1');
 * for (const entry of entries) console.log(entry.name, entry.gzip, entry.totalGzip);
 */
export function measureWidgetFiles(dir) {
  const files = readWidgetFiles(dir);
  const byName = new Map(files.map((file) => [file.name, file]));
  const claimed = new Set(BUDGETS.map((budget) => budget.entry));
  const entries = [];
  for (const budget of BUDGETS) {
    const file = byName.get(budget.entry);
    if (!file) {
      entries.push({ ...budget, name: budget.entry, missing: true, bytes: 0, gzip: 0, chunks: [], totalGzip: 0 });
      continue;
    }
    const chunks = filesLoadedBy(files, file, claimed);
    entries.push({
      ...budget,
      name: file.name,
      missing: false,
      bytes: file.bytes,
      gzip: file.gzip,
      chunks: chunks.map(({ name, bytes, gzip }) => ({ name, bytes, gzip })),
      totalGzip: file.gzip + chunks.reduce((sum, chunk) => sum + chunk.gzip, 0),
    });
  }
  const unreferenced = files.filter((file) => !claimed.has(file.name)).map(({ name, bytes, gzip }) => ({ name, bytes, gzip }));
  return { dir, entries, unreferenced };
}

/**
 * The files `start` loads, directly or through each other: a file whose name appears in code
 * already reached. Names in `claimed` are skipped, and the ones found are added to it.
 */
export function filesLoadedBy(files, start, claimed = new Set([start.name])) {
  const found = [];
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const candidate of files) {
      if (claimed.has(candidate.name) || !current.text.includes(candidate.name)) continue;
      claimed.add(candidate.name);
      found.push(candidate);
      queue.push(candidate);
    }
  }
  return found;
}

/** Every `*.js` file of `dir`, with its text and sizes. */
export function readWidgetFiles(dir) {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.js'))
    .sort()
    .map((name) => {
      const content = readFileSync(join(dir, name));
      return { name, bytes: content.length, gzip: gzipSize(content), text: content.toString('utf8') };
    });
}

/** `35.1 KB` from bytes. */
export function formatKb(bytes) {
  return `${(bytes / KB).toFixed(1)} KB`;
}

/** The report's lines and whether every entry is within its limit. */
export function checkBudgets(measured) {
  const lines = [];
  let withinLimits = true;
  for (const entry of measured.entries) {
    if (entry.missing) {
      withinLimits = false;
      lines.push(`${entry.name}: missing from ${measured.dir} (run npm run build:widget)`);
      continue;
    }
    const overLimit = entry.gzip > entry.limit;
    if (overLimit) withinLimits = false;
    const verdict = overLimit
      ? `OVER the CI limit of ${formatKb(entry.limit)} by ${formatKb(entry.gzip - entry.limit)}`
      : entry.gzip <= entry.goal
        ? `within the goal of ${formatKb(entry.goal)}`
        : `over the goal of ${formatKb(entry.goal)} by ${formatKb(entry.gzip - entry.goal)}, within the CI limit of ${formatKb(entry.limit)}`;
    lines.push(`${entry.name} (${entry.what}): ${formatKb(entry.gzip)} gzip (${formatKb(entry.bytes)} minified): ${verdict}`);
    if (entry.chunks.length > 0) {
      lines.push(`  loaded later: ${entry.chunks.map((chunk) => `${chunk.name} ${formatKb(chunk.gzip)}`).join(', ')}`);
      lines.push(`  total with every chunk: ${formatKb(entry.totalGzip)} gzip`);
    }
  }
  for (const file of measured.unreferenced) lines.push(`${file.name}: ${formatKb(file.gzip)} gzip, not loaded by any entry`);
  return { lines, withinLimits };
}

function main() {
  const dir = process.argv[2] ?? join('dist', 'widget', 'v1');
  if (!existsSync(dir)) {
    console.error(`check-size: ${dir} does not exist; run npm run build:widget first.`);
    process.exit(2);
  }
  const measured = measureWidgetFiles(dir);
  const { lines, withinLimits } = checkBudgets(measured);
  for (const line of lines) console.log(line);
  if (measured.entries.some((entry) => entry.missing)) process.exit(2);
  if (!withinLimits) {
    console.error('check-size: a script a visitor downloads is over its size limit (gzip, level 9).');
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
