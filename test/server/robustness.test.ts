/**
 * Whatever a client sends, the server answers with the contract: never a 5xx, the JSON
 * error body on every non-2xx, no stack trace anywhere, no unexpected error in its log, and
 * `/healthz` still 200 afterwards. A property test throws random methods, paths (real route
 * templates with random segments), headers (Authorization, Origin, Content-Type,
 * Content-Length lies) and bodies (random bytes, JSON, deep nesting, huge strings) at every
 * route of the router, over raw TCP so that nothing is tidied up on the way; explicit cases
 * follow.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import fc from 'fast-check';
import { ERROR_STATUS } from '../../wire/contract.js';
import { routes } from '../../server/routes/index.js';
import type { Route } from '../../server/http/router.js';
import { baseFixture, startTestServer, type TestServer } from './harness.js';
import { assertError, assertErrorBody, assertNoStackTrace, asTestResponse, parseRaw, rawRequest, type RawResponse } from './expect.js';

const ADMIN_TOKEN = 'admin-token-for-robustness-tests';
let server: TestServer;
let pageId: string;
let previewToken: string;
const unexpected: string[] = [];

before(async () => {
  server = await startTestServer({ fixture: baseFixture(), adminToken: ADMIN_TOKEN });
  // Anything the server logs as unexpected is a bug, even when no client could see it.
  server.context.log = (line) => {
    if (/unexpected/i.test(line)) unexpected.push(line);
  };
  pageId = (await server.request('GET', '/api/v1/acme/sources/docs/pages', { token: 'ak_test_all' })).json.pages[0].id;
  previewToken = (await server.request('POST', '/api/v1/admin/organisations/acme/widgets/help/preview-tokens', { token: ADMIN_TOKEN })).json.token;
});
after(() => server?.stop());

interface RawCall {
  method: string;
  path: string;
  headers: [string, string][];
  body: Buffer | undefined;
  /** How the body's length is told: truthfully, chunked, or as a lie in either direction. */
  framing: 'exact' | 'chunked' | 'declared-smaller' | 'declared-larger';
}

/** Sends one request over its own connection, exactly as given, and reads the first answer. */
async function send(call: RawCall): Promise<RawResponse> {
  const body = call.body ?? Buffer.alloc(0);
  const lines = [`${call.method} ${call.path} HTTP/1.1`, 'Host: robustness.test', 'Connection: close'];
  for (const [name, value] of call.headers) lines.push(`${name}: ${value}`);
  let payload = body;
  if (call.framing === 'chunked') {
    lines.push('Transfer-Encoding: chunked');
    payload = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
    if (body.length === 0) payload = Buffer.from('0\r\n\r\n');
  } else if (call.framing === 'declared-smaller') {
    lines.push(`Content-Length: ${Math.max(0, body.length - 1 - (body.length >> 1))}`);
  } else if (call.framing === 'declared-larger') {
    lines.push(`Content-Length: ${body.length + 17}`);
  } else if (call.body !== undefined) {
    lines.push(`Content-Length: ${body.length}`);
  }
  const request = Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
  // A client that declared more than it sends gives up and closes its side, as a dropped upload does.
  return rawRequest(server.port, request, { waitMs: 15_000, halfClose: call.framing === 'declared-larger' });
}

/** The final answer of a raw exchange: interim `100 Continue` answers are skipped. */
function finalAnswer(response: RawResponse): RawResponse {
  let raw = response.raw;
  while (/^HTTP\/1\.1 1\d\d /.test(raw)) {
    const end = raw.indexOf('\r\n\r\n');
    if (end === -1) break;
    raw = raw.slice(end + 4);
  }
  return raw === response.raw ? response : parseRaw(raw, response.firstByteAfter, response.closedByServer);
}

