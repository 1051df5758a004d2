import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createEmbeddedEngine } from '../../server/answer/embedded.js';
import { RateLimiter } from '../../server/store/rate-limits.js';
import { EventStream } from '../../server/http/sse.js';
import { freshPostgresDatabase, inOneRateWindow, onPostgres, request, startTestServer, writeTempJson, type TestServer } from './harness.js';
import {
  CHAT,
  CONVERSATIONS,
  answerFixture,
  settledAnswer,
  signed,
  streamRequest,
  visitorQuery,
  type ReceivedEvent,
} from './answer-helpers.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: answerFixture() });
});
after(() => server.stop());

/** The contract's event order: meta, status searching, sources, status generating, token…, done. */
function assertContractOrder(events: ReceivedEvent[]): void {
  const names = events.map((event) => event.event);
  assert.deepEqual(names.slice(0, 4), ['meta', 'status', 'sources', 'status']);
  assert.equal(events[1]!.data.status, 'searching');
  assert.equal(events[3]!.data.status, 'generating');
  assert.equal(names.at(-1), 'done');
  const middle = names.slice(4, -1);
  assert.ok(middle.length > 1, 'the answer comes in several token events');
  assert.ok(middle.every((name) => name === 'token'));
  const ids = events.map((event) => Number(event.id));
  ids.forEach((id, index) => {
    assert.ok(Number.isInteger(id), `event ${index} has a numeric id`);
    if (index > 0) assert.ok(id > ids[index - 1]!, 'ids increase');
  });
}

/** A source's page: its url without the section's #fragment. */
const page = (source: { url: string }) => source.url.split('#')[0];

/** Every [n] in the text names one of the sources. */
function citations(text: string): number[] {
  return [...text.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
}

describe('chat as a stream', () => {
  test('events come in the contract order with increasing ids, and the tokens make up the answer', async () => {
    const result = await streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
    assert.equal(result.status, 200);
    assert.match(result.headers.get('content-type')!, /^text\/event-stream/);
    assert.equal(result.headers.get('cache-control'), 'no-store');
    assert.equal(result.headers.get('x-accel-buffering'), 'no');
    assertContractOrder(result.events);
    const [meta, , sources] = result.events;
    const done = result.events.at(-1)!.data;
    assert.match(meta!.data.conversationId, /^c_/);
    assert.match(meta!.data.answerId, /^a_/);
    assert.equal(done.conversationId, meta!.data.conversationId);
    assert.equal(done.answerId, meta!.data.answerId);
    assert.deepEqual(done.sources, sources!.data.sources);
    const text = result.events.filter((event) => event.event === 'token').map((event) => event.data.delta).join('');
    assert.equal(text, done.text);
    assert.match(done.text, /script tag/);
    const cited = citations(done.text);
    assert.ok(cited.length > 0, 'the answer cites its sources');
    for (const number of cited) assert.ok(number >= 1 && number <= done.sources.length, `[${number}] is one of the sources`);
    assert.equal(page(done.sources[cited[0]! - 1]), 'https://acme.test/docs/install');
  });

  test('a JSON reply when the client does not ask for a stream, with a session id made for it', async () => {
    const response = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'What happens when the credits run out?' } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /application\/json/);
    const reply = response.json;
    assert.deepEqual(Object.keys(reply).sort(), ['answerId', 'conversationId', 'sessionId', 'sources', 'text']);
    assert.match(reply.text, /402/);
    assert.equal(page(reply.sources[0]), 'https://acme.test/docs/credits');
    assert.match(reply.sessionId, /^s_[0-9a-f]{32}$/);
    const [row] = await server.db.query<{ session_id: string; status: string }>('SELECT session_id, status FROM answers WHERE id = $1', [reply.answerId]);
    assert.deepEqual(row, { session_id: reply.sessionId, status: 'complete' });
  });

  test('a session id the client sends is kept', async () => {
    const response = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?', sessionId: 's_mytab' } });
    assert.equal(response.json.sessionId, 's_mytab');
    const [row] = await server.db.query<{ session_id: string }>('SELECT session_id FROM answers WHERE id = $1', [response.json.answerId]);
    assert.equal(row!.session_id, 's_mytab');
  });

  test('the embedded engine says plainly when the documentation has no answer', async () => {
    const response = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'What is the boiling point of mercury?' } });
    assert.equal(response.status, 200);
    assert.match(response.json.text, /couldn't find this in the documentation/);
    assert.deepEqual(citations(response.json.text), []);
  });

  test('retrieval follows the conversation: a follow-up question is answered from the same topic', async () => {
    const first = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I set the proxy on Windows?' } });
    assert.equal(page(first.json.sources[0]), 'https://acme.test/docs/proxy');
    const followUp = await server.request('POST', CHAT, {
      token: 'ws_test_help',
      body: { message: 'And on Linux?', conversationId: first.json.conversationId },
    });
    assert.equal(followUp.status, 200);
    assert.equal(page(followUp.json.sources[0]), 'https://acme.test/docs/proxy');
    assert.match(followUp.json.text.split('\n')[0], /proxy address in the file/);
  });

  test('retrieval uses the page the visitor is on', async () => {
    const ask = (context?: unknown) => server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'What do I do on Linux?', context } });
    const onInstallPage = await ask({ url: 'https://acme.test/docs/install#linux', title: 'Installing the widget' });
    assert.equal(page(onInstallPage.json.sources[0]), 'https://acme.test/docs/install');
    const onProxyPage = await ask({ url: 'https://acme.test/docs/proxy', title: 'Proxy settings' });
    assert.equal(page(onProxyPage.json.sources[0]), 'https://acme.test/docs/proxy');
  });

  test('bad requests are refused before anything is spent', async () => {
    const cases: [unknown, number, string][] = [
      [{}, 400, 'invalid_request'],
      [{ message: '   ' }, 400, 'invalid_request'],
      [{ message: 'x'.repeat(4001) }, 400, 'invalid_request'],
      [{ message: 'hi', conversationId: 'not a valid id!' }, 400, 'invalid_request'],
      [{ message: 'hi', context: 'page' }, 400, 'invalid_request'],
      [{ message: 'hi', sessionId: 'spaces are not allowed' }, 400, 'invalid_request'],
      [{ message: 'hi', user: 'alice' }, 400, 'invalid_request'],
      [{ message: 'hi', user: { id: 'alice', hash: 'nope' } }, 403, 'invalid_identity'],
      [{ message: 'hi', user: { id: 'alice' } }, 403, 'invalid_identity'],
      [{ message: 'hi', conversationId: 'c_doesnotexist' }, 404, 'not_found'],
    ];
    const before = (await server.db.query<{ credits: number }>("SELECT credits FROM organisations WHERE id = 'acme'"))[0]!.credits;
    for (const [body, status, code] of cases) {
      const response = await server.request('POST', CHAT, { token: 'ws_test_help', body });
      assert.equal(response.status, status, JSON.stringify(body));
      assert.equal(response.json.error.code, code, JSON.stringify(body));
    }
    const after = (await server.db.query<{ credits: number }>("SELECT credits FROM organisations WHERE id = 'acme'"))[0]!.credits;
    assert.equal(after, before);
  });

  test('chat is for chat widgets and needs the chat permission', async () => {
    const onSearchWidget = await server.request('POST', '/api/v1/acme/widgets/find/chat', { token: 'ws_test_find', body: { message: 'hi' } });
    assert.equal(onSearchWidget.status, 403);
    assert.equal(onSearchWidget.json.error.code, 'wrong_widget_type');
    const readOnlyKey = await server.request('POST', CHAT, { token: 'ak_test_read', body: { message: 'hi' } });
    assert.equal(readOnlyKey.json.error.code, 'permission_denied');
    const fromSite = await server.request('POST', CHAT, { origin: 'https://acme.test', body: { message: 'How do I install the widget?' } });
    assert.equal(fromSite.status, 200);
    assert.equal(fromSite.headers.get('access-control-allow-origin'), 'https://acme.test');
  });
});

