/**
 * The OpenAPI document served at /api/v1/openapi.json: OpenAPI 3.1, every route the router
 * serves and every route of the contract documented, nothing documented under /api/v1 that
 * the router lacks, every `$ref` resolving, and real responses matching their schemas (checked by ajv).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ERROR_STATUS } from '../../wire/contract.js';
import { routes } from '../../server/routes/index.js';
import { baseFixture, startTestServer, type TestServer } from './harness.js';

// Its types describe a CommonJS module; the ES build Node loads has the plugin as its default export.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Every route in the contract's tables (contract.md), as `METHOD path`. */
const CONTRACT_ROUTES = [
  'GET /api/v1/me',
  'GET /api/v1/{organisation}/sources/{source}/pages',
  'POST /api/v1/{organisation}/sources/{source}/pages',
  'GET /api/v1/{organisation}/sources/{source}/pages/{page}',
  'PATCH /api/v1/{organisation}/sources/{source}/pages/{page}',
  'DELETE /api/v1/{organisation}/sources/{source}/pages/{page}',
  'GET /api/v1/{organisation}/widgets/{widget}/config',
  'POST /api/v1/{organisation}/widgets/{widget}/search',
  'POST /api/v1/{organisation}/widgets/{widget}/summarize',
  'POST /api/v1/{organisation}/widgets/{widget}/chat',
  'POST /api/v1/{organisation}/widgets/{widget}/events',
  'GET /api/v1/{organisation}/widgets/{widget}/conversations',
  'GET /api/v1/{organisation}/widgets/{widget}/conversations/{conversation}',
  'POST /api/v1/{organisation}/widgets/{widget}/conversations/{conversation}/keep',
  'DELETE /api/v1/{organisation}/widgets/{widget}/conversations/{conversation}',
  'DELETE /api/v1/{organisation}/widgets/{widget}/conversations',
  'GET /widget/v1/assist.js',
  'GET /widget/v1/assist-analytics.js',
  'GET /api/v1/openapi.json',
  'GET /healthz',
];

/**
 * Contract routes documented before the router serves them (another issue is implementing
 * them). Remove each line as its route lands; the test fails on a line whose route exists.
 */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let server: TestServer;
let document: any;

before(async () => {
  server = await startTestServer({ fixture: baseFixture(), adminToken: 'admin-secret-token' });
  const response = await server.request('GET', '/api/v1/openapi.json');
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  document = response.json;
});
after(() => server.stop());

