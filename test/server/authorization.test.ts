/**
 * The authorisation matrix: every credential kind against every route kind, allowed or
 * refused with the contract's exact status and code, plus the contract's check order
 * (401 → 404 organisation → 403 wrong_organisation → 403 permission_denied → 404 source →
 * 403 source_forbidden → 400 body).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { baseFixture, startTestServer, type RequestOptions, type TestServer } from './harness.js';
import { assertError } from './expect.js';
import { hashSecret } from '../../server/store/secrets.js';

const ADMIN_TOKEN = 'admin-token-for-authorization-tests';

/** The base fixture plus keys for one widget permission each, and a read-only key of the other organisation. */
function fixture() {
  const setup = baseFixture();
  const [acme, other] = setup.organisations;
  acme!.apiKeys.push(
    { name: 'search', key: 'ak_test_search', permissions: ['search'] },
    { name: 'chat', key: 'ak_test_chat', permissions: ['chat'] },
    { name: 'summarize', key: 'ak_test_summarize', permissions: ['summarize'] },
    { name: 'to-revoke', key: 'ak_test_revoked', permissions: ['pages.read', 'pages.write', 'search', 'chat', 'summarize'] },
  );
  other!.apiKeys.push({ name: 'other-read', key: 'ak_other_read', permissions: ['pages.read'] });
  return setup;
}

let server: TestServer;
let pageId: string;
let previewForHelp: string;
let previewForFind: string;
let expiredPreview: string;
let urlCounter = 0;

const admin = (method: string, path: string, body?: unknown) => server.request(method, `/api/v1/admin${path}`, { token: ADMIN_TOKEN, body });

before(async () => {
  server = await startTestServer({ fixture: fixture(), adminToken: ADMIN_TOKEN });
  const listing = await server.request('GET', '/api/v1/acme/sources/docs/pages', { token: 'ak_test_all' });
  pageId = listing.json.pages[0].id;

  const keys = (await admin('GET', '/organisations/acme')).json.apiKeys as { id: string; name: string }[];
  const revoked = keys.find((key) => key.name === 'to-revoke')!;
  assert.equal((await admin('DELETE', `/organisations/acme/api-keys/${revoked.id}`)).status, 200);

  previewForHelp = (await admin('POST', '/organisations/acme/widgets/help/preview-tokens')).json.token;
  previewForFind = (await admin('POST', '/organisations/acme/widgets/find/preview-tokens')).json.token;
  expiredPreview = (await admin('POST', '/organisations/acme/widgets/help/preview-tokens')).json.token;
  await server.db.query(`UPDATE preview_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [hashSecret(expiredPreview)]);
  assert.ok(previewForHelp.startsWith('pt_') && previewForFind.startsWith('pt_') && expiredPreview.startsWith('pt_'));
});
after(() => server?.stop());

/** One way of calling: an Authorization header and/or an Origin. */
interface Credential {
  name: string;
  options: () => RequestOptions;
}

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

const NONE: Credential = { name: 'no credential', options: () => ({}) };
const MALFORMED: Credential[] = [
  { name: 'Basic instead of Bearer', options: () => ({ headers: { Authorization: 'Basic YWs6dGVzdA==' } }) },
  { name: 'Bearer without a token', options: () => ({ headers: { Authorization: 'Bearer' } }) },
  { name: 'Bearer with two tokens', options: () => ({ headers: { Authorization: 'Bearer ak_test_all extra' } }) },
  { name: 'a token without the Bearer scheme', options: () => ({ headers: { Authorization: 'ak_test_all' } }) },
];
const UNKNOWN_KEY: Credential = { name: 'unknown ak_ key', options: () => bearer('ak_never_issued_0000') };
const REVOKED_KEY: Credential = { name: 'revoked key', options: () => bearer('ak_test_revoked') };
const OTHER_ORGANISATION_KEY: Credential = { name: 'key of another organisation', options: () => bearer('ak_other_all') };
const READ_ONLY_KEY: Credential = { name: 'key with only pages.read', options: () => bearer('ak_test_read') };
const BLOG_ONLY_KEY: Credential = { name: 'key limited to the blog source', options: () => bearer('ak_test_blog') };
const DOCS_ONLY_KEY: Credential = { name: 'key limited to the docs source', options: () => bearer('ak_test_docs') };
const GOOD_KEY: Credential = { name: 'key with every permission', options: () => bearer('ak_test_all') };
const WIDGET_SECRET: Credential = { name: 'widget secret', options: () => bearer('ws_test_help') };
const PREVIEW: Credential = { name: 'preview token', options: () => bearer(previewForHelp) };
const ADMIN: Credential = { name: 'admin token', options: () => bearer(ADMIN_TOKEN) };

/** A call of one route kind; `prepare` makes what the call needs (e.g. a page to delete). */
interface RouteKind {
  name: string;
  method: string;
  prepare: () => Promise<{ path: string; body?: unknown }>;
  /** The status a successful call answers. */
  success: number;
}

const PAGES = '/api/v1/acme/sources/docs/pages';

async function createDocsPage(): Promise<string> {
  const response = await server.request('POST', PAGES, {
    token: 'ak_test_all',
    body: { url: `https://acme.test/prepared/${++urlCounter}`, title: 'Prepared', content: 'To be changed or deleted.' },
  });
  assert.equal(response.status, 201);
  return response.json.id;
}

