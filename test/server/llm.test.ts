/**
 * The OpenAI-compatible engine against a local server speaking the same streaming protocol
 * (`data: {"choices":[{"delta":{"content":"…"}}]}` … `data: [DONE]`), through the real
 * chat and summarize routes.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { answerEngineFromEnv } from '../../server/answer/engine.js';
import { createOpenAiEngine, DataLineParser, SYSTEM_PROMPT } from '../../server/answer/openai.js';
import { startTestServer, type TestServer } from './harness.js';
import { CHAT, PYTHON_SNIPPET, SIGNING_PAGE, SUMMARIZE, answerFixture, settledAnswer, startUpstream, streamDeltas, streamRequest, waitFor } from './answer-helpers.js';

let server: TestServer;
let upstream: Awaited<ReturnType<typeof startUpstream>>;
before(async () => {
  const fixture = answerFixture(10_000);
  (fixture.organisations[0]!.sources[0]!.pages as unknown[]).push(SIGNING_PAGE);
  server = await startTestServer({ fixture });
  upstream = await startUpstream(streamDeltas([]));
});
after(async () => {
  await upstream.close();
  await server.stop();
});
beforeEach(() => {
  upstream.requests.length = 0;
  useEngine();
});

function useEngine(options: { timeoutMs?: number; idleTimeoutMs?: number } = {}) {
  server.context.services.answerEngine = createOpenAiEngine({ baseUrl: upstream.baseUrl, model: 'test-model', apiKey: 'sk-test', ...options });
}

describe('choosing the engine', () => {
  test('ASSIST_LLM_BASE_URL selects the OpenAI-compatible engine; without it the embedded one answers', () => {
    assert.equal(answerEngineFromEnv({ ASSIST_LLM_BASE_URL: 'http://localhost:11434/v1', ASSIST_LLM_MODEL: 'llama3.2' }).name, 'openai-compatible');
    assert.equal(answerEngineFromEnv({}).name, 'embedded');
    assert.throws(() => answerEngineFromEnv({ ASSIST_LLM_BASE_URL: 'http://localhost:11434/v1' }), /ASSIST_LLM_MODEL/);
    assert.throws(() => answerEngineFromEnv({ ASSIST_LLM_BASE_URL: 'http://x/v1', ASSIST_LLM_MODEL: 'm', ASSIST_LLM_TIMEOUT_MS: 'soon' }), /ASSIST_LLM_TIMEOUT_MS/);
  });
});

describe('the OpenAI-compatible engine', () => {
  test('streams the model\'s answer as tokens, asking with the retrieved sections and the rules', async () => {
    upstream.setScript(streamDeltas(['Add one ', 'script tag', ' to your page [1].'], 5));
    const result = await streamRequest(server.url, CHAT, {
      token: 'ws_test_help',
      body: { message: 'How do I install the widget?', context: { url: 'https://acme.test/docs/install', title: 'Installing the widget' } },
    });
    assert.equal(result.status, 200);
    const tokens = result.events.filter((event) => event.event === 'token').map((event) => event.data.delta);
    assert.deepEqual(tokens, ['Add one ', 'script tag', ' to your page [1].']);
    const done = result.events.at(-1)!;
    assert.equal(done.event, 'done');
    assert.equal(done.data.text, 'Add one script tag to your page [1].');

    assert.equal(upstream.requests.length, 1);
    const [sent] = upstream.requests;
    assert.equal(sent!.headers.authorization, 'Bearer sk-test');
    assert.equal(sent!.body.model, 'test-model');
    assert.equal(sent!.body.stream, true);
    const [system, question] = sent!.body.messages;
    assert.equal(system.role, 'system');
    assert.ok(system.content.startsWith(SYSTEM_PROMPT));
    assert.match(system.content, /\[1\] Installing the widget.*\(https:\/\/acme\.test\/docs\/install\)\n.*script tag/s);
    assert.match(system.content, /Installing the widget" \(https:\/\/acme\.test\/docs\/install\)/, 'the page the visitor is on');
    assert.deepEqual(question, { role: 'user', content: 'How do I install the widget?' });
  });

  test('tokens a model streams every few milliseconds reach the browser in a few writes, each still an event, the first at once', async () => {
    const deltas = Array.from({ length: 60 }, (_, index) => `word${index} `);
    upstream.setScript(streamDeltas(deltas, 3));
    const response = await fetch(server.url + CHAT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', Authorization: 'Bearer ws_test_help' },
      body: JSON.stringify({ message: 'How do I install the widget?' }),
    });
    // What the browser reads: each chunk is a task and a promise on the page's main thread.
    const chunks: string[] = [];
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(decoder.decode(read.value, { stream: true }));
    const events = chunks.join('').split('\n\n').filter(Boolean);
    const tokens = events.filter((event) => event.includes('event: token')).map((event) => JSON.parse(event.split('data: ')[1]!).delta);
    assert.deepEqual(tokens, deltas, 'every token, in order, one event each');
    const ids = events.map((event) => Number(/^id: (\d+)/m.exec(event)?.[1])).filter(Number.isFinite);
    assert.deepEqual(ids, ids.map((_, index) => index + 1));
    const withTokens = chunks.filter((chunk) => chunk.includes('event: token'));
    assert.ok(withTokens.length <= deltas.length / 3, `${deltas.length} tokens came in ${withTokens.length} reads`);
    assert.equal((withTokens[0]!.match(/event: token/g) ?? []).length, 1, 'the first token is written on its own, without waiting for others');
  });

  test('the grounding holds the passages as the pages write them, code blocks byte for byte, numbered as the sources', async () => {
    upstream.setScript(streamDeltas(['Use sign_visitor_id [1].']));
    const response = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I sign the visitor id in Python?' } });
    const system: string = upstream.requests[0]!.body.messages[0].content;
    const excerpts = [...system.matchAll(/^\[(\d+)\] .*\((\S+)\)$/gm)].map((match) => ({ citation: Number(match[1]), url: match[2] }));
    assert.deepEqual(excerpts.map((excerpt) => excerpt.citation), response.json.sources.map((_: unknown, index: number) => index + 1));
    assert.deepEqual(excerpts.map((excerpt) => excerpt.url), response.json.sources.map((source: { url: string }) => source.url));
    assert.equal(excerpts[0]!.url, 'https://acme.test/docs/identity#python');
    const python = system.slice(system.indexOf('[1] '), system.indexOf('\n\n[2] ') === -1 ? undefined : system.indexOf('\n\n[2] '));
    assert.ok(python.includes(`\n\n${PYTHON_SNIPPET}\n\n`), `the snippet byte for byte in:\n${python}`);
    assert.ok(python.includes('Call `sign_visitor_id` from your view'), 'inline code keeps its backticks');
  });

  test('a follow-up sends the conversation so far', async () => {
    upstream.setScript(streamDeltas(['First answer [1].']));
    const first = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I set the proxy on Windows?' } });
    upstream.setScript(streamDeltas(['Second answer [1].']));
    await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'And on Linux?', conversationId: first.json.conversationId } });
    const messages = upstream.requests[1]!.body.messages;
    assert.deepEqual(messages.slice(1), [
      { role: 'user', content: 'How do I set the proxy on Windows?' },
      { role: 'assistant', content: 'First answer [1].' },
      { role: 'user', content: 'And on Linux?' },
    ]);
  });

  test('summaries use it too', async () => {
    upstream.setScript(streamDeltas(['Set it in the dashboard [1].']));
    const response = await server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query: 'accent colour' } });
    assert.deepEqual([response.json.summarized, response.json.text], [true, 'Set it in the dashboard [1].']);
  });

  test('an upstream error becomes an error event with a clear message', async () => {
    upstream.setScript((_request, res) => {
      res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":{"message":"secret internal detail"}}');
    });
    const result = await streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
    assert.equal(result.status, 200);
    assert.deepEqual(result.events.map((event) => event.event), ['meta', 'status', 'sources', 'status', 'error']);
    const { error } = result.events.at(-1)!.data;
    assert.equal(error.code, 'internal');
    assert.match(error.message, /language model service answered with an error \(HTTP 500\)/);
    assert.doesNotMatch(error.message, /secret internal detail/);
    assert.deepEqual(await settledAnswer(server.db, result.events[0]!.data.answerId), { status: 'failed', credit: 'refunded' });
  });

  test('in JSON mode an upstream error is a 500 with the same message', async () => {
    upstream.setScript((_request, res) => void res.writeHead(401).end('bad key'));
    const response = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
    assert.equal(response.status, 500);
    assert.equal(response.json.error.code, 'internal');
    assert.match(response.json.error.message, /HTTP 401/);
  });

  test('an unreachable model server is an error event, not a hang', async () => {
    server.context.services.answerEngine = createOpenAiEngine({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });
    const result = await streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
    assert.equal(result.events.at(-1)!.event, 'error');
    assert.match(result.events.at(-1)!.data.error.message, /could not be reached/);
  });

  test('no first byte within the timeout is an error event', async () => {
    useEngine({ timeoutMs: 300 });
    upstream.setScript(() => {
      // Never answers.
    });
    const started = Date.now();
    const result = await streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
    assert.ok(Date.now() - started < 5_000);
    assert.equal(result.events.at(-1)!.event, 'error');
    assert.match(result.events.at(-1)!.data.error.message, /did not answer in time/);
    await waitFor(() => upstream.requests[0]?.wasAborted(), 2_000, 'the upstream request to be dropped');
  });

  test('a stream that goes quiet for longer than the idle timeout is an error after its tokens', async () => {
    useEngine({ timeoutMs: 2_000, idleTimeoutMs: 300 });
    upstream.setScript((_request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Add one' } }] })}\n\n`);
    });
    const result = await streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
    assert.deepEqual(result.events.slice(-2).map((event) => event.event), ['token', 'error']);
    assert.match(result.events.at(-1)!.data.error.message, /did not answer in time/);
  });

  test('a stream cut off without [DONE] is an error, not a complete answer', async () => {
    upstream.setScript((_request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Add one' } }] })}\n\n`);
    });
    const result = await streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
    assert.equal(result.events.at(-1)!.event, 'error');
    assert.equal((await settledAnswer(server.db, result.events[0]!.data.answerId)).status, 'failed');
  });

  test('a client that goes away aborts the upstream request', async () => {
    upstream.setScript(streamDeltas(Array.from({ length: 200 }, (_, index) => `word${index} `), 20));
    const result = await streamRequest(server.url, CHAT, {
      token: 'ws_test_help',
      body: { message: 'How do I install the widget?' },
      stopWhen: (event) => event.event === 'token',
    });
    assert.equal(result.events.at(-1)!.event, 'token');
    await upstream.requests[0]!.aborted;
    assert.equal(upstream.requests[0]!.wasAborted(), true);
    assert.deepEqual(await settledAnswer(server.db, result.events[0]!.data.answerId), { status: 'aborted', credit: 'spent' });
  });

  test('a server that ignores stream: true and answers one JSON object still works', async () => {
    upstream.setScript((_request, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Whole answer [1].' } }] }));
    });
    const response = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
    assert.equal(response.json.text, 'Whole answer [1].');
  });
});

test('the upstream stream parser copes with events split anywhere and CRLF line ends', () => {
  const stream = 'data: {"a":1}\r\n\r\ndata: [DONE]\n\n';
  for (let cut = 0; cut <= stream.length; cut++) {
    const parser = new DataLineParser();
    const payloads = [...parser.push(stream.slice(0, cut)), ...parser.push(stream.slice(cut))];
    assert.deepEqual(payloads, ['{"a":1}', '[DONE]'], `cut at ${cut}`);
  }
});

describe('the grounding of "How do I …?" and a reference page that says in its opening line what it is for', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(10_000) });
    own.context.services.answerEngine = createOpenAiEngine({ baseUrl: upstream.baseUrl, model: 'test-model', apiKey: 'sk-test' });
    const push = async (slug: string, title: string, lines: string[]) => {
      const response = await own.request('POST', '/api/v1/acme/sources/docs/pages', { token: 'ak_test_all', body: { url: `https://acme.test/docs/${slug}`, title, content: lines.join('\n') } });
      assert.equal(response.status, 201, response.text);
    };
    await push('sync-orders', 'SYNC ORDERS', [
      '# SYNC ORDERS',
      '',
      'SYNC ORDERS — copy orders between two shops',
      '',
      '## Description',
      '',
      '`SYNC ORDERS` reads the orders of one shop and writes them to another, with their numbers.',
    ]);
    await push('shop-exports', 'Shop exports', [
      '# Shop exports',
      '',
      '## Copying Orders Between Shops Using Export Files',
      '',
      'An export file of orders can be copied to another shop, and read there by its import. Orders copied between shops this way get new numbers.',
    ]);
  });
  after(() => own.stop());

  const groundingOf = async (question: string) => {
    upstream.setScript(streamDeltas(['An answer [1].']));
    upstream.requests.length = 0;
    await own.request('POST', CHAT, { token: 'ws_test_help', body: { message: question } });
    const system: string = upstream.requests[0]!.body.messages[0].content;
    return [...system.matchAll(/^\[\d+\] .*\((\S+)\)$/gm)].map((match) => match[1]);
  };

  test('the page that does what is asked comes first, before a section headed by the same words that does it another way', async () => {
    const urls = await groundingOf('How do I copy orders between shops?');
    assert.equal(urls[0], 'https://acme.test/docs/sync-orders', urls.join(' '));
  });

  test('a question that does not ask how to do it is grounded first in the section about it', async () => {
    const urls = await groundingOf('Do orders copied between shops keep their numbers?');
    assert.equal(urls[0], 'https://acme.test/docs/shop-exports#copying-orders-between-shops-using-export-files', urls.join(' '));
  });
});
