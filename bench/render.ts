/**
 * Streaming render: a 4,000-token markdown answer (headings, lists, code blocks, tables)
 * streamed into `<assist-chat>` at 200 tokens/s, through the whole product: the real server
 * with its OpenAI-compatible engine pointed at a local server that streams
 * `chat/completions` at that pace (the one stand-in for a language model the project
 * uses), the real SSE route, the real SDK bundle, in Chromium.
 *
 * Main-thread time comes from a Chromium trace of the page's renderer: every task on its main
 * thread while the answer streams (receiving the data, JavaScript, style, layout, paint), from
 * the first change the answer makes to the page to its last. The click that sends the question
 * (its input events, the question appearing) is one task before that, reported on its own. An
 * update is a task of 0.1 ms or more (smaller ones are the scheduler's own bookkeeping). Goals: no update over 16 ms, p95 ≤ 2 ms,
 * total ≤ 3 s, and the cost per token flat, comparing the first and the last thousand tokens
 * (the stream is paced evenly, so these are the first and the last five seconds).
 *
 * Baseline, same run, same page, same token stream over the same route: the headless client
 * re-parsing the whole text on every token (`Assist.markdown(text)`, marked + DOMPurify) into a
 * plain div.
 *
 *   node --import tsx bench/render.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerResponse } from 'node:http';
import { createOpenAiEngine } from '../server/answer/openai.js';
import { CACHE_DIR } from './corpus/database.js';
import { random } from './corpus/generate.js';
import { startUpstream, type UpstreamRequest } from '../test/server/answer-helpers.js';
import { startE2E, type E2E } from '../test/e2e/harness.js';
import { benchFixture } from './host-page.js';
import { median, ms, percentile, printSection, sum, type Section } from './figures.js';

export const ANSWER_TOKENS = 4_000;
export const TOKENS_PER_SECOND = 200;
const END_OF_ANSWER = 'That is the whole procedure.';

const WORDS = (
  'the widget server answer search page section source token stream visitor browser config ' +
  'install update proxy credit conversation language model index query result snippet theme ' +
  'accent colour dashboard secret origin website request response header cache script element'
).split(' ');

/**
 * A long, deterministic markdown answer cut into LLM-like tokens (a word with its leading
 * space, long words and markup in pieces of up to four characters): headings, paragraphs with
 * emphasis, code spans and citations, bullet and numbered lists, fenced code, and tables.
 */
export function answerTokens(count = ANSWER_TOKENS): string[] {
  const next = random(42);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const sentence = () => {
    const words = Array.from({ length: 6 + Math.floor(next() * 10) }, () => pick(WORDS));
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
    if (next() < 0.3) words[2] = `**${words[2]}**`;
    if (next() < 0.2) words[4] = `\`${words[4]}\``;
    return `${words.join(' ')}${next() < 0.25 ? ` [${1 + Math.floor(next() * 4)}]` : ''}.`;
  };
  const blocks: string[] = [];
  const tokensOf = (text: string) => text.match(/\s*[A-Za-z]{1,4}|\s*[^\sA-Za-z]|\s+/g) ?? [];
  let total = 0;
  for (let index = 0; total < count; index++) {
    let block: string;
    switch (index % 7) {
      case 0:
        block = `## ${sentence().slice(0, -1)}`;
        break;
      case 2:
        block = Array.from({ length: 3 + Math.floor(next() * 3) }, () => `- ${sentence()}`).join('\n');
        break;
      case 3:
        block = ['```ts', ...Array.from({ length: 4 + Math.floor(next() * 4) }, (_, line) => `const ${pick(WORDS)}${line} = client.${pick(WORDS)}('${pick(WORDS)}', { limit: ${line + 1} });`), '```'].join('\n');
        break;
      case 5:
        block = [
          '| setting | default | meaning |',
          '|---|---|---|',
          ...Array.from({ length: 3 + Math.floor(next() * 3) }, () => `| \`${pick(WORDS)}\` | ${Math.floor(next() * 100)} | ${sentence()} |`),
        ].join('\n');
        break;
      case 6:
        block = Array.from({ length: 3 }, (_, item) => `${item + 1}. ${sentence()}`).join('\n');
        break;
      default:
        block = Array.from({ length: 2 + Math.floor(next() * 3) }, sentence).join(' ');
    }
    const text = (blocks.length ? '\n\n' : '') + block;
    blocks.push(text);
    total += tokensOf(text).length;
  }
  const tokens = tokensOf(blocks.join('')).slice(0, count - tokensOf(`\n\n${END_OF_ANSWER}`).length);
  return [...tokens, ...tokensOf(`\n\n${END_OF_ANSWER}`)];
}

