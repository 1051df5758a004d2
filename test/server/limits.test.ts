/**
 * What a stranger can send and what it costs: rate limits shared by every server on one
 * database, the client address behind trusted proxies, the daily events cap, answer slots,
 * idle connections, and dates outside what the database stores. Runs on PGlite and, with ASSIST_TEST_DATABASE_URL, on PostgreSQL.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { createApp } from '../../server/server.js';
import { createEmbeddedEngine } from '../../server/answer/embedded.js';
import { assertError, assertInvalidField } from './expect.js';
import { inOneRateWindow, request, startTestServer, type TestServer } from './harness.js';
import { parseFlags, serverOptions } from '../../server/options.js';
import { answerFixture, CHAT, SUMMARIZE, streamRequest } from './answer-helpers.js';

const SEARCH = '/api/v1/acme/widgets/find/search';
const EVENTS = '/api/v1/acme/widgets/find/events';
const clicks = (count: number) => ({
  sessionId: 's_limits',
  events: Array.from({ length: count }, (_, index) => ({ name: 'click', props: { url: `https://acme.test/start#${index}` } })),
});

/** A second server process's worth of app on the same database: its own memory, the same tables. */
async function secondInstance(server: TestServer): Promise<{ url: string; close(): Promise<void> }> {
  const { server: http, context } = createApp({ ...server.context, log: () => {} });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    async close() {
      context.services.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

describe('rate limits', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ fixture: answerFixture(), limits: { searchRateLimit: 3, eventsRateLimit: 2, trustProxy: 1 } });
  });
  after(() => server.stop());

  test('search over its limit is 429 with Retry-After, and a second instance on the same database counts with the first', async () => {
    await inOneRateWindow();
    const other = await secondInstance(server);
    try {
      const headers = { 'X-Forwarded-For': '198.51.100.7' };
      const ask = (base: string) => request(base, 'POST', SEARCH, { token: 'ws_test_find', headers, body: { query: 'install' } });
      assert.equal((await ask(server.url)).status, 200);
      assert.equal((await ask(other.url)).status, 200);
      assert.equal((await ask(server.url)).status, 200);
      const refused = await ask(other.url);
      assertError(refused, 429, 'rate_limited');
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      const stored = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM search_queries');
      assert.equal(stored[0]!.count, 3, 'a refused search stores nothing');
    } finally {
      await other.close();
    }
  });

  test('events over their limit are 429, and the refused ones are not stored', async () => {
    await inOneRateWindow();
    const headers = { 'X-Forwarded-For': '198.51.100.8' };
    const send = () => server.request('POST', EVENTS, { token: 'ws_test_find', headers, body: clicks(1) });
    assert.equal((await send()).status, 202);
    assert.equal((await send()).status, 202);
    assertError(await send(), 429, 'rate_limited');
    const stored = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM analytics_events WHERE session_id = 's_limits'");
    assert.equal(stored[0]!.count, 2);
  });

  test('behind one trusted proxy each X-Forwarded-For client has its own count; addresses the client wrote further left do not matter', async () => {
    await inOneRateWindow();
    const search = (forwardedFor: string) =>
      server.request('POST', SEARCH, { token: 'ws_test_find', headers: { 'X-Forwarded-For': forwardedFor }, body: { query: 'install' } });
    for (let index = 0; index < 3; index++) assert.equal((await search(`10.9.9.${index}, 203.0.113.1`)).status, 200);
    assertError(await search('10.9.9.99, 203.0.113.1'), 429, 'rate_limited', 'a forged address on the left is the same client');
    assert.equal((await search('203.0.113.2')).status, 200, 'another client');
  });

  test('without --trust-proxy, X-Forwarded-For is ignored: every request counts for the socket address', async () => {
    const direct = await startTestServer({ fixture: answerFixture(), limits: { searchRateLimit: 2 } });
    try {
      await inOneRateWindow();
      const search = (forwardedFor: string) =>
        direct.request('POST', SEARCH, { token: 'ws_test_find', headers: { 'X-Forwarded-For': forwardedFor }, body: { query: 'install' } });
      assert.equal((await search('203.0.113.10')).status, 200);
      assert.equal((await search('203.0.113.11')).status, 200);
      assertError(await search('203.0.113.12'), 429, 'rate_limited');
    } finally {
      await direct.stop();
    }
  });
});

