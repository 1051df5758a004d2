/**
 * Secrets are stored only as hashes: after creating API keys, widgets and preview tokens
 * (and rotating), every row of every table is scanned for their plaintext. Nothing echoes a
 * key after creation, nothing secret is logged, and the admin API is locked behind its token
 * (and absent without one).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { baseFixture, startTestServer, type TestServer } from './harness.js';
import { assertError } from './expect.js';
import { hashSecret } from '../../server/store/secrets.js';

const ADMIN_TOKEN = 'admin-token-for-secrets-tests';
let server: TestServer;
let serverWithoutAdmin: TestServer;
const logged: string[] = [];

/** Every plaintext secret created during the test, by what it is. */
const plaintexts = new Map<string, string>();

const admin = (method: string, path: string, body?: unknown) => server.request(method, `/api/v1/admin${path}`, { token: ADMIN_TOKEN, body });

before(async () => {
  [server, serverWithoutAdmin] = await Promise.all([
    startTestServer({ fixture: baseFixture(), adminToken: ADMIN_TOKEN }),
    startTestServer({ fixture: baseFixture() }),
  ]);
  server.context.log = (line) => logged.push(line);

  const key = await admin('POST', '/organisations/acme/api-keys', { name: 'scanned', permissions: ['pages.read', 'search'], sources: ['docs'] });
  assert.equal(key.status, 201, key.text);
  plaintexts.set('API key', key.json.key);
  plaintexts.set('fixture API key', 'ak_test_all');

  const widget = await admin('POST', '/organisations/acme/widgets', { id: 'scanned', type: 'search', sources: ['docs'], websites: ['acme.test'] });
  assert.equal(widget.status, 201, widget.text);
  plaintexts.set('widget secret', widget.json.secret);
  plaintexts.set('fixture widget secret', 'ws_test_help');

  const rotated = await admin('POST', '/organisations/acme/widgets/find/secret');
  plaintexts.set('rotated widget secret', rotated.json.secret);

  const preview = await admin('POST', '/organisations/acme/widgets/scanned/preview-tokens');
  assert.equal(preview.status, 201, preview.text);
  plaintexts.set('preview token', preview.json.token);

  // Use every credential once, successfully and not, so whatever is logged or recorded on use is in the scan.
  await server.request('GET', '/api/v1/me', { token: key.json.key });
  await server.request('GET', '/api/v1/acme/widgets/scanned/config', { token: widget.json.secret });
  await server.request('GET', '/api/v1/acme/widgets/scanned/config', { token: preview.json.token });
  await server.request('GET', '/api/v1/acme/widgets/help/config', { token: preview.json.token });
  await server.request('GET', '/api/v1/acme/sources/blog/pages', { token: key.json.key });
  await server.request('GET', '/api/v1/admin/organisations', { token: `${ADMIN_TOKEN}-wrong` });
});
after(async () => {
  await server?.stop();
  await serverWithoutAdmin?.stop();
});