/** Every operation of the document, as `METHOD path`. */
function documented(): string[] {
  return Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

const operation = (route: string) => {
  const [method, path] = route.split(' ') as [string, string];
  return document.paths[path]?.[method.toLowerCase()];
};

/** Resolves a local `$ref` (`#/a/b~1c`) in the document. */
function resolve(ref: string): any {
  assert.ok(ref.startsWith('#/'), `only local references: ${ref}`);
  let node: any = document;
  for (const token of ref.slice(2).split('/')) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

const deref = (node: any): any => (node && typeof node.$ref === 'string' ? deref(resolve(node.$ref)) : node);

test('the document is OpenAPI 3.1 with info, components and security schemes', () => {
  assert.match(document.openapi, /^3\.1\.\d+$/);
  assert.equal(typeof document.info.title, 'string');
  assert.equal(typeof document.info.version, 'string');
  for (const name of [
    'Page', 'PageList', 'Me', 'WidgetConfig', 'Hit', 'SearchResponse', 'Source', 'ChatReply', 'SummarizeResult',
    'ConversationSummary', 'Conversation', 'EventsBody', 'Error',
  ]) {
    assert.ok(document.components.schemas[name], `components.schemas.${name}`);
  }
  const schemes = document.components.securitySchemes;
  for (const [name, prefix] of [['apiKey', 'ak_'], ['widgetSecret', 'ws_'], ['previewToken', 'pt_']] as const) {
    assert.equal(schemes[name].type, 'http');
    assert.equal(schemes[name].scheme, 'bearer');
    assert.ok(schemes[name].description.includes(prefix), `${name} names its ${prefix} prefix`);
  }
  assert.equal(schemes.adminToken.scheme, 'bearer');
  assert.equal(schemes.websiteOrigin.name, 'Origin');
  assert.deepEqual(
    [...document.components.schemas.Error.properties.error.properties.code.enum].sort(),
    Object.keys(ERROR_STATUS).sort(),
    'the Error schema lists every error code',
  );
});

test('every route the router serves is documented', () => {
  const missing = routes.filter((route) => route.kind !== 'files').map((route) => `${route.method} ${route.path}`).filter((route) => !operation(route));
  assert.deepEqual(missing, [], 'routes without an operation in the document');
});

test('every route of the contract is documented', () => {
  assert.deepEqual(CONTRACT_ROUTES.filter((route) => !operation(route)), []);
});

test('nothing under /api/v1 is documented that the router does not serve', () => {
  const served = new Set(routes.map((route) => `${route.method} ${route.path}`));
  const unserved = documented().filter((route) => route.split(' ')[1]!.startsWith('/api/v1/') && !served.has(route));
  assert.deepEqual(unserved, [], 'documented but not routed');
});

test('every $ref resolves', () => {
  const broken: string[] = [];
  let count = 0;
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) node.forEach((entry, index) => walk(entry, `${where}/${index}`));
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          count++;
          if (resolve(value) === undefined) broken.push(`${where}: ${value}`);
        } else walk(value, `${where}/${key}`);
      }
    }
  };
  walk(document, '#');
  assert.ok(count > 50, `the document uses references (${count})`);
  assert.deepEqual(broken, []);
});

test('every operation declares its path parameters, security, a success and error responses with the Error body', () => {
  const ids = new Set<string>();
  for (const route of documented()) {
    const op = operation(route);
    const path = route.split(' ')[1]!;
    assert.equal(typeof op.operationId, 'string', `${route} operationId`);
    assert.ok(!ids.has(op.operationId), `${route}: operationId ${op.operationId} is unique`);
    ids.add(op.operationId);
    assert.ok(Array.isArray(op.security), `${route} says how it is authorised`);
    for (const requirement of op.security) {
      for (const scheme of Object.keys(requirement)) assert.ok(document.components.securitySchemes[scheme], `${route}: scheme ${scheme}`);
    }
    const parameters = (op.parameters ?? []).map(deref);
    for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
      assert.ok(parameters.some((p: any) => p.in === 'path' && p.name === name && p.required), `${route} declares path parameter ${name}`);
    }
    const statuses = Object.keys(op.responses);
    assert.ok(statuses.some((status) => /^2\d\d$/.test(status)), `${route} has a success response`);
    assert.ok(statuses.includes('500'), `${route} documents 500`);
    for (const status of statuses.filter((status) => Number(status) >= 400)) {
      const response = deref(op.responses[status]);
      const schema = deref(response.content?.['application/json']?.schema);
      const names = (schema?.oneOf ?? [schema]).map(deref);
      for (const body of names) {
        const base = body?.allOf ? deref(body.allOf[0]) : body;
        assert.equal(base, document.components.schemas.Error, `${route} ${status} has the Error body`);
      }
    }
  }
});

