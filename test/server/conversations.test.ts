import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { identityMatches } from '../../server/http/identity.js';
import { purgeExpiredConversations } from '../../server/store/conversations.js';
import { signVisitorId } from '../../server/store/secrets.js';
import { startTestServer, type TestServer } from './harness.js';
import { CHAT, CONVERSATIONS, answerFixture, signed, visitorQuery } from './answer-helpers.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: answerFixture(10_000), adminToken: 'admin_test' });
});
after(() => server.stop());

const token = 'ws_test_help';
const chat = (body: Record<string, unknown>) => server.request('POST', CHAT, { token, body });
const list = (id: string, secret?: string) => server.request('GET', `${CONVERSATIONS}${visitorQuery(id, secret)}`, { token });
const get = (conversation: string, id: string) => server.request('GET', `${CONVERSATIONS}/${conversation}${visitorQuery(id)}`, { token });
const ageConversation = (conversation: string, days: number) =>
  server.db.query(`UPDATE conversations SET last_message_at = now() - make_interval(days => $2) WHERE id = $1`, [conversation, days]);

describe('a signed visitor\'s conversations', () => {
  test('are stored with every message and its sources, listed newest first', async () => {
    const visitor = signed('alice');
    const first = await chat({ message: 'How do I install the widget?', user: visitor });
    assert.equal(first.status, 200);
    const followUp = await chat({ message: 'And the proxy on Linux?', user: visitor, conversationId: first.json.conversationId });
    assert.equal(followUp.json.conversationId, first.json.conversationId);
    const second = await chat({ message: 'What happens when credits run out?', user: visitor });

    const listed = await list('alice');
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.json.conversations.map((summary: { id: string }) => summary.id), [second.json.conversationId, first.json.conversationId]);
    const summary = listed.json.conversations[1];
    assert.equal(summary.title, 'How do I install the widget?');
    assert.equal(summary.kept, false);
    assert.equal(summary.messageCount, 4);
    const expiresIn = Date.parse(summary.expiresAt) - Date.parse(summary.updatedAt);
    assert.equal(expiresIn, 30 * 24 * 60 * 60 * 1000);

    const conversation = await get(first.json.conversationId, 'alice');
    assert.equal(conversation.status, 200);
    assert.deepEqual(conversation.json.messages.map((message: { role: string }) => message.role), ['user', 'assistant', 'user', 'assistant']);
    const [question, answer] = conversation.json.messages;
    assert.deepEqual(Object.keys(question).sort(), ['createdAt', 'role', 'text']);
    assert.equal(question.text, 'How do I install the widget?');
    assert.equal(answer.text, first.json.text);
    assert.equal(answer.answerId, first.json.answerId);
    assert.deepEqual(answer.sources, first.json.sources);
    assert.equal(answer.complete, true);
  });

  test('are the visitor\'s only: another visitor gets 404 everywhere', async () => {
    const mine = await chat({ message: 'How do I install the widget?', user: signed('bob') });
    const id = mine.json.conversationId;
    assert.equal((await get(id, 'mallory')).status, 404);
    assert.deepEqual((await list('mallory')).json.conversations, []);
    const keep = await server.request('POST', `${CONVERSATIONS}/${id}/keep`, { token, body: { user: 'mallory', hash: signVisitorId('mallory', 'sig_test_help') } });
    assert.equal(keep.status, 404);
    const remove = await server.request('DELETE', `${CONVERSATIONS}/${id}${visitorQuery('mallory')}`, { token });
    assert.equal(remove.status, 404);
    const continueAsOther = await chat({ message: 'more', conversationId: id, user: signed('mallory') });
    assert.equal(continueAsOther.status, 404);
    const continueAnonymously = await chat({ message: 'more', conversationId: id });
    assert.equal(continueAnonymously.status, 404);
    const otherWidget = await server.request('GET', `/api/v1/other/widgets/bot/conversations/${id}${visitorQuery('bob', 'sig_other_bot')}`, { token: 'ws_other_bot' });
    assert.equal(otherWidget.status, 404);
    assert.equal((await get(id, 'bob')).status, 200);
  });

  test('anonymous conversations can be continued by id but are never listed or read back', async () => {
    const anonymous = await chat({ message: 'How do I install the widget?' });
    const id = anonymous.json.conversationId;
    const continued = await chat({ message: 'And on Windows?', conversationId: id });
    assert.equal(continued.status, 200);
    assert.equal(continued.json.conversationId, id);
    const [row] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM messages WHERE conversation_id = $1', [id]);
    assert.equal(row!.count, 4);
    assert.equal((await get(id, 'alice')).status, 404);
    const byVisitor = await chat({ message: 'more', conversationId: id, user: signed('alice') });
    assert.equal(byVisitor.status, 404, 'a signed visitor cannot take over an anonymous conversation');
  });

  test('keep exempts from expiry, release brings it back', async () => {
    const started = await chat({ message: 'How do I install the widget?', user: signed('carol') });
    const id = started.json.conversationId;
    const keep = await server.request('POST', `${CONVERSATIONS}/${id}/keep`, { token, body: { user: 'carol', hash: signVisitorId('carol', 'sig_test_help') } });
    assert.equal(keep.status, 200);
    assert.equal(keep.json.kept, true);
    assert.equal(keep.json.expiresAt, null);
    await ageConversation(id, 45);
    assert.equal((await get(id, 'carol')).status, 200, 'kept: still there after 45 days');
    assert.equal(await purgeExpiredConversations(server.db), 0);
    const release = await server.request('POST', `${CONVERSATIONS}/${id}/keep${visitorQuery('carol')}`, { token, body: { kept: false } });
    assert.equal(release.status, 200);
    assert.equal(release.json.kept, false);
    assert.ok(Date.parse(release.json.expiresAt) < Date.now(), 'released after 45 days: already expired');
    assert.equal((await get(id, 'carol')).status, 404);
  });

  test('expire 30 days after their last message: gone from every route, then purged', async () => {
    const old = await chat({ message: 'How do I install the widget?', user: signed('dave') });
    const recent = await chat({ message: 'What happens when credits run out?', user: signed('dave') });
    await ageConversation(old.json.conversationId, 31);
    await ageConversation(recent.json.conversationId, 29);
    assert.deepEqual((await list('dave')).json.conversations.map((summary: { id: string }) => summary.id), [recent.json.conversationId]);
    assert.equal((await get(old.json.conversationId, 'dave')).status, 404);
    assert.equal((await chat({ message: 'more', conversationId: old.json.conversationId, user: signed('dave') })).status, 404);
    const keep = await server.request('POST', `${CONVERSATIONS}/${old.json.conversationId}/keep${visitorQuery('dave')}`, { token });
    assert.equal(keep.status, 404, 'an expired conversation cannot be kept any more');
    assert.ok((await purgeExpiredConversations(server.db)) >= 1);
    assert.deepEqual(await server.db.query('SELECT id FROM conversations WHERE id = $1', [old.json.conversationId]), []);
    assert.deepEqual(await server.db.query('SELECT id FROM messages WHERE conversation_id = $1', [old.json.conversationId]), []);
    assert.equal((await get(recent.json.conversationId, 'dave')).status, 200);
    // The purge also runs on a timer that is one of the server's services (closed with it).
    assert.ok(server.context.services.conversationPurge);
  });

  test('delete one, delete all (the visitor\'s only)', async () => {
    const one = await chat({ message: 'How do I install the widget?', user: signed('erin') });
    const two = await chat({ message: 'What happens when credits run out?', user: signed('erin') });
    const others = await chat({ message: 'How do I install the widget?', user: signed('frank') });
    const removed = await server.request('DELETE', `${CONVERSATIONS}/${one.json.conversationId}${visitorQuery('erin')}`, { token });
    assert.equal(removed.status, 204);
    assert.equal(removed.text, '');
    assert.equal((await get(one.json.conversationId, 'erin')).status, 404);
    assert.equal((await server.request('DELETE', `${CONVERSATIONS}/${one.json.conversationId}${visitorQuery('erin')}`, { token })).status, 404);
    const all = await server.request('DELETE', CONVERSATIONS, { token, body: { user: 'erin', hash: signVisitorId('erin', 'sig_test_help') } });
    assert.equal(all.status, 204);
    assert.equal((await get(two.json.conversationId, 'erin')).status, 404);
    assert.deepEqual((await list('erin')).json.conversations, []);
    assert.equal((await get(others.json.conversationId, 'frank')).status, 200);
  });
});