/** Streams the tokens the way OpenAI does, on a fixed schedule (catching up, never drifting), then `[DONE]`. */
function pacedStream(tokens: readonly string[], finished: () => void) {
  return async (request: UpstreamRequest, res: ServerResponse) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const started = performance.now();
    for (let index = 0; index < tokens.length; index++) {
      const due = started + (index * 1000) / TOKENS_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      if (request.wasAborted()) return;
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: tokens[index] }, finish_reason: null }] })}\n\n`);
    }
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    res.end('data: [DONE]\n\n');
    finished();
  };
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * The main thread's tasks: the outermost `toplevel` events, in ms. Not only the scheduler's
 * `RunTask`: network data reaching the page (`SimpleWatcher::OnHandleReady`) runs the
 * stream's JavaScript outside of it.
 */
function outermostTasks(events: TraceEvent[]): { start: number; end: number }[] {
  const spans = events
    .filter((event) => event.ph === 'X' && event.cat.split(',').includes('toplevel') && event.dur !== undefined)
    .map((event) => ({ start: event.ts / 1000, end: (event.ts + event.dur!) / 1000 }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const tasks: { start: number; end: number }[] = [];
  for (const span of spans) {
    const last = tasks[tasks.length - 1];
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else tasks.push({ ...span });
  }
  return tasks;
}

export interface RenderRun {
  tokens: number;
  updates: number;
  maxUpdate: number;
  p95Update: number;
  medianUpdate: number;
  totalTime: number;
  /** Main-thread time per token over the first and the last thousand tokens. */
  firstThousandPerToken: number;
  lastThousandPerToken: number;
  streamSeconds: number;
  /** The task of the click that sends the question (its handling and the question appearing), before the answer streams. */
  sendTask?: number;
}

/** The smallest task counted as an update; below it are the scheduler's own bookkeeping tasks. */
const MIN_UPDATE_MS = 0.1;

function hostPage(e2e: E2E, mode: 'widget' | 'baseline'): string {
  const mount =
    mode === 'widget'
      ? `Assist.chat('acme/help', { variant: 'inline', target: '#chat' }).mount();`
      : `window.__bench = { client: Assist.headless('acme/help') };`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme help</title>
<style>body { margin: 0; font: 16px/1.5 system-ui, sans-serif; } #chat, #baseline { height: 640px; max-width: 44rem; margin: 1rem auto; overflow: auto; }</style>
</head><body><div id="chat"></div><div id="baseline"></div>
<script src="${e2e.server.url}/widget/v1/assist.js"></script>
<script>${mount}</script></body></html>`;
}

/**
 * Watches the conversation's DOM and notes when the answer first and last changed; what it does
 * per change is a few stores, so it does not weigh on what it measures. With `sends`, the first
 * change is the visitor's question appearing, in the task of the click that sends it: that task
 * is noted apart (`sent`), and the answer's changes are those of the tasks after it.
 */
const WATCH_ANSWER = `(root, sends) => {
  const marks = (window.__renderMarks = { sent: undefined, first: undefined, last: undefined });
  let answering = !sends;
  new MutationObserver(() => {
    const now = performance.now();
    if (!answering) {
      if (marks.sent === undefined) {
        marks.sent = now;
        setTimeout(() => (answering = true));
      }
      return;
    }
    if (marks.first === undefined) marks.first = now;
    marks.last = now;
  }).observe(root, { childList: true, subtree: true, characterData: true });
}`;