test('error statuses of the contract are documented where they happen', () => {
  const statuses = (route: string) => Object.keys(operation(route).responses);
  assert.deepEqual(statuses('GET /api/v1/me'), ['200', '401', '500']);
  for (const status of ['400', '401', '403', '404', '409', '413', '415']) {
    assert.ok(statuses('POST /api/v1/{organisation}/sources/{source}/pages').includes(status), `page create ${status}`);
  }
  const chat = 'POST /api/v1/{organisation}/widgets/{widget}/chat';
  for (const status of ['400', '401', '402', '403', '404', '413', '415', '429']) assert.ok(statuses(chat).includes(status), `chat ${status}`);
  assert.equal(deref(operation(chat).responses['402'].content['application/json'].schema), document.components.schemas.CreditsExhaustedError);
  const forbidden = operation(chat).responses['403'].content['application/json'].examples;
  for (const code of ['wrong_organisation', 'permission_denied', 'source_forbidden', 'origin_not_allowed', 'invalid_identity', 'wrong_widget_type']) {
    assert.equal(forbidden[code]?.value.error.code, code, `chat 403 ${code}`);
  }
  assert.ok(operation(chat).responses['401'].headers['WWW-Authenticate']);
  assert.ok(operation(chat).responses['429'].headers['Retry-After']);
  const configForbidden = operation('GET /api/v1/{organisation}/widgets/{widget}/config').responses['403'].content['application/json'].examples;
  assert.ok(configForbidden.origin_not_allowed && !configForbidden.wrong_widget_type, 'config serves both widget types');
  assert.ok(statuses('GET /api/v1/{organisation}/widgets/{widget}/config').includes('304'));
  assert.ok(statuses('POST /api/v1/{organisation}/widgets/{widget}/events').includes('202'));
});

test('chat and summarize describe their Server-Sent Events', () => {
  for (const route of ['POST /api/v1/{organisation}/widgets/{widget}/chat', 'POST /api/v1/{organisation}/widgets/{widget}/summarize']) {
    const content = operation(route).responses['200'].content;
    assert.ok(content['application/json'], `${route} answers JSON`);
    const stream = content['text/event-stream'];
    assert.ok(stream, `${route} streams`);
    assert.deepEqual(Object.keys(stream['x-events']).sort(), ['done', 'error', 'meta', 'sources', 'status', 'token']);
    for (const event of ['meta', 'status', 'sources', 'token', 'done', 'error']) {
      assert.ok(stream.schema.description.includes(`\`${event}\``), `${route} describes the ${event} event`);
    }
    assert.match(stream.example, /^id: 1\nevent: meta\ndata: \{/);
  }
  const chatDone = operation('POST /api/v1/{organisation}/widgets/{widget}/chat').responses['200'].content['text/event-stream']['x-events'].done;
  assert.equal(deref(chatDone), document.components.schemas.ChatReply);
});

test('the decisions the contract leaves open are written down', () => {
  const text = document.info.description;
  assert.match(text, /credits.*only when it is created/s, 'fixture credits');
  assert.match(text, /Cursors.*opaque/s);
  assert.match(text, /page ids \(`p_…`\)/);
  assert.match(document.components.parameters.cursor.description, /Opaque/);
});

// ---------------------------------------------------------------------------------------
// Real responses against their documented schemas, with a standard JSON Schema 2020-12
// validator. A response must not carry members its schema does not document: every object
// schema is closed (`unevaluatedProperties: false`). The parts of an `allOf` are left open,
// and a named part is referred to in its open form, since the whole closes them.

const DOCUMENT_ID = 'https://assist.invalid/openapi.json';

/** A schema with every object schema in it closed, as described above. */
function closed(node: unknown, partOfAllOf = false): unknown {
  if (Array.isArray(node)) return node.map((entry) => closed(entry));
  if (!node || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    copy[key] =
      key === 'allOf' && Array.isArray(value)
        ? value.map((part) => (typeof part.$ref === 'string' ? { $ref: part.$ref.replace('/schemas/', '/open/') } : closed(part, true)))
        : closed(value);
  }
  if (('properties' in copy || 'allOf' in copy) && !partOfAllOf && copy.additionalProperties === undefined) copy.unevaluatedProperties = false;
  return copy;
}

let ajv: Ajv2020 | undefined;

function validator(): Ajv2020 {
  if (ajv) return ajv;
  const named = Object.entries(document.components.schemas);
  const schemas = Object.fromEntries(named.map(([name, schema]) => [name, closed(schema)]));
  const open = Object.fromEntries(named.map(([name, schema]) => [name, closed(schema, true)]));
  // OpenAPI's own members (`paths`, `info`, …) are not JSON Schema; only the components are compiled.
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas, open } });
  return ajv;
}