describe('signed identity', () => {
  test('conversation routes need a signed visitor: none or a wrong hash is 403 invalid_identity', async () => {
    const paths: [string, string][] = [
      ['GET', CONVERSATIONS],
      ['DELETE', CONVERSATIONS],
      ['GET', `${CONVERSATIONS}/c_x`],
      ['DELETE', `${CONVERSATIONS}/c_x`],
      ['POST', `${CONVERSATIONS}/c_x/keep`],
    ];
    for (const [method, path] of paths) {
      for (const query of ['', '?user=alice', '?hash=abc', `?user=alice&hash=${signVisitorId('alice', 'wrong secret')}`, `?user=alice&hash=${signVisitorId('alice', 'sig_test_help').toUpperCase()}`]) {
        const response = await server.request(method, path + query, { token });
        assert.equal(response.status, 403, `${method} ${path}${query}`);
        assert.equal(response.json.error.code, 'invalid_identity');
      }
    }
  });

  test('a wrong hash in chat is refused, never taken as anonymous', async () => {
    const before = await server.db.query('SELECT id FROM answers');
    const response = await chat({ message: 'How do I install the widget?', user: { id: 'alice', hash: signVisitorId('alice', 'sig_other_bot') } });
    assert.equal(response.status, 403);
    assert.equal(response.json.error.code, 'invalid_identity');
    assert.equal((await server.db.query('SELECT id FROM answers')).length, before.length);
  });

  // Sixty runs of three requests each: seconds on a quiet machine, a minute and more on a busy one.
  test('property: the right hash of any id is accepted; any other string is refused without a 500', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 80 }), async (id, other) => {
        const hash = signVisitorId(id, 'sig_test_help');
        const accepted = await server.request('GET', `${CONVERSATIONS}${visitorQuery(id)}`, { token });
        assert.equal(accepted.status, 200);
        if (other === hash) return;
        const refused = await server.request('GET', `${CONVERSATIONS}?${new URLSearchParams({ user: id, hash: other })}`, { token });
        // An empty hash is "no hash": also 403.
        assert.equal(refused.status, 403, `hash ${JSON.stringify(other)}`);
        const inBody = await server.request('POST', `${CONVERSATIONS}/c_none/keep`, { token, body: { user: id, hash: other } });
        // JSON bodies refuse NUL outright (400, server/http/body.ts); in a query string it is just a character.
        assert.equal(inBody.status, /\u0000/.test(id + other) ? 400 : 403);
      }),
      { numRuns: 60, includeErrorInReport: true },
    );
  });

  test('property: the verifier never throws and accepts only the exact lowercase hex HMAC', () => {
    const widget = { signingSecret: 'sig_a', previousSigningSecret: null, previousSigningSecretUntil: null };
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 70 }), (id, candidate) => {
        const hash = signVisitorId(id, 'sig_a');
        assert.equal(identityMatches(widget, id, hash), true);
        assert.equal(identityMatches(widget, id, candidate), candidate === hash);
        assert.equal(identityMatches(widget, id, hash.toUpperCase()), hash.toUpperCase() === hash);
        assert.equal(identityMatches(widget, id, hash.slice(0, 63)), false);
        assert.equal(identityMatches(widget, id, `${hash} `), false);
      }),
      { numRuns: 500, includeErrorInReport: true },
    );
    // Lone surrogates and other odd input do not throw either.
    assert.equal(identityMatches(widget, '\ud800', '\udfff'), false);
    assert.equal(identityMatches(widget, 'x', '\u0000'.repeat(64)), false);
  });

  test('after a signing-secret rotation the old hash works until the grace period ends', async () => {
    const visitor = 'rotating-visitor';
    const oldHash = signVisitorId(visitor, 'sig_test_help');
    const rotated = await server.request('POST', '/api/v1/admin/organisations/acme/widgets/help/signing-secret', { token: 'admin_test', body: {} });
    assert.equal(rotated.status, 200);
    const newSecret = rotated.json.signingSecret;
    try {
      assert.equal((await server.request('GET', `${CONVERSATIONS}${visitorQuery(visitor, undefined, oldHash)}`, { token })).status, 200);
      assert.equal((await server.request('GET', `${CONVERSATIONS}${visitorQuery(visitor, newSecret)}`, { token })).status, 200);
      const started = await chat({ message: 'How do I install the widget?', user: { id: visitor, hash: oldHash } });
      assert.equal(started.status, 200);
      await server.db.query("UPDATE widgets SET previous_signing_secret_until = now() - interval '1 second' WHERE organisation_id = 'acme' AND id = 'help'");
      const expired = await server.request('GET', `${CONVERSATIONS}${visitorQuery(visitor, undefined, oldHash)}`, { token });
      assert.equal(expired.status, 403);
      assert.equal(expired.json.error.code, 'invalid_identity');
      const listed = await server.request('GET', `${CONVERSATIONS}${visitorQuery(visitor, newSecret)}`, { token });
      assert.deepEqual(listed.json.conversations.map((summary: { id: string }) => summary.id), [started.json.conversationId]);
    } finally {
      await server.db.query(
        "UPDATE widgets SET signing_secret = 'sig_test_help', previous_signing_secret = NULL, previous_signing_secret_until = NULL WHERE organisation_id = 'acme' AND id = 'help'",
      );
    }
  });

  test('conversation routes are for chat widgets and the chat permission', async () => {
    const onSearch = await server.request('GET', `/api/v1/acme/widgets/find/conversations${visitorQuery('a', 'sig_test_find')}`, { token: 'ws_test_find' });
    assert.equal(onSearch.json.error.code, 'wrong_widget_type');
    const readKey = await server.request('GET', `${CONVERSATIONS}${visitorQuery('a')}`, { token: 'ak_test_read' });
    assert.equal(readKey.json.error.code, 'permission_denied');
    const viaKey = await server.request('GET', `${CONVERSATIONS}${visitorQuery('a')}`, { token: 'ak_test_all' });
    assert.equal(viaKey.status, 200);
  });
});
