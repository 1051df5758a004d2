/**
 * The OpenAPI 3.1 document of every route of the contract, served at /api/v1/openapi.json.
 * test/server/openapi.test.ts keeps it in step with the router and the contract's tables,
 * and checks that every `$ref` resolves. Decisions the contract leaves open are written
 * into the description fields, so integrators find them where they look things up.
 */
import {
  ERROR_STATUS,
  LIMITS,
  PERMISSIONS,
  type ErrorCode,
} from '../wire/contract.js';
import * as z from 'zod';
import type { Route } from './http/router.js';
import { components } from './schema/registry.js';
// The response shapes register themselves when loaded; the routes load the request shapes.
import './schema/admin-responses.js';
import './schema/responses.js';

// ---------------------------------------------------------------------------------------
// The slice of OpenAPI 3.1 (and JSON Schema 2020-12) this document uses.

export interface Reference {
  $ref: string;
  description?: string;
}

type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

export interface SchemaObject {
  type?: JsonType | JsonType[];
  description?: string;
  format?: string;
  pattern?: string;
  enum?: readonly unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  allOf?: Schema[];
  oneOf?: Schema[];
  contentMediaType?: string;
}

export type Schema = SchemaObject | Reference;

export interface Header {
  description: string;
  schema: Schema;
}

export interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
  /** For `text/event-stream`: the `data` schema of each event name. */
  'x-events'?: Record<string, Schema>;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, MediaType>;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description: string;
  required?: boolean;
  schema: Schema;
  example?: unknown;
}

export interface RequestBody {
  description?: string;
  required: boolean;
  content: Record<string, MediaType>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: SecurityRequirement[];
  parameters?: (Parameter | Reference)[];
  requestBody?: RequestBody;
  responses: Record<string, Response | Reference>;
}

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';
export type PathItem = Partial<Record<HttpMethod, Operation>>;

export interface SecurityScheme {
  type: 'http' | 'apiKey';
  scheme?: 'bearer';
  bearerFormat?: string;
  in?: 'header';
  name?: string;
  description: string;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: { title: string; version: string; summary: string; description: string; license: { name: string; identifier: string } };
  tags: { name: string; description: string }[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, Schema>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    securitySchemes: Record<string, SecurityScheme>;
  };
}

// ---------------------------------------------------------------------------------------
// Small helpers: references, bodies, error responses.

const ref = (schema: string, description?: string): Reference =>
  description ? { $ref: `#/components/schemas/${schema}`, description } : { $ref: `#/components/schemas/${schema}` };
const param = (name: string): Reference => ({ $ref: `#/components/parameters/${name}` });
const header = (name: string): Reference => ({ $ref: `#/components/headers/${name}` });

const json = (schema: Schema, example?: unknown): Record<string, MediaType> => ({
  'application/json': example === undefined ? { schema } : { schema, example },
});

const ok = (description: string, schema: Schema, headers?: Record<string, Reference>): Response => ({
  description,
  ...(headers ? { headers } : {}),
  content: json(schema),
});

const noContent = (description: string): Response => ({ description });

/** When each error code is answered (the contract's table), for error response descriptions. */
const ERROR_WHEN: Record<ErrorCode, string> = {
  invalid_request: 'malformed JSON, or a missing or ill-typed field or query parameter; the message names it',
  unauthenticated: 'the credential is missing, malformed, unknown, revoked or expired',
  credits_exhausted: 'the organisation has no answer credits left; the body also carries `hits`, the search results for the message',
  wrong_organisation: 'the API key belongs to another organisation',
  permission_denied: 'the API key lacks the permission the route needs',
  source_forbidden: "the target source is outside the key's source limit, or the widget uses a source the key cannot reach",
  origin_not_allowed: "a browser request from an origin not on the widget's website list, with no other credential",
  invalid_identity: '`user`/`hash` present but the hash is wrong, or the route needs a signed visitor and got none',
  wrong_widget_type: 'chat on a search widget, or a search-only route on a chat widget',
  not_found: 'unknown organisation, source, widget, page, conversation or route',
  method_not_allowed: 'the path exists but not with this method; the `Allow` header lists the methods',
  conflict: 'the thing to create exists already',
  payload_too_large: 'the body is over the limit',
  unsupported_media_type: 'the body is not `application/json`',
  rate_limited: 'over the rate limit; `Retry-After` says when to try again',
  internal: 'anything unexpected; the message says nothing about internals',
};

/** Headers that go with an error status. */
const ERROR_HEADERS: Partial<Record<number, Record<string, Reference>>> = {
  401: { 'WWW-Authenticate': header('WWW-Authenticate') },
  405: { Allow: header('Allow') },
  429: { 'Retry-After': header('Retry-After') },
};

const EXAMPLE_MESSAGES: Record<ErrorCode, string> = {
  invalid_request: '`query` is required and must be a string.',
  unauthenticated: 'This API key is unknown, revoked or expired.',
  credits_exhausted: 'This organisation has no answer credits left.',
  wrong_organisation: 'This key belongs to another organisation.',
  permission_denied: 'This key lacks the pages.write permission.',
  source_forbidden: 'This key is limited to other sources than "blog".',
  origin_not_allowed: "The origin https://evil.test is not on this widget's website list.",
  invalid_identity: 'The visitor hash does not match the visitor id.',
  wrong_widget_type: 'This is a search widget; chat needs a chat widget.',
  not_found: 'No organisation "acme".',
  method_not_allowed: 'Use one of: GET, HEAD, OPTIONS.',
  conflict: 'A page with that url exists already in this source.',
  payload_too_large: 'The request body is larger than 1 MiB.',
  unsupported_media_type: 'Send the body as application/json.',
  rate_limited: 'Too many requests; try again in 12 seconds.',
  internal: 'Something went wrong on our side. Please try again.',
};