/** What is wrong with `value` against a schema of the document (or a `$ref` into it); empty when it matches. */
function problems(value: unknown, schemaNode: any): string[] {
  const reference = typeof schemaNode?.$ref === 'string' ? `${DOCUMENT_ID}${schemaNode.$ref}` : undefined;
  const validate = reference ? validator().getSchema(reference) : validator().compile({ $id: `${DOCUMENT_ID}/inline`, ...(closed(schemaNode) as object) });
  assert.ok(validate, `the schema ${reference} compiles`);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '$'} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`);
}

test('the validator refuses what a schema forbids: a missing member, a wrong type, an undocumented member', () => {
  const page = { id: 'p_1', source: 'docs', url: 'https://acme.test/a', title: 'A', createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' };
  assert.deepEqual(problems(page, { $ref: '#/components/schemas/Page' }), []);
  const { title: _title, ...untitled } = page;
  assert.notDeepEqual(problems(untitled, { $ref: '#/components/schemas/Page' }), []);
  assert.notDeepEqual(problems({ ...page, title: 7 }, { $ref: '#/components/schemas/Page' }), []);
  assert.notDeepEqual(problems({ ...page, secret: 'x' }, { $ref: '#/components/schemas/Page' }), []);
  assert.notDeepEqual(problems({ ...page, content: 'c', secret: 'x' }, { $ref: '#/components/schemas/PageWithContent' }), []);
  assert.deepEqual(problems({ ...page, content: 'c' }, { $ref: '#/components/schemas/PageWithContent' }), []);
});

test('the documented request schemas take what the server takes, with its limits', () => {
  const request = (name: string, body: unknown) => problems(body, { $ref: `#/components/schemas/${name}` });
  assert.deepEqual(request('ChatRequest', { message: 'Hi', user: { id: 'v', hash: 'a'.repeat(64) }, context: { url: 'https://acme.test/', title: 'Acme' } }), []);
  assert.deepEqual(request('PageWrite', { url: 'https://acme.test/a', content: '', language: null, metadata: { a: 1 } }), []);
  assert.deepEqual(request('WidgetCreate', { id: 'w', type: 'search', sources: ['docs'], config: { debounce: 300 } }), []);
  assert.deepEqual(request('EventsBody', { sessionId: 's_1', events: [{ name: 'click', props: { url: 'https://acme.test/', rank: 1 } }] }), []);
  assert.notDeepEqual(request('SearchRequest', { query: 'x', limit: 51 }), [], 'the search limit is documented');
  assert.notDeepEqual(request('WidgetCreate', { id: 'w', type: 'search', sources: ['docs'], secret: 'ws_chosen_secret' }), [], 'secrets cannot be chosen');
  assert.notDeepEqual(request('WidgetSettings', { colour: 'red' }), [], 'settings are closed');
  assert.equal(document.components.schemas.SearchRequest.properties.query.maxLength, 4000);
  assert.equal(document.components.parameters.limit.schema.maximum, 200);
});

function responseSchema(route: string, status: string): any {
  return deref(operation(route).responses[status]).content['application/json'].schema;
}