/** Asserts the properties every answer has. */
function checkAnswer(call: RawCall, response: RawResponse): void {
  const context = `${call.method} ${call.path} [${call.framing}] headers ${JSON.stringify(call.headers)} body ${call.body?.subarray(0, 120).toString('latin1')}`;
  assertNoStackTrace(response.raw, context);
  if (response.status === undefined) {
    // Only a client that hung up mid-body may go unanswered.
    assert.equal(call.framing, 'declared-larger', `no answer to ${context}: ${JSON.stringify(response.raw.slice(0, 200))}`);
    return;
  }
  assert.ok(response.status < 500, `${response.status} for ${context}: ${response.body.slice(0, 300)}`);
  if (response.status >= 400 && call.method === 'HEAD') {
    // A HEAD answer never has a body; it still says what the body would be.
    assert.match(response.headers['content-type'] ?? '', /^application\/json/, context);
  } else if (response.status >= 400) {
    const answer = asTestResponse(response);
    assertErrorBody(answer, context);
    const code = answer.json.error.code as keyof typeof ERROR_STATUS;
    assert.equal(ERROR_STATUS[code], response.status, `code ${code} with status ${response.status} for ${context}`);
    if (response.status === 405) assert.ok(response.headers.allow, `405 without Allow for ${context}`);
  }
}

// Generators.

const printable = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength });
const opaqueId = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,20}$/);
/** Bytes that may appear in a request target, percent-escapes included (valid or not). */
const pathGarbage = fc.oneof(
  fc.constantFrom('%ZZ', '%', '%00', '%2F', '..', '.', '%2e%2e', '%C3%28', '%FF%FE', '~', '%E2%80%AE', 'a%20b', '😀'.replace(/./gu, encodeURIComponent)),
  printable(30).map((text) => text.replace(/[\s?#]/g, '').replace(/[^\x21-\x7e]/g, '') || 'x'),
  fc.string({ maxLength: 10 }).map((text) => encodeURIComponent(text) || 'y'),
);

/** Mostly the fixture's own ids, so requests reach the handlers; sometimes ids that do not exist. */
const likely = (usual: string[], rare: string[]) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...usual) }, { weight: 1, arbitrary: fc.constantFrom(...rare) });
const realValues: Record<string, fc.Arbitrary<string>> = {
  organisation: likely(['acme'], ['other', 'admin', 'nobody']),
  source: likely(['docs', 'blog'], ['kb', 'nope']),
  widget: likely(['help', 'find'], ['bot', 'nope']),
  page: likely(['PAGE_ID'], ['p_nothing']),
  key: fc.constantFrom('key_0000000000000000', 'key_x'),
  conversation: fc.constantFrom('c_unknown', 'c_x'),
};

const segment = (name: string) => fc.oneof({ weight: 8, arbitrary: realValues[name] ?? opaqueId }, { weight: 1, arbitrary: opaqueId }, { weight: 1, arbitrary: pathGarbage });

const query = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('limit', 'cursor', 'user', 'hash', 'period', 'x'), fc.oneof(printable(20), pathGarbage, fc.constantFrom('1', '0', '200', '-1', '1e9'))).map(([name, value]) => `?${name}=${value.replace(/[\s#]/g, '')}`) },
  { weight: 1, arbitrary: pathGarbage.map((text) => `?${text}`) },
);

/** A route template with each `{param}` filled in: usually real values, sometimes random ids or garbage. */
const routePath = fc
  .constantFrom(...routes)
  .chain((route) => {
    const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
    return fc.tuple(fc.constant(route), fc.tuple(...names.map(segment)), query);
  })
  .map(([route, values, search]) => {
    let index = 0;
    return { route, path: route.path.replace(/\{\w+\}/g, () => values[index++]!.replace('PAGE_ID', pageId)) + search };
  });

