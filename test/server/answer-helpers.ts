/**
 * Shared by the chat, summarize, conversation, credit, LLM and analytics tests: a fixture
 * with real documentation pages, a streaming client that parses Server-Sent Events with
 * eventsource-parser, signed visitors, and a local OpenAI-compatible streaming server (the
 * only stand-in the project allows for a language model).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser } from 'eventsource-parser';
import { signVisitorId } from '../../server/store/secrets.js';
import { baseFixture } from './harness.js';

export const CHAT = '/api/v1/acme/widgets/help/chat';
export const SUMMARIZE = '/api/v1/acme/widgets/find/summarize';
export const CONVERSATIONS = '/api/v1/acme/widgets/help/conversations';

export const PAGES = [
  {
    url: 'https://acme.test/docs/install',
    title: 'Installing the widget',
    content:
      '# Installing the widget\n\nAdd one script tag to your page to install the widget. The script loads from your Assist server.\n\n## Linux\n\nOn Linux, install the server package with apt.\n\n## Windows\n\nOn Windows, run the server installer.',
  },
  {
    url: 'https://acme.test/docs/credits',
    title: 'Answer credits',
    content:
      '# Answer credits\n\nEvery organisation has a balance of answer credits. Each chat answer spends one credit.\n\nWhen the credits run out, chat answers with status 402 and shows search results instead.',
  },
  {
    url: 'https://acme.test/docs/proxy',
    title: 'Proxy settings',
    content: '# Proxy settings\n\n## Linux\n\nOn Linux, set the proxy address in the file /etc/assist.conf.\n\n## Windows\n\nOn Windows, set the proxy address in the registry.',
  },
  {
    url: 'https://acme.test/docs/colours',
    title: 'Colours',
    content: '# Colours\n\nSet the accent colour of the widget in the dashboard. Dark mode uses its own accent colour.',
  },
];

/** A Python example exactly as a page writes it: answers must quote it byte for byte. */
export const PYTHON_SNIPPET = [
  '```python',
  'import hashlib',
  'import hmac',
  '',
  '',
  'def sign_visitor_id(visitor_id, signing_secret):',
  '    """The `hash` next to a visitor id."""',
  '    return hmac.new(signing_secret.encode("utf-8"), str(visitor_id).encode("utf-8"), hashlib.sha256).hexdigest()',
  '',
  '',
  'if __name__ == "__main__":',
  '    print(sign_visitor_id("alice", "secret"))',
  '```',
].join('\n');

/** A page whose sections each hold a code example in a fenced block with its language. */
export const SIGNING_PAGE = {
    url: 'https://acme.test/docs/identity',
    title: 'Signed visitors',
    content: [
      '# Signed visitors',
      '',
      'Sign the visitor id on your server, so a visitor keeps their conversations.',
      '',
      '## Node',
      '',
      'Sign the visitor id in Node with `createHmac`:',
      '',
      '```js',
      "import { createHmac } from 'node:crypto';",
      "export const signVisitorId = (id, secret) => createHmac('sha256', secret).update(String(id)).digest('hex');",
      '```',
      '',
      '## Python',
      '',
      'To sign the visitor id in Python, compute an HMAC-SHA256 of the id with the signing secret:',
      '',
      PYTHON_SNIPPET,
      '',
      'Call `sign_visitor_id` from your view and render the result into the page.',
    ].join('\n'),
  };

/** baseFixture with a documentation source that answers questions. */
export function answerFixture(credits = 100) {
  const fixture = baseFixture();
  const acme = fixture.organisations[0]!;
  acme.credits = credits;
  (acme.sources[0]!.pages as { url: string; title: string; content: string }[]).push(...PAGES);
  return fixture;
}

export interface ReceivedEvent {
  id: string | undefined;
  event: string | undefined;
  data: any;
}

export interface StreamResult {
  status: number;
  headers: Headers;
  events: ReceivedEvent[];
  /** The body when the server did not stream. */
  json?: any;
}

/**
 * POSTs with `Accept: text/event-stream` and parses the stream with eventsource-parser.
 * `stopWhen` aborts the request (the client going away) once it returns true.
 */
