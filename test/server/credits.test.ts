/**
 * Answer credits: spent atomically, one per chat answer and per produced summary, and the
 * rule for answers that do not make it (server/store/answers.ts): refunded when the answer
 * fails or the client leaves before the first piece of text was sent; spent once text went out.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AnswerEngine } from '../../server/answer/engine.js';
import { createEmbeddedEngine } from '../../server/answer/embedded.js';
import { createOpenAiEngine } from '../../server/answer/openai.js';
import { startTestServer, type TestServer } from './harness.js';
import {
  CHAT,
  CONVERSATIONS,
  SUMMARIZE,
  answerFixture,
  credits,
  settledAnswer,
  signed,
  startUpstream,
  streamDeltas,
  streamRequest,
  visitorQuery,
} from './answer-helpers.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: answerFixture() });
});
after(() => server.stop());

const setCredits = (value: number) => server.db.query("UPDATE organisations SET credits = $1 WHERE id = 'acme'", [value]);
const useEngine = (engine: AnswerEngine) => (server.context.services.answerEngine = engine);

describe('spending credits', () => {
  test('20 parallel chats against 5 credits give exactly 5 answers and 15 × 402 with search hits', async () => {
    useEngine(createEmbeddedEngine());
    await setCredits(5);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } })),
    );
    const answered = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 402);
    assert.equal(answered.length, 5);
    assert.equal(refused.length, 15);
    for (const response of refused) {
      assert.equal(response.json.error.code, 'credits_exhausted');
      assert.ok(Array.isArray(response.json.hits) && response.json.hits.length > 0, 'the 402 carries search hits to fall back to');
      const hit = response.json.hits[0];
      for (const field of ['id', 'pageId', 'url', 'title', 'snippet', 'source', 'score']) assert.ok(field in hit, `hit has ${field}`);
      assert.equal('text' in hit, false);
    }
    assert.equal(await credits(server.db), 0);
    const ids = answered.map((response) => response.json.answerId);
    const rows = await server.db.query<{ credit: string }>('SELECT credit FROM answers WHERE id = ANY($1::text[])', [ids]);
    assert.deepEqual(rows.map((row) => row.credit), ['spent', 'spent', 'spent', 'spent', 'spent']);
  });

  test('20 parallel summaries against 5 credits give exactly 5 summaries; the rest say summarized: false', async () => {
    useEngine(createEmbeddedEngine());
    await setCredits(5);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query: 'accent colour' } })),
    );
    assert.ok(responses.every((response) => response.status === 200));
    assert.equal(responses.filter((response) => response.json.summarized === true).length, 5);
    const empty = responses.filter((response) => response.json.summarized === false);
    assert.equal(empty.length, 15);
    for (const response of empty) assert.deepEqual([response.json.text, response.json.sources], ['', []]);
    assert.equal(await credits(server.db), 0);
  });

  test('at zero credits a streamed chat is refused with 402 before any streaming', async () => {
    await setCredits(0);
    const result = await streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
    assert.equal(result.status, 402);
    assert.match(result.headers.get('content-type')!, /application\/json/);
    assert.equal(result.json.error.code, 'credits_exhausted');
    assert.ok(result.json.hits.length > 0);
    const streamedSummary = await streamRequest(server.url, SUMMARIZE, { token: 'ws_test_find', body: { query: 'accent colour' } });
    assert.deepEqual(streamedSummary.events.at(-1), { id: '2', event: 'done', data: { summarized: false, text: '', sources: [] } });
  });

  test('at zero credits the hits a chat falls back to have snippets, also those only answer retrieval finds ("folder" for the page\'s "directory")', async () => {
    const pushed = await server.request('POST', '/api/v1/acme/sources/docs/pages', {
      token: 'ak_test_all',
      body: { url: 'https://acme.test/docs/logs', title: 'Logs', content: '# Logs\n\nThe server writes its logs to the logs directory of its data directory.' },
    });
    assert.equal(pushed.status, 201, pushed.text);
    await setCredits(0);
    const { status, json } = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'Which folder?' } });
    assert.equal(status, 402);
    const hit = json.hits.find((candidate: { url: string }) => candidate.url === 'https://acme.test/docs/logs');
    assert.ok(hit, JSON.stringify(json.hits));
    assert.match(hit.snippet, /<mark>directory<\/mark>/);
  });

  test('at zero credits nothing is stored: no conversation starts', async () => {
    await setCredits(0);
    const before = await server.db.query('SELECT id FROM conversations');
    await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?', user: signed('broke') } });
    assert.deepEqual(await server.db.query('SELECT id FROM conversations'), before);
    const list = await server.request('GET', `${CONVERSATIONS}${visitorQuery('broke')}`, { token: 'ws_test_help' });
    assert.deepEqual(list.json.conversations, []);
  });
});

describe('the rule for answers that do not make it', () => {
  test('a client that leaves before the first token gets its credit back', async () => {
    useEngine(createEmbeddedEngine({ tokenDelayMs: 400 }));
    await setCredits(3);
    const result = await streamRequest(server.url, CHAT, {
      token: 'ws_test_help',
      body: { message: 'How do I install the widget?', user: signed('early-leaver') },
      stopWhen: (event) => event.event === 'status' && event.data.status === 'generating',
    });
    const answer = await settledAnswer(server.db, result.events[0]!.data.answerId);
    assert.deepEqual(answer, { status: 'aborted', credit: 'refunded' });
    assert.equal(await credits(server.db), 3);
    // Nothing was said, so the transcript has the question and no empty reply.
    const conversation = await server.request('GET', `${CONVERSATIONS}/${result.events[0]!.data.conversationId}${visitorQuery('early-leaver')}`, { token: 'ws_test_help' });
    assert.deepEqual(conversation.json.messages.map((message: { role: string }) => message.role), ['user']);
  });

  test('a client that leaves after text went out has spent the credit', async () => {
    useEngine(createEmbeddedEngine({ tokenDelayMs: 50, wordsPerPiece: 1 }));
    await setCredits(3);
    const result = await streamRequest(server.url, CHAT, {
      token: 'ws_test_help',
      body: { message: 'How do I install the widget?' },
      stopWhen: (event) => event.event === 'token',
    });
    const answer = await settledAnswer(server.db, result.events[0]!.data.answerId);
    assert.deepEqual(answer, { status: 'aborted', credit: 'spent' });
    assert.equal(await credits(server.db), 2);
  });

  test('a JSON request abandoned before its reply gets its credit back', async () => {
    useEngine(createEmbeddedEngine({ tokenDelayMs: 300 }));
    await setCredits(3);
    const controller = new AbortController();
    const pending = fetch(server.url + CHAT, {
      method: 'POST',
      headers: { Authorization: 'Bearer ws_test_help', 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'How do I install the widget?', sessionId: 's_json_leaver' }),
      signal: controller.signal,
    }).catch(() => undefined);
    const [row] = await waitForAnswer('s_json_leaver');
    controller.abort();
    await pending;
    assert.deepEqual(await settledAnswer(server.db, row.id), { status: 'aborted', credit: 'refunded' });
    assert.equal(await credits(server.db), 3);
  });

  test('a generation that fails before any token gets its credit back', async () => {
    const upstream = await startUpstream((_request, res) => {
      res.writeHead(503, { 'Content-Type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
    });
    try {
      useEngine(createOpenAiEngine({ baseUrl: upstream.baseUrl, model: 'test-model' }));
      await setCredits(3);
      const result = await streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
      const last = result.events.at(-1)!;
      assert.equal(last.event, 'error');
      assert.equal(last.data.error.code, 'internal');
      assert.deepEqual(await settledAnswer(server.db, result.events[0]!.data.answerId), { status: 'failed', credit: 'refunded' });
      assert.equal(await credits(server.db), 3);
    } finally {
      await upstream.close();
    }
  });

  test('a generation that fails after text went out has spent the credit, and its message stays incomplete', async () => {
    const upstream = await startUpstream((_request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Add one script ' } }] })}\n\n`);
      res.end(`data: ${JSON.stringify({ error: { message: 'model crashed' } })}\n\n`);
    });
    try {
      useEngine(createOpenAiEngine({ baseUrl: upstream.baseUrl, model: 'test-model' }));
      await setCredits(3);
      const result = await streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?', user: signed('crash') } });
      assert.deepEqual(result.events.filter((event) => event.event === 'token').map((event) => event.data.delta), ['Add one script ']);
      assert.equal(result.events.at(-1)!.event, 'error');
      assert.deepEqual(await settledAnswer(server.db, result.events[0]!.data.answerId), { status: 'failed', credit: 'spent' });
      assert.equal(await credits(server.db), 2);
      const conversation = await server.request('GET', `${CONVERSATIONS}/${result.events[0]!.data.conversationId}${visitorQuery('crash')}`, { token: 'ws_test_help' });
      const reply = conversation.json.messages[1];
      assert.deepEqual([reply.text, reply.complete], ['Add one script ', false]);
    } finally {
      await upstream.close();
      useEngine(createEmbeddedEngine());
    }
  });
});

async function waitForAnswer(sessionId: string): Promise<{ id: string }[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const rows = await server.db.query<{ id: string }>('SELECT id FROM answers WHERE session_id = $1', [sessionId]);
    if (rows.length > 0) return rows;
    if (Date.now() > deadline) throw new Error('the answer never started');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// Keeps the streamDeltas helper exercised here too: a normal answer spends exactly one credit.
test('a complete answer from the language model spends one credit', async () => {
  const upstream = await startUpstream(streamDeltas(['Add one ', 'script tag [1].']));
  try {
    useEngine(createOpenAiEngine({ baseUrl: upstream.baseUrl, model: 'test-model' }));
    await setCredits(3);
    const response = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
    assert.equal(response.json.text, 'Add one script tag [1].');
    assert.equal(await credits(server.db), 2);
  } finally {
    await upstream.close();
    useEngine(createEmbeddedEngine());
  }
});
