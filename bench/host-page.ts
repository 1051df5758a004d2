/**
 * What a widget costs the page that embeds it, in Chromium: long tasks (> 50 ms) while
 * assist.js loads and the widget mounts, layout shift (CLS), main-thread task time, and the
 * time from the page requesting assist.js to a launcher a visitor can click. Two host pages
 * on their own origin, each with one script tag: one mounts the chat bubble, the other the
 * search modal with its search box rendered into the page's header (the case that could push
 * the page's content). Baseline: the same page without the widget, same run.
 *
 * Each page is loaded in a fresh browser context (nothing cached) several times and the
 * median is reported, at the machine's speed (the goals) and with the CPU slowed down four
 * times, the way Lighthouse approximates a mid-range phone (informational).
 *
 *   node --import tsx bench/host-page.ts [--runs 5]
 */
import { pathToFileURL } from 'node:url';
import { answerFixture } from '../test/server/answer-helpers.js';
import { startE2E, type E2E } from '../test/e2e/harness.js';
import type { TestServer } from '../test/server/harness.js';
import { median, ms, printSection, type Figure, type Section } from './figures.js';

/** The answer tests' fixture, with both widgets accepting the bench's host site (127.0.0.1 on any port). */
export function benchFixture() {
  const fixture = answerFixture(100_000);
  for (const widget of fixture.organisations[0]!.widgets) (widget.websites as string[]).push('127.0.0.1');
  return fixture;
}

export type WidgetUnderTest = 'chat' | 'search' | 'none';

/** Runs in the page before anything else: records long tasks and layout shifts from the start. */
const OBSERVERS = `<script>
window.__bench = { longTasks: [], shifts: [] };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
}).observe({ type: 'longtask', buffered: true });
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    const nodes = (entry.sources || []).map((source) => source.node ? source.node.nodeName.toLowerCase() + (source.node.id ? '#' + source.node.id : '') : '?');
    window.__bench.shifts.push({ start: entry.startTime, value: entry.value, nodes });
  }
}).observe({ type: 'layout-shift', buffered: true });
</script>`;

const ARTICLE = Array.from(
  { length: 8 },
  (_, index) =>
    `<h2>Section ${index + 1}</h2><p>Acme keeps your team's documents in one place. This paragraph stands for the host page's own content, long enough to wrap over several lines at any width, so that anything pushing it down or sideways shows as a layout shift.</p>`,
).join('');

/** A documentation-like host page; `widget` decides what its one script tag mounts. */
export function hostPageHtml(server: TestServer, widget: WidgetUnderTest): string {
  const mount =
    widget === 'chat'
      ? `window.__bench.handle = Assist.chat('acme/help').mount();`
      : widget === 'search'
        ? `window.__bench.handle = Assist.search('acme/find', { target: '#search' }).mount();`
        : '';
  const script =
    widget === 'none'
      ? ''
      : `<script src="${server.url}/widget/v1/assist.js"></script>
<script>${mount}
window.__bench.handle.ready.then(() => (window.__bench.readyAt = performance.now()), (error) => (window.__bench.failed = String(error)));</script>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme docs</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${OBSERVERS}
<style>
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #222; }
header { display: flex; align-items: center; gap: 1rem; padding: 0.75rem 1.5rem; border-bottom: 1px solid #ddd; }
header strong { font-size: 1.25rem; }
main { max-width: 42rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
</style></head>
<body><header><strong>Acme</strong><nav>Docs · Blog · Pricing</nav><div id="search"></div></header>
<main><h1>Getting started</h1>${ARTICLE}</main>
${script}
</body></html>`;
}

/**
 * Whether the widget's launcher can be clicked: a button (or search box) in the widget's
 * shadow trees that is rendered, visible, enabled, and is what a click at its centre hits.
 * Runs in the page (as source text: tsx's helpers do not exist there); records the first
 * moment it is true.
 */
const LAUNCHER_IS_USABLE = `(() => {
  const bench = window.__bench;
  if (bench.usableAt !== undefined) return true;
  const candidates = [];
  const visit = (root) => {
    for (const element of root.querySelectorAll('*')) {
      if (root !== document && element.matches('button, [role="button"], input, [role="combobox"], [role="searchbox"]')) candidates.push({ element, root });
      if (element.shadowRoot) visit(element.shadowRoot);
    }
  };
  for (const host of document.querySelectorAll('assist-chat, assist-search')) if (host.shadowRoot) visit(host.shadowRoot);
  for (const { element, root } of candidates) {
    if (element.disabled) continue;
    const box = element.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) continue;
    const style = getComputedStyle(element);
    if (style.visibility !== 'visible' || Number(style.opacity) === 0) continue;
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
    const hit = root.elementFromPoint(x, y);
    if (hit && (hit === element || element.contains(hit))) {
      bench.usableAt = performance.now();
      return true;
    }
  }
  return false;
})()`;