async function streamOnce(e2e: E2E, mode: 'widget' | 'baseline', tokens: readonly string[], setScript: (finished: () => void) => void): Promise<RenderRun> {
  const path = `/render-${mode}`;
  e2e.site.pages.set(path, hostPage(e2e, mode));
  const { page, errors } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(e2e.site.origin + path, { waitUntil: 'load' });
  if (mode === 'widget') {
    const input = page.locator('assist-chat textarea');
    await input.waitFor({ timeout: 20_000 });
    await input.fill('How do I set up the widget?');
    await page.evaluate(`(${WATCH_ANSWER})(document.querySelector('assist-chat').shadowRoot, true)`);
  } else {
    await page.evaluate(`(${WATCH_ANSWER})(document.getElementById('baseline'), false)`);
  }
  const streamed = new Promise<void>((resolve) => setScript(resolve));
  // Only top-level tasks and our mark: the detailed timeline categories slow the page down.
  await e2e.browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  // A mark both clocks see: page time (performance.now) ↔ trace time.
  const syncAt = (await page.evaluate(`performance.mark('bench-sync').startTime`)) as number;
  if (mode === 'widget') {
    await page.locator('assist-chat [part="send-button"]').click();
  } else {
    await page.evaluate(`window.__bench.done = window.__bench.client.chat('How do I set up the widget?', {
      onToken: (delta, text) => { document.getElementById('baseline').innerHTML = Assist.markdown(text); },
    }).then(() => true, (error) => String(error))`);
  }
  await Promise.race([streamed, new Promise((_, reject) => setTimeout(() => reject(new Error('the answer stream did not finish in time')), 120_000))]);
  await page.waitForTimeout(750);
  const traceBuffer = await e2e.browser.stopTracing();
  // Open in the Performance panel of Chrome's DevTools to see where the time goes.
  if (process.env.ASSIST_BENCH_KEEP_TRACE) {
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(join(CACHE_DIR, `render-${mode}.trace.json`), traceBuffer);
  }
  const trace = JSON.parse(traceBuffer.toString('utf8')) as { traceEvents: TraceEvent[] };
  const marks = (await page.evaluate('window.__renderMarks')) as { sent?: number; first?: number; last?: number };
  const rendered = (await page.evaluate(
    mode === 'widget' ? `document.querySelector('assist-chat').shadowRoot.textContent` : `document.getElementById('baseline').textContent`,
  )) as string;
  await page.context().close();
  if (!rendered.includes(END_OF_ANSWER)) throw new Error(`the ${mode} did not show the whole answer${errors.length ? ` (${errors.join('; ')})` : ''}`);
  if (marks.first === undefined || marks.last === undefined) throw new Error(`the ${mode} never changed its DOM`);

  // The page's main thread is the renderer thread that recorded the mark.
  const mark = trace.traceEvents.find((event) => event.name === 'bench-sync' && event.cat.includes('blink.user_timing'));
  if (!mark) throw new Error('the trace has no user-timing mark');
  const offsetMs = mark.ts / 1000 - syncAt;
  const from = (marks.first + offsetMs) * 1000;
  const to = (marks.last + offsetMs) * 1000 + 50_000; // the last update's rendering follows its DOM change
  const allTasks = outermostTasks(trace.traceEvents.filter((event) => event.pid === mark.pid && event.tid === mark.tid));
  const sentAt = marks.sent === undefined ? undefined : marks.sent + offsetMs;
  const sendTask = sentAt === undefined ? undefined : allTasks.find((task) => task.start <= sentAt && task.end >= sentAt);
  const tasks = allTasks
    .filter((task) => task.end >= from / 1000 && task.start <= to / 1000)
    .map((task) => ({ start: task.start, duration: task.end - task.start }));
  if (tasks.length === 0) throw new Error('the trace has no main-thread tasks while the answer streamed');
  const updates = tasks.filter((task) => task.duration >= MIN_UPDATE_MS).map((task) => task.duration);
  const windowMs = (1000 * 1000) / TOKENS_PER_SECOND;
  const startMs = from / 1000;
  const endMs = (marks.last + offsetMs);
  const timeIn = (begin: number, end: number) => sum(tasks.filter((task) => task.start >= begin && task.start < end).map((task) => task.duration));
  return {
    tokens: tokens.length,
    updates: updates.length,
    maxUpdate: Math.max(...updates),
    p95Update: percentile(updates, 0.95),
    medianUpdate: median(updates),
    totalTime: sum(tasks.map((task) => task.duration)),
    firstThousandPerToken: timeIn(startMs, startMs + windowMs) / 1000,
    lastThousandPerToken: timeIn(endMs - windowMs, endMs + 50) / 1000,
    streamSeconds: (marks.last - marks.first) / 1000,
    sendTask: sendTask && sendTask.end - sendTask.start,
  };
}