/**
 * Error responses for the given codes, one per status (403 gathers several codes), each
 * with the contract's error body and an example per code. `schemas` names a richer body
 * for a code (a page conflict carries `pageId`).
 */
function errors(codes: ErrorCode[], schemas: Partial<Record<ErrorCode, string>> = {}): Record<string, Response> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set<ErrorCode>([...codes, 'internal'])) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Response> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([left], [right]) => left - right)) {
    const schemaNames = [...new Set(statusCodes.map((code) => schemas[code] ?? (code === 'credits_exhausted' ? 'CreditsExhaustedError' : 'Error')))];
    const schema = schemaNames.length === 1 ? ref(schemaNames[0]!) : { oneOf: schemaNames.map((name) => ref(name)) };
    responses[String(status)] = {
      description: statusCodes.map((code) => `\`${code}\`: ${ERROR_WHEN[code]}.`).join(' '),
      ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
      content: {
        'application/json': {
          schema,
          examples: Object.fromEntries(
            statusCodes.map((code) => [
              code,
              {
                summary: ERROR_WHEN[code],
                value: {
                  error: { code, message: EXAMPLE_MESSAGES[code] },
                  ...(code === 'conflict' && schemas.conflict === 'PageConflictError' ? { pageId: 'p_x3kX9aQ2bLm7' } : {}),
                  ...(code === 'credits_exhausted' ? { hits: [] } : {}),
                },
              },
            ]),
          ),
        },
      },
    };
  }
  return responses;
}

// ---------------------------------------------------------------------------------------
// Security.

const API_KEY: SecurityRequirement[] = [{ apiKey: [] }];
const WIDGET_CREDENTIALS: SecurityRequirement[] = [{ websiteOrigin: [] }, { widgetSecret: [] }, { apiKey: [] }, { previewToken: [] }];
const ADMIN: SecurityRequirement[] = [{ adminToken: [] }];
const PUBLIC: SecurityRequirement[] = [];

const securitySchemes: Record<string, SecurityScheme> = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ak_…',
    description:
      'An organisation API key: `Authorization: Bearer ak_…`. Opaque, begins `ak_`, shown once at creation and stored only as a hash. ' +
      'It has permissions (' + PERMISSIONS.join(', ') + ') and an optional source limit. On widget routes it needs the route\'s ' +
      'permission (`search`, `chat` or `summarize`; config and events accept any of the three) and must reach every source of the widget.',
  },
  widgetSecret: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ws_…',
    description:
      "A widget's secret key, for calls from the integrator's server: `Authorization: Bearer ws_…`. Shown once when the widget is created " +
      'or its secret rotated (the old one stops working at once). Valid for its own widget only; on another widget it is 401.',
  },
  previewToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'pt_…',
    description:
      'A preview token for one widget, for the in-app preview only: `Authorization: Bearer pt_…`. Expires one hour after it is minted ' +
      '(admin API or `assist-server preview-token`). Valid for its own widget only; on another widget it is 401.',
  },
  adminToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The server's admin token (`--admin-token` / `ASSIST_ADMIN_TOKEN` / `--admin-token-file`, or the one-time token the demo's first start printed): " +
      '`Authorization: Bearer <token>`. Without any, the admin API does not exist and its paths answer 404.',
  },
  websiteOrigin: {
    type: 'apiKey',
    in: 'header',
    name: 'Origin',
    description:
      "A browser request from a website on the widget's website list; the browser sends `Origin`. An entry is a host, optionally with a " +
      'port (`example.com`, `www.example.com`, `localhost:8787`), or `*.example.com` (any subdomain, not the bare domain). The Origin ' +
      "matches when its host (and port, if the entry names one) is equal to the entry's; http and https both match. Nothing else matches: " +
      'no suffix or prefix tricks, and `Origin: null` never matches. Only used when the request carries no Authorization header.',
  },
};

// ---------------------------------------------------------------------------------------
// Schemas.

/** z.toJSONSchema's settings for this document: what a caller sends, with named shapes as references. */
const JSON_SCHEMA_OPTIONS = { io: 'input', unrepresentable: 'any', uri: (name: string) => `#/components/schemas/${name}` } as const;

/**
 * Every named schema: those of the request shapes (registered by the modules that define them,
 * so read once all routes are loaded), and the responses'.
 */
function documentSchemas(): Record<string, Schema> {
  const { schemas } = z.toJSONSchema(components, JSON_SCHEMA_OPTIONS);
  return Object.fromEntries(Object.entries(schemas).map(([name, { $schema: _dialect, $id: _id, ...schema }]) => [name, schema as Schema]));
}

// ---------------------------------------------------------------------------------------
// Parameters and headers.

const pathId = (name: string, description: string): Parameter => ({ name, in: 'path', required: true, description, schema: ref('Id') });

const parameters: Record<string, Parameter> = {
  organisation: pathId('organisation', 'Organisation id.'),
  source: pathId('source', 'Source id.'),
  page: pathId('page', 'Page id (`p_…`, made by the server).'),
  widget: pathId('widget', 'Widget id.'),
  conversation: pathId('conversation', 'Conversation id (`c_…`).'),
  apiKeyId: { name: 'key', in: 'path', required: true, description: 'The API key\'s id (`key_…`), not the key.', schema: ref('Id') },
  ifNoneMatch: { name: 'If-None-Match', in: 'header', description: 'An `ETag` from an earlier response; 304 when it still matches.', schema: { type: 'string' } },
  accept: {
    name: 'Accept',
    in: 'header',
    description: '`text/event-stream` to have the answer streamed as Server-Sent Events; anything else gets one JSON object.',
    schema: { type: 'string', enum: ['application/json', 'text/event-stream'] },
  },
};