export async function streamRequest(
  base: string,
  path: string,
  options: { token?: string; body: unknown; headers?: Record<string, string>; stopWhen?: (event: ReceivedEvent, events: ReceivedEvent[]) => boolean },
): Promise<StreamResult> {
  const controller = new AbortController();
  const response = await fetch(base + path, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'text/event-stream',
      ...(options.token && { Authorization: `Bearer ${options.token}` }),
      ...options.headers,
    },
    body: JSON.stringify(options.body),
    signal: controller.signal,
  });
  if (!response.headers.get('content-type')?.includes('text/event-stream')) {
    const text = await response.text();
    return { status: response.status, headers: response.headers, events: [], json: text ? JSON.parse(text) : undefined };
  }
  const events: ReceivedEvent[] = [];
  let stopped = false;
  const parser = createParser({
    onEvent(message) {
      if (stopped) return;
      const event = { id: message.id, event: message.event, data: JSON.parse(message.data) };
      events.push(event);
      if (options.stopWhen?.(event, events)) {
        stopped = true;
        controller.abort();
      }
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (stopped) break;
    }
  } catch (error) {
    if (!stopped) throw error;
  }
  return { status: response.status, headers: response.headers, events };
}

export function signed(id: string, secret = 'sig_test_help'): { id: string; hash: string } {
  return { id, hash: signVisitorId(id, secret) };
}

/** Query string of a signed visitor for the conversation routes. */
export function visitorQuery(id: string, secret = 'sig_test_help', hash = signVisitorId(id, secret)): string {
  return `?${new URLSearchParams({ user: id, hash })}`;
}

/** Polls until `check` returns a truthy value (or throws after `timeoutMs`). */
export async function waitFor<T>(check: () => Promise<T> | T, timeoutMs = 5_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function credits(db: { query<T>(sql: string, params?: unknown[]): Promise<T[]> }, organisation = 'acme'): Promise<number> {
  const [row] = await db.query<{ credits: number }>('SELECT credits FROM organisations WHERE id = $1', [organisation]);
  return row!.credits;
}

/** A finished answer's row (waits until the server has settled it). */
export function settledAnswer(db: { query<T>(sql: string, params?: unknown[]): Promise<T[]> }, answerId: string) {
  return waitFor(async () => {
    const [row] = await db.query<{ status: string; credit: string }>('SELECT status, credit FROM answers WHERE id = $1', [answerId]);
    return row && row.status !== 'generating' ? row : undefined;
  }, 5_000, `answer ${answerId} to settle`);
}

export interface UpstreamRequest {
  headers: IncomingMessage['headers'];
  body: any;
  /** Resolves when the request's connection closed before its response finished. */
  aborted: Promise<void>;
  wasAborted: () => boolean;
}

/** What the local model server does with one request. */
export type UpstreamScript = (request: UpstreamRequest, res: ServerResponse) => void | Promise<void>;

/**
 * A local OpenAI-compatible server: `POST /v1/chat/completions` answered by `script`,
 * which can stream `data: {"choices":[{"delta":{"content":"…"}}]}` lines and `data: [DONE]`.
 */
export async function startUpstream(script: UpstreamScript): Promise<{ baseUrl: string; requests: UpstreamRequest[]; setScript(next: UpstreamScript): void; close(): Promise<void> }> {
  let current = script;
  const requests: UpstreamRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let closedEarly = false;
    let markAborted!: () => void;
    const aborted = new Promise<void>((resolve) => (markAborted = resolve));
    res.on('close', () => {
      if (!res.writableFinished) {
        closedEarly = true;
        markAborted();
      }
    });
    const request: UpstreamRequest = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'), aborted, wasAborted: () => closedEarly };
    requests.push(request);
    if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    await current(request, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    setScript: (next) => (current = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Streams `deltas` the way OpenAI does, `pauseMs` apart, then `[DONE]`. */
export function streamDeltas(deltas: string[], pauseMs = 0): UpstreamScript {
  return async (request, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    for (const delta of deltas) {
      if (request.wasAborted()) return;
      res.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: delta }, finish_reason: null }] })}\n\n`);
      if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    res.write(`data: ${JSON.stringify({ id: 'x', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    res.end('data: [DONE]\n\n');
  };
}