test('real responses match the documented schemas', async () => {
  const check = (route: string, status: string, response: { status: number; json: unknown; text: string }) => {
    assert.equal(String(response.status), status, `${route}: ${response.text}`);
    assert.deepEqual(problems(response.json, responseSchema(route, status)), [], `${route} ${status} matches its schema`);
  };
  const admin = { token: 'admin-secret-token' };
  const pages = '/api/v1/acme/sources/docs/pages';
  check('GET /api/v1/me', '200', await server.request('GET', '/api/v1/me', { token: 'ak_test_docs' }));
  check('GET /api/v1/me', '401', await server.request('GET', '/api/v1/me'));
  check('GET /api/v1/{organisation}/sources/{source}/pages', '200', await server.request('GET', `${pages}?limit=1`, { token: 'ak_test_all' }));
  const created = await server.request('POST', pages, {
    token: 'ak_test_all',
    body: { url: 'https://acme.test/openapi', content: '# OpenAPI\n\nDescribed.', language: 'en', metadata: { section: 'api' } },
  });
  check('POST /api/v1/{organisation}/sources/{source}/pages', '201', created);
  check(
    'POST /api/v1/{organisation}/sources/{source}/pages',
    '409',
    await server.request('POST', pages, { token: 'ak_test_all', body: { url: 'https://acme.test/openapi', content: 'again' } }),
  );
  check('GET /api/v1/{organisation}/sources/{source}/pages/{page}', '200', await server.request('GET', `${pages}/${created.json.id}`, { token: 'ak_test_all' }));
  check(
    'PATCH /api/v1/{organisation}/sources/{source}/pages/{page}',
    '200',
    await server.request('PATCH', `${pages}/${created.json.id}`, { token: 'ak_test_all', body: { title: 'Renamed' } }),
  );
  check('POST /api/v1/{organisation}/sources/{source}/pages', '403', await server.request('POST', pages, { token: 'ak_test_read', body: {} }));
  check('GET /api/v1/{organisation}/widgets/{widget}/config', '200', await server.request('GET', '/api/v1/acme/widgets/help/config', { token: 'ws_test_help' }));
  check('GET /healthz', '200', await server.request('GET', '/healthz'));
  check('GET /api/v1/admin/organisations', '200', await server.request('GET', '/api/v1/admin/organisations', admin));
  check('GET /api/v1/admin/organisations/{organisation}', '200', await server.request('GET', '/api/v1/admin/organisations/acme', admin));
  check(
    'POST /api/v1/admin/organisations/{organisation}/widgets',
    '201',
    await server.request('POST', '/api/v1/admin/organisations/acme/widgets', {
      ...admin,
      body: { id: 'docs-search', type: 'search', sources: ['docs'], config: { debounce: 300 } },
    }),
  );
  check(
    'PATCH /api/v1/admin/organisations/{organisation}/widgets/{widget}',
    '200',
    await server.request('PATCH', '/api/v1/admin/organisations/acme/widgets/docs-search', { ...admin, body: { websites: ['acme.test'] } }),
  );
  check(
    'POST /api/v1/admin/organisations/{organisation}/api-keys',
    '201',
    await server.request('POST', '/api/v1/admin/organisations/acme/api-keys', { ...admin, body: { name: 'bot', permissions: ['search'] } }),
  );
  check(
    'POST /api/v1/admin/organisations/{organisation}/widgets/{widget}/signing-secret',
    '200',
    await server.request('POST', '/api/v1/admin/organisations/acme/widgets/docs-search/signing-secret', admin),
  );
  check(
    'POST /api/v1/admin/organisations/{organisation}/widgets/{widget}/preview-tokens',
    '201',
    await server.request('POST', '/api/v1/admin/organisations/acme/widgets/docs-search/preview-tokens', admin),
  );
  check('GET /api/v1/admin/organisations', '401', await server.request('GET', '/api/v1/admin/organisations', { token: 'wrong' }));
});