const headers: Record<string, Header> = {
  'WWW-Authenticate': { description: 'Always `Bearer` on 401.', schema: { type: 'string', const: 'Bearer' } },
  Allow: { description: 'The methods the path accepts.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds until a request may succeed again.', schema: { type: 'integer', minimum: 1 } },
  Location: { description: 'The path of the created page.', schema: { type: 'string' } },
  ETag: { description: 'Validator of the representation; send it back in `If-None-Match`.', schema: { type: 'string' } },
  'Cache-Control': { description: 'How long the response may be cached.', schema: { type: 'string' } },
  Vary: { description: '`Origin`: responses differ by calling website.', schema: { type: 'string' } },
  'Access-Control-Allow-Origin': { description: 'The request\'s `Origin`, echoed, on browser requests.', schema: { type: 'string' } },
};

const CORS_HEADERS = { 'Access-Control-Allow-Origin': header('Access-Control-Allow-Origin'), Vary: header('Vary') };

// ---------------------------------------------------------------------------------------
// Operations.

const MANAGEMENT_CHECKS =
  'Checks run in this order: 401 (no valid key) → 404 (unknown organisation) → 403 `wrong_organisation` → 403 `permission_denied` → ' +
  '404 (unknown source) → 403 `source_forbidden` → 400 (body).';

const MANAGEMENT_ERRORS: ErrorCode[] = ['invalid_request', 'unauthenticated', 'wrong_organisation', 'permission_denied', 'source_forbidden', 'not_found'];
const WRITE_ERRORS: ErrorCode[] = ['payload_too_large', 'unsupported_media_type'];

function managementOperation(
  operationId: string,
  permission: string,
  summary: string,
  spec: Omit<Operation, 'operationId' | 'summary' | 'tags' | 'security' | 'responses'> & { responses: Record<string, Response> },
  errorCodes: ErrorCode[] = MANAGEMENT_ERRORS,
  errorSchemas: Partial<Record<ErrorCode, string>> = {},
): Operation {
  return {
    operationId,
    summary,
    tags: ['Pages'],
    security: API_KEY,
    ...spec,
    description: `${spec.description ? `${spec.description}\n\n` : ''}Permission: \`${permission}\`. ${MANAGEMENT_CHECKS}`,
    parameters: [param('organisation'), param('source'), ...(spec.parameters ?? [])],
    responses: { ...spec.responses, ...errors(errorCodes, errorSchemas) },
  };
}

const WIDGET_CHECKS =
  'Credentials (any one): an `Origin` on the widget\'s website list, the widget secret, a preview token for this widget, or an ' +
  'organisation API key with the route\'s permission that reaches every source of the widget. Checks run in this order: 401 (an ' +
  'Authorization header that is malformed, unknown, revoked or expired, or no credential at all) → 404 (unknown organisation or widget) → ' +
  '403 `wrong_organisation` / `permission_denied` / `source_forbidden` (API keys), 401 (a widget secret or preview token of another ' +
  'widget) or 403 `origin_not_allowed` (browsers) → 403 `wrong_widget_type` → 400 (body). Browser requests get ' +
  '`Access-Control-Allow-Origin: <origin>` and `Vary: Origin`, on errors too, so the SDK can show why; preflight (`OPTIONS`) answers ' +
  '204 with the methods, `Access-Control-Allow-Headers: Authorization, Content-Type, Accept, If-None-Match` and `Access-Control-Max-Age: 600`.';

const WIDGET_AUTH_ERRORS: ErrorCode[] = ['unauthenticated', 'wrong_organisation', 'permission_denied', 'source_forbidden', 'origin_not_allowed', 'not_found'];

interface WidgetOperationSpec {
  summary: string;
  description: string;
  /** The widget type the route needs; `both` for config and events. */
  type: 'both' | 'search' | 'chatbot';
  /** The API key permission it needs. */
  permission: string;
  parameters?: (Parameter | Reference)[];
  requestBody?: RequestBody;
  responses: Record<string, Response>;
  errors: ErrorCode[];
  tags?: string[];
}

function widgetOperation(operationId: string, spec: WidgetOperationSpec): Operation {
  const typeNote = spec.type === 'both' ? 'Any widget type.' : `Widget type: \`${spec.type}\` (the other type is 403 \`wrong_widget_type\`).`;
  const codes = [...WIDGET_AUTH_ERRORS, ...(spec.type === 'both' ? [] : (['wrong_widget_type'] as ErrorCode[])), ...spec.errors];
  return {
    operationId,
    summary: spec.summary,
    description: `${spec.description}\n\n${typeNote} API key permission: ${spec.permission}.\n\n${WIDGET_CHECKS}`,
    tags: spec.tags ?? ['Widget'],
    security: WIDGET_CREDENTIALS,
    parameters: [param('organisation'), param('widget'), ...(spec.parameters ?? [])],
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: { ...spec.responses, ...errors(codes) },
  };
}

