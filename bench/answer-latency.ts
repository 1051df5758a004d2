/**
 * Answer latency of the embedded engine against a real server (server/main.ts in a child
 * process, so the client's clock is not stalled by the server's work; embedded database in
 * memory): time to the first SSE event (`meta`), to the first `token` and to `done` of a
 * streamed chat, next to a baseline measured in the same run, the time to the first byte
 * of `/healthz` (one database round trip, no retrieval, no generation).
 *
 *   node --import tsx bench/answer-latency.ts [--runs 50] [--pages 300]
 *
 * `runAnswerLatency()` is exported for a combined benchmark (`npm run bench:server`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createParser } from 'eventsource-parser';

export interface LatencyReport {
  runs: number;
  pages: number;
  healthzFirstByte: Summary;
  firstEvent: Summary;
  firstToken: Summary;
  done: Summary;
}

export interface Summary {
  p50: number;
  p95: number;
  mean: number;
}

const QUESTIONS = [
  'How do I install the widget?',
  'How do I set the proxy on Linux?',
  'What happens when the credits run out?',
  'How can I change the accent colour?',
  'How do I rotate the signing secret?',
  'Where are conversations stored and when do they expire?',
];

const TOPICS = ['install', 'proxy', 'credits', 'colours', 'signing', 'conversations', 'search', 'analytics', 'webhooks', 'languages'];

/** A documentation set of `count` pages: a few hand-written ones and generated variations around the same topics. */
function documentation(count: number) {
  const pages = [
    { url: 'https://bench.test/docs/install', title: 'Installing the widget', content: '# Installing the widget\n\nAdd one script tag to your page to install the widget. The script loads from your Assist server.\n\n## Linux\n\nOn Linux, install the server package with apt.' },
    { url: 'https://bench.test/docs/proxy', title: 'Proxy settings', content: '# Proxy settings\n\n## Linux\n\nOn Linux, set the proxy address in /etc/assist.conf.\n\n## Windows\n\nOn Windows, set the proxy address in the registry.' },
    { url: 'https://bench.test/docs/credits', title: 'Answer credits', content: '# Answer credits\n\nEach chat answer spends one credit. When the credits run out, chat answers with status 402 and shows search results instead.' },
    { url: 'https://bench.test/docs/colours', title: 'Colours', content: '# Colours\n\nSet the accent colour of the widget in the dashboard. Dark mode has its own accent colour.' },
    { url: 'https://bench.test/docs/signing', title: 'Signed visitors', content: '# Signed visitors\n\nRotate the signing secret from the dashboard; the previous secret stays valid for a day.' },
    { url: 'https://bench.test/docs/conversations', title: 'Conversations', content: '# Conversations\n\nConversations are stored on the server and expire 30 days after their last message unless they are kept.' },
  ];
  for (let index = pages.length; index < count; index++) {
    const topic = TOPICS[index % TOPICS.length]!;
    const other = TOPICS[(index * 7) % TOPICS.length]!;
    pages.push({
      url: `https://bench.test/docs/${topic}/${index}`,
      title: `${topic[0]!.toUpperCase()}${topic.slice(1)} guide ${index}`,
      content:
        `# ${topic} guide ${index}\n\nThis guide explains ${topic} in a setup with ${other}. Read it before you change ${topic} settings.\n\n` +
        `## Details\n\nThe ${topic} options live in the dashboard under ${other}. Changes apply to every widget of the organisation within a minute.\n\n` +
        `## Troubleshooting\n\nIf ${topic} does not work, check the ${other} settings and the server log for errors.`,
    });
  }
  return pages;
}

function summarise(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (quantile: number) => sorted[Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)]!;
  const round = (value: number) => Math.round(value * 100) / 100;
  return { p50: round(at(0.5)), p95: round(at(0.95)), mean: round(values.reduce((sum, value) => sum + value, 0) / values.length) };
}