const ME: RouteKind = { name: 'GET /me', method: 'GET', success: 200, prepare: async () => ({ path: '/api/v1/me' }) };
const LIST: RouteKind = { name: 'list pages', method: 'GET', success: 200, prepare: async () => ({ path: PAGES }) };
const GET: RouteKind = { name: 'get a page', method: 'GET', success: 200, prepare: async () => ({ path: `${PAGES}/${pageId}` }) };
const CREATE: RouteKind = {
  name: 'create a page',
  method: 'POST',
  success: 201,
  prepare: async () => ({ path: PAGES, body: { url: `https://acme.test/matrix/${++urlCounter}`, title: 'Matrix', content: 'Body' } }),
};
const PATCH: RouteKind = {
  name: 'patch a page',
  method: 'PATCH',
  success: 200,
  prepare: async () => ({ path: `${PAGES}/${await createDocsPage()}`, body: { title: 'Patched' } }),
};
const DELETE: RouteKind = { name: 'delete a page', method: 'DELETE', success: 204, prepare: async () => ({ path: `${PAGES}/${await createDocsPage()}` }) };
const CONFIG: RouteKind = { name: 'widget config', method: 'GET', success: 200, prepare: async () => ({ path: '/api/v1/acme/widgets/help/config' }) };
const ADMIN_ROUTE: RouteKind = { name: 'admin listing', method: 'GET', success: 200, prepare: async () => ({ path: '/api/v1/admin/organisations' }) };

const MANAGEMENT_ROUTES = [ME, LIST, GET, CREATE, PATCH, DELETE];
const PAGE_ROUTES = [LIST, GET, CREATE, PATCH, DELETE];
const WRITE_ROUTES = [CREATE, PATCH, DELETE];

type Outcome = 'allowed' | [status: number, code: string];
const UNAUTHENTICATED: Outcome = [401, 'unauthenticated'];

interface Case {
  credential: Credential;
  route: RouteKind;
  outcome: Outcome;
}

const matrix: Case[] = [];
const row = (credential: Credential, routes: RouteKind[], outcome: Outcome) => {
  for (const route of routes) matrix.push({ credential, route, outcome });
};