const STREAM_DESCRIPTION = `Server-Sent Events, sent when the request has \`Accept: text/event-stream\`. Each event has an increasing \`id\`, an \`event\` name and one \`data:\` line holding a JSON object:

| event | data | notes |
|---|---|---|
| \`meta\` | \`{ conversationId, answerId }\` | first; summarize has only \`answerId\` |
| \`status\` | \`{ status }\` | \`searching\`, then \`generating\` |
| \`sources\` | \`{ sources }\` | once retrieval is done |
| \`token\` | \`{ delta }\` | the answer in order; concatenated they equal \`done.text\` |
| \`done\` | the full reply | last event on success; summarize: \`{ summarized, text, sources }\` |
| \`error\` | \`{ error: { code, message } }\` | last event when the answer fails after the stream began |

Comment lines (\`: keep-alive\`) may come between events while nothing else does. A client that goes away aborts generation; a half-finished answer is stored marked incomplete (\`complete: false\`) or not at all, never as complete. Errors found before the stream begins (authorisation, body, 402, 429) are ordinary JSON error responses.`;

const EXAMPLE_SOURCES = [{ url: 'https://acme.test/start', title: 'Start', pageId: 'p_x3kX9aQ2bLm7' }];
const EXAMPLE_TEXT = 'Set the accent colour in the dashboard [1].';

/** An example stream as it goes over the wire: `meta` first, `done` (with `done`'s data) last. */
function streamExample(meta: Record<string, string>, done: Record<string, unknown>): string {
  const events: [string, unknown][] = [
    ['meta', meta],
    ['status', { status: 'searching' }],
    ['sources', { sources: EXAMPLE_SOURCES }],
    ['status', { status: 'generating' }],
    ['token', { delta: 'Set the ' }],
    ['token', { delta: 'accent colour in the dashboard [1].' }],
    ['done', done],
  ];
  return events.map(([event, data], index) => `id: ${index + 1}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

const CHAT_STREAM_EXAMPLE = streamExample(
  { conversationId: 'c_8dJ2kq', answerId: 'a_P0s7xw' },
  { text: EXAMPLE_TEXT, conversationId: 'c_8dJ2kq', answerId: 'a_P0s7xw', sources: EXAMPLE_SOURCES },
);
const SUMMARY_STREAM_EXAMPLE = streamExample({ answerId: 'a_Q9d2mv' }, { summarized: true, text: EXAMPLE_TEXT, sources: EXAMPLE_SOURCES });

/** A 200 that is one JSON object, or Server-Sent Events with `Accept: text/event-stream`. */
function answerResponse(description: string, reply: string, example: string): Response {
  return {
    description,
    headers: CORS_HEADERS,
    content: {
      'application/json': { schema: ref(reply) },
      'text/event-stream': {
        schema: { type: 'string', description: STREAM_DESCRIPTION },
        example,
        'x-events': {
          meta: ref('StreamMeta'),
          status: ref('StreamStatus'),
          sources: ref('StreamSources'),
          token: ref('StreamToken'),
          done: ref(reply),
          error: ref('Error'),
        },
      },
    },
  };
}

const CONVERSATION_NOTE =
  'Needs a signed visitor: `user` (the id) and `hash`, as query parameters or body fields. No visitor or a wrong hash is 403 ' +
  "`invalid_identity`. Another visitor's conversation, an anonymous one, or one that expired is 404.";

const WIDGET = '/api/v1/{organisation}/widgets/{widget}';
const PAGES = '/api/v1/{organisation}/sources/{source}/pages';
const ADMIN_ORG = '/api/v1/admin/organisations/{organisation}';
const ADMIN_WIDGET = `${ADMIN_ORG}/widgets/{widget}`;

const ADMIN_ERRORS: ErrorCode[] = ['unauthenticated', 'not_found'];
const ADMIN_WRITE_ERRORS: ErrorCode[] = [...ADMIN_ERRORS, 'invalid_request', ...WRITE_ERRORS];

function adminOperation(
  operationId: string,
  summary: string,
  spec: { description?: string; parameters?: (Parameter | Reference)[]; requestBody?: RequestBody; responses: Record<string, Response>; errors: ErrorCode[] },
): Operation {
  return {
    operationId,
    summary,
    description:
      `${spec.description ? `${spec.description}\n\n` : ''}Admin API: authorised with the server's admin token. Without one ` +
      '(`--admin-token`, `ASSIST_ADMIN_TOKEN`, `--admin-token-file`, or the demo\'s one-time token) the admin API is off and answers 404. The same operation as the `assist-server` command line.',
    tags: ['Admin'],
    security: ADMIN,
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: { ...spec.responses, ...errors(spec.errors) },
  };
}

/**
 * What each operation is, by path and method: everything but its input, which comes from its
 * route's schema (see pathsOf).
 */
