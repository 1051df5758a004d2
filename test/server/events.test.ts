import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.js';
import { SUMMARIZE, answerFixture, signed, streamRequest } from './answer-helpers.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: answerFixture() });
});
after(() => server.stop());

const FIND_EVENTS = '/api/v1/acme/widgets/find/events';
const HELP_EVENTS = '/api/v1/acme/widgets/help/events';
const click = (overrides: Record<string, unknown> = {}) => ({ name: 'click', props: { url: 'https://acme.test/docs/install', rank: 1, source: 'result' }, ...overrides });

async function stored(sessionId: string) {
  return server.db.query<{ widget_id: string; query_id: string | null; name: string; url: string; rank: number | null; source: string | null; client_time: Date | null }>(
    'SELECT widget_id, query_id, name, url, rank, source, client_time FROM analytics_events WHERE session_id = $1 ORDER BY id',
    [sessionId],
  );
}

describe('events', () => {
  test('JSON clicks are accepted with 202 and an empty body, and stored with their session and query', async () => {
    const response = await server.request('POST', FIND_EVENTS, {
      token: 'ws_test_find',
      body: { sessionId: 's_json', events: [click({ queryId: 'q_1', ts: '2025-03-01T10:00:00.000Z' }), click({ props: { url: 'https://acme.test/docs/proxy' } })] },
    });
    assert.equal(response.status, 202);
    assert.equal(response.text, '');
    const rows = await stored('s_json');
    assert.equal(rows.length, 2);
    assert.deepEqual({ ...rows[0], client_time: new Date(rows[0]!.client_time!).toISOString() }, {
      widget_id: 'find',
      query_id: 'q_1',
      name: 'click',
      url: 'https://acme.test/docs/install',
      rank: 1,
      source: 'result',
      client_time: '2025-03-01T10:00:00.000Z',
    });
    assert.deepEqual([rows[1]!.query_id, rows[1]!.rank, rows[1]!.source], [null, null, null]);
  });

  test('text/plain JSON from a listed website is accepted (what sendBeacon sends)', async () => {
    const response = await server.request('POST', FIND_EVENTS, {
      origin: 'https://acme.test',
      rawBody: JSON.stringify({ sessionId: 's_beacon', events: [click()] }),
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    });
    assert.equal(response.status, 202);
    assert.equal(response.headers.get('access-control-allow-origin'), 'https://acme.test');
    assert.equal((await stored('s_beacon')).length, 1);
  });

  test('chat widgets take events too, and API keys with any widget permission', async () => {
    assert.equal((await server.request('POST', HELP_EVENTS, { token: 'ws_test_help', body: { sessionId: 's_chat', events: [click()] } })).status, 202);
    assert.equal((await server.request('POST', HELP_EVENTS, { token: 'ak_test_all', body: { sessionId: 's_chat', events: [click()] } })).status, 202);
    const readOnly = await server.request('POST', HELP_EVENTS, { token: 'ak_test_read', body: { sessionId: 's_chat', events: [click()] } });
    assert.equal(readOnly.json.error.code, 'permission_denied');
    const foreignSite = await server.request('POST', FIND_EVENTS, { origin: 'https://evil.test', rawBody: '{}', headers: { 'Content-Type': 'text/plain' } });
    assert.equal(foreignSite.json.error.code, 'origin_not_allowed');
  });

  test('a body over 64 KiB is 413', async () => {
    const events = Array.from({ length: 60 }, () => click({ props: { url: `https://acme.test/${'x'.repeat(1200)}` } }));
    const response = await server.request('POST', FIND_EVENTS, { token: 'ws_test_find', body: { sessionId: 's_big', events } });
    assert.equal(response.status, 413);
    assert.equal(response.json.error.code, 'payload_too_large');
    assert.deepEqual(await stored('s_big'), []);
  });

  test('anything malformed is 400 naming the field, and nothing of it is stored', async () => {
    const cases: [unknown, RegExp][] = [
      [{ events: [click()] }, /sessionId/],
      [{ sessionId: 'has spaces', events: [click()] }, /sessionId/],
      [{ sessionId: 's_bad' }, /events/],
      [{ sessionId: 's_bad', events: [] }, /events/],
      [{ sessionId: 's_bad', events: 'click' }, /events/],
      [{ sessionId: 's_bad', events: Array.from({ length: 101 }, () => click()) }, /events/],
      [{ sessionId: 's_bad', events: [click(), 'click'] }, /events\[1\]/],
      [{ sessionId: 's_bad', events: [click({ name: 'view' })] }, /events\[0\]\.name/],
      [{ sessionId: 's_bad', events: [click({ props: undefined })] }, /events\[0\]\.props/],
      [{ sessionId: 's_bad', events: [click({ props: { rank: 1 } })] }, /events\[0\]\.props\.url/],
      [{ sessionId: 's_bad', events: [click({ props: { url: '' } })] }, /props\.url/],
      [{ sessionId: 's_bad', events: [click({ props: { url: 'https://a.test', rank: '1' } })] }, /props\.rank/],
      [{ sessionId: 's_bad', events: [click({ props: { url: 'https://a.test', rank: 1.5 } })] }, /props\.rank/],
      [{ sessionId: 's_bad', events: [click({ props: { url: 'https://a.test', source: 7 } })] }, /props\.source/],
      [{ sessionId: 's_bad', events: [click({ props: { url: 'https://a.test', extra: true } })] }, /props\.extra/],
      [{ sessionId: 's_bad', events: [click({ queryId: 42 })] }, /queryId/],
      [{ sessionId: 's_bad', events: [click({ ts: 'yesterday' })] }, /ts/],
      [{ sessionId: 's_bad', events: [click({ colour: 'red' })] }, /events\[0\]\.colour/],
      [{ sessionId: 's_bad', events: [click()], extra: 1 }, /extra/],
    ];
    for (const [body, field] of cases) {
      const response = await server.request('POST', FIND_EVENTS, { token: 'ws_test_find', body });
      assert.equal(response.status, 400, JSON.stringify(body).slice(0, 200));
      assert.equal(response.json.error.code, 'invalid_request');
      assert.match(response.json.error.message, field);
    }
    const notJson = await server.request('POST', FIND_EVENTS, { token: 'ws_test_find', rawBody: 'sessionId=s', headers: { 'Content-Type': 'text/plain' } });
    assert.equal(notJson.status, 400);
    const wrongType = await server.request('POST', FIND_EVENTS, { token: 'ws_test_find', rawBody: '<xml/>', headers: { 'Content-Type': 'application/xml' } });
    assert.equal(wrongType.status, 415);
    assert.deepEqual(await stored('s_bad'), []);
  });

  test('any unicode is stored; text the database cannot hold is 400, not a server error', async () => {
    const response = await server.request('POST', FIND_EVENTS, {
      token: 'ws_test_find',
      body: { sessionId: 's_odd', events: [click({ props: { url: 'https://acme.test/é😀/日本', source: 'résumé' } })] },
    });
    assert.equal(response.status, 202);
    const [row] = await stored('s_odd');
    assert.equal(row!.url, 'https://acme.test/é😀/日本');
    for (const url of ['https://acme.test/\u0000', 'https://acme.test/\ud800']) {
      const refused = await server.request('POST', FIND_EVENTS, { token: 'ws_test_find', body: { sessionId: 's_odd', events: [click({ props: { url } })] } });
      assert.equal(refused.status, 400);
    }
  });
});