test('real widget responses match the documented schemas, streams included', async () => {
  const check = (route: string, status: string, response: { status: number; json: unknown; text: string }) => {
    assert.equal(String(response.status), status, `${route}: ${response.text}`);
    if (response.json !== undefined) assert.deepEqual(problems(response.json, responseSchema(route, status)), [], `${route} ${status} matches its schema`);
  };
  const widget = '/api/v1/{organisation}/widgets/{widget}';
  const user = 'visitor-1';
  const hash = createHmac('sha256', 'sig_test_help').update(user).digest('hex');
  const visitor = `user=${user}&hash=${hash}`;

  const chat = await server.request('POST', '/api/v1/acme/widgets/help/chat', {
    token: 'ws_test_help',
    body: { message: 'How do I install the widget?', user: { id: user, hash }, context: { url: 'https://acme.test/', title: 'Acme' } },
  });
  check(`POST ${widget}/chat`, '200', chat);
  const conversation = chat.json.conversationId;
  check(`GET ${widget}/conversations`, '200', await server.request('GET', `/api/v1/acme/widgets/help/conversations?${visitor}`, { token: 'ws_test_help' }));
  check(
    `GET ${widget}/conversations/{conversation}`,
    '200',
    await server.request('GET', `/api/v1/acme/widgets/help/conversations/${conversation}?${visitor}`, { token: 'ws_test_help' }),
  );
  check(
    `POST ${widget}/conversations/{conversation}/keep`,
    '200',
    await server.request('POST', `/api/v1/acme/widgets/help/conversations/${conversation}/keep`, { token: 'ws_test_help', body: { user, hash } }),
  );
  check(
    `GET ${widget}/conversations`,
    '403',
    await server.request('GET', `/api/v1/acme/widgets/help/conversations?user=${user}&hash=${'0'.repeat(64)}`, { token: 'ws_test_help' }),
  );
  check(
    `DELETE ${widget}/conversations/{conversation}`,
    '204',
    await server.request('DELETE', `/api/v1/acme/widgets/help/conversations/${conversation}?${visitor}`, { token: 'ws_test_help' }),
  );
  check(`DELETE ${widget}/conversations`, '204', await server.request('DELETE', `/api/v1/acme/widgets/help/conversations?${visitor}`, { token: 'ws_test_help' }));
  check(`POST ${widget}/summarize`, '200', await server.request('POST', '/api/v1/acme/widgets/find/summarize', { token: 'ws_test_find', body: { query: 'install' } }));
  check(`POST ${widget}/chat`, '402', await server.request('POST', '/api/v1/other/widgets/bot/chat', { token: 'ws_other_bot', body: { message: 'Hello?' } }));
  check(`POST ${widget}/chat`, '403', await server.request('POST', '/api/v1/acme/widgets/find/chat', { token: 'ws_test_find', body: { message: 'Hello?' } }));
  check(
    `POST ${widget}/events`,
    '202',
    await server.request('POST', '/api/v1/acme/widgets/help/events', {
      origin: 'https://acme.test',
      headers: { 'Content-Type': 'text/plain' },
      rawBody: JSON.stringify({ sessionId: 's_openapi', events: [{ name: 'click', props: { url: 'https://acme.test/start', rank: 1, source: 'result' } }] }),
    }),
  );

  for (const [route, path, token, payload] of [
    [`POST ${widget}/chat`, '/api/v1/acme/widgets/help/chat', 'ws_test_help', { message: 'How do I configure the accent colour?' }],
    [`POST ${widget}/summarize`, '/api/v1/acme/widgets/find/summarize', 'ws_test_find', { query: 'accent colour' }],
  ] as const) {
    const stream = await server.request('POST', path, { token, body: payload, headers: { Accept: 'text/event-stream' } });
    assert.equal(stream.status, 200, stream.text);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    const documentedEvents = operation(route).responses['200'].content['text/event-stream']['x-events'];
    const names: string[] = [];
    for (const frame of stream.text.split('\n\n').filter((block) => block.includes('event:'))) {
      const name = /^event: (.+)$/m.exec(frame)![1]!;
      const data = JSON.parse(/^data: (.+)$/m.exec(frame)![1]!);
      names.push(name);
      assert.ok(documentedEvents[name], `${route}: the ${name} event is documented`);
      assert.deepEqual(problems(data, documentedEvents[name]), [], `${route}: the ${name} event matches its schema`);
    }
    assert.equal(names[0], 'meta');
    assert.equal(names.at(-1), 'done');
  }
});