const OPERATIONS: Record<string, PathItem> = {
  '/api/v1/me': {
    get: {
      operationId: 'getMe',
      summary: 'Who the calling API key is, and the sources it may reach',
      description: 'Any valid API key. `key.sources` is `null` without a source limit; `sources` lists only what the key may reach.',
      tags: ['Management'],
      security: API_KEY,
      responses: { '200': ok('The key, its organisation and its sources.', ref('Me')), ...errors(['unauthenticated']) },
    },
  },
  [PAGES]: {
    get: managementOperation('listPages', 'pages.read', 'List the pages of a source', {
      description: 'Without `content`. Ordered by creation (stable); follow `nextCursor` until it is `null`.',
      responses: { '200': ok('One page of the listing.', ref('PageList')) },
    }),
    post: managementOperation(
      'createPage',
      'pages.write',
      'Create a page',
      {
        description: `Searchable as soon as the response arrives. Body up to ${LIMITS.pageWrite / 1024 / 1024} MiB.`,
        responses: { '201': ok('The page, with its content.', ref('PageWithContent'), { Location: header('Location') }) },
      },
      [...MANAGEMENT_ERRORS, ...WRITE_ERRORS, 'conflict'],
      { conflict: 'PageConflictError' },
    ),
  },
  [`${PAGES}/{page}`]: {
    get: managementOperation('getPage', 'pages.read', 'Get a page with its content', {
      parameters: [param('page')],
      responses: { '200': ok('The page.', ref('PageWithContent')) },
    }),
    patch: managementOperation(
      'updatePage',
      'pages.write',
      'Change a page',
      {
        description: 'Only the fields sent change. A new `url` that another page of the source has is 409.',
        parameters: [param('page')],
        responses: { '200': ok('The page as it is now, with its content.', ref('PageWithContent')) },
      },
      [...MANAGEMENT_ERRORS, ...WRITE_ERRORS, 'conflict'],
      { conflict: 'PageConflictError' },
    ),
    delete: managementOperation('deletePage', 'pages.write', 'Delete a page', {
      description: 'It leaves search at once.',
      parameters: [param('page')],
      responses: { '204': noContent('Deleted.') },
    }),
  },

  [`${WIDGET}/config`]: {
    get: widgetOperation('getWidgetConfig', {
      summary: 'Presentation config of a widget',
      description: 'Every field of spec 2.4, with defaults for what the widget does not set. The SDK calls this on mount.',
      type: 'both',
      permission: '`search`, `chat` or `summarize` (any one)',
      parameters: [param('ifNoneMatch')],
      responses: {
        '200': ok('The config.', ref('WidgetConfig'), { 'Cache-Control': header('Cache-Control'), ETag: header('ETag'), ...CORS_HEADERS }),
        '304': { description: 'Not modified: the `If-None-Match` ETag still matches.', headers: { ETag: header('ETag'), 'Cache-Control': header('Cache-Control') } },
      },
      errors: [],
    }),
  },
  [`${WIDGET}/search`]: {
    post: widgetOperation('search', {
      summary: 'Search the widget\'s sources',
      description:
        'Hits are sections of pages, best first. A typo still finds the page and the last word matches as a prefix. Only the widget\'s ' +
        'sources are searched. When the request has no `sessionId`, the server makes one and returns it. Rate-limited per widget and ' +
        'client address (`--search-rate-limit`, shared by every server on one database).',
      type: 'search',
      permission: '`search`',
      responses: { '200': ok('The hits.', ref('SearchResponse'), CORS_HEADERS) },
      errors: ['invalid_request', 'rate_limited', ...WRITE_ERRORS],
    }),
  },
  [`${WIDGET}/summarize`]: {
    post: widgetOperation('summarize', {
      summary: 'An AI summary of the results for a query',
      description:
        'Spends one answer credit when a summary is produced. With no credits left the answer is `{ summarized: false, text: "", sources: [] }` ' +
        '(200, not 402), and nothing is summarised when the search finds nothing. ' +
        'A credit is returned when the answer did not complete and none of its text reached the client (in JSON mode, none does before the reply), and for a summary with nothing to summarise. Streams with `Accept: text/event-stream`. Rate-limited per widget and client address (`--rate-limit`); the rate limit is ' +
        'checked before the body. Beyond the answers a client address (`--max-streams-per-client`) or the server (`--max-streams`) ' +
        'has in progress at once: 429 with `Retry-After: 5`.',
      type: 'search',
      permission: '`summarize`',
      parameters: [param('accept')],
      responses: { '200': answerResponse('The summary, as JSON or as a stream.', 'SummarizeResult', SUMMARY_STREAM_EXAMPLE) },
      errors: ['invalid_request', 'rate_limited', ...WRITE_ERRORS],
    }),
  },
  [`${WIDGET}/chat`]: {
    post: widgetOperation('chat', {
      summary: 'Ask the assistant',
      description:
        'Answers from the widget\'s sources, citing them, using the conversation so far and the page `context`. Each answer spends one ' +
        'answer credit, atomically (N parallel requests against k credits give exactly k answers); at zero credits the answer is 402 ' +
        '`credits_exhausted` before any streaming, with `hits` to fall back to. A credit is returned when the answer did not complete and none of its text reached the client (in JSON mode, none does before the reply), and for a summary with nothing to summarise. In JSON mode an answer that fails is 500 ' +
        '`internal` with a message safe to show; in a stream it is an `error` event. Streams with `Accept: text/event-stream`. ' +
        'Rate-limited per widget and client address (`--rate-limit`); beyond the answers a client address (`--max-streams-per-client`) ' +
        'or the server (`--max-streams`) has in progress at once, 429 with `Retry-After: 5`. When the request has no `sessionId`, the server makes one.',
      type: 'chatbot',
      permission: '`chat`',
      parameters: [param('accept')],
      responses: { '200': answerResponse('The reply, as JSON or as a stream.', 'ChatReply', CHAT_STREAM_EXAMPLE) },
      errors: ['invalid_request', 'invalid_identity', 'credits_exhausted', 'rate_limited', ...WRITE_ERRORS],
    }),
  },
  [`${WIDGET}/events`]: {
    post: widgetOperation('sendEvents', {
      summary: 'Report analytics events (clicks and answer feedback)',
      description:
        `The body may be \`application/json\` or \`text/plain\` holding JSON (what \`navigator.sendBeacon\` sends without a preflight); at ` +
        `most ${LIMITS.events / 1024} KiB. Events join the session of \`sessionId\`; \`queryId\` ties a click to its search. ` +
        'A `feedback` rates an answer this session received (one rating per answer; a later one replaces it); feedback on any other ' +
        'answer refuses the whole body with 400. ' +
        'Rate-limited per widget and client address (`--events-rate-limit`). Beyond its organisation\'s `eventsPerDay` (UTC) events are ' +
        'still answered 202 but dropped and counted, never stored; a `ts` must lie in the years 1 to 9999.',
      type: 'both',
      permission: '`search`, `chat` or `summarize` (any one)',
      responses: { '202': { description: 'Accepted; empty body.', headers: CORS_HEADERS } },
      errors: ['invalid_request', 'payload_too_large', 'unsupported_media_type', 'rate_limited'],
    }),
  },
  [`${WIDGET}/conversations`]: {
    get: widgetOperation('listConversations', {
      summary: "A signed visitor's conversations",
      description: `${CONVERSATION_NOTE} Newest first; anonymous conversations are never listed.`,
      type: 'chatbot',
      permission: '`chat`',
      tags: ['Conversations'],
      responses: { '200': ok('The conversations.', ref('ConversationList'), CORS_HEADERS) },
      errors: ['invalid_request', 'invalid_identity'],
    }),
    delete: widgetOperation('deleteConversations', {
      summary: "Delete all of a signed visitor's conversations",
      description: CONVERSATION_NOTE,
      type: 'chatbot',
      permission: '`chat`',
      tags: ['Conversations'],
      responses: { '204': { description: 'Deleted (also when there were none).', headers: CORS_HEADERS } },
      errors: ['invalid_request', 'invalid_identity'],
    }),
  },
  [`${WIDGET}/conversations/{conversation}`]: {
    get: widgetOperation('getConversation', {
      summary: 'One transcript',
      description: `${CONVERSATION_NOTE} Messages oldest first, with their sources.`,
      type: 'chatbot',
      permission: '`chat`',
      tags: ['Conversations'],
      parameters: [param('conversation')],
      responses: { '200': ok('The conversation.', ref('Conversation'), CORS_HEADERS) },
      errors: ['invalid_request', 'invalid_identity'],
    }),
    delete: widgetOperation('deleteConversation', {
      summary: 'Delete one conversation',
      description: CONVERSATION_NOTE,
      type: 'chatbot',
      permission: '`chat`',
      tags: ['Conversations'],
      parameters: [param('conversation')],
      responses: { '204': { description: 'Deleted.', headers: CORS_HEADERS } },
      errors: ['invalid_request', 'invalid_identity'],
    }),
  },
  [`${WIDGET}/conversations/{conversation}/keep`]: {
    post: widgetOperation('keepConversation', {
      summary: 'Keep a conversation from expiring, or release it',
      description:
        `${CONVERSATION_NOTE} \`kept\` defaults to true. Conversations that are not kept expire ${LIMITS.conversationTtlDays} days after ` +
        'their last message and then vanish from every route; kept ones stay until released with `kept: false`.',
      type: 'chatbot',
      permission: '`chat`',
      tags: ['Conversations'],
      parameters: [param('conversation')],
      responses: { '200': ok('The conversation summary as it is now.', ref('ConversationSummary'), CORS_HEADERS) },
      errors: ['invalid_request', 'invalid_identity', ...WRITE_ERRORS],
    }),
  },

  '/widget/v1/assist.js': { get: scriptOperation('getSdk', 'The browser SDK', 'Defines the global `Assist` (spec 4.4). It takes its API origin from its own URL; whatever more it loads comes from `/widget/v1/` on the same origin.') },
  '/widget/v1/assist-analytics.js': { get: scriptOperation('getBeacon', 'The analytics beacon', 'Reports clicks on marked result links (spec 4.5).') },
  '/healthz': {
    get: {
      operationId: 'health',
      summary: 'Health check',
      description: 'Answers 200 when the server and its database answer.',
      tags: ['Meta'],
      security: PUBLIC,
      responses: { '200': ok('Healthy.', ref('Health')), ...errors([]) },
    },
  },
  '/api/v1/openapi.json': {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      tags: ['Meta'],
      security: PUBLIC,
      responses: {
        '200': { description: 'The OpenAPI 3.1 document of every route.', content: { 'application/json': { schema: { type: 'object' } } } },
        ...errors([]),
      },
    },
  },

  '/api/v1/admin/organisations': {
    get: adminOperation('adminListOrganisations', 'List everything', {
      description: 'Every organisation with its sources, widgets and API keys; never a secret.',
      responses: { '200': ok('Everything.', ref('OrganisationListing')) },
      errors: ADMIN_ERRORS,
    }),
    post: adminOperation('adminCreateOrganisation', 'Create an organisation', {
      description: 'With its answer credits and plan.',
      responses: { '201': ok('Created.', ref('Organisation')) },
      errors: [...ADMIN_WRITE_ERRORS, 'conflict'],
    }),
  },
  [ADMIN_ORG]: {
    get: adminOperation('adminGetOrganisation', 'One organisation with what it holds', {
      parameters: [param('organisation')],
      responses: { '200': ok('The organisation.', ref('OrganisationDetail')) },
      errors: ADMIN_ERRORS,
    }),
    patch: adminOperation('adminUpdateOrganisation', "Change an organisation's name, plan or credits", {
      description: 'Only the fields sent change; `credits` sets the answer credits.',
      parameters: [param('organisation')],
      responses: { '200': ok('The organisation as it is now.', ref('Organisation')) },
      errors: ADMIN_WRITE_ERRORS,
    }),
  },
  [`${ADMIN_ORG}/sources`]: {
    post: adminOperation('adminCreateSource', 'Create a source', {
      parameters: [param('organisation')],
      responses: { '201': ok('Created.', ref('SourceRecord')) },
      errors: [...ADMIN_WRITE_ERRORS, 'conflict'],
    }),
  },
  [`${ADMIN_ORG}/widgets`]: {
    post: adminOperation('adminCreateWidget', 'Create a widget', {
      description: 'The answer carries the widget secret, shown only this once, and the identity signing secret.',
      parameters: [param('organisation')],
      responses: { '201': ok('Created, with its secrets.', ref('CreatedWidget')) },
      errors: [...ADMIN_WRITE_ERRORS, 'conflict'],
    }),
  },
  [ADMIN_WIDGET]: {
    patch: adminOperation('adminUpdateWidget', "Change a widget's name, sources, website list or config", {
      description: 'Only the fields sent change; a `config` sent replaces the whole config.',
      parameters: [param('organisation'), param('widget')],
      responses: { '200': ok('The widget as it is now (no secrets).', ref('Widget')) },
      errors: ADMIN_WRITE_ERRORS,
    }),
  },
  [`${ADMIN_WIDGET}/secret`]: {
    post: adminOperation('adminRotateWidgetSecret', "Replace a widget's secret", {
      description: 'The old secret stops working at once. No body.',
      parameters: [param('organisation'), param('widget')],
      responses: { '200': ok('The new secret, shown only this once.', ref('WidgetSecret')) },
      errors: ADMIN_ERRORS,
    }),
  },
  [`${ADMIN_WIDGET}/signing-secret`]: {
    post: adminOperation('adminRotateSigningSecret', "Replace a widget's identity signing secret", {
      description: 'Visitor hashes made with the previous secret stay valid for 24 hours, so signed-in visitors are not cut off. No body.',
      parameters: [param('organisation'), param('widget')],
      responses: { '200': ok('The new signing secret.', ref('SigningSecret')) },
      errors: ADMIN_ERRORS,
    }),
  },
  [`${ADMIN_WIDGET}/preview-tokens`]: {
    post: adminOperation('adminMintPreviewToken', 'Mint a preview token', {
      description: 'For the in-app preview of one widget; valid for one hour. No body.',
      parameters: [param('organisation'), param('widget')],
      responses: { '201': ok('The token, shown only this once.', ref('PreviewToken')) },
      errors: ADMIN_ERRORS,
    }),
  },
  [`${ADMIN_WIDGET}/analytics`]: {
    get: adminOperation('adminWidgetAnalytics', "A widget's analytics over a period", {
      description: 'Top queries, queries with no results, click-through rate, clicks by rank, answers given and credits spent.',
      parameters: [param('organisation'), param('widget')],
      responses: { '200': ok('The analytics.', ref('WidgetAnalytics')) },
      errors: [...ADMIN_ERRORS, 'invalid_request'],
    }),
  },
  [`${ADMIN_ORG}/api-keys`]: {
    post: adminOperation('adminCreateApiKey', 'Create an API key', {
      description: 'With permissions and an optional source limit. The key is shown only this once.',
      parameters: [param('organisation')],
      responses: { '201': ok('Created, with the key.', ref('CreatedApiKey')) },
      errors: ADMIN_WRITE_ERRORS,
    }),
  },
  [`${ADMIN_ORG}/api-keys/{key}`]: {
    delete: adminOperation('adminRevokeApiKey', 'Revoke an API key', {
      description: 'At once, and for good; revoking twice is fine.',
      parameters: [param('organisation'), param('apiKeyId')],
      responses: { '200': ok('Revoked.', ref('RevokedApiKey')) },
      errors: ADMIN_ERRORS,
    }),
  },
};