export async function runRenderBench(log: (line: string) => void = console.log): Promise<Section> {
  const tokens = answerTokens();
  const section: Section = {
    title: `Streaming render: ${tokens.length.toLocaleString('en')}-token markdown answer at ${TOKENS_PER_SECOND} tokens/s into <assist-chat>`,
    baselineIs: 'the same token stream over the same route, re-parsing the whole text on every token (marked + DOMPurify, Assist.markdown) into a plain div in the same page.',
    figures: [],
    details: [],
  };
  let script: ((request: UpstreamRequest, res: ServerResponse) => Promise<void>) | undefined;
  const upstream = await startUpstream((request, res) => script!(request, res));
  const e2e = await startE2E({ fixture: benchFixture() });
  try {
    e2e.server.context.services.answerEngine = createOpenAiEngine({ baseUrl: upstream.baseUrl, model: 'bench', idleTimeoutMs: 60_000 });
    const runs = new Map<'widget' | 'baseline', RenderRun>();
    for (const mode of ['widget', 'baseline'] as const) {
      log(`render: streaming ${tokens.length} tokens into the ${mode === 'widget' ? 'chat widget' : 'baseline div'} (${tokens.length / TOKENS_PER_SECOND} s)…`);
      try {
        runs.set(mode, await streamOnce(e2e, mode, tokens, (finished) => (script = pacedStream(tokens, finished))));
      } catch (error) {
        const problem = `${mode}: ${(error as Error).message}`;
        section.problem = section.problem ? `${section.problem}; ${problem}` : problem;
      }
    }
    const widget = runs.get('widget');
    const baseline = runs.get('baseline');
    const or = (run: RenderRun | undefined, pick: (run: RenderRun) => string) => (run ? pick(run) : 'n/a');
    if (widget) {
      const flatness = widget.lastThousandPerToken / widget.firstThousandPerToken;
      section.figures.push(
        { what: 'longest update', value: ms(widget.maxUpdate, 2), baseline: or(baseline, (run) => ms(run.maxUpdate, 2)), goal: '≤ 16 ms', met: widget.maxUpdate <= 16 },
        { what: 'p95 update', value: ms(widget.p95Update, 2), baseline: or(baseline, (run) => ms(run.p95Update, 2)), goal: '≤ 2 ms', met: widget.p95Update <= 2 },
        { what: 'median update', value: ms(widget.medianUpdate, 2), baseline: or(baseline, (run) => ms(run.medianUpdate, 2)) },
        { what: 'updates (main-thread tasks ≥ 0.1 ms)', value: String(widget.updates), baseline: or(baseline, (run) => String(run.updates)) },
        { what: 'total main-thread time while streaming', value: ms(widget.totalTime, 0), baseline: or(baseline, (run) => ms(run.totalTime, 0)), goal: '≤ 3 s', met: widget.totalTime <= 3000 },
        { what: 'per token, first 1,000 tokens', value: ms(widget.firstThousandPerToken, 3), baseline: or(baseline, (run) => ms(run.firstThousandPerToken, 3)) },
        {
          what: 'per token, last 1,000 tokens',
          value: ms(widget.lastThousandPerToken, 3),
          baseline: or(baseline, (run) => ms(run.lastThousandPerToken, 3)),
          goal: 'flat (≤ 1.5× the first)',
          met: flatness <= 1.5,
        },
        { what: 'last ÷ first thousand', value: `${flatness.toFixed(2)}×`, baseline: or(baseline, (run) => `${(run.lastThousandPerToken / run.firstThousandPerToken).toFixed(2)}×`) },
        { what: 'sending: the click’s task, before the answer', value: widget.sendTask === undefined ? 'n/a' : ms(widget.sendTask, 2), baseline: 'n/a' },
      );
    }
    for (const [mode, run] of runs) section.details.push(`${mode}: answer streamed over ${run.streamSeconds.toFixed(1)} s (${(run.tokens / run.streamSeconds).toFixed(0)} tokens/s as rendered)`);
  } finally {
    await e2e.close();
    await upstream.close();
  }
  return section;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runRenderBench()
    .then((section) => printSection(section))
    .catch((error) => {
      console.error(error instanceof Error ? error.stack : error);
      process.exit(1);
    });
}
