/**
 * Website-list matching as a table (contract: exact host, optional port, `*.` for any
 * subdomain but not the bare domain, http or https, no suffix/prefix tricks, `null` never),
 * then end to end through `/config`, and the CORS headers browsers need.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { originAllowed } from '../../server/http/origin.js';
import { baseFixture, startTestServer, type TestServer } from './harness.js';
import { asTestResponse, assertError, rawRequest } from './expect.js';

const cases: { websites: string[]; origin: string | undefined; allowed: boolean; why: string }[] = [
  // Exact hosts.
  { websites: ['example.com'], origin: 'https://example.com', allowed: true, why: 'exact host over https' },
  { websites: ['example.com'], origin: 'http://example.com', allowed: true, why: 'exact host over http' },
  { websites: ['example.com'], origin: 'https://www.example.com', allowed: false, why: 'a subdomain is another host' },
  { websites: ['www.example.com'], origin: 'https://example.com', allowed: false, why: 'the bare domain is another host than www' },
  { websites: ['www.example.com'], origin: 'https://www.example.com', allowed: true, why: 'www entry, www origin' },
  // Ports.
  { websites: ['example.com'], origin: 'https://example.com:8443', allowed: true, why: 'an entry without a port matches any port' },
  { websites: ['example.com'], origin: 'http://example.com:3000', allowed: true, why: 'an entry without a port matches any port (http)' },
  { websites: ['localhost:8787'], origin: 'http://localhost:8787', allowed: true, why: 'host and port equal' },
  { websites: ['localhost:8787'], origin: 'http://localhost:8788', allowed: false, why: 'another port' },
  { websites: ['localhost:8787'], origin: 'http://localhost', allowed: false, why: 'the default port is not 8787' },
  { websites: ['example.com:443'], origin: 'https://example.com', allowed: true, why: 'https without a port is port 443' },
  { websites: ['example.com:80'], origin: 'http://example.com', allowed: true, why: 'http without a port is port 80' },
  { websites: ['example.com:80'], origin: 'https://example.com', allowed: false, why: 'https without a port is not port 80' },
  { websites: ['127.0.0.1:5173'], origin: 'http://127.0.0.1:5173', allowed: true, why: 'an IP address with a port' },
  { websites: ['[::1]:8787'], origin: 'http://[::1]:8787', allowed: true, why: 'an IPv6 address with a port' },
  // Local development on any port.
  { websites: ['localhost:*'], origin: 'http://localhost:5173', allowed: true, why: 'localhost:* takes any port (Vite dev)' },
  { websites: ['localhost:*'], origin: 'http://localhost:4173', allowed: true, why: 'localhost:* takes any port (Vite preview)' },
  { websites: ['localhost:*'], origin: 'http://localhost', allowed: true, why: 'localhost:* takes the default port' },
  { websites: ['localhost:*'], origin: 'https://localhost:8443', allowed: true, why: 'localhost:* over https' },
  { websites: ['localhost:*'], origin: 'http://127.0.0.1:3000', allowed: true, why: 'localhost:* takes 127.0.0.1' },
  { websites: ['localhost:*'], origin: 'http://[::1]:5173', allowed: true, why: 'localhost:* takes [::1]' },
  { websites: ['LOCALHOST:*'], origin: 'http://localhost:5173', allowed: true, why: 'localhost:* is case-insensitive' },
  { websites: ['localhost:*'], origin: 'http://localhost.evil.test:5173', allowed: false, why: 'localhost:* is no prefix' },
  { websites: ['localhost:*'], origin: 'http://127.0.0.2:5173', allowed: false, why: 'localhost:* is only 127.0.0.1 of the loopback range' },
  { websites: ['localhost:*'], origin: 'https://example.com', allowed: false, why: 'localhost:* is no wildcard for other hosts' },
  { websites: ['example.com:*'], origin: 'https://example.com', allowed: false, why: 'a port * only exists for localhost' },
  { websites: ['*.localhost:*'], origin: 'http://a.localhost:5173', allowed: false, why: 'no wildcard with a port *' },
  // Wildcards.
  { websites: ['*.example.com'], origin: 'https://a.example.com', allowed: true, why: 'one subdomain level' },
  { websites: ['*.example.com'], origin: 'https://a.b.example.com', allowed: true, why: 'two subdomain levels' },
  { websites: ['*.example.com'], origin: 'https://example.com', allowed: false, why: 'a wildcard does not match the bare domain' },
  { websites: ['*.example.com'], origin: 'https://evilexample.com', allowed: false, why: 'suffix without a dot' },
  { websites: ['*.example.com'], origin: 'https://a.example.com.evil.test', allowed: false, why: 'the listed domain as a prefix of another' },
  { websites: ['*.example.com:8443'], origin: 'https://a.example.com:8443', allowed: true, why: 'wildcard with its port' },
  { websites: ['*.example.com:8443'], origin: 'https://a.example.com', allowed: false, why: 'wildcard with another port' },
  // Tricks.
  { websites: ['example.com'], origin: 'https://evilexample.com', allowed: false, why: 'the entry as a suffix' },
  { websites: ['example.com'], origin: 'https://example.com.evil.test', allowed: false, why: 'the entry as a prefix' },
  { websites: ['example.com'], origin: 'https://example.com@evil.test', allowed: false, why: 'the entry as user info' },
  { websites: ['example.com'], origin: 'https://evil.test@example.com', allowed: false, why: 'user info is never in a browser origin' },
  { websites: ['example.com'], origin: 'https://evil.test#example.com', allowed: false, why: 'the entry as a fragment' },
  { websites: ['example.com'], origin: 'https://evil.test/?example.com', allowed: false, why: 'the entry in a query' },
  { websites: ['example.com'], origin: 'https://example.com.', allowed: false, why: 'a trailing dot is another origin' },
  { websites: ['example.com'], origin: 'null', allowed: false, why: 'Origin: null' },
  { websites: ['example.com', 'null'], origin: 'null', allowed: false, why: 'Origin: null even when listed' },
  { websites: ['*'], origin: 'https://example.com', allowed: false, why: 'a bare * is no entry' },
  { websites: ['example.com'], origin: undefined, allowed: false, why: 'no Origin at all' },
  { websites: ['example.com'], origin: '', allowed: false, why: 'an empty Origin' },
  { websites: ['example.com'], origin: 'example.com', allowed: false, why: 'a host without a scheme' },
  { websites: ['example.com'], origin: 'ftp://example.com', allowed: false, why: 'a scheme other than http(s)' },
  { websites: ['example.com'], origin: 'file://example.com', allowed: false, why: 'file scheme' },
  { websites: ['example.com'], origin: '%%%garbage%%%', allowed: false, why: 'garbage' },
  { websites: ['example.com'], origin: 'https://', allowed: false, why: 'no host' },
  { websites: ['example.com'], origin: 'https://example.com/', allowed: false, why: 'a trailing slash is not a browser origin' },
  { websites: ['example.com'], origin: 'https://example.com/path', allowed: false, why: 'a path is not a browser origin' },
  { websites: ['example.com'], origin: 'https://example.com:443', allowed: false, why: 'browsers never send the default port' },
  { websites: ['example.com'], origin: 'https://example.com, https://evil.test', allowed: false, why: 'a list of origins' },
  // Origins no browser sends.
  { websites: ['example.com'], origin: 'https://example.com:0', allowed: false, why: 'port 0' },
  { websites: ['example.com:0'], origin: 'https://example.com:0', allowed: false, why: 'port 0, even when listed' },
  { websites: ['*.acme.test'], origin: 'https://*.acme.test', allowed: false, why: 'a literal * is no subdomain' },
  { websites: ['*.acme.test'], origin: 'https://a.*.acme.test', allowed: false, why: 'a * label deeper down' },
  { websites: ['*.acme.test'], origin: 'https://a..acme.test', allowed: false, why: 'an empty label' },
  { websites: ['*.com'], origin: 'https://example.com', allowed: false, why: 'a wildcard needs two labels under it' },
  // Case.
  { websites: ['example.com'], origin: 'https://EXAMPLE.COM', allowed: true, why: 'host names are case-insensitive' },
  { websites: ['Example.COM'], origin: 'https://example.com', allowed: true, why: 'entries are case-insensitive' },
  { websites: ['*.Example.com'], origin: 'https://A.example.COM', allowed: true, why: 'wildcards are case-insensitive' },
  { websites: ['example.com'], origin: 'HTTPS://example.com', allowed: true, why: 'the scheme is case-insensitive' },
  // Lists.
  { websites: [], origin: 'https://example.com', allowed: false, why: 'an empty list allows nothing' },
  { websites: ['first.test', 'example.com'], origin: 'https://example.com', allowed: true, why: 'any entry of the list' },
];

describe('originAllowed', () => {
  for (const { websites, origin, allowed, why } of cases) {
    test(`${JSON.stringify(origin)} against ${JSON.stringify(websites)}: ${allowed ? 'allowed' : 'refused'} (${why})`, () => {
      assert.equal(originAllowed(origin, websites), allowed);
    });
  }
});

describe('through the config route and CORS', () => {
  let server: TestServer;
  const CONFIG = '/api/v1/acme/widgets/help/config';
  before(async () => {
    const fixture = baseFixture();
    // A widget in local development: `localhost:*` on its website list.
    fixture.organisations[0]!.widgets!.push({
      id: 'local', type: 'search', name: 'Local', sources: ['docs'], websites: ['localhost:*'], secret: 'ws_test_local', signingSecret: 'sig_test_local', config: { summary: true },
    });
    server = await startTestServer({ fixture });
  });
  after(() => server?.stop());

  test('localhost:* lets every dev server on localhost, 127.0.0.1 and [::1] load the config, and nothing else', async () => {
    const LOCAL_CONFIG = '/api/v1/acme/widgets/local/config';
    for (const origin of ['http://localhost:5173', 'http://localhost:4173', 'http://127.0.0.1:3000', 'http://[::1]:5173', 'https://localhost:8443']) {
      const response = await server.request('GET', LOCAL_CONFIG, { origin });
      assert.equal(response.status, 200, `${origin}: ${response.text}`);
      assert.equal(response.headers.get('access-control-allow-origin'), origin);
    }
    for (const origin of ['https://acme.test', 'http://localhost.evil.test:5173', 'http://192.168.1.20:5173']) {
      assertError(await server.request('GET', LOCAL_CONFIG, { origin }), 403, 'origin_not_allowed');
    }
  });

  for (const origin of ['https://acme.test', 'http://acme.test:3000', 'https://docs.acme.dev', 'https://a.b.acme.dev', 'http://localhost:8787']) {
    test(`${origin} is allowed, and its origin is echoed with Vary: Origin`, async () => {
      const response = await server.request('GET', CONFIG, { origin });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.headers.get('access-control-allow-origin'), origin);
      assert.match(response.headers.get('vary') ?? '', /\bOrigin\b/i);
      assert.equal(response.headers.get('access-control-allow-credentials'), null, 'no cookies, so no credentials mode');
    });
  }

  for (const origin of ['https://acme.dev', 'https://evilacme.test', 'https://acme.test.evil.test', 'http://localhost:8788', 'null', 'https://acme.test/']) {
    test(`${origin} is refused with origin_not_allowed, readable by the page`, async () => {
      const response = await server.request('GET', CONFIG, { origin });
      assertError(response, 403, 'origin_not_allowed');
      // The SDK must be able to read why it was refused.
      assert.equal(response.headers.get('access-control-allow-origin'), origin);
      assert.match(response.headers.get('vary') ?? '', /\bOrigin\b/i);
    });
  }

  test('a widget is reached only from its own list: another widget\'s site is refused', async () => {
    assertError(await server.request('GET', '/api/v1/other/widgets/bot/config', { origin: 'https://acme.test' }), 403, 'origin_not_allowed');
    assert.equal((await server.request('GET', '/api/v1/other/widgets/bot/config', { origin: 'https://other.test' })).status, 200);
  });

  // Browsers send no Origin on a same-origin GET: a site serving Assist from its own origin.
  const sameOriginGet = (host: string, fetchSite?: string) =>
    rawRequest(
      server.port,
      `GET ${CONFIG} HTTP/1.1\r\nHost: ${host}\r\n${fetchSite ? `Sec-Fetch-Site: ${fetchSite}\r\n` : ''}Connection: close\r\n\r\n`,
    ).then(asTestResponse);

  test('a same-origin browser GET, which carries no Origin, is checked by its Host against the list', async () => {
    assert.equal((await sameOriginGet('localhost:8787', 'same-origin')).status, 200);
    assertError(await sameOriginGet('localhost:9999', 'same-origin'), 403, 'origin_not_allowed');
    assertError(await sameOriginGet('localhost:8787', 'cross-site'), 401, 'unauthenticated');
    assertError(await sameOriginGet('localhost:8787'), 401, 'unauthenticated');
  });

  test('a server-side call without an Origin has no CORS headers to echo, but still varies by Origin', async () => {
    const response = await server.request('GET', CONFIG, { token: 'ws_test_help' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), null);
    assert.match(response.headers.get('vary') ?? '', /\bOrigin\b/i);
  });

  test('preflight: 204 with the methods, the headers (Authorization, Content-Type, Accept) and a max age of 600', async () => {
    const response = await server.request('OPTIONS', CONFIG, {
      origin: 'https://acme.test',
      headers: { 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization, content-type' },
    });
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
    assert.equal(response.headers.get('access-control-allow-origin'), 'https://acme.test');
    assert.match(response.headers.get('vary') ?? '', /\bOrigin\b/i);
    const methods = (response.headers.get('access-control-allow-methods') ?? '').split(',').map((method) => method.trim());
    assert.ok(methods.includes('GET'), `methods: ${methods}`);
    const allowedHeaders = (response.headers.get('access-control-allow-headers') ?? '').split(',').map((header) => header.trim().toLowerCase());
    for (const header of ['authorization', 'content-type', 'accept']) assert.ok(allowedHeaders.includes(header), `${header} in ${allowedHeaders}`);
    assert.equal(response.headers.get('access-control-max-age'), '600');
  });

  test('preflight from an origin not on the list still answers, so the browser can read the real refusal', async () => {
    const response = await server.request('OPTIONS', CONFIG, { origin: 'https://evil.test', headers: { 'Access-Control-Request-Method': 'GET' } });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), 'https://evil.test');
  });

  test('preflight of an unknown path is 404 with the error body', async () => {
    assertError(await server.request('OPTIONS', '/api/v1/acme/widgets/help/nothing', { origin: 'https://acme.test' }), 404, 'not_found');
  });

  test('the management API is not offered to browsers: no CORS headers on its preflight or its answers', async () => {
    const preflight = await server.request('OPTIONS', '/api/v1/acme/sources/docs/pages', {
      origin: 'https://acme.test',
      headers: { 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    const response = await server.request('GET', '/api/v1/me', { origin: 'https://acme.test', token: 'ak_test_all' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), null);
  });
});

describe('website entries and avatars a widget may be given', () => {
  const ADMIN = 'admin-token-for-origin-tests';
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ fixture: baseFixture(), adminToken: ADMIN });
  });
  after(() => server?.stop());

  const createWidget = (id: string, extra: Record<string, unknown>) =>
    server.request('POST', '/api/v1/admin/organisations/acme/widgets', { token: ADMIN, body: { id, type: 'chatbot', sources: ['docs'], ...extra } });

  for (const entry of ['*.com', '*.localhost', 'example.com:0', 'a..example.com', '*']) {
    test(`the website entry "${entry}" is 400 in the admin API and in a fixture`, async () => {
      const response = await createWidget('loose', { websites: [entry] });
      assertError(response, 400, 'invalid_request');
      assert.match(response.json.error.message, /websites/);
      const fixture = baseFixture();
      fixture.organisations[0]!.widgets[0]!.websites = [entry];
      await assert.rejects(startTestServer({ fixture }), /websites/);
    });
  }

  test('"*.example.com" and "example.co.uk" are fine', async () => {
    assert.equal((await createWidget('fine', { websites: ['*.example.com', 'example.co.uk', 'localhost:5173'] })).status, 201);
  });

  for (const avatar of ['//evil.test/pixel.png', '/\\evil.test/pixel.png', 'http://acme.test/bot.png', 'javascript:alert(1)', 'bot.png', 'https:/bot.png']) {
    test(`the avatar ${avatar} is 400 naming config.avatar`, async () => {
      const response = await createWidget('pictured', { config: { avatar } });
      assertError(response, 400, 'invalid_request');
      assert.match(response.json.error.message, /config\.avatar/);
    });
  }

  test('an absolute https avatar and a path on the page\'s own site are fine', async () => {
    assert.equal((await createWidget('pictured-a', { config: { avatar: 'https://cdn.acme.test/bot.png' } })).status, 201);
    assert.equal((await createWidget('pictured-b', { config: { avatar: '/images/bot.png' } })).status, 201);
  });
});