function scriptOperation(operationId: string, summary: string, description: string): Operation {
  return {
    operationId,
    summary,
    description: `${description} Served from the build with an \`ETag\` (304 on \`If-None-Match\`), \`Cache-Control: public, max-age=300\` and \`Access-Control-Allow-Origin: *\`.`,
    tags: ['Scripts'],
    security: PUBLIC,
    parameters: [param('ifNoneMatch')],
    responses: {
      '200': {
        description: 'The script.',
        headers: { ETag: header('ETag'), 'Cache-Control': header('Cache-Control') },
        content: { 'text/javascript': { schema: { type: 'string' } } },
      },
      '304': { description: 'Not modified.', headers: { ETag: header('ETag') } },
      ...errors(['not_found']),
    },
  };
}

// ---------------------------------------------------------------------------------------
// The document.

const DESCRIPTION = `Search, chat and AI summaries over an organisation's content, for embeddable widgets and server-side callers.

**Conventions.** JSON in and out, UTF-8, camelCase names (the presentation config keeps the snake_case names of spec 2.4). Identifiers in paths are opaque strings \`[A-Za-z0-9][A-Za-z0-9_-]{0,63}\`. Timestamps are ISO 8601 in UTC. Every \`GET\` also answers \`HEAD\`. Every non-2xx response has the body \`{ "error": { "code", "message" } }\` (schema \`Error\`) and never a stack trace; a path with the wrong method is 405 \`method_not_allowed\` with an \`Allow\` header, an unknown path 404 \`not_found\`. Bodies are limited to 1 MiB (8 MiB for page writes, 64 KiB for events) and refused as soon as they pass the limit (413). No cookies are used anywhere.

**Credentials.** The management API takes an organisation API key (\`ak_…\`). Widget routes take any one of: an \`Origin\` on the widget's website list, the widget secret (\`ws_…\`), an API key with the route's permission that reaches every source of the widget, or a preview token for the widget (\`pt_…\`). The admin API takes the server's admin token. API keys, widget secrets and preview tokens are stored only as hashes and compared in constant time; each is shown once, when created.

**Setting up.** Organisations, sources, widgets, keys, credits and preview tokens are made with the server's command line (\`assist-server help\`), with the admin API below, or declared in a fixture file applied with \`--fixture\`.

**Decisions the contract leaves open.**
- **Ids.** Organisation, source and widget ids are chosen by whoever creates them. The server makes page ids (\`p_…\`), conversation ids (\`c_…\`), answer ids (\`a_…\`) and session ids (\`s_…\`, when a request brings none); an API key's public id is \`key_\` and 16 hex digits derived from its hash, and is what revocation takes.
- **Fixtures** are applied idempotently: organisations, sources, keys and widgets are brought in line with the file on every start, but an organisation's \`credits\` are set only when it is created, so a restart does not refill spent credits. Pages are matched by \`url\` and rewritten only when they changed. Secrets written in a fixture are taken as given; everywhere else the server generates them.
- **Cursors** are opaque; a page listing is in creation order, so pages added or deleted between calls never make a page appear twice or be skipped. A cursor the API did not make is 400.
- **Page titles** are optional on create: taken from the HTML \`<title>\`, the first heading, or the URL.
- **HTML pages** are stored as text with \`#\` headings, list items and link text; scripts, styles, navigation, headers, footers and asides are dropped. Nothing is served back as HTML, except search snippets, where only \`<mark>\` is markup.
- **Widget routes** answer browsers with their \`Origin\` echoed in \`Access-Control-Allow-Origin\` (with \`Vary: Origin\`) even when refusing, so the SDK can show why (\`origin_not_allowed\`). The origin check is the authorisation.
- A widget secret or preview token used on **another widget** is 401 \`unauthenticated\`.
- **Signing secret rotation** keeps hashes made with the previous secret valid for 24 hours.
- **Preview tokens** expire one hour after they are minted.
- **Credits** go back when an answer does not complete and none of its text reached the client (a failed or aborted generation), and for a summary with nothing to summarise; an answer that was partly streamed keeps its credit.
- **Organisation ids**: \`admin\` is reserved (\`/api/v1/admin/\` is the admin API).
- **Summaries** with no credits left answer 200 \`{ summarized: false, text: "", sources: [] }\`; chat answers 402.
- **Rate limits** apply to chat and summarize, per widget and client address (\`--rate-limit\`, default 30 a minute): 429 with \`Retry-After\`.
- **Config** answers 304 to a matching \`If-None-Match\`.`;