describe('answer feedback', () => {
  const feedback = (answerId: string, value: string, comment?: string) => ({ name: 'feedback', props: { answerId, value, ...(comment !== undefined && { comment }) } });
  const rating = async (answerId: string) =>
    (await server.db.query<{ value: string; comment: string | null; session_id: string }>('SELECT value, comment, session_id FROM answer_feedback WHERE answer_id = $1', [answerId]))[0];
  let chatAnswer: string;
  let summaryAnswer: string;

  before(async () => {
    const chat = await server.request('POST', '/api/v1/acme/widgets/help/chat', { token: 'ws_test_help', body: { message: 'How do I install the widget?', sessionId: 's_rater' } });
    assert.equal(chat.status, 200);
    chatAnswer = chat.json.answerId;
    const summary = await streamRequest(server.url, SUMMARIZE, { token: 'ws_test_find', body: { query: 'accent colour', sessionId: 's_rater' } });
    summaryAnswer = summary.events.find((event) => event.event === 'meta')!.data.answerId;
    assert.match(summaryAnswer, /^a_/);
  });

  test('the session that received an answer rates it; a later rating replaces the first', async () => {
    const first = await server.request('POST', HELP_EVENTS, { origin: 'https://acme.test', body: { sessionId: 's_rater', events: [feedback(chatAnswer, 'unhelpful', '  Misses the proxy step.  ')] } });
    assert.equal(first.status, 202);
    assert.deepEqual(await rating(chatAnswer), { value: 'unhelpful', comment: 'Misses the proxy step.', session_id: 's_rater' });
    const changed = await server.request('POST', HELP_EVENTS, { origin: 'https://acme.test', body: { sessionId: 's_rater', events: [feedback(chatAnswer, 'helpful')] } });
    assert.equal(changed.status, 202);
    assert.deepEqual(await rating(chatAnswer), { value: 'helpful', comment: null, session_id: 's_rater' });
    const count = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM answer_feedback WHERE answer_id = $1', [chatAnswer]);
    assert.equal(count[0]!.n, 1);
  });

  test('summaries are rated through the search widget, as text/plain too (sendBeacon)', async () => {
    const response = await server.request('POST', FIND_EVENTS, {
      origin: 'https://acme.test',
      rawBody: JSON.stringify({ sessionId: 's_rater', events: [click(), feedback(summaryAnswer, 'unhelpful')] }),
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    });
    assert.equal(response.status, 202);
    assert.equal((await rating(summaryAnswer))!.value, 'unhelpful');
  });

  test("another session, another widget's answer or an unknown id is 400, and nothing of the body is stored", async () => {
    const cases: [string, string, string][] = [
      [HELP_EVENTS, 's_stranger', chatAnswer],
      [FIND_EVENTS, 's_rater', chatAnswer],
      [HELP_EVENTS, 's_rater', 'a_doesnotexist'],
    ];
    for (const [path, sessionId, answerId] of cases) {
      const response = await server.request('POST', path, { origin: 'https://acme.test', body: { sessionId, events: [click(), feedback(answerId, 'unhelpful')] } });
      assert.equal(response.status, 400);
      assert.equal(response.json.error.code, 'invalid_request');
      assert.match(response.json.error.message, /events\[1\]\.props\.answerId/);
    }
    assert.deepEqual(await stored('s_stranger'), []);
    assert.equal((await rating(chatAnswer))!.value, 'helpful');
  });

  test("a signed visitor rates their conversation's answers from another session; nobody else can, not even the session it was streamed to", async () => {
    const alice = signed('alice-feedback');
    const chat = await server.request('POST', '/api/v1/acme/widgets/help/chat', {
      token: 'ws_test_help',
      body: { message: 'How do I install the widget?', user: alice, sessionId: 's_alice_laptop' },
    });
    assert.equal(chat.status, 200);
    const answerId: string = chat.json.answerId;
    const rate = (sessionId: string, user?: unknown) =>
      server.request('POST', HELP_EVENTS, { origin: 'https://acme.test', body: { sessionId, ...(user !== undefined && { user }), events: [feedback(answerId, 'unhelpful')] } });

    // Signed out on the laptop (the next visitor of a shared browser), someone else, a forged hash.
    for (const [sessionId, user] of [
      ['s_alice_laptop', undefined],
      ['s_alice_laptop', signed('bob-feedback')],
      ['s_alice_phone', undefined],
    ] as const) {
      const refused = await rate(sessionId, user);
      assert.equal(refused.status, 400, `${sessionId} ${user?.id}`);
      assert.match(refused.json.error.message, /events\[0\]\.props\.answerId/);
    }
    const forged = await rate('s_alice_phone', { id: 'alice-feedback', hash: signed('alice-feedback', 'not-the-secret').hash });
    assert.equal(forged.status, 403);
    assert.equal(forged.json.error.code, 'invalid_identity');
    const malformed = await rate('s_alice_phone', 'alice-feedback');
    assert.equal(malformed.status, 400);
    assert.match(malformed.json.error.message, /`user`/);
    assert.equal(await rating(answerId), undefined);

    // Alice, signed in on her phone: another session, the same verified visitor.
    const fromPhone = await rate('s_alice_phone', alice);
    assert.equal(fromPhone.status, 202);
    assert.deepEqual(await rating(answerId), { value: 'unhelpful', comment: null, session_id: 's_alice_phone' });
  });

  test('a signed visitor still rates anonymous answers only from the session that received them', async () => {
    const chat = await server.request('POST', '/api/v1/acme/widgets/help/chat', { token: 'ws_test_help', body: { message: 'How do I install the widget?', sessionId: 's_anonymous' } });
    const answerId: string = chat.json.answerId;
    const elsewhere = await server.request('POST', HELP_EVENTS, {
      origin: 'https://acme.test',
      body: { sessionId: 's_elsewhere', user: signed('alice-feedback'), events: [feedback(answerId, 'helpful')] },
    });
    assert.equal(elsewhere.status, 400);
    const same = await server.request('POST', HELP_EVENTS, {
      origin: 'https://acme.test',
      body: { sessionId: 's_anonymous', user: signed('alice-feedback'), events: [feedback(answerId, 'helpful')] },
    });
    assert.equal(same.status, 202);
    assert.equal((await rating(answerId))!.value, 'helpful');
  });

  test('malformed feedback is 400 naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [feedback(chatAnswer, 'meh'), /props\.value/],
      [feedback('', 'helpful'), /props\.answerId/],
      [{ name: 'feedback', props: { value: 'helpful' } }, /props\.answerId/],
      [feedback(chatAnswer, 'unhelpful', 'x'.repeat(1001)), /props\.comment/],
      [{ name: 'feedback', props: { answerId: chatAnswer, value: 'helpful', comment: 5 } }, /props\.comment/],
      [{ name: 'feedback', props: { answerId: chatAnswer, value: 'helpful', stars: 5 } }, /props\.stars/],
      [{ name: 'feedback' }, /events\[0\]\.props/],
    ];
    for (const [event, field] of cases) {
      const response = await server.request('POST', HELP_EVENTS, { token: 'ws_test_help', body: { sessionId: 's_rater', events: [event] } });
      assert.equal(response.status, 400, JSON.stringify(event).slice(0, 200));
      assert.match(response.json.error.message, field);
    }
    const longest = await server.request('POST', HELP_EVENTS, { token: 'ws_test_help', body: { sessionId: 's_rater', events: [feedback(chatAnswer, 'unhelpful', 'é'.repeat(1000))] } });
    assert.equal(longest.status, 202);
  });
});