describe('a client that goes away', () => {
  test('stops generation and leaves the half-written answer marked incomplete', async () => {
    const slow = await startTestServer({ fixture: answerFixture() });
    try {
      slow.context.services.answerEngine = createEmbeddedEngine({ tokenDelayMs: 60, wordsPerPiece: 1 });
      const visitor = signed('leaver');
      const full = await slow.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
      const pieces = full.json.text.split(/\s+/).length;
      const result = await streamRequest(slow.url, CHAT, {
        token: 'ws_test_help',
        body: { message: 'How do I install the widget?', user: visitor },
        stopWhen: (_event, events) => events.filter((event) => event.event === 'token').length === 2,
      });
      const meta = result.events[0]!.data;
      const settled = await settledAnswer(slow.db, meta.answerId);
      assert.equal(settled.status, 'aborted');
      // Give a generator that ignored the abort the time to finish: the stored text must stay short.
      await new Promise((resolve) => setTimeout(resolve, pieces * 60 + 100));
      const conversation = await slow.request('GET', `${CONVERSATIONS}/${meta.conversationId}${visitorQuery('leaver')}`, { token: 'ws_test_help' });
      const answer = conversation.json.messages.find((message: { role: string }) => message.role === 'assistant');
      assert.equal(answer.complete, false);
      assert.ok(full.json.text.startsWith(answer.text), 'what is stored is the start of the answer');
      assert.ok(answer.text.length < full.json.text.length, 'generation stopped before the end');
    } finally {
      await slow.stop();
    }
  });
});