/**
 * The paths of the document: every route the router serves (but the files), each with its
 * operation from OPERATIONS and its input from the route's schema. The scripts are served by
 * one files route and documented each on its own.
 */
function pathsOf(routes: Route[], queryParameters: Record<string, Parameter>): Record<string, PathItem> {
  const paths: Record<string, PathItem> = {};
  for (const route of routes) {
    if (route.kind === 'files') continue;
    const method = route.method.toLowerCase() as HttpMethod;
    const operation = OPERATIONS[route.path]?.[method];
    if (!operation) throw new Error(`${route.method} ${route.path} has no operation in the API document.`);
    (paths[route.path] ??= {})[method] = withInput(operation, route, queryParameters);
  }
  for (const [path, item] of Object.entries(OPERATIONS)) if (path.startsWith('/widget/')) paths[path] = item;
  return paths;
}

/** An operation with the body and query parameters its route's schema reads. */
function withInput(operation: Operation, route: Route, queryParameters: Record<string, Parameter>): Operation {
  const query = route.schema?.query ? parametersOf(route.schema.query) : [];
  for (const parameter of query) queryParameters[parameter.name] = parameter;
  const parameters = [...(operation.parameters ?? []), ...query.map((parameter) => param(parameter.name))];
  const body = route.schema?.body;
  // A body is documented where it is named (a POST that takes nothing reads an unnamed empty one) and never on GET.
  const name = body && route.method !== 'GET' ? components.get(body.schema)?.id : undefined;
  const content: Record<string, MediaType> = name ? json(ref(name)) : {};
  if (name && body?.textPlain) {
    content['text/plain'] = { schema: { type: 'string', contentMediaType: 'application/json', description: `An \`${name}\` as JSON text.` } };
  }
  return {
    ...operation,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(name ? { requestBody: { required: !body!.optional, content } } : {}),
  };
}