async function healthzFirstByte(base: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}/healthz`);
  const reader = response.body!.getReader();
  await reader.read();
  const elapsed = performance.now() - started;
  await reader.cancel();
  return elapsed;
}

async function streamedChat(base: string, question: string): Promise<{ firstEvent: number; firstToken: number; done: number }> {
  const started = performance.now();
  let firstEvent = NaN;
  let firstToken = NaN;
  let done = NaN;
  const parser = createParser({
    onEvent(event) {
      const now = performance.now() - started;
      if (Number.isNaN(firstEvent)) firstEvent = now;
      if (event.event === 'token' && Number.isNaN(firstToken)) firstToken = now;
      if (event.event === 'done') done = now;
      if (event.event === 'error') throw new Error(`error event: ${event.data}`);
    },
  });
  const response = await fetch(`${base}/api/v1/bench/widgets/help/chat`, {
    method: 'POST',
    headers: { Authorization: 'Bearer ws_bench_help', 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ message: question, sessionId: 's_bench' }),
  });
  if (response.status !== 200) throw new Error(`chat answered ${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
  if (Number.isNaN(done)) throw new Error('the stream ended without done');
  return { firstEvent, firstToken, done };
}

export async function runAnswerLatency({ runs = 50, pages = 300, log = (line: string) => console.log(line) } = {}): Promise<LatencyReport> {
  const dir = mkdtempSync(join(tmpdir(), 'assist-bench-'));
  const fixturePath = join(dir, 'fixture.json');
  writeFileSync(
    fixturePath,
    JSON.stringify({
      organisations: [
        {
          id: 'bench',
          name: 'Bench',
          credits: 1_000_000,
          sources: [{ id: 'docs', name: 'Docs', pages: documentation(pages) }],
          widgets: [{ id: 'help', type: 'chatbot', name: 'Help', sources: ['docs'], websites: [], secret: 'ws_bench_help', signingSecret: 'sig_bench_help' }],
        },
      ],
    }),
  );
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', '--port', '0', '--data', 'memory', '--fixture', fixturePath, '--rate-limit', '0', '--search-rate-limit', '0'],
    { cwd: join(dirname(fileURLToPath(import.meta.url)), '..'), env: { ...process.env, ASSIST_EMBEDDED_TOKEN_DELAY_MS: '0', ASSIST_LLM_BASE_URL: '' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const server = {
    url: await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', (line) => {
        const match = /^listening on (http:\/\/\S+)$/.exec(line);
        if (match) resolve(match[1]!);
        else reject(new Error(`unexpected first line: ${line}`));
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    }),
  };
  try {
    // Warm up connections, query plans and the JIT.
    for (let index = 0; index < 5; index++) {
      await healthzFirstByte(server.url);
      await streamedChat(server.url, QUESTIONS[index % QUESTIONS.length]!);
    }
    const baseline: number[] = [];
    const firstEvent: number[] = [];
    const firstToken: number[] = [];
    const done: number[] = [];
    for (let index = 0; index < runs; index++) {
      baseline.push(await healthzFirstByte(server.url));
      const timing = await streamedChat(server.url, QUESTIONS[index % QUESTIONS.length]!);
      firstEvent.push(timing.firstEvent);
      firstToken.push(timing.firstToken);
      done.push(timing.done);
    }
    const report: LatencyReport = {
      runs,
      pages,
      healthzFirstByte: summarise(baseline),
      firstEvent: summarise(firstEvent),
      firstToken: summarise(firstToken),
      done: summarise(done),
    };
    const row = (label: string, summary: Summary) =>
      `${label.padEnd(34)} ${summary.p50.toFixed(2).padStart(9)} ${summary.p95.toFixed(2).padStart(9)} ${summary.mean.toFixed(2).padStart(9)}`;
    log(`answer latency, embedded engine, ${pages} pages on PGlite (in memory), ${runs} streamed chats`);
    log(`${''.padEnd(34)} ${'p50 ms'.padStart(9)} ${'p95 ms'.padStart(9)} ${'mean ms'.padStart(9)}`);
    log(row('baseline: /healthz first byte', report.healthzFirstByte));
    log(row('chat: first SSE event (meta)', report.firstEvent));
    log(row('chat: first token event', report.firstToken));
    log(row('chat: done event', report.done));
    return report;
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const flag = (name: string, fallback: number) => {
    const index = process.argv.indexOf(`--${name}`);
    return index === -1 ? fallback : Number(process.argv[index + 1]);
  };
  runAnswerLatency({ runs: flag('runs', 50), pages: flag('pages', 300) }).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