describe('rate limits', () => {
  test('a window is one minute: the limit is allowed, then the seconds until the minute ends', async () => {
    let now = 60_000 * 1_000_000 + 20_000;
    const limiter = new RateLimiter(server.db, () => now);
    try {
      assert.equal(await limiter.take('a', 2), 0);
      now += 10_000;
      assert.equal(await limiter.take('a', 2), 0);
      assert.equal(await limiter.take('a', 2), 30, 'the window ends 30 s later');
      assert.equal(await limiter.take('b', 2), 0, 'another key has its own window');
      now += 30_000;
      assert.equal(await limiter.take('a', 2), 0, 'the next minute starts afresh');
    } finally {
      limiter.close();
    }
  });

  test('chat over the limit answers 429 with Retry-After, per widget and address', async () => {
    const limited = await startTestServer({ fixture: answerFixture(), rateLimit: 3 });
    try {
      const ask = () => limited.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
      await inOneRateWindow();
      for (let index = 0; index < 3; index++) assert.equal((await ask()).status, 200);
      const refused = await ask();
      assert.equal(refused.status, 429);
      assert.equal(refused.json.error.code, 'rate_limited');
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      // Another widget has its own count.
      const summary = await limited.request('POST', '/api/v1/acme/widgets/find/summarize', { token: 'ws_test_find', body: { query: 'accent colour' } });
      assert.equal(summary.status, 200);
      // The limiter is a server service, closed with the server.
      assert.ok(limited.context.services.rateLimiter);
    } finally {
      await limited.stop();
    }
  });
});

describe('the SSE writer', () => {
  test('waits for the socket to drain instead of buffering a slow reader\'s whole stream', async () => {
    // 64 MB in all: more than a loopback socket's kernel buffers take (about 13 MB seen), so a writer that waits stalls well before the end.
    const payload = 'x'.repeat(64 * 1024);
    const total = 1000;
    let sent = 0;
    let finished = false;
    const http = createServer(async (_req, res) => {
      const controller = new AbortController();
      res.on('close', () => controller.abort());
      const stream = new EventStream(res, controller.signal);
      try {
        for (let index = 0; index < total; index++) {
          if (!(await stream.send('token', { delta: payload }))) break;
          sent++;
        }
      } finally {
        stream.end();
        finished = true;
      }
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const response = await new Promise<import('node:http').IncomingMessage>((resolve) =>
        get(`http://127.0.0.1:${(http.address() as AddressInfo).port}/`, resolve),
      );
      response.pause();
      await new Promise((resolve) => setTimeout(resolve, 400));
      const stalled = sent;
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(sent, stalled, 'nothing more is written while nobody reads');
      assert.ok(sent < total, `only what the socket buffers was written while nobody read (${sent} of ${total})`);
      assert.equal(finished, false);
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.resume();
      await new Promise((resolve) => response.on('end', resolve));
      assert.equal(sent, total);
      const ids = [...body.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
      assert.deepEqual(ids, Array.from({ length: total }, (_, index) => index + 1));
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});

describe('a server restart in the middle of a stream', () => {
  // Two server processes start one after the other (tsx compiling, the database opening and
  // loading its fixture): about 20 s on a quiet machine, several times that on a busy one.
  test('leaves the half-written answer incomplete, never complete', { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'assist-restart-'));
    const fixture = writeTempJson(answerFixture());
    const database = onPostgres ? await freshPostgresDatabase() : undefined;
    const storage = database ? ['--database-url', database.url] : ['--data', join(dir, 'db')];
    const start = async (): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown> }> => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'server/main.ts', '--port', '0', ...storage, '--fixture', fixture.path, '--rate-limit', '0'],
        { cwd: join(import.meta.dirname, '..', '..'), env: { ...process.env, ASSIST_EMBEDDED_TOKEN_DELAY_MS: '250' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += chunk));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const line = await new Promise<string>((resolve, reject) => {
        const lines = createInterface({ input: child.stdout! });
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`server exited (${code}): ${stderr}`)));
      });
      const match = /^listening on (http:\/\/\S+)$/.exec(line);
      assert.ok(match, `first line: ${line}`);
      return { child, url: match[1]!, exited };
    };
    let running: { child: ChildProcess; url: string; exited: Promise<unknown> } | undefined;
    try {
      running = await start();
      const visitor = signed('restart-visitor');
      let killed = false;
      const result = await streamRequest(running.url, CHAT, {
        token: 'ws_test_help',
        body: { message: 'How do I install the widget?', user: visitor },
        stopWhen: (event) => {
          if (event.event !== 'token' || killed) return false;
          killed = true;
          running!.child.kill('SIGKILL');
          return true;
        },
      }).catch(() => undefined);
      assert.ok(killed, 'the server was killed mid-stream');
      const conversationId = result?.events[0]?.data.conversationId;
      assert.ok(conversationId);
      await running.exited;

      running = await start();
      const conversation = await request(running.url, 'GET', `${CONVERSATIONS}/${conversationId}${visitorQuery('restart-visitor')}`, { token: 'ws_test_help' });
      assert.equal(conversation.status, 200);
      const answer = conversation.json.messages.find((message: { role: string }) => message.role === 'assistant');
      assert.ok(answer, 'the answer is stored as such');
      assert.equal(answer.complete, false);
    } finally {
      if (running && running.child.exitCode === null) {
        running.child.kill('SIGTERM');
        await running.exited;
      }
      await database?.drop();
      fixture.remove();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