// Management routes (me and pages).
row(NONE, MANAGEMENT_ROUTES, UNAUTHENTICATED);
for (const malformed of MALFORMED) row(malformed, MANAGEMENT_ROUTES, UNAUTHENTICATED);
row(UNKNOWN_KEY, MANAGEMENT_ROUTES, UNAUTHENTICATED);
row(REVOKED_KEY, MANAGEMENT_ROUTES, UNAUTHENTICATED);
row(WIDGET_SECRET, MANAGEMENT_ROUTES, UNAUTHENTICATED);
row(PREVIEW, MANAGEMENT_ROUTES, UNAUTHENTICATED);
row(ADMIN, MANAGEMENT_ROUTES, UNAUTHENTICATED);
row(OTHER_ORGANISATION_KEY, [ME], 'allowed');
row(OTHER_ORGANISATION_KEY, PAGE_ROUTES, [403, 'wrong_organisation']);
row(READ_ONLY_KEY, [ME, LIST, GET], 'allowed');
row(READ_ONLY_KEY, WRITE_ROUTES, [403, 'permission_denied']);
row(BLOG_ONLY_KEY, [ME], 'allowed');
row(BLOG_ONLY_KEY, PAGE_ROUTES, [403, 'source_forbidden']);
row(DOCS_ONLY_KEY, MANAGEMENT_ROUTES, 'allowed');
row(GOOD_KEY, MANAGEMENT_ROUTES, 'allowed');

// Widget config.
const origin = (value: string): Credential => ({ name: `Origin ${value}`, options: () => ({ origin: value }) });
row(NONE, [CONFIG], UNAUTHENTICATED);
for (const malformed of MALFORMED) row(malformed, [CONFIG], UNAUTHENTICATED);
row(origin('https://acme.test'), [CONFIG], 'allowed');
row(origin('http://localhost:8787'), [CONFIG], 'allowed');
row(origin('https://docs.acme.dev'), [CONFIG], 'allowed');
row(origin('https://evil.test'), [CONFIG], [403, 'origin_not_allowed']);
row(origin('https://acme.test.evil.test'), [CONFIG], [403, 'origin_not_allowed']);
row(origin('null'), [CONFIG], [403, 'origin_not_allowed']);
row(WIDGET_SECRET, [CONFIG], 'allowed');
row({ name: 'secret of another widget of the organisation', options: () => bearer('ws_test_find') }, [CONFIG], UNAUTHENTICATED);
row({ name: 'secret of a widget of another organisation', options: () => bearer('ws_other_bot') }, [CONFIG], UNAUTHENTICATED);
row({ name: 'unknown widget secret', options: () => bearer('ws_never_issued_000') }, [CONFIG], UNAUTHENTICATED);
row(PREVIEW, [CONFIG], 'allowed');
row({ name: 'preview token of another widget', options: () => bearer(previewForFind) }, [CONFIG], UNAUTHENTICATED);
row({ name: 'expired preview token', options: () => bearer(expiredPreview) }, [CONFIG], UNAUTHENTICATED);
row({ name: 'unknown preview token', options: () => bearer('pt_never_issued_0000') }, [CONFIG], UNAUTHENTICATED);
row({ name: 'a token of no known kind', options: () => bearer('xyz_something') }, [CONFIG], UNAUTHENTICATED);
row({ name: 'unknown token from an allowed origin', options: () => ({ ...bearer('ak_never_issued_0000'), origin: 'https://acme.test' }) }, [CONFIG], UNAUTHENTICATED);
row({ name: 'widget secret from a disallowed origin', options: () => ({ ...bearer('ws_test_help'), origin: 'https://evil.test' }) }, [CONFIG], 'allowed');
row(GOOD_KEY, [CONFIG], 'allowed');
row({ name: 'key with only search', options: () => bearer('ak_test_search') }, [CONFIG], 'allowed');
row({ name: 'key with only chat', options: () => bearer('ak_test_chat') }, [CONFIG], 'allowed');
row({ name: 'key with only summarize', options: () => bearer('ak_test_summarize') }, [CONFIG], 'allowed');
row(DOCS_ONLY_KEY, [CONFIG], 'allowed');
row(READ_ONLY_KEY, [CONFIG], [403, 'permission_denied']);
row(OTHER_ORGANISATION_KEY, [CONFIG], [403, 'wrong_organisation']);
row({ ...BLOG_ONLY_KEY, name: 'key whose source limit misses a widget source' }, [CONFIG], [403, 'source_forbidden']);
row(UNKNOWN_KEY, [CONFIG], UNAUTHENTICATED);
row(REVOKED_KEY, [CONFIG], UNAUTHENTICATED);
row(ADMIN, [CONFIG], UNAUTHENTICATED);