const otherPath = fc.oneof(
  fc.array(pathGarbage, { minLength: 0, maxLength: 6 }).map((parts) => `/api/v1/${parts.join('/')}`),
  fc.constantFrom('/', '/healthz', '/api/v1/openapi.json', '/widget/v1/assist.js', '/widget/v1/../../package.json', '/demo', '/demo/', '/api', '/api/v1', '/api/v1/', '//api/v1/me', '/api/v1/me/', '/api/v1/ME', '*'),
);

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE') },
  { weight: 2, arbitrary: fc.constantFrom('PUT', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND') },
  { weight: 1, arbitrary: fc.constantFrom('FOO', 'get', 'G-E-T', 'BREW') },
);

const token = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('ak_test_all', 'ws_test_help', ADMIN_TOKEN, 'PREVIEW') },
  fc.constantFrom('ak_test_all', 'ak_test_read', 'ak_test_blog', 'ak_other_all', 'ws_test_help', 'ws_test_find', ADMIN_TOKEN, 'PREVIEW', 'ak_', 'ws_', 'pt_'),
  printable(60),
);
const authorization = fc.oneof(
  { weight: 3, arbitrary: token.map((value) => `Bearer ${value}`) },
  { weight: 1, arbitrary: printable(80) },
  { weight: 1, arbitrary: fc.constantFrom('Bearer', 'Bearer ', 'Basic YTpi', 'bearer ak_test_all', 'Bearer  ak_test_all', 'Bearer ak_test_all ak_test_all') },
);
const origin = fc.oneof(fc.constantFrom('https://acme.test', 'http://localhost:8787', 'https://evil.test', 'null', 'https://acme.test/', ''), printable(60));
const contentType = fc.oneof(
  { weight: 3, arbitrary: fc.constant('application/json') },
  fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/problem+json', ''),
  printable(40),
);

const headers = fc
  .tuple(
    // A random Authorization only now and then, so the fitting credential below usually stands.
    fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: authorization }),
    fc.record(
      {
        Origin: origin,
        'Content-Type': contentType,
        Accept: fc.constantFrom('text/event-stream', 'application/json', '*/*', 'text/event-stream;q=0.9, application/json'),
        'If-None-Match': fc.oneof(printable(40), fc.constant('*')),
        Expect: fc.constant('100-continue'),
        'Access-Control-Request-Method': fc.constantFrom('GET', 'POST'),
        'X-Unknown': printable(100),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([auth, record]) =>
    Object.entries({ ...record, ...(auth === undefined ? {} : { Authorization: auth }) })
      .map(([name, value]) => [name, value.trim().replace('PREVIEW', previewToken)] as [string, string])
      .filter(([, value]) => value !== ''),
  );

/** Strings that include what storage chokes on: NUL, lone surrogates, astral characters. */
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\ud83d\ude00', '\u202e', '<script>alert(1)</script>', "'; DROP TABLE pages; --", 'https://acme.test/x', '#abc', 'en', 'pt-BR'),
);
const leaf = fc.oneof(nastyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom(1e308, -0, 2 ** 53 + 1, 1_000_000_001, -1));
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(nastyString, tie('value'), { maxKeys: 4 })),
})).value;

/** Field names the routes read, so random values reach validation instead of stopping at "missing field". */
const FIELDS = [
  'url', 'title', 'content', 'format', 'language', 'metadata', 'id', 'name', 'credits', 'plan', 'type', 'sources', 'websites',
  'config', 'permissions', 'query', 'limit', 'sessionId', 'message', 'conversationId', 'user', 'hash', 'context', 'events', 'kept',
];
const plausibleValue: Record<string, fc.Arbitrary<unknown>> = {
  url: fc.oneof(fc.webUrl(), nastyString),
  format: fc.constantFrom('markdown', 'html', 'text', 'pdf'),
  content: fc.oneof(nastyString, fc.constantFrom('<h1>T</h1><script>x</script><p>p</p>', '# Heading\n\ntext')),
  id: fc.oneof(opaqueId, nastyString),
  type: fc.constantFrom('chatbot', 'search', 'chat'),
  sources: fc.oneof(fc.constant(['docs']), fc.array(nastyString, { maxLength: 3 })),
  permissions: fc.array(fc.constantFrom('pages.read', 'pages.write', 'search', 'chat', 'summarize', 'root'), { maxLength: 4 }),
  message: nastyString,
  query: nastyString,
  events: fc.array(fc.record({ name: fc.constantFrom('click', 'view'), props: jsonish, queryId: nastyString, ts: leaf }, { requiredKeys: [] }), { maxLength: 3 }),
  user: fc.record({ id: fc.oneof(nastyString, fc.integer()), hash: fc.oneof(nastyString, fc.stringMatching(/^[0-9a-f]{64}$/)) }, { requiredKeys: [] }),
};
const fieldValue = (field: string) => fc.oneof({ weight: 2, arbitrary: plausibleValue[field] ?? jsonish }, { weight: 1, arbitrary: jsonish });
const plausibleObject = fc
  .uniqueArray(fc.constantFrom(...FIELDS), { maxLength: 6 })
  .chain((fields) => fc.tuple(...fields.map((field) => fieldValue(field).map((value) => [field, value] as const))))
  .map((entries) => Object.fromEntries(entries));

