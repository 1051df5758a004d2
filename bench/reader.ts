/**
 * Reading a large page: the CPU time of reading a megabyte of each shape that once cost the
 * square of its size (`" **a"`, `" ~~a"`, `"[a]("` as markdown, `"<div>"` as HTML) and of
 * real-looking HTML, next to ten times the time of a tenth of it (what linear reading would
 * cost). The goal is the issue's: a megabyte read in under a second. The tests
 * (test/server/reader-linear.test.ts) check only that the cost grows linearly.
 *
 *   npm run bench -- --only reader
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PageFormat } from '../wire/contract.js';
import { readPageWriteHere } from '../server/content/page-reader.js';
import { ms, type Section } from './figures.js';

export const MiB = 1024 * 1024;

const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length));

/** The Sphinx test fixture's body repeated to `size`: headings, API entries, code, tables. */
function realLooking(size: number): string {
  const page = readFileSync(join(import.meta.dirname, '..', 'test', 'server', 'fixtures', 'pages', 'sphinx.html'), 'utf8');
  const body = page.slice(page.indexOf('<section'), page.lastIndexOf('</section>') + '</section>'.length);
  return `<html lang="en"><body><div class="body" role="main">${body.repeat(Math.ceil(size / body.length))}</div></body></html>`;
}

/** Page shapes of any size (in UTF-16 units, a megabyte unless given) that a quadratic reading chokes on, and a real-looking one. */
export const PAGE_SHAPES: { name: string; format: PageFormat; content: (size?: number) => string }[] = [
  { name: '" **a" as markdown', format: 'markdown', content: (size = MiB) => fill(' **a', size) },
  { name: '" ~~a" as markdown', format: 'markdown', content: (size = MiB) => fill(' ~~a', size) },
  { name: '"[a](" as markdown', format: 'markdown', content: (size = MiB) => fill('[a](', size) },
  { name: '"<div>" as HTML', format: 'html', content: (size = MiB) => fill('<div>', size) },
  { name: 'real-looking HTML', format: 'html', content: (size = MiB) => realLooking(size) },
];

/** CPU time of `work` in ms, the best of `runs`: CPU time leaves out the time other processes take the cores. */
export function cpuTime(work: () => void, runs = 3): number {
  let best = Infinity;
  for (let run = 0; run < runs; run++) {
    const before = process.cpuUsage();
    work();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

const READ_GOAL_MS = 1000;

export async function runReaderBench(log: (line: string) => void = console.log): Promise<Section> {
  const section: Section = {
    title: 'Reading a large page',
    baselineIs: 'ten times the CPU time of reading a tenth of the same page (what linear reading costs), best of three, in this thread.',
    figures: [],
    details: [],
  };
  for (const shape of PAGE_SHAPES) {
    const small = shape.content(MiB / 10);
    const large = shape.content();
    const smallMs = cpuTime(() => readPageWriteHere({ format: shape.format, content: small }));
    const largeMs = cpuTime(() => readPageWriteHere({ format: shape.format, content: large }));
    log(`  ${shape.name}: ${ms(largeMs)} for a megabyte, ${ms(smallMs)} for a tenth`);
    section.figures.push({
      what: `${shape.name}, 1 MB, CPU time`,
      value: ms(largeMs),
      baseline: ms(10 * smallMs),
      goal: `< ${READ_GOAL_MS} ms`,
      met: largeMs < READ_GOAL_MS,
    });
  }
  return section;
}