// Admin API.
row(NONE, [ADMIN_ROUTE], UNAUTHENTICATED);
for (const malformed of MALFORMED) row(malformed, [ADMIN_ROUTE], UNAUTHENTICATED);
row({ name: 'wrong admin token', options: () => bearer(`${ADMIN_TOKEN}x`) }, [ADMIN_ROUTE], UNAUTHENTICATED);
row(GOOD_KEY, [ADMIN_ROUTE], UNAUTHENTICATED);
row(WIDGET_SECRET, [ADMIN_ROUTE], UNAUTHENTICATED);
row(PREVIEW, [ADMIN_ROUTE], UNAUTHENTICATED);
row(ADMIN, [ADMIN_ROUTE], 'allowed');

describe('authorisation matrix', () => {
  for (const { credential, route, outcome } of matrix) {
    const expectation = outcome === 'allowed' ? `${route.success}` : `${outcome[0]} ${outcome[1]}`;
    test(`${route.name} with ${credential.name} → ${expectation}`, async () => {
      const { path, body } = await route.prepare();
      const response = await server.request(route.method, path, { ...credential.options(), body });
      if (outcome === 'allowed') {
        assert.equal(response.status, route.success, `${response.status} ${response.text.slice(0, 300)}`);
      } else {
        assertError(response, outcome[0], outcome[1]);
      }
    });
  }
});

describe('what a refused call leaves behind', () => {
  test('a refused create stores nothing and a refused delete deletes nothing', async () => {
    const url = 'https://acme.test/refused-create';
    assertError(await server.request('POST', PAGES, { token: 'ak_test_read', body: { url, title: 'No', content: 'No' } }), 403, 'permission_denied');
    const id = await createDocsPage();
    assertError(await server.request('DELETE', `${PAGES}/${id}`, { token: 'ak_test_blog' }), 403, 'source_forbidden');
    assert.equal((await server.request('GET', `${PAGES}/${id}`, { token: 'ak_test_all' })).status, 200);
    const created = await server.request('POST', PAGES, { token: 'ak_test_all', body: { url, title: 'Yes', content: 'Yes' } });
    assert.equal(created.status, 201, 'the refused create must not have taken the url');
  });

  test('GET /me lists only the sources a limited key may reach', async () => {
    const limited = await server.request('GET', '/api/v1/me', { token: 'ak_test_blog' });
    assert.deepEqual(limited.json.key.sources, ['blog']);
    assert.deepEqual(limited.json.sources.map((source: { id: string }) => source.id), ['blog']);
    const unlimited = await server.request('GET', '/api/v1/me', { token: 'ak_test_all' });
    assert.equal(unlimited.json.key.sources, null);
    assert.deepEqual(unlimited.json.sources.map((source: { id: string }) => source.id).sort(), ['blog', 'docs']);
    const otherOrganisation = await server.request('GET', '/api/v1/me', { token: 'ak_other_all' });
    assert.equal(otherOrganisation.json.organisation.id, 'other');
  });
});