const deepNesting = fc.tuple(fc.integer({ min: 1_000, max: 200_000 }), fc.constantFrom('array', 'object', 'in-field')).map(([depth, shape]) => {
  if (shape === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  const nested = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  return shape === 'object' ? nested : `{"metadata":${nested},"config":${nested},"user":${nested},"url":"https://acme.test/deep","content":"x"}`;
});

const body: fc.Arbitrary<Buffer | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 5, arbitrary: plausibleObject.map((value) => Buffer.from(JSON.stringify(value))) },
  { weight: 2, arbitrary: jsonish.map((value) => Buffer.from(JSON.stringify(value) ?? 'undefined')) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.tuple(plausibleObject, fc.uint8Array({ minLength: 1, maxLength: 8 })).map(([value, bytes]) => {
    // Invalid UTF-8 inside an otherwise good JSON object.
    const text = JSON.stringify({ ...value, title: 'MARK' });
    const [head, tail] = text.split('MARK') as [string, string];
    return Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xc3, ...bytes]), Buffer.from(tail)]);
  }) },
  { weight: 1, arbitrary: deepNesting.map((text) => Buffer.from(text)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('content', 'title', 'message', 'name', 'query'), fc.integer({ min: 64 * 1024, max: 1_300_000 })).map(([field, size]) => Buffer.from(JSON.stringify({ url: 'https://acme.test/huge', [field]: 'x'.repeat(size) }))) },
);

const framing = fc.oneof(
  { weight: 8, arbitrary: fc.constant<RawCall['framing']>('exact') },
  { weight: 1, arbitrary: fc.constant<RawCall['framing']>('chunked') },
  { weight: 1, arbitrary: fc.constant<RawCall['framing']>('declared-smaller') },
  { weight: 1, arbitrary: fc.constant<RawCall['framing']>('declared-larger') },
);

/** A credential that fits the route's kind, so random input gets past authorisation into validation. */
const fittingCredential = (kind: Route['kind']): fc.Arbitrary<[string, string][]> => {
  if (kind === 'management') return fc.constant([['Authorization', 'Bearer ak_test_all']]);
  if (kind === 'admin') return fc.constant([['Authorization', `Bearer ${ADMIN_TOKEN}`]]);
  if (kind === 'widget') {
    return fc.constantFrom<[string, string][]>(
      [['Authorization', 'Bearer ws_test_help']],
      [['Authorization', 'Bearer ws_test_find']],
      [['Authorization', 'Bearer ak_test_all']],
      [['Authorization', `Bearer ${previewToken}`]],
      [['Origin', 'https://acme.test']],
    );
  }
  return fc.constant([]);
};

/** Mostly a route's own method on one of its paths, with a fitting credential; the random headers win where they clash. */
const call: fc.Arbitrary<RawCall> = fc.oneof(
  {
    weight: 8,
    arbitrary: routePath.chain(({ route, path }) =>
      fc
        .record({
          method: fc.oneof({ weight: 3, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: method }),
          path: fc.constant(path),
          credential: fc.oneof({ weight: 3, arbitrary: fittingCredential(route.kind) }, { weight: 1, arbitrary: fc.constant<[string, string][]>([]) }),
          headers,
          body,
          framing,
        })
        .map(({ credential, headers: random, ...rest }) => {
          const named = new Set(random.map(([name]) => name));
          return { ...rest, headers: [...credential.filter(([name]) => !named.has(name)), ...random] };
        }),
    ),
  },
  { weight: 2, arbitrary: fc.record({ method, path: otherPath, headers, body, framing }) },
);