/** Every row of every table of the server's schema, as JSON text. */
async function everyRow(): Promise<{ table: string; row: string }[]> {
  const tables = await server.db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  assert.ok(tables.length >= 6, `expected the schema's tables, found ${tables.map((table) => table.table_name)}`);
  const rows: { table: string; row: string }[] = [];
  for (const { table_name: table } of tables) {
    const found = await server.db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table.replace(/"/g, '""')}" t`);
    for (const { row } of found) rows.push({ table, row });
  }
  return rows;
}

test('no table holds the plaintext of an API key, widget secret or preview token', async () => {
  const rows = await everyRow();
  assert.ok(rows.length > 10);
  for (const [what, plaintext] of plaintexts) {
    assert.ok(plaintext && plaintext.length >= 8, `${what} was created`);
    const holders = rows.filter(({ row }) => row.includes(plaintext)).map(({ table }) => table);
    assert.deepEqual(holders, [], `the ${what} is stored in plaintext in ${holders.join(', ')}`);
  }
});

test('their hashes are what is stored', async () => {
  const [key] = await server.db.query('SELECT 1 FROM api_keys WHERE key_hash = $1', [hashSecret(plaintexts.get('API key')!)]);
  assert.ok(key, 'the API key is found by its hash');
  const [widget] = await server.db.query("SELECT 1 FROM widgets WHERE id = 'scanned' AND secret_hash = $1", [hashSecret(plaintexts.get('widget secret')!)]);
  assert.ok(widget, 'the widget secret is found by its hash');
  const [rotated] = await server.db.query("SELECT 1 FROM widgets WHERE id = 'find' AND secret_hash = $1", [hashSecret(plaintexts.get('rotated widget secret')!)]);
  assert.ok(rotated, 'the rotated widget secret is found by its hash');
  const [preview] = await server.db.query('SELECT 1 FROM preview_tokens WHERE token_hash = $1', [hashSecret(plaintexts.get('preview token')!)]);
  assert.ok(preview, 'the preview token is found by its hash');
});

test('the signing secret is kept as is (it is needed to verify visitor hashes)', async () => {
  const [row] = await server.db.query<{ signing_secret: string }>("SELECT signing_secret FROM widgets WHERE organisation_id = 'acme' AND id = 'help'");
  assert.equal(row!.signing_secret, 'sig_test_help');
});

test('after creation, neither the admin API nor GET /me echoes a key or secret', async () => {
  const bodies = [
    (await admin('GET', '/organisations')).text,
    (await admin('GET', '/organisations/acme')).text,
    (await admin('PATCH', '/organisations/acme/widgets/scanned', { name: 'Renamed' })).text,
    (await admin('PATCH', '/organisations/acme', { credits: 99 })).text,
    (await server.request('GET', '/api/v1/me', { token: plaintexts.get('API key') })).text,
    (await server.request('GET', '/api/v1/me', { token: 'ak_test_all' })).text,
    (await server.request('GET', '/api/v1/acme/widgets/scanned/config', { token: plaintexts.get('widget secret') })).text,
  ];
  for (const body of bodies) {
    for (const [what, plaintext] of plaintexts) assert.ok(!body.includes(plaintext), `a response echoes the ${what}: ${body.slice(0, 200)}`);
    assert.ok(!body.includes('sig_test_help'), 'a response shows a signing secret');
    assert.doesNotMatch(body, /secret_hash|key_hash|token_hash/);
  }
});

test('an error about a credential does not repeat the credential', async () => {
  const response = await server.request('GET', '/api/v1/acme/widgets/help/config', { token: 'ws_attacker_guess_1234' });
  assertError(response, 401, 'unauthenticated');
  assert.ok(!response.text.includes('ws_attacker_guess_1234'));
  const preview = await server.request('GET', '/api/v1/acme/widgets/help/config', { token: plaintexts.get('preview token') });
  assertError(preview, 401, 'unauthenticated');
  assert.ok(!preview.text.includes(plaintexts.get('preview token')!));
});

test('nothing secret is logged', () => {
  const everything = logged.join('\n');
  for (const [what, plaintext] of plaintexts) assert.ok(!everything.includes(plaintext), `the log holds the ${what}`);
  assert.ok(!everything.includes(ADMIN_TOKEN), 'the log holds the admin token');
});

test('a wrong admin token is 401 on every admin route', async () => {
  for (const [method, path] of [
    ['GET', '/api/v1/admin/organisations'],
    ['POST', '/api/v1/admin/organisations'],
    ['PATCH', '/api/v1/admin/organisations/acme'],
    ['POST', '/api/v1/admin/organisations/acme/api-keys'],
    ['POST', '/api/v1/admin/organisations/acme/widgets/help/preview-tokens'],
    ['DELETE', '/api/v1/admin/organisations/acme/api-keys/key_x'],
  ] as const) {
    for (const token of [`${ADMIN_TOKEN}x`, ADMIN_TOKEN.slice(0, -1), 'ak_test_all', undefined]) {
      const response = await server.request(method, path, { token, body: method === 'GET' || method === 'DELETE' ? undefined : { id: 'x' } });
      assertError(response, 401, 'unauthenticated', `${method} ${path} with ${token ?? 'no token'}`);
    }
  }
  const [count] = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM organisations WHERE id = 'x'");
  assert.equal(count!.count, 0);
});

test('without an admin token configured, the admin API does not exist: 404, whatever is sent', async () => {
  for (const token of [undefined, 'anything', 'ak_test_all', '']) {
    const response = await serverWithoutAdmin.request('GET', '/api/v1/admin/organisations', { token: token || undefined });
    assertError(response, 404, 'not_found');
  }
  const created = await serverWithoutAdmin.request('POST', '/api/v1/admin/organisations', { token: 'undefined', body: { id: 'sneaky' } });
  assertError(created, 404, 'not_found');
  const [count] = await serverWithoutAdmin.db.query<{ count: number }>("SELECT count(*)::int AS count FROM organisations WHERE id = 'sneaky'");
  assert.equal(count!.count, 0);
});