interface PageSample {
  longTasks: number;
  longestTask: number;
  cls: number;
  /** What moved, for the shifts counted in `cls`. */
  shiftedNodes: string[];
  /** Main-thread task time of the renderer until the end of the observation, ms (CDP `TaskDuration`). */
  taskTime: number;
  /** Page load event, ms after navigation start. */
  loadEvent: number;
  /** From the page requesting assist.js to a usable launcher, ms. */
  scriptToLauncher?: number;
  /** From assist.js downloaded to a usable launcher, ms. */
  downloadedToLauncher?: number;
}

/** How long after the launcher is usable (or the page loaded) late long tasks and shifts are still counted. */
const SETTLE_MS = 1_000;

async function samplePage(e2e: E2E, widget: WidgetUnderTest, cpuSlowdown: number): Promise<PageSample> {
  const path = `/bench-${widget}`;
  e2e.site.pages.set(path, hostPageHtml(e2e.server, widget));
  const { page, context, errors } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    if (cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    await page.goto(e2e.site.origin + path, { waitUntil: 'load' });
    if (widget !== 'none') {
      try {
        await page.waitForFunction(LAUNCHER_IS_USABLE, undefined, { polling: 'raf', timeout: 20_000 });
      } catch {
        const failed = await page.evaluate(() => (window as unknown as { __bench: { failed?: string } }).__bench.failed);
        throw new Error(`the ${widget} widget never showed a usable launcher${failed ? `: ${failed}` : ''}${errors.length ? ` (${errors.join('; ')})` : ''}`);
      }
    }
    await page.waitForTimeout(SETTLE_MS);
    const metrics = await cdp.send('Performance.getMetrics');
    const taskTime = (metrics.metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? Number.NaN) * 1000;
    const observed = await page.evaluate((scriptUrl) => {
      const bench = (window as unknown as { __bench: { longTasks: { start: number; duration: number }[]; shifts: { value: number; nodes: string[] }[]; usableAt?: number } }).__bench;
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const script = performance.getEntriesByName(scriptUrl)[0] as PerformanceResourceTiming | undefined;
      return {
        longTasks: bench.longTasks,
        cls: bench.shifts.reduce((total, shift) => total + shift.value, 0),
        shiftedNodes: bench.shifts.flatMap((shift) => shift.nodes),
        loadEvent: navigation.loadEventStart,
        usableAt: bench.usableAt,
        scriptStart: script?.startTime,
        scriptEnd: script?.responseEnd,
      };
    }, `${e2e.server.url}/widget/v1/assist.js`);
    return {
      longTasks: observed.longTasks.length,
      longestTask: Math.max(0, ...observed.longTasks.map((task) => task.duration)),
      cls: observed.cls,
      shiftedNodes: observed.shiftedNodes,
      taskTime,
      loadEvent: observed.loadEvent,
      scriptToLauncher: observed.usableAt !== undefined && observed.scriptStart !== undefined ? observed.usableAt - observed.scriptStart : undefined,
      downloadedToLauncher: observed.usableAt !== undefined && observed.scriptEnd !== undefined ? observed.usableAt - observed.scriptEnd : undefined,
    };
  } finally {
    await context.close();
  }
}

interface Medians {
  shiftedNodes: string[];
  longTasks: number;
  longestTask: number;
  maxLongTasks: number;
  cls: number;
  maxCls: number;
  taskTime: number;
  loadEvent: number;
  scriptToLauncher: number;
  downloadedToLauncher: number;
}

function medians(samples: PageSample[]): Medians {
  const of = (pick: (sample: PageSample) => number | undefined) => median(samples.map(pick).filter((value): value is number => value !== undefined));
  return {
    shiftedNodes: [...new Set(samples.flatMap((sample) => sample.shiftedNodes))],
    longTasks: of((sample) => sample.longTasks),
    longestTask: of((sample) => sample.longestTask),
    maxLongTasks: Math.max(...samples.map((sample) => sample.longTasks)),
    cls: of((sample) => sample.cls),
    maxCls: Math.max(...samples.map((sample) => sample.cls)),
    taskTime: of((sample) => sample.taskTime),
    loadEvent: of((sample) => sample.loadEvent),
    scriptToLauncher: of((sample) => sample.scriptToLauncher),
    downloadedToLauncher: of((sample) => sample.downloadedToLauncher),
  };
}