/** The query parameters a schema reads, each with the description and example of its field. */
function parametersOf(query: z.ZodType): Parameter[] {
  const { properties = {}, required = [] } = z.toJSONSchema(query, JSON_SCHEMA_OPTIONS) as SchemaObject;
  return Object.entries(properties).map(([name, property]) => {
    const { description = '', example, ...schema } = property as SchemaObject & { example?: unknown };
    return { name, in: 'query', required: required.includes(name), description, schema, ...(example !== undefined ? { example } : {}) };
  });
}

/** The OpenAPI document of `routes`, the routes the router serves. */
export function openapiDocument(routes: Route[]): OpenApiDocument {
  const queryParameters: Record<string, Parameter> = {};
  const paths = pathsOf(routes, queryParameters);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Assist API',
      version: '1.0.0',
      summary: 'Search, chat and summarize widgets, the management API and the admin API of the Assist reference server.',
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: [
      { name: 'Management', description: 'Server-side calls with an organisation API key.' },
      { name: 'Pages', description: 'The pages of a source (`pages.read`, `pages.write`).' },
      { name: 'Widget', description: 'What the widgets call: config, search, summarize, chat, events.' },
      { name: 'Conversations', description: "A signed visitor's chat history." },
      { name: 'Scripts', description: 'The browser SDK and the analytics beacon.' },
      { name: 'Meta', description: 'Health and this document.' },
      { name: 'Admin', description: "The dashboard's jobs over HTTP, behind the server's admin token." },
    ],
    paths,
    components: { schemas: documentSchemas(), parameters: { ...parameters, ...queryParameters }, headers, securitySchemes },
  };
}
