/**
 * The admin analytics summary after a scripted funnel: searches (recorded in search_queries,
 * as the search route does), clicks through the events route, chats and summaries through
 * their routes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AnalyticsQuery } from '../../server/schema/admin-requests.js';
import { parseInput } from '../../server/schema/parse.js';
import { startTestServer, type TestServer } from './harness.js';
import { SUMMARIZE, answerFixture, streamRequest } from './answer-helpers.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: answerFixture(), adminToken: 'admin_test' });
});
after(() => server.stop());

const ANALYTICS = '/api/v1/admin/organisations/acme/widgets/find/analytics';

async function search(id: string, sessionId: string, query: string, hitCount: number, daysAgo = 0) {
  // What the search route writes for every search (002_search.sql).
  await server.db.query(
    `INSERT INTO search_queries (id, organisation_id, widget_id, session_id, query, hit_count, created_at)
     VALUES ($1, 'acme', 'find', $2, $3, $4, now() - make_interval(days => $5))`,
    [id, sessionId, query, hitCount, daysAgo],
  );
}

async function clicks(sessionId: string, events: { queryId?: string; rank?: number; url: string }[]) {
  const response = await server.request('POST', '/api/v1/acme/widgets/find/events', {
    origin: 'https://acme.test',
    rawBody: JSON.stringify({ sessionId, events: events.map(({ queryId, rank, url }) => ({ name: 'click', props: { url, rank, source: 'result' }, queryId })) }),
    headers: { 'Content-Type': 'text/plain' },
  });
  assert.equal(response.status, 202);
}

describe('widget analytics', () => {
  before(async () => {
    // Session A: searches "install" (clicks result 1 twice), then "Install " again (no click).
    await search('q_a1', 's_a', 'install', 3);
    await search('q_a2', 's_a', 'Install ', 3);
    await clicks('s_a', [
      { queryId: 'q_a1', rank: 1, url: 'https://acme.test/docs/install' },
      { queryId: 'q_a1', rank: 1, url: 'https://acme.test/docs/install' },
    ]);
    // Session B: "proxy" (clicks result 3), "zxqv" (nothing found).
    await search('q_b1', 's_b', 'proxy', 2);
    await search('q_b2', 's_b', 'zxqv', 0);
    await clicks('s_b', [{ queryId: 'q_b1', rank: 3, url: 'https://acme.test/docs/proxy' }]);
    // A click without a query (e.g. from the summary) and one with no rank.
    await clicks('s_b', [{ url: 'https://acme.test/docs/colours' }]);
    // Outside the default period: 40 days ago.
    await search('q_old', 's_old', 'ancient', 0, 40);
    // Two summaries (one produced, one with nothing to summarise) and a chat on another widget.
    const produced = await server.request('POST', '/api/v1/acme/widgets/find/summarize', { token: 'ws_test_find', body: { query: 'accent colour', sessionId: 's_a' } });
    assert.equal(produced.json.summarized, true);
    const empty = await server.request('POST', '/api/v1/acme/widgets/find/summarize', { token: 'ws_test_find', body: { query: 'zxqv', sessionId: 's_b' } });
    assert.equal(empty.json.summarized, false);
    await server.request('POST', '/api/v1/acme/widgets/help/chat', { token: 'ws_test_help', body: { message: 'How do I install the widget?' } });
  });

  test('top queries, queries without results, click-through, clicks by rank, answers and credits', async () => {
    const response = await server.request('GET', ANALYTICS, { token: 'admin_test' });
    assert.equal(response.status, 200);
    const report = response.json;
    assert.equal(report.widget, 'acme/find');
    assert.equal(report.searches, 4);
    assert.deepEqual(report.topQueries, [
      { query: 'install', searches: 2 },
      { query: 'proxy', searches: 1 },
      { query: 'zxqv', searches: 1 },
    ]);
    assert.deepEqual(report.noResultQueries, [{ query: 'zxqv', searches: 1 }]);
    assert.equal(report.clicks, 4);
    assert.equal(report.searchesWithClicks, 2);
    assert.equal(report.clickThroughRate, 0.5);
    assert.deepEqual(report.clicksByRank, [
      { rank: 1, clicks: 2 },
      { rank: 3, clicks: 1 },
      { rank: null, clicks: 1 },
    ]);
    assert.deepEqual(report.answers, { chat: 0, summaries: 1, total: 1 });
    assert.equal(report.creditsSpent, 1);
    assert.equal(report.sessions, 2);
    assert.deepEqual(report.feedback, { helpful: 0, unhelpful: 0, helpfulRate: null, unhelpfulAnswers: [] });
    const days = (Date.parse(report.to) - Date.parse(report.from)) / 86_400_000;
    assert.equal(days, 30);
  });

  test('the chat widget counts its own answers', async () => {
    const response = await server.request('GET', '/api/v1/admin/organisations/acme/widgets/help/analytics', { token: 'admin_test' });
    assert.deepEqual(response.json.answers, { chat: 1, summaries: 0, total: 1 });
    assert.equal(response.json.creditsSpent, 1);
    assert.equal(response.json.searches, 0);
    assert.equal(response.json.clickThroughRate, 0);
  });

  test('a period picks what happened in it', async () => {
    const from = new Date(Date.now() - 45 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() - 35 * 86_400_000).toISOString().slice(0, 10);
    const response = await server.request('GET', `${ANALYTICS}?from=${from}&to=${to}`, { token: 'admin_test' });
    assert.equal(response.status, 200);
    assert.equal(response.json.searches, 1);
    assert.deepEqual(response.json.noResultQueries, [{ query: 'ancient', searches: 1 }]);
    assert.equal(response.json.clicks, 0);
  });

  test('dates: ISO days include the whole `to` day; bad input is 400', async () => {
    const period = parseInput(AnalyticsQuery, { from: '2025-01-01', to: '2025-01-31' });
    assert.equal(period.from.toISOString(), '2025-01-01T00:00:00.000Z');
    assert.equal(period.to.toISOString(), '2025-02-01T00:00:00.000Z');
    for (const query of ['?from=yesterday', '?to=2025-13-45', '?from=2025-02-01&to=2025-01-01']) {
      const response = await server.request('GET', ANALYTICS + query, { token: 'admin_test' });
      assert.equal(response.status, 400, query);
      assert.equal(response.json.error.code, 'invalid_request');
    }
  });

  test('needs the admin token, and a widget that exists', async () => {
    assert.equal((await server.request('GET', ANALYTICS)).status, 401);
    assert.equal((await server.request('GET', ANALYTICS, { token: 'ak_test_all' })).status, 401);
    assert.equal((await server.request('GET', '/api/v1/admin/organisations/acme/widgets/nope/analytics', { token: 'admin_test' })).status, 404);
  });
});

describe('answer feedback in analytics', () => {
  const rate = async (widget: string, sessionId: string, answerId: string, value: string, comment?: string) => {
    const response = await server.request('POST', `/api/v1/acme/widgets/${widget}/events`, {
      origin: 'https://acme.test',
      body: { sessionId, events: [{ name: 'feedback', props: { answerId, value, ...(comment && { comment }) } }] },
    });
    assert.equal(response.status, 202);
  };
  const ask = async (sessionId: string, message: string, conversationId?: string) => {
    const response = await server.request('POST', '/api/v1/acme/widgets/help/chat', { token: 'ws_test_help', body: { message, sessionId, ...(conversationId && { conversationId }) } });
    assert.equal(response.status, 200);
    return response.json as { answerId: string; conversationId: string };
  };

  test('helpful rate, and the answers marked unhelpful with their questions, newest first', async () => {
    const first = await ask('s_fb', 'How do I install the widget?');
    const second = await ask('s_fb', 'And behind a proxy?', first.conversationId);
    const third = await ask('s_fb2', 'Which colours can I set?');
    await rate('help', 's_fb', first.answerId, 'helpful');
    await rate('help', 's_fb', second.answerId, 'unhelpful', 'Nothing about proxies.');
    await rate('help', 's_fb2', third.answerId, 'helpful');
    // Changing one's mind replaces the rating.
    await rate('help', 's_fb2', third.answerId, 'unhelpful');
    const summary = await streamRequest(server.url, SUMMARIZE, { token: 'ws_test_find', body: { query: 'accent colour', sessionId: 's_fb' } });
    const summaryId = summary.events.find((event) => event.event === 'meta')!.data.answerId as string;
    await rate('find', 's_fb', summaryId, 'unhelpful', 'Too short');

    const help = (await server.request('GET', '/api/v1/admin/organisations/acme/widgets/help/analytics', { token: 'admin_test' })).json;
    assert.equal(help.feedback.helpful, 1);
    assert.equal(help.feedback.unhelpful, 2);
    assert.equal(help.feedback.helpfulRate, 0.3333);
    assert.deepEqual(
      help.feedback.unhelpfulAnswers.map(({ answerId, kind, question, comment }: Record<string, unknown>) => ({ answerId, kind, question, comment })),
      [
        { answerId: third.answerId, kind: 'chat', question: 'Which colours can I set?', comment: null },
        { answerId: second.answerId, kind: 'chat', question: 'And behind a proxy?', comment: 'Nothing about proxies.' },
      ],
    );
    const find = (await server.request('GET', ANALYTICS, { token: 'admin_test' })).json;
    assert.deepEqual(
      find.feedback.unhelpfulAnswers.map(({ kind, question, comment }: Record<string, unknown>) => ({ kind, question, comment })),
      [{ kind: 'summary', question: 'accent colour', comment: 'Too short' }],
    );
    assert.equal(find.feedback.helpfulRate, 0);
  });
});