describe('the daily events cap of an organisation', () => {
  test('events beyond eventsPerDay are dropped and counted, never stored; the admin API shows both', async () => {
    const fixture = answerFixture();
    (fixture.organisations[0] as Record<string, unknown>).eventsPerDay = 5;
    const server = await startTestServer({ fixture, adminToken: 'admin-token-for-limits-tests' });
    try {
      for (let index = 0; index < 3; index++) {
        assert.equal((await server.request('POST', EVENTS, { token: 'ws_test_find', body: clicks(3) })).status, 202, 'the sender sees no difference');
      }
      const stored = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM analytics_events WHERE organisation_id = 'acme'");
      assert.equal(stored[0]!.count, 5);
      const acme = await server.request('GET', '/api/v1/admin/organisations/acme', { token: 'admin-token-for-limits-tests' });
      assert.equal(acme.json.eventsPerDay, 5);
      assert.deepEqual(acme.json.eventsToday, { stored: 5, dropped: 4 });
      const raised = await server.request('PATCH', '/api/v1/admin/organisations/acme', { token: 'admin-token-for-limits-tests', body: { eventsPerDay: 6 } });
      assert.equal(raised.json.eventsPerDay, 6);
      await server.request('POST', EVENTS, { token: 'ws_test_find', body: clicks(2) });
      const after = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM analytics_events WHERE organisation_id = 'acme'");
      assert.equal(after[0]!.count, 6);
      assertInvalidField(
        await server.request('PATCH', '/api/v1/admin/organisations/acme', { token: 'admin-token-for-limits-tests', body: { eventsPerDay: -1 } }),
        'eventsPerDay',
      );
    } finally {
      await server.stop();
    }
  });
});

describe('--events-per-day', () => {
  test('is the cap of every organisation the fixture or the admin API creates without its own; one with its own keeps it', async () => {
    const flags = serverOptions(parseFlags(['--events-per-day', '4']).flags, {});
    assert.equal(flags.limits!.eventsPerDay, 4);
    assert.equal(serverOptions({}, { ASSIST_EVENTS_PER_DAY: '7' }).limits!.eventsPerDay, 7);
    assert.equal(serverOptions({}, {}).limits!.eventsPerDay, 100_000);
    assert.throws(() => serverOptions(parseFlags(['--events-per-day', '-1']).flags, {}), /--events-per-day must be a whole number from 0 to 1000000000/);
    assert.throws(() => serverOptions({}, { ASSIST_EVENTS_PER_DAY: 'lots' }), /--events-per-day must be a whole number/);

    const server = await startTestServer({ fixture: answerFixture(), adminToken: 'admin-token-for-limits-tests', limits: { eventsPerDay: flags.limits!.eventsPerDay } });
    try {
      for (let index = 0; index < 2; index++) await server.request('POST', EVENTS, { token: 'ws_test_find', body: clicks(3) });
      const stored = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM analytics_events WHERE organisation_id = 'acme'");
      assert.equal(stored[0]!.count, 4, 'the fixture organisation stores 4 of 6');
      const admin = (method: string, path: string, body?: unknown) => server.request(method, path, { token: 'admin-token-for-limits-tests', body });
      assert.equal((await admin('GET', '/api/v1/admin/organisations/acme')).json.eventsPerDay, 4);
      assert.equal((await admin('POST', '/api/v1/admin/organisations', { id: 'initech' })).json.eventsPerDay, 4);
      assert.equal((await admin('POST', '/api/v1/admin/organisations', { id: 'globex', eventsPerDay: 50 })).json.eventsPerDay, 50);
    } finally {
      await server.stop();
    }
  });
});