export async function runHostPageBench(options: { runs?: number; slowRuns?: number; log?: (line: string) => void } = {}): Promise<Section> {
  const fastRuns = options.runs ?? 5;
  const slowRuns = options.slowRuns ?? 3;
  const log = options.log ?? console.log;
  const section: Section = {
    title: 'Cost to the host page (Chromium)',
    baselineIs: `the same host page without the widget; median of ${fastRuns} loads (${slowRuns} with the CPU slowed down) in fresh browser contexts, 1280×800; long tasks and shifts counted until ${SETTLE_MS} ms after the launcher is usable (the page's load event without a widget).`,
    figures: [],
    details: [],
  };
  const e2e = await startE2E({ fixture: benchFixture() });
  try {
    section.details.push(`Chromium ${e2e.browser.version()}`);
    for (const cpuSlowdown of [1, 4]) {
      const runs = cpuSlowdown === 1 ? fastRuns : slowRuns;
      const results = new Map<WidgetUnderTest, Medians>();
      for (const widget of ['none', 'chat', 'search'] as const) {
        log(`host page: ${widget === 'none' ? 'no widget' : widget} at ${cpuSlowdown}× CPU slowdown, ${runs} loads…`);
        try {
          await samplePage(e2e, widget, cpuSlowdown); // warms the server and the host site
          const samples: PageSample[] = [];
          for (let run = 0; run < runs; run++) samples.push(await samplePage(e2e, widget, cpuSlowdown));
          results.set(widget, medians(samples));
        } catch (error) {
          if (widget === 'none') throw error;
          const problem = `${widget} at ${cpuSlowdown}× CPU: ${(error as Error).message}`;
          section.problem = section.problem ? `${section.problem}; ${problem}` : problem;
        }
      }
      const baseline = results.get('none')!;
      const speed = cpuSlowdown === 1 ? '' : ` (CPU ${cpuSlowdown}× slower)`;
      for (const widget of ['chat', 'search'] as const) {
        const result = results.get(widget);
        if (!result) continue;
        const name = widget === 'chat' ? 'chat bubble' : 'search modal + box';
        const withGoal = cpuSlowdown === 1;
        const figures: Figure[] = [
          {
            what: `${name}${speed}: long tasks > 50 ms (median; most in a run)`,
            value: `${result.longTasks} (${result.maxLongTasks})`,
            baseline: `${baseline.longTasks} (${baseline.maxLongTasks})`,
            ...(withGoal && { goal: 'none', met: result.maxLongTasks <= baseline.maxLongTasks }),
          },
          { what: `${name}${speed}: longest task`, value: ms(result.longestTask), baseline: ms(baseline.longestTask) },
          {
            what: `${name}${speed}: layout shift (CLS; most in a run)`,
            value: `${result.cls.toFixed(4)} (${result.maxCls.toFixed(4)})`,
            baseline: `${baseline.cls.toFixed(4)} (${baseline.maxCls.toFixed(4)})`,
            ...(withGoal && { goal: '0', met: result.maxCls <= baseline.maxCls }),
          },
          { what: `${name}${speed}: script requested → launcher usable`, value: ms(result.scriptToLauncher), baseline: 'n/a' },
          { what: `${name}${speed}: script downloaded → launcher usable`, value: ms(result.downloadedToLauncher), baseline: 'n/a' },
          { what: `${name}${speed}: page load event`, value: ms(result.loadEvent), baseline: ms(baseline.loadEvent) },
          { what: `${name}${speed}: main-thread task time`, value: ms(result.taskTime, 0), baseline: ms(baseline.taskTime, 0) },
        ];
        section.figures.push(...figures);
        if (result.shiftedNodes.length > 0) section.details.push(`${name}${speed}: what moved: ${result.shiftedNodes.join(', ')}`);
      }
    }
  } finally {
    await e2e.close();
  }
  return section;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const index = process.argv.indexOf('--runs');
  runHostPageBench({ runs: index === -1 ? undefined : Number(process.argv[index + 1]) })
    .then((section) => printSection(section))
    .catch((error) => {
      console.error(error instanceof Error ? error.stack : error);
      process.exit(1);
    });
}
