/**
 * The admin API end to end, as the dashboard's stand-in: organisations (credits, plan),
 * sources, widgets (secret and signing secret shown once), API keys (shown once, with a
 * source limit), revocation, rotation, credits, preview tokens, the listing, conflicts and
 * validation.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.js';
import { assertError, assertInvalidField } from './expect.js';
import { hashSecret } from '../../server/store/secrets.js';
import { applyFixture } from '../../server/store/fixture.js';

const ADMIN_TOKEN = 'admin-token-for-admin-tests';
let server: TestServer;
const admin = (method: string, path: string, body?: unknown) => server.request(method, `/api/v1/admin${path}`, { token: ADMIN_TOKEN, body });

before(async () => {
  server = await startTestServer({ adminToken: ADMIN_TOKEN });
});
after(() => server?.stop());

describe('building an organisation from nothing', () => {
  let widgetSecret: string;
  let signingSecret: string;
  let apiKey: string;
  let apiKeyId: string;

  test('create an organisation with credits and a plan', async () => {
    const response = await admin('POST', '/organisations', { id: 'globex', name: 'Globex', credits: 25, plan: 'pro' });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.json, { id: 'globex', name: 'Globex', plan: 'pro', credits: 25, eventsPerDay: 100000 });
    const defaults = await admin('POST', '/organisations', { id: 'initech' });
    assert.equal(defaults.status, 201, defaults.text);
    assert.equal(defaults.json.plan, 'free', 'the plan defaults to free');
    assert.equal(defaults.json.credits, 0);
    assert.equal(defaults.json.name, 'initech');
  });

  test('create sources', async () => {
    const docs = await admin('POST', '/organisations/globex/sources', { id: 'docs', name: 'Documentation' });
    assert.equal(docs.status, 201, docs.text);
    assert.deepEqual(docs.json, { id: 'docs', name: 'Documentation' });
    assert.equal((await admin('POST', '/organisations/globex/sources', { id: 'faq' })).status, 201);
  });

  test('create a widget: its secret and signing secret are shown once', async () => {
    const response = await admin('POST', '/organisations/globex/widgets', {
      id: 'helpdesk',
      type: 'chatbot',
      name: 'Helpdesk',
      sources: ['docs', 'faq'],
      websites: ['globex.test', '*.globex.dev'],
      config: { greeting: 'Welcome' },
    });
    assert.equal(response.status, 201, response.text);
    const widget = response.json;
    assert.equal(widget.key, 'globex/helpdesk');
    assert.equal(widget.type, 'chatbot');
    assert.deepEqual(widget.sources, ['docs', 'faq']);
    assert.deepEqual(widget.websites, ['globex.test', '*.globex.dev']);
    assert.match(widget.secret, /^ws_[\x21-\x7e]{20,}$/);
    assert.match(widget.signingSecret, /^sig_[\x21-\x7e]{20,}$/);
    widgetSecret = widget.secret;
    signingSecret = widget.signingSecret;

    const config = await server.request('GET', '/api/v1/globex/widgets/helpdesk/config', { token: widgetSecret });
    assert.equal(config.status, 200);
    assert.equal(config.json.greeting, 'Welcome');
    assert.equal((await server.request('GET', '/api/v1/globex/widgets/helpdesk/config', { origin: 'https://app.globex.dev' })).status, 200);
  });

  test('two widgets never share a secret', async () => {
    const second = await admin('POST', '/organisations/globex/widgets', { id: 'finder', type: 'search', sources: ['docs'] });
    assert.equal(second.status, 201, second.text);
    assert.notEqual(second.json.secret, widgetSecret);
    assert.notEqual(second.json.signingSecret, signingSecret);
    assert.equal(second.json.name, 'finder', 'the name defaults to the id');
  });

  test('create an API key with a source limit: the key is shown once and works at once', async () => {
    const response = await admin('POST', '/organisations/globex/api-keys', { name: 'crawler', permissions: ['pages.read', 'pages.write'], sources: ['docs'] });
    assert.equal(response.status, 201, response.text);
    assert.match(response.json.key, /^ak_[\x21-\x7e]{20,}$/);
    assert.deepEqual(response.json.permissions, ['pages.read', 'pages.write']);
    assert.deepEqual(response.json.sources, ['docs']);
    apiKey = response.json.key;
    apiKeyId = response.json.id;

    const me = await server.request('GET', '/api/v1/me', { token: apiKey });
    assert.equal(me.status, 200, me.text);
    assert.deepEqual(me.json.organisation, { id: 'globex', name: 'Globex' });
    assert.equal(me.json.key.id, apiKeyId);
    assert.deepEqual(me.json.sources, [{ id: 'docs', name: 'Documentation', pages: 0 }]);
    const write = await server.request('POST', '/api/v1/globex/sources/docs/pages', { token: apiKey, body: { url: 'https://globex.test/a', title: 'A', content: 'A' } });
    assert.equal(write.status, 201);
    assertError(await server.request('GET', '/api/v1/globex/sources/faq/pages', { token: apiKey }), 403, 'source_forbidden');
  });

  test('an API key without a source limit reaches every source', async () => {
    const response = await admin('POST', '/organisations/globex/api-keys', { name: 'everything', permissions: ['pages.read', 'search'] });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.json.sources, null);
    const me = await server.request('GET', '/api/v1/me', { token: response.json.key });
    assert.deepEqual(me.json.sources.map((source: { id: string }) => source.id), ['docs', 'faq']);
    assert.equal((await server.request('GET', '/api/v1/globex/widgets/helpdesk/config', { token: response.json.key })).status, 200);
  });

  test('the listing shows what exists and never a secret', async () => {
    const response = await admin('GET', '/organisations');
    assert.equal(response.status, 200);
    const globex = response.json.organisations.find((organisation: { id: string }) => organisation.id === 'globex');
    assert.equal(globex.credits, 25);
    assert.equal(globex.plan, 'pro');
    assert.deepEqual(globex.sources.map((source: { id: string; pages: number }) => [source.id, Number(source.pages)]), [['docs', 1], ['faq', 0]]);
    assert.deepEqual(globex.widgets.map((widget: { id: string }) => widget.id), ['finder', 'helpdesk']);
    assert.deepEqual(globex.apiKeys.map((key: { name: string }) => key.name).sort(), ['crawler', 'everything']);
    for (const secret of [widgetSecret, signingSecret, apiKey]) assert.ok(!response.text.includes(secret), 'the listing leaks a secret');
    for (const widget of globex.widgets) {
      assert.equal(widget.secret, undefined);
      assert.equal(widget.signingSecret, undefined);
    }
    for (const key of globex.apiKeys) assert.equal(key.key, undefined);

    const one = await admin('GET', '/organisations/globex');
    assert.equal(one.status, 200);
    assert.deepEqual(one.json, globex);
    assertError(await admin('GET', '/organisations/nobody'), 404, 'not_found');
  });

  test('revoking a key: 401 from then on, and the listing says so', async () => {
    const revoked = await admin('DELETE', `/organisations/globex/api-keys/${apiKeyId}`);
    assert.equal(revoked.status, 200, revoked.text);
    assertError(await server.request('GET', '/api/v1/me', { token: apiKey }), 401, 'unauthenticated');
    assertError(await server.request('GET', '/api/v1/globex/sources/docs/pages', { token: apiKey }), 401, 'unauthenticated');
    const listed = (await admin('GET', '/organisations/globex')).json.apiKeys.find((key: { id: string }) => key.id === apiKeyId);
    assert.ok(listed.revokedAt, 'revokedAt is set');
    assertError(await admin('DELETE', '/organisations/globex/api-keys/key_unknown'), 404, 'not_found');
    assertError(await admin('DELETE', `/organisations/initech/api-keys/${apiKeyId}`), 404, 'not_found', 'a key is revoked only through its own organisation');
  });

  test('rotating the widget secret: the old one is 401 at once, the new one works', async () => {
    const response = await admin('POST', '/organisations/globex/widgets/helpdesk/secret');
    assert.equal(response.status, 200, response.text);
    assert.match(response.json.secret, /^ws_/);
    assert.notEqual(response.json.secret, widgetSecret);
    assertError(await server.request('GET', '/api/v1/globex/widgets/helpdesk/config', { token: widgetSecret }), 401, 'unauthenticated');
    assert.equal((await server.request('GET', '/api/v1/globex/widgets/helpdesk/config', { token: response.json.secret })).status, 200);
    widgetSecret = response.json.secret;
  });

  test('rotating the signing secret gives a new one and keeps the widget secret', async () => {
    const response = await admin('POST', '/organisations/globex/widgets/helpdesk/signing-secret');
    assert.equal(response.status, 200, response.text);
    assert.match(response.json.signingSecret, /^sig_/);
    assert.notEqual(response.json.signingSecret, signingSecret);
    assert.ok(Date.parse(response.json.previousValidUntil) > Date.now(), 'the previous secret stays valid for a while');
    const [row] = await server.db.query<{ signing_secret: string }>("SELECT signing_secret FROM widgets WHERE organisation_id = 'globex' AND id = 'helpdesk'");
    assert.equal(row!.signing_secret, response.json.signingSecret);
    assert.equal((await server.request('GET', '/api/v1/globex/widgets/helpdesk/config', { token: widgetSecret })).status, 200);
  });

  test('setting credits and the plan through PATCH; only what is sent changes', async () => {
    const response = await admin('PATCH', '/organisations/globex', { credits: 7 });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.json, { id: 'globex', name: 'Globex', plan: 'pro', credits: 7, eventsPerDay: 100000 });
    const listed = (await admin('GET', '/organisations/globex')).json;
    assert.equal(listed.credits, 7);
    const renamed = await admin('PATCH', '/organisations/globex', { name: 'Globex Corp', plan: 'free' });
    assert.deepEqual(renamed.json, { id: 'globex', name: 'Globex Corp', plan: 'free', credits: 7, eventsPerDay: 100000 });
    assertError(await admin('PATCH', '/organisations/nobody', { credits: 1 }), 404, 'not_found');
  });

  test('changing a widget\'s website list takes effect at once', async () => {
    const response = await admin('PATCH', '/organisations/globex/widgets/helpdesk', { websites: ['globex.example'] });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.json.websites, ['globex.example']);
    assertError(await server.request('GET', '/api/v1/globex/widgets/helpdesk/config', { origin: 'https://globex.test' }), 403, 'origin_not_allowed');
    assert.equal((await server.request('GET', '/api/v1/globex/widgets/helpdesk/config', { origin: 'https://globex.example' })).status, 200);
    assert.equal(response.json.secret, undefined, 'a change does not show the secret');
  });

  test('a preview token works for its widget only, and expires after one hour', async () => {
    const minted = await admin('POST', '/organisations/globex/widgets/helpdesk/preview-tokens');
    assert.equal(minted.status, 201, minted.text);
    const { token, expiresAt } = minted.json;
    assert.match(token, /^pt_/);
    const lifetime = Date.parse(expiresAt) - Date.now();
    assert.ok(lifetime > 59 * 60 * 1000 && lifetime <= 60 * 60 * 1000, `expires in ${lifetime} ms`);
    assert.equal((await server.request('GET', '/api/v1/globex/widgets/helpdesk/config', { token })).status, 200);
    assertError(await server.request('GET', '/api/v1/globex/widgets/finder/config', { token }), 401, 'unauthenticated');
    assertError(await server.request('GET', '/api/v1/me', { token }), 401, 'unauthenticated');

    // An hour later.
    await server.db.query("UPDATE preview_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [hashSecret(token)]);
    assertError(await server.request('GET', '/api/v1/globex/widgets/helpdesk/config', { token }), 401, 'unauthenticated');
    assertError(await admin('POST', '/organisations/globex/widgets/nothing/preview-tokens'), 404, 'not_found');
  });
});

describe('conflicts', () => {
  before(async () => {
    await admin('POST', '/organisations', { id: 'dupes' });
    await admin('POST', '/organisations/dupes/sources', { id: 'docs' });
    await admin('POST', '/organisations/dupes/widgets', { id: 'bot', type: 'chatbot', sources: ['docs'] });
  });

  test('an organisation that exists is 409, and keeps its credits', async () => {
    await admin('PATCH', '/organisations/dupes', { credits: 3 });
    assertError(await admin('POST', '/organisations', { id: 'dupes', credits: 1000 }), 409, 'conflict');
    assert.equal((await admin('GET', '/organisations/dupes')).json.credits, 3);
  });

  test('a source that exists is 409', async () => {
    assertError(await admin('POST', '/organisations/dupes/sources', { id: 'docs' }), 409, 'conflict');
  });

  test('a widget that exists is 409, and its secret is not replaced', async () => {
    const [before] = await server.db.query<{ secret_hash: string }>("SELECT secret_hash FROM widgets WHERE organisation_id = 'dupes' AND id = 'bot'");
    assertError(await admin('POST', '/organisations/dupes/widgets', { id: 'bot', type: 'search', sources: ['docs'] }), 409, 'conflict');
    const [after] = await server.db.query<{ secret_hash: string }>("SELECT secret_hash FROM widgets WHERE organisation_id = 'dupes' AND id = 'bot'");
    assert.equal(after!.secret_hash, before!.secret_hash);
  });

  test('the same ids in another organisation are fine', async () => {
    await admin('POST', '/organisations', { id: 'dupes2' });
    assert.equal((await admin('POST', '/organisations/dupes2/sources', { id: 'docs' })).status, 201);
    assert.equal((await admin('POST', '/organisations/dupes2/widgets', { id: 'bot', type: 'chatbot', sources: ['docs'] })).status, 201);
  });
});

describe('validation', () => {
  before(async () => {
    await admin('POST', '/organisations', { id: 'checked' });
    await admin('POST', '/organisations/checked/sources', { id: 'docs' });
  });

  const cases: { name: string; method: string; path: string; body: unknown; field: string }[] = [
    { name: 'an organisation id with a space', method: 'POST', path: '/organisations', body: { id: 'bad id' }, field: 'id' },
    { name: 'an organisation without an id', method: 'POST', path: '/organisations', body: { name: 'Nameless' }, field: 'id' },
    { name: 'an organisation id that is too long', method: 'POST', path: '/organisations', body: { id: 'a'.repeat(65) }, field: 'id' },
    { name: 'the organisation id admin', method: 'POST', path: '/organisations', body: { id: 'admin' }, field: 'id' },
    { name: 'the organisation id Admin', method: 'POST', path: '/organisations', body: { id: 'Admin' }, field: 'id' },
    { name: 'negative credits', method: 'POST', path: '/organisations', body: { id: 'neg', credits: -1 }, field: 'credits' },
    { name: 'fractional credits', method: 'POST', path: '/organisations', body: { id: 'frac', credits: 1.5 }, field: 'credits' },
    { name: 'credits as a string', method: 'PATCH', path: '/organisations/checked', body: { credits: '10' }, field: 'credits' },
    { name: 'an unknown plan', method: 'POST', path: '/organisations', body: { id: 'gold', plan: 'gold' }, field: 'plan' },
    { name: 'an unknown plan in a change', method: 'PATCH', path: '/organisations/checked', body: { plan: 'enterprise' }, field: 'plan' },
    { name: 'a source id with a slash', method: 'POST', path: '/organisations/checked/sources', body: { id: 'a/b' }, field: 'id' },
    { name: 'a widget of an unknown type', method: 'POST', path: '/organisations/checked/widgets', body: { id: 'w1', type: 'chat', sources: ['docs'] }, field: 'type' },
    { name: 'a widget without sources', method: 'POST', path: '/organisations/checked/widgets', body: { id: 'w2', type: 'chatbot', sources: [] }, field: 'sources' },
    { name: 'a widget with an unknown source', method: 'POST', path: '/organisations/checked/widgets', body: { id: 'w3', type: 'chatbot', sources: ['nope'] }, field: 'sources' },
    { name: 'a widget with a website that is a URL', method: 'POST', path: '/organisations/checked/widgets', body: { id: 'w4', type: 'chatbot', sources: ['docs'], websites: ['https://checked.test/'] }, field: 'websites' },
    { name: 'a widget with websites that are not a list', method: 'POST', path: '/organisations/checked/widgets', body: { id: 'w5', type: 'chatbot', sources: ['docs'], websites: 'checked.test' }, field: 'websites' },
    { name: 'a widget with a chosen secret', method: 'POST', path: '/organisations/checked/widgets', body: { id: 'w6', type: 'chatbot', sources: ['docs'], secret: 'ws_chosen_by_caller' }, field: 'secret' },
    { name: 'a widget with a chosen signing secret', method: 'POST', path: '/organisations/checked/widgets', body: { id: 'w7', type: 'chatbot', sources: ['docs'], signingSecret: 'sig_chosen' }, field: 'signingSecret' },
    { name: 'an API key without a name', method: 'POST', path: '/organisations/checked/api-keys', body: { permissions: ['search'] }, field: 'name' },
    { name: 'an API key without permissions', method: 'POST', path: '/organisations/checked/api-keys', body: { name: 'k', permissions: [] }, field: 'permissions' },
    { name: 'an API key with an unknown permission', method: 'POST', path: '/organisations/checked/api-keys', body: { name: 'k', permissions: ['pages.delete'] }, field: 'permissions' },
    { name: 'an API key limited to an unknown source', method: 'POST', path: '/organisations/checked/api-keys', body: { name: 'k', permissions: ['search'], sources: ['nope'] }, field: 'sources' },
    { name: 'an API key with an empty source limit', method: 'POST', path: '/organisations/checked/api-keys', body: { name: 'k', permissions: ['search'], sources: [] }, field: 'sources' },
    { name: 'an API key with a chosen key', method: 'POST', path: '/organisations/checked/api-keys', body: { name: 'k', permissions: ['search'], key: 'ak_chosen_by_caller' }, field: 'key' },
  ];
  for (const entry of cases) {
    test(`${entry.name} is 400 naming ${entry.field}`, async () => {
      assertInvalidField(await admin(entry.method, entry.path, entry.body), entry.field);
    });
  }

  test('nothing was created by the refused calls', async () => {
    const listing = (await admin('GET', '/organisations')).json.organisations.map((organisation: { id: string }) => organisation.id);
    for (const id of ['neg', 'frac', 'gold', 'admin', 'Admin']) assert.ok(!listing.includes(id), `${id} was created`);
    const checked = (await admin('GET', '/organisations/checked')).json;
    assert.deepEqual(checked.widgets, []);
    assert.deepEqual(checked.apiKeys, []);
    const hashes = await server.db.query('SELECT 1 FROM api_keys WHERE key_hash = $1', [hashSecret('ak_chosen_by_caller')]);
    assert.equal(hashes.length, 0);
  });

  test('the reserved id admin is refused in a fixture too', async () => {
    await assert.rejects(applyFixture(server.db, { organisations: [{ id: 'admin', name: 'Clash' }] }), /admin/);
  });

  test('a body that is not a JSON object is 400; no body where one is needed is 400 naming the field', async () => {
    assertError(await server.request('POST', '/api/v1/admin/organisations', { token: ADMIN_TOKEN, rawBody: '[]', headers: { 'Content-Type': 'application/json' } }), 400, 'invalid_request');
    assertInvalidField(await server.request('POST', '/api/v1/admin/organisations', { token: ADMIN_TOKEN }), 'id');
    assertError(await server.request('POST', '/api/v1/admin/organisations', { token: ADMIN_TOKEN, rawBody: 'id=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
  });

  test('operations on unknown organisations and widgets are 404', async () => {
    assertError(await admin('POST', '/organisations/nobody/sources', { id: 'docs' }), 404, 'not_found');
    assertError(await admin('POST', '/organisations/nobody/widgets', { id: 'w', type: 'chatbot', sources: ['docs'] }), 404, 'not_found');
    assertError(await admin('POST', '/organisations/nobody/api-keys', { name: 'k', permissions: ['search'] }), 404, 'not_found');
    assertError(await admin('PATCH', '/organisations/checked/widgets/nothing', { name: 'x' }), 404, 'not_found');
    assertError(await admin('POST', '/organisations/checked/widgets/nothing/secret'), 404, 'not_found');
    assertError(await admin('POST', '/organisations/checked/widgets/nothing/signing-secret'), 404, 'not_found');
  });
});