describe('answers in progress', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ fixture: answerFixture(1000), limits: { maxStreams: 2, maxStreamsPerClient: 1, trustProxy: 1 } });
    // Slow answers, so that they are still in progress when the next request comes.
    server.context.services.answerEngine = createEmbeddedEngine({ tokenDelayMs: 150, wordsPerPiece: 1 });
  });
  after(() => server.stop());

  const open = (client: string, path = CHAT) => {
    let started!: () => void;
    const begun = new Promise<void>((resolve) => (started = resolve));
    const finished = streamRequest(server.url, path, {
      token: path === CHAT ? 'ws_test_help' : 'ws_test_find',
      headers: { 'X-Forwarded-For': client },
      body: path === CHAT ? { message: 'How do I install the widget?' } : { query: 'install the widget' },
      stopWhen: (event) => {
        if (event.event === 'meta') started();
        return false;
      },
    });
    return { begun, finished };
  };

  test('one client beyond its answers at once gets 429 with Retry-After; when its answer ends it may ask again', async () => {
    const first = open('198.51.100.20');
    await first.begun;
    const second = await streamRequest(server.url, SUMMARIZE, {
      token: 'ws_test_find',
      headers: { 'X-Forwarded-For': '198.51.100.20' },
      body: { query: 'install the widget' },
    });
    assert.equal(second.status, 429);
    assert.equal(second.json.error.code, 'rate_limited');
    assert.equal(second.headers.get('retry-after'), '5');
    await first.finished;
    const again = open('198.51.100.20');
    await again.begun;
    await again.finished;
  });

  test('beyond the answers the server takes at once, every client gets 429 with Retry-After', async () => {
    const first = open('198.51.100.30');
    const second = open('198.51.100.31');
    await Promise.all([first.begun, second.begun]);
    const third = await server.request('POST', CHAT, {
      token: 'ws_test_help',
      headers: { 'X-Forwarded-For': '198.51.100.32' },
      body: { message: 'How do I install the widget?' },
    });
    assertError(third, 429, 'rate_limited');
    assert.equal(third.headers.get('retry-after'), '5');
    await Promise.all([first.finished, second.finished]);
  });
});

describe('connections', () => {
  test('a connection that sends nothing, or one byte, is closed after the idle timeout', async () => {
    const server = await startTestServer({ limits: { idleTimeoutMs: 400, headersTimeoutMs: 600, requestTimeoutMs: 1_000 } });
    try {
      const closedAfter = (firstBytes: string) =>
        new Promise<number>((resolve, reject) => {
          const started = Date.now();
          const socket = connect(server.port, '127.0.0.1', () => {
            if (firstBytes) socket.write(firstBytes);
          });
          socket.on('data', () => {});
          socket.on('error', () => {});
          socket.on('close', () => resolve(Date.now() - started));
          setTimeout(() => reject(new Error('the connection is still open after 10 s')), 10_000).unref();
        });
      const [silent, oneByte] = await Promise.all([closedAfter(''), closedAfter('G')]);
      // Node's own defaults would hold them 60 s and more; a busy machine may close them a little late.
      assert.ok(silent < 5_000, `a silent connection closed after ${silent} ms`);
      assert.ok(oneByte < 5_000, `a one-byte connection closed after ${oneByte} ms`);
      assert.equal((await server.request('GET', '/healthz')).status, 200);
    } finally {
      await server.stop();
    }
  });

  test('beyond maxConnections new connections are closed, and the log says so', async () => {
    const lines: string[] = [];
    const server = await startTestServer({ limits: { maxConnections: 2 } });
    server.context.log = (line) => lines.push(line);
    const held = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
          }),
      ),
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const third = await new Promise<string>((resolve) => {
        const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('error', () => resolve(text));
        socket.on('close', () => resolve(text));
      });
      assert.equal(third, '', 'the third connection was closed unanswered');
      assert.ok(lines.some((line) => /connection limit reached: 2 connections/.test(line)), lines.join('\n'));
    } finally {
      for (const socket of held) socket.destroy();
      await server.stop();
    }
  });
});

describe('dates the database cannot store', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ fixture: answerFixture(), adminToken: 'admin-token-for-limits-tests' });
  });
  after(() => server.stop());

  for (const ts of ['0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '275760', '-000001-01-01T00:00:00Z']) {
    test(`an event ts of ${ts} is 400 naming the field`, async () => {
      const body = { sessionId: 's_dates', events: [{ name: 'click', props: { url: 'https://acme.test/start' }, ts }] };
      assertInvalidField(await server.request('POST', EVENTS, { token: 'ws_test_find', body }), 'events[0].ts');
    });
  }

  test('an event ts in the years 1 to 9999 is stored', async () => {
    for (const ts of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z']) {
      const body = { sessionId: 's_dates', events: [{ name: 'click', props: { url: 'https://acme.test/start' }, ts }] };
      assert.equal((await server.request('POST', EVENTS, { token: 'ws_test_find', body })).status, 202, ts);
    }
  });

  for (const [name, value] of [['from', '0000-01-01'], ['from', '275760'], ['to', '9999-12-31'], ['to', '+275760-09-13T00:00:00Z']]) {
    test(`analytics ${name}=${value} is 400 naming the field`, async () => {
      const response = await server.request('GET', `/api/v1/admin/organisations/acme/widgets/find/analytics?${name}=${encodeURIComponent(value!)}`, {
        token: 'admin-token-for-limits-tests',
      });
      assertInvalidField(response, name!);
    });
  }
});