describe('check order', () => {
  const page = (organisation: string, source: string) => `/api/v1/${organisation}/sources/${source}/pages`;
  const badBody = { url: 'not a url', content: 5 };
  const cases: { name: string; method: string; path: string; token?: string; body?: unknown; rawBody?: string; expect: [number, string] }[] = [
    { name: 'no key on an unknown organisation: 401 before 404', method: 'GET', path: page('nobody', 'docs'), expect: [401, 'unauthenticated'] },
    { name: 'revoked key on an unknown organisation: 401 before 404', method: 'GET', path: page('nobody', 'docs'), token: 'ak_test_revoked', expect: [401, 'unauthenticated'] },
    { name: 'no key with a bad body: 401 before 400', method: 'POST', path: page('acme', 'docs'), body: badBody, expect: [401, 'unauthenticated'] },
    { name: 'valid key on an unknown organisation: 404', method: 'GET', path: page('nobody', 'docs'), token: 'ak_test_all', expect: [404, 'not_found'] },
    { name: 'other organisation\'s key on an unknown organisation: 404 before wrong_organisation', method: 'GET', path: page('nobody', 'docs'), token: 'ak_other_all', expect: [404, 'not_found'] },
    { name: 'other organisation\'s key lacking the permission: wrong_organisation before permission_denied', method: 'POST', path: page('acme', 'docs'), token: 'ak_other_read', body: badBody, expect: [403, 'wrong_organisation'] },
    { name: 'other organisation\'s key on an unknown source: wrong_organisation before 404 source', method: 'GET', path: page('acme', 'nope'), token: 'ak_other_all', expect: [403, 'wrong_organisation'] },
    { name: 'key lacking the permission on an unknown source: permission_denied before 404 source', method: 'POST', path: page('acme', 'nope'), token: 'ak_test_read', body: badBody, expect: [403, 'permission_denied'] },
    { name: 'key lacking the permission with a bad body: permission_denied before 400', method: 'POST', path: page('acme', 'docs'), token: 'ak_test_read', body: badBody, expect: [403, 'permission_denied'] },
    { name: 'key lacking the permission with a non-JSON body: permission_denied before 415', method: 'POST', path: page('acme', 'docs'), token: 'ak_test_read', rawBody: 'url=x', expect: [403, 'permission_denied'] },
    { name: 'limited key on an unknown source: 404 source before source_forbidden', method: 'GET', path: page('acme', 'nope'), token: 'ak_test_blog', expect: [404, 'not_found'] },
    { name: 'limited key with a bad body: source_forbidden before 400', method: 'POST', path: page('acme', 'docs'), token: 'ak_test_blog', body: badBody, expect: [403, 'source_forbidden'] },
    { name: 'good key with a bad body: 400', method: 'POST', path: page('acme', 'docs'), token: 'ak_test_all', body: badBody, expect: [400, 'invalid_request'] },
    { name: 'good key on an unknown page: 404', method: 'GET', path: `${page('acme', 'docs')}/p_nothing`, token: 'ak_test_all', expect: [404, 'not_found'] },
    { name: 'a page of another source is not found through this one', method: 'GET', path: `${page('acme', 'blog')}/PAGE`, token: 'ak_test_all', expect: [404, 'not_found'] },
    { name: 'widget: unknown token before an unknown organisation', method: 'GET', path: '/api/v1/nobody/widgets/help/config', token: 'ak_never_issued_0000', expect: [401, 'unauthenticated'] },
    { name: 'widget: unknown organisation', method: 'GET', path: '/api/v1/nobody/widgets/help/config', token: 'ak_test_all', expect: [404, 'not_found'] },
    { name: 'widget: unknown widget', method: 'GET', path: '/api/v1/acme/widgets/nothing/config', token: 'ak_test_all', expect: [404, 'not_found'] },
    { name: 'widget: other organisation\'s key on an unknown widget: 404 before wrong_organisation', method: 'GET', path: '/api/v1/acme/widgets/nothing/config', token: 'ak_other_all', expect: [404, 'not_found'] },
    { name: 'widget: other organisation\'s key lacking the permission: wrong_organisation first', method: 'GET', path: '/api/v1/acme/widgets/help/config', token: 'ak_other_read', expect: [403, 'wrong_organisation'] },
  ];
  for (const entry of cases) {
    test(entry.name, async () => {
      const headers = entry.rawBody !== undefined ? { 'Content-Type': 'application/x-www-form-urlencoded' } : undefined;
      const response = await server.request(entry.method, entry.path.replace('PAGE', pageId), {
        token: entry.token,
        body: entry.body,
        rawBody: entry.rawBody,
        headers,
      });
      assertError(response, entry.expect[0], entry.expect[1]);
    });
  }

  test('an unknown organisation with an allowed origin is 404, not a CORS refusal', async () => {
    assertError(await server.request('GET', '/api/v1/nobody/widgets/help/config', { origin: 'https://acme.test' }), 404, 'not_found');
  });
});
