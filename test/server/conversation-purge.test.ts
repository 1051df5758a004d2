/**
 * The periodic purge of expired conversations: not only on demand, but by the timer every
 * server starts (server/store/conversations.ts), which stops when the server closes.
 * Clocks are node:test's mock timers, so an hour passes at once.
 */
import { after, before, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { PURGE_INTERVAL_MS, startConversationPurge } from '../../server/store/conversations.js';
import { startTestServer, type TestServer } from './harness.js';
import { CHAT, answerFixture, signed } from './answer-helpers.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: answerFixture() });
});
after(() => server.stop());

async function conversation(visitor: string): Promise<string> {
  const response = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I install the widget?', user: signed(visitor) } });
  assert.equal(response.status, 200, response.text);
  return response.json.conversationId;
}

const age = (id: string, days: number) =>
  server.db.query('UPDATE conversations SET last_message_at = now() - make_interval(days => $2) WHERE id = $1', [id, days]);
const exists = async (id: string) => (await server.db.query('SELECT id FROM conversations WHERE id = $1', [id])).length === 1;

test('expired conversations are purged at start and then every interval, until the purge is closed', async () => {
  const atStart = await conversation('purge-at-start');
  await age(atStart, 31);
  mock.timers.enable({ apis: ['setInterval'] });
  const logged: string[] = [];
  let onLog: (() => void) | undefined;
  const log = (line: string) => {
    logged.push(line);
    onLog?.();
  };
  const nextLog = () => new Promise<void>((resolve) => (onLog = resolve));
  try {
    const purge = await startConversationPurge({ db: server.db, log });
    assert.equal(await exists(atStart), false, 'purged when the server starts');
    assert.match(logged.join('\n'), /purged 1 expired conversation/);

    const later = await conversation('purge-later');
    const fresh = await conversation('purge-fresh');
    await age(later, 31);
    await age(fresh, 29);
    mock.timers.tick(PURGE_INTERVAL_MS - 1);
    assert.equal(await exists(later), true, 'nothing runs before the interval is over');
    const purged = nextLog();
    mock.timers.tick(1);
    await purged;
    assert.equal(await exists(later), false, 'purged by the timer, without any request');
    assert.equal(await exists(fresh), true, 'a conversation younger than 30 days stays');
    assert.deepEqual(await server.db.query('SELECT id FROM messages WHERE conversation_id = $1', [later]), [], 'its messages go with it');

    purge.close();
    await age(fresh, 31);
    const count = logged.length;
    mock.timers.tick(PURGE_INTERVAL_MS * 3);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(await exists(fresh), true, 'a closed purge does not run again');
    assert.equal(logged.length, count);
  } finally {
    mock.timers.reset();
  }
});