describe('property: any request gets a contract answer', () => {
  test('no 5xx, the error body on every non-2xx, no stack trace, nothing unexpected logged', { timeout: 120_000 }, async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(call, async (generated) => {
        const response = finalAnswer(await send(generated));
        checkAnswer(generated, response);
        assert.deepEqual(unexpected, [], `the server logged an unexpected error for ${generated.method} ${generated.path}`);
      }),
      { numRuns: 500 },
    );
    assert.ok(Date.now() - started < 60_000, `the property run took ${Date.now() - started} ms`);
  });

  test('the server is healthy afterwards', async () => {
    const response = await server.request('GET', '/healthz');
    assert.equal(response.status, 200);
    assert.equal(response.json.status, 'ok');
  });
});

describe('explicit cases', () => {
  const PAGES = '/api/v1/acme/sources/docs/pages';
  const json = { 'Content-Type': 'application/json' };

  for (const [name, rawBody] of [
    ['malformed JSON', '{"url":'],
    ['a trailing comma', '{"url":"https://acme.test/a",}'],
    ['a JSON array', '[]'],
    ['JSON null', 'null'],
    ['a JSON number', '42'],
    ['a byte order mark before JSON', '\ufeff{"url":"https://acme.test/bom","title":"b","content":"c"}'],
  ] as const) {
    test(`${name} is 400 on page writes and on the admin API`, async () => {
      const page = await server.request('POST', PAGES, { token: 'ak_test_all', rawBody, headers: json });
      if (name === 'a byte order mark before JSON' && page.status === 201) return; // Accepting a BOM is fine too.
      assertError(page, 400, 'invalid_request');
      assertError(await server.request('POST', '/api/v1/admin/organisations', { token: ADMIN_TOKEN, rawBody, headers: json }), 400, 'invalid_request');
    });
  }

  test('invalid UTF-8 is 400, and nothing is stored', async () => {
    const bytes = Buffer.concat([Buffer.from('{"url":"https://acme.test/utf8","title":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","content":"x"}')]);
    assertError(await server.request('POST', PAGES, { token: 'ak_test_all', rawBody: bytes, headers: json }), 400, 'invalid_request');
    const listing = await server.request('GET', `${PAGES}?limit=200`, { token: 'ak_test_all' });
    assert.ok(!listing.json.pages.some((page: { url: string }) => page.url === 'https://acme.test/utf8'));
  });

  test('a NUL character in any field is 400 naming the field, not a database error', async () => {
    for (const [field, value] of [['title', 'a\u0000'], ['content', '\u0000'], ['url', 'https://acme.test/\u0000']] as const) {
      const response = await server.request('POST', PAGES, { token: 'ak_test_all', body: { url: 'https://acme.test/nul', title: 't', content: 'c', [field]: value } });
      assertError(response, 400, 'invalid_request', field);
      assert.ok(response.json.error.message.includes(field), response.json.error.message);
    }
    const admin = await server.request('POST', '/api/v1/admin/organisations', { token: ADMIN_TOKEN, body: { id: 'nul', name: 'N\u0000' } });
    assertError(admin, 400, 'invalid_request');
  });

  test('deeply nested JSON is refused without a crash', async () => {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const response = await server.request('POST', PAGES, { token: 'ak_test_all', rawBody: `{"url":"https://acme.test/deep","content":"x","metadata":${deep}}`, headers: json });
    assertError(response, 400, 'invalid_request');
  });

  for (const path of ['/api/v1/%ZZ/sources/docs/pages', '/api/v1/acme/sources/%E0%A4%A/pages', '/api/v1/acme/sources/do%2Fcs/pages', '/api/v1/acme/widgets/%00/config', '/api/v1/acme/sources/docs/pages/%', '/api/v1/%2e%2e/me']) {
    test(`percent-encoding garbage in ${path} is 404`, async () => {
      const response = await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ak_test_all\r\nConnection: close\r\n\r\n`);
      assertError(asTestResponse(response), 404, 'not_found');
    });
  }

  test('an unknown route is 404 with the error body', async () => {
    assertError(await server.request('GET', '/api/v1/nothing/here/at/all/really'), 404, 'not_found');
    assertError(await server.request('GET', '/nope'), 404, 'not_found');
    assertError(await server.request('POST', '/api/v2/me'), 404, 'not_found');
  });

  test('a wrong method is 405 with Allow', async () => {
    const me = await server.request('PUT', '/api/v1/me', { token: 'ak_test_all' });
    assertError(me, 405, 'method_not_allowed');
    const allow = (me.headers.get('allow') ?? '').split(',').map((entry) => entry.trim());
    assert.ok(allow.includes('GET'), `Allow: ${allow}`);
    const pages = await server.request('PUT', '/api/v1/acme/sources/docs/pages', { token: 'ak_test_all' });
    assertError(pages, 405, 'method_not_allowed');
    const pageAllow = (pages.headers.get('allow') ?? '').split(',').map((entry) => entry.trim());
    assert.ok(pageAllow.includes('GET') && pageAllow.includes('POST'), `Allow: ${pageAllow}`);
    assertError(await server.request('DELETE', '/api/v1/acme/widgets/help/config', { origin: 'https://acme.test' }), 405, 'method_not_allowed');
    assertError(await server.request('POST', '/widget/v1/assist.js'), 405, 'method_not_allowed');
  });

  test('a method the HTTP parser does not know gets the error body too', async () => {
    const response = await rawRequest(server.port, 'FOO /api/v1/me HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.ok(response.status === 400 || response.status === 405 || response.status === 501, response.raw);
    assertErrorBody(asTestResponse(response));
  });

  test('a request the HTTP parser cannot read at all gets the error body', async () => {
    for (const garbage of ['\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03', 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'GET / HTTP/1.1\r\nBad Header\r\n\r\n']) {
      const response = await rawRequest(server.port, garbage);
      assert.equal(response.status, 400, JSON.stringify(response.raw));
      assertErrorBody(asTestResponse(response));
    }
  });

  test('headers larger than the server takes get the error body', async () => {
    const response = await rawRequest(server.port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
    assert.ok(response.status !== undefined && response.status >= 400 && response.status < 500, response.raw.slice(0, 200));
    assertErrorBody(asTestResponse(response));
  });

  test('a Content-Length smaller than the body: a 400 with the error body, and the connection closes', async () => {
    // The declared part is not JSON, and what follows it is no HTTP request; either way the answer is 400.
    const body = '{"url":"https://acme.test/short","title":"t","content":"c"}';
    const response = await rawRequest(
      server.port,
      `POST ${PAGES} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ak_test_all\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n${body}`,
    );
    const first = parseRaw(response.raw.split(/(?=HTTP\/1\.1 )/)[0]!, undefined, true);
    assertError(asTestResponse(first), 400, 'invalid_request');
    assert.ok(response.closedByServer);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(unexpected, []);
    const listing = await server.request('GET', `${PAGES}?limit=200`, { token: 'ak_test_all' });
    assert.ok(!listing.json.pages.some((page: { url: string }) => page.url === 'https://acme.test/short'));
  });

  test('a client that declares more than it sends and hangs up is no server error', async () => {
    await rawRequest(
      server.port,
      `POST ${PAGES} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ak_test_all\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"url":`,
      { halfClose: true, waitMs: 2000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(unexpected, []);
    assert.equal((await server.request('GET', '/healthz')).status, 200);
  });

  test('a client that disconnects mid-body is no server error', async () => {
    const socket = connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST ${PAGES} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ak_test_all\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"url":"https://acme.test/`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(unexpected, []);
    assert.equal((await server.request('GET', '/healthz')).status, 200);
  });

  test('the server is still healthy after all of it', async () => {
    assert.equal((await server.request('GET', '/healthz')).status, 200);
    assert.deepEqual(unexpected, []);
  });
});
