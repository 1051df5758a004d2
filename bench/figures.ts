/**
 * What every part of `npm run bench` reports: figures, each next to the baseline measured in
 * the same run and the goal it is held to, plus free-form detail lines (tables that show
 * where the time or the bytes go).
 */

export interface Figure {
  /** What is measured, e.g. `assist.js, gzip`. */
  what: string;
  value: string;
  /** The same measurement of the baseline, in the same run. */
  baseline: string;
  /** e.g. `≤ 40 KB`; absent when the figure is informational. */
  goal?: string;
  /** Whether the goal is met; absent without a goal. */
  met?: boolean;
}

export interface Section {
  title: string;
  /** One sentence on what the baseline is. */
  baselineIs: string;
  figures: Figure[];
  /** Lines printed after the figures (and kept in RESULTS.md as a code block). */
  details: string[];
  /** Set when the part could not run; its figures are then empty. */
  problem?: string;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 0.5);
}

/** The nearest-rank percentile (`share` from 0 to 1) of the samples. */
export function percentile(samples: readonly number[], share: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

export function sum(samples: readonly number[]): number {
  return samples.reduce((total, value) => total + value, 0);
}

export function ms(value: number, digits = 1): string {
  return Number.isFinite(value) ? `${value.toFixed(digits)} ms` : 'n/a';
}

/** Prints a section the way the terminal shows it. */
export function printSection(section: Section, log: (line: string) => void = console.log): void {
  log('');
  log(`== ${section.title}`);
  log(`   baseline: ${section.baselineIs}`);
  if (section.problem) log(`   NOT MEASURED: ${section.problem}`);
  const width = Math.max(0, ...section.figures.map((figure) => figure.what.length));
  const valueWidth = Math.max(0, ...section.figures.map((figure) => figure.value.length));
  const baselineWidth = Math.max(0, ...section.figures.map((figure) => figure.baseline.length));
  for (const figure of section.figures) {
    const goal = figure.goal ? `   goal ${figure.goal}: ${figure.met ? 'met' : 'MISSED'}` : '';
    log(`   ${figure.what.padEnd(width)}  ${figure.value.padStart(valueWidth)}   baseline ${figure.baseline.padStart(baselineWidth)}${goal}`);
  }
  for (const line of section.details) log(`   ${line}`);
}

/** A section as markdown for RESULTS.md. */
export function sectionMarkdown(section: Section): string {
  const lines = [`## ${section.title}`, '', `Baseline: ${section.baselineIs}`, ''];
  if (section.problem) lines.push(`**Not measured:** ${section.problem}`, '');
  if (section.figures.length > 0) {
    lines.push('| figure | value | baseline | goal | |', '|---|---:|---:|---|---|');
    for (const figure of section.figures) {
      const verdict = figure.goal ? (figure.met ? 'met' : '**missed**') : '';
      lines.push(`| ${figure.what} | ${figure.value} | ${figure.baseline} | ${figure.goal ?? ''} | ${verdict} |`);
    }
    lines.push('');
  }
  if (section.details.length > 0) lines.push('```', ...section.details, '```', '');
  return lines.join('\n');
}
