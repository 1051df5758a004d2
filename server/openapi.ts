/**
 * The OpenAPI 3.1 document of every route of the contract, served at /api/v1/openapi.json.
 * test/server/openapi.test.ts keeps it in step with the router and the contract's tables,
 * and checks that every `$ref` resolves. Decisions the contract leaves open are written
 * into the description fields, so integrators find them where they look things up.
 */
import {
  ERROR_STATUS,
  FEEDBACK_VALUES,
  LIMITS,
  LOCALES,
  PAGE_FORMATS,
  PERMISSIONS,
  PLANS,
  STREAM_STATUSES,
  THEMES,
  WIDGET_TYPES,
  type ErrorCode,
} from '../wire/contract.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from './routes/search.js';

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
// Small helpers: references, objects, bodies, error responses.

const ref = (schema: string, description?: string): Reference =>
  description ? { $ref: `#/components/schemas/${schema}`, description } : { $ref: `#/components/schemas/${schema}` };
const param = (name: string): Reference => ({ $ref: `#/components/parameters/${name}` });
const header = (name: string): Reference => ({ $ref: `#/components/headers/${name}` });

const string = (description: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'string', description, ...extra });
const integer = (description: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'integer', description, ...extra });
const boolean = (description: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'boolean', description, ...extra });
const array = (items: Schema, description?: string, extra: SchemaObject = {}): SchemaObject => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
  ...extra,
});
const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, type: [schema.type as JsonType, 'null'] });
const timestamp = (description: string): SchemaObject => string(`${description} ISO 8601, UTC.`, { format: 'date-time' });
const id = (description: string): Reference => ref('Id', description);
const EVENTS_PER_DAY = 'Analytics events the organisation may store per day (UTC); beyond it events are dropped and counted, never stored.';

/** An object schema; `required` lists the members always present (or needed, in a request). */
function object(properties: Record<string, Schema>, required: string[] = [], extra: SchemaObject = {}): SchemaObject {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...extra };
}

const json = (schema: Schema, example?: unknown): Record<string, MediaType> => ({
  'application/json': example === undefined ? { schema } : { schema, example },
});

const body = (schema: Schema, description?: string): RequestBody => ({
  required: true,
  ...(description ? { description } : {}),
  content: json(schema),
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
      "The server's admin token (`--admin-token-file` / `ASSIST_ADMIN_TOKEN`, or the one-time token the demo's first start printed): " +
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

const CONFIG_SETTINGS: Record<string, Schema> = {
  variant: string('Chat: `bubble` (default) or `inline`. Search: `modal` (default) or `inline`.', { enum: ['bubble', 'inline', 'modal'] }),
  accent_light: string('Accent colour in light mode, hex.', { pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$', default: '#2557d6' }),
  accent_dark: string('Accent colour in dark mode, hex.', { pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$', default: '#8ab4ff' }),
  theme: string('Colour scheme.', { enum: THEMES, default: 'auto' }),
  branding: boolean('Shows "Powered by Assist". Always true on the `free` plan; a paid plan (`pro`) may set false.', { default: true }),
  summary: boolean('Search only: an AI summary above the results (spends answer credits).', { default: false }),
  speech_input: boolean('A microphone button where the browser supports it.', { default: false }),
  placeholder: string('Input placeholder; may be empty.', { default: '', maxLength: 2000 }),
  greeting: string('Chat only: the first assistant message; may be empty.', { default: '', maxLength: 2000 }),
  avatar: { type: ['string', 'null'], description: 'Chat only: image URL (http(s) or a path) of the assistant; null when absent.', default: null },
  debounce: integer('Search only: milliseconds to wait after typing.', { minimum: 0, maximum: 10_000, default: 1000 }),
  default_language: string('Fallback UI language.', { enum: LOCALES, default: 'en' }),
  suggestions: array(string('A question.', { minLength: 1, maxLength: LIMITS.suggestionLength }), 'Example questions the empty search modal and the empty chat offer.', {
    maxItems: LIMITS.suggestions,
    default: [],
  }),
};

const schemas: Record<string, Schema> = {
  Id: string('An opaque identifier (organisation, source, widget, page, conversation).', {
    pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$',
    examples: ['acme'],
  }),
  Error: object(
    {
      error: object(
        {
          code: string('Machine-readable; one of the contract\'s codes.', { enum: Object.keys(ERROR_STATUS) }),
          message: string('For people; names the offending field where there is one. Never a stack trace.'),
        },
        ['code', 'message'],
      ),
    },
    ['error'],
    { description: 'The body of every non-2xx response.', examples: [{ error: { code: 'permission_denied', message: 'This key lacks the pages.write permission.' } }] },
  ),
  PageConflictError: {
    allOf: [ref('Error'), object({ pageId: id('The page that already has this `url`.') }, ['pageId'])],
    description: '409 on a page write: the source has a page with that `url` already.',
  },
  CreditsExhaustedError: {
    allOf: [ref('Error'), object({ hits: array(ref('Hit'), "Search results for the message over the widget's sources, so the chat widget can fall back to them.") }, ['hits'])],
    description: '402 on chat: no answer credits left. Sent before any streaming starts.',
  },
  Page: object(
    {
      id: id('Made by the server: `p_` and random characters.'),
      source: id('The source the page is in.'),
      url: string('Absolute http(s) URL; unique within the source.', { format: 'uri' }),
      title: string(
        'The given title (for HTML, entities decoded and the site name around the page\'s heading removed), or one derived from the ' +
          'content (HTML `<title>` without the site name, first heading) or the URL.',
      ),
      language: string('Language tag, e.g. `en` or `pt-BR`; drives stemming. An HTML page written without one takes its `<html lang>`. Absent when not set.'),
      metadata: ref('PageMetadata'),
      createdAt: timestamp('When the page was created.'),
      updatedAt: timestamp('When the page last changed.'),
      content: string(
        'Only on get, create and patch. Stored as text: markdown as sent; HTML read into markdown: its main content only (navigation, ' +
          'headers, footers, sidebars and permalink marks dropped), headings followed by `{#id}` where the page gives them an id, code ' +
          'blocks fenced with their language, inline code, tables and definition lists kept; plain text as sent. Never served back as HTML.',
      ),
    },
    ['id', 'source', 'url', 'title', 'createdAt', 'updatedAt'],
  ),
  PageWithContent: { allOf: [ref('Page'), object({}, ['content'])], description: 'A page with its `content`.' },
  PageMetadata: {
    type: 'object',
    description: 'A flat object: string, number, boolean or null values. Absent when not set.',
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
  },
  PageWrite: object(
    {
      url: string('Absolute http or https URL.', { format: 'uri', maxLength: 2048 }),
      title: string('Optional: when missing it is taken from the HTML `<title>`, the first heading, or the URL.', { maxLength: 1000 }),
      content: string('The page text in `format`; may be empty.'),
      format: string('How `content` is written.', { enum: PAGE_FORMATS, default: 'markdown' }),
      language: nullable(string('Language tag like `en` or `pt-BR`; `null` clears it.', { pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$' })),
      metadata: { oneOf: [ref('PageMetadata'), { type: 'null' }], description: 'A flat object; `null` clears it.' },
    },
    ['url', 'content'],
    { description: `A page to create. Bodies of page writes may be up to ${LIMITS.pageWrite / 1024 / 1024} MiB.` },
  ),
  PagePatch: {
    ...object({
      url: string('A new absolute http or https URL; another page of the source with it is 409.', { format: 'uri', maxLength: 2048 }),
      title: string('A new title.', { maxLength: 1000 }),
      content: string('New content, in `format` (or the format the page had).'),
      format: string('How `content` is written.', { enum: PAGE_FORMATS }),
      language: nullable(string('Language tag; `null` clears it.')),
      metadata: { oneOf: [ref('PageMetadata'), { type: 'null' }], description: 'Replaces the metadata; `null` clears it.' },
    }),
    description: 'Only the fields sent change.',
  },
  PageList: object(
    {
      pages: array(ref('Page'), 'Pages without `content`, oldest first.'),
      nextCursor: nullable(string('Pass as `cursor` for the next page of results; `null` on the last one. Opaque.')),
    },
    ['pages', 'nextCursor'],
  ),
  Me: object(
    {
      organisation: object({ id: ref('Id'), name: string('Display name.') }, ['id', 'name']),
      key: object(
        {
          id: string('The key\'s public id: `key_` and 16 hex digits (not the key itself).'),
          name: string('What the key is for.'),
          permissions: array(ref('Permission')),
          sources: nullable(array(ref('Id'), 'The source limit; `null` when the key reaches every source.') as SchemaObject),
        },
        ['id', 'name', 'permissions', 'sources'],
      ),
      sources: array(
        object({ id: ref('Id'), name: string('Display name.'), pages: integer('How many pages it holds.', { minimum: 0 }) }, ['id', 'name', 'pages']),
        'The sources this key may reach, by id.',
      ),
    },
    ['organisation', 'key', 'sources'],
  ),
  Permission: string('An API key permission.', { enum: PERMISSIONS }),
  WidgetConfig: object(
    {
      type: string('The widget type.', { enum: WIDGET_TYPES }),
      name: string('Display name.'),
      ...CONFIG_SETTINGS,
    },
    ['type', 'name', ...Object.keys(CONFIG_SETTINGS)],
    { description: 'Presentation config (spec 2.4): every field, with its default where the widget sets none.' },
  ),
  WidgetSettings: {
    ...object(CONFIG_SETTINGS, [], { additionalProperties: false }),
    description:
      'Settable presentation fields of spec 2.4; any other member is 400. The ones not set take their defaults. ' +
      '`variant` must fit the widget type. On the `free` plan `branding` is reported true whatever is set here.',
  },
  Hit: object(
    {
      id: string('Identifies the hit (a section of a page).'),
      pageId: id('The page it is in.'),
      url: string('Link to the page; may carry a `#fragment` for the matching section.', { format: 'uri' }),
      title: string('The page title.'),
      section: string('The heading path of the matching section, when it has one.'),
      snippet: string('HTML in which only `<mark>` is markup and everything else is escaped.'),
      source: id('The source it came from.'),
      score: { type: 'number', description: 'Relevance; higher is better. Only comparable within one response.' },
    },
    ['id', 'pageId', 'url', 'title', 'snippet', 'source', 'score'],
  ),
  SessionId: string('Analytics session id: one per browser tab, reused. When a search or chat request has none, the server makes one and returns it.', {
    pattern: '^[A-Za-z0-9_-]{1,128}$',
    examples: ['s_0f3c1e5b9a8d4c2e7f6a5b4c3d2e1f00'],
  }),
  SearchRequest: object(
    {
      query: string('What the visitor typed.'),
      limit: integer('How many hits at most.', { minimum: 1, maximum: MAX_SEARCH_LIMIT, default: DEFAULT_SEARCH_LIMIT }),
      sessionId: ref('SessionId'),
    },
    ['query'],
  ),
  SearchResponse: object(
    {
      sessionId: ref('SessionId'),
      queryId: string('Identifies this search, so a click can be tied to it (`queryId` of a click event).'),
      hits: array(ref('Hit'), 'Best first.'),
    },
    ['sessionId', 'queryId', 'hits'],
  ),
  Source: object(
    {
      url: string('Where the cited text is.', { format: 'uri' }),
      title: string('The page title.'),
      pageId: id('The page.'),
      section: string('The heading path of the cited section, when it has one (two sections of one page differ by it).'),
    },
    ['url', 'title', 'pageId'],
    { description: 'A source cited by a chat answer or a summary.' },
  ),
  SummarizeRequest: object({ query: string('The search query to summarise results for.'), sessionId: ref('SessionId') }, ['query']),
  SummarizeResult: object(
    {
      summarized: boolean('False when no summary was made (no credits left, or nothing to summarise); `text` is then empty.'),
      text: string('Markdown with numbered citations matching `sources`.'),
      sources: array(ref('Source')),
      sessionId: ref('SessionId', 'In the JSON response (not in the `done` event): the session the summary counts in.'),
    },
    ['summarized', 'text', 'sources'],
    { description: 'A summary. Its `answerId`, for feedback, is in the stream\'s `meta` event.' },
  ),
  VisitorIdentity: object(
    {
      id: string('The visitor id chosen by the integrator (numbers converted to string before signing).', { minLength: 1, maxLength: 512 }),
      hash: ref('VisitorHash'),
    },
    ['id'],
    { description: 'A signed visitor. A wrong hash is 403 `invalid_identity`, never an anonymous visitor.' },
  ),
  VisitorHash: string(
    "Lowercase hex HMAC-SHA256 of the visitor id, keyed with the widget's identity signing secret: " +
      "`createHmac('sha256', signingSecret).update(id).digest('hex')`. After the signing secret is rotated, hashes made with the previous " +
      'one are accepted for 24 hours.',
    { pattern: '^[0-9a-f]{64}$' },
  ),
  ChatRequest: object(
    {
      message: string("The visitor's message."),
      conversationId: id('Continue this conversation. Without it a new one starts.'),
      user: ref('VisitorIdentity', 'With a valid hash the conversation is the visitor\'s: listed, kept and deleted only by them. Without `user`, the conversation can be continued by its id but is never listed.'),
      context: {
        ...object({ url: string('The page the visitor is on.'), title: string('Its title.') }),
        additionalProperties: true,
        description: 'What the page says about itself (url, title, anything more), used to improve the answer.',
      },
      sessionId: ref('SessionId'),
    },
    ['message'],
  ),
  ChatReply: object(
    {
      text: string('The answer, markdown, with numbered citations matching `sources`.'),
      conversationId: id('The conversation (new or continued), `c_…`.'),
      answerId: string('Identifies this answer, `a_…`.'),
      sources: array(ref('Source')),
      sessionId: ref('SessionId', 'In the JSON response (not in the `done` event): the session the answer counts in.'),
    },
    ['text', 'conversationId', 'answerId', 'sources'],
    { description: 'A full chat reply (spec 2.6).' },
  ),
  ClickEvent: object(
    {
      name: { const: 'click', description: 'A click on a result or a cited source.' },
      props: object(
        {
          url: string('The URL clicked.'),
          rank: integer('Result position, from 1.'),
          source: string('Where the link was, e.g. `result` or `summary`.'),
        },
        ['url'],
      ),
      queryId: string('The `queryId` of the search the click came from.'),
      ts: timestamp('When it happened, by the client\'s clock.'),
    },
    ['name', 'props'],
  ),
  FeedbackEvent: object(
    {
      name: { const: 'feedback', description: 'A rating of an answer this visitor or session received; a later rating of the same answer replaces it.' },
      props: object(
        {
          answerId: string(
            'The `answerId` of a chat reply or summary (from `meta`, `done` or the reply): one in a signed visitor\'s conversation is rated by that visitor (the body\'s `user`, from any session), any other by the session that received it; any other is 400.',
          ),
          value: string('The rating.', { enum: FEEDBACK_VALUES }),
          comment: string('Why, in the visitor\'s words.', { maxLength: LIMITS.feedbackComment }),
        },
        ['answerId', 'value'],
      ),
      queryId: string('Ignored for feedback.'),
      ts: timestamp('When it happened, by the client\'s clock.'),
    },
    ['name', 'props'],
  ),
  EventsBody: object(
    {
      sessionId: ref('SessionId'),
      events: array({ oneOf: [ref('ClickEvent'), ref('FeedbackEvent')] }),
      user: ref('VisitorIdentity', 'The signed visitor, as in chat: they rate the answers of their own conversations from any session.'),
    },
    ['sessionId', 'events'],
    { description: `Analytics events of one session; at most ${LIMITS.events / 1024} KiB.` },
  ),
  ConversationSummary: object(
    {
      id: id('`c_…`'),
      title: string('From the first message.'),
      kept: boolean('Kept conversations do not expire until released.'),
      createdAt: timestamp('When it started.'),
      updatedAt: timestamp('When its last message was added.'),
      expiresAt: nullable(timestamp(`When it vanishes: ${LIMITS.conversationTtlDays} days after the last message; \`null\` while kept.`)),
      messageCount: integer('How many messages it has.', { minimum: 0 }),
    },
    ['id', 'title', 'kept', 'createdAt', 'updatedAt', 'expiresAt', 'messageCount'],
  ),
  ConversationMessage: object(
    {
      role: string('Who said it.', { enum: ['user', 'assistant'] }),
      text: string('The message; for the assistant, markdown.'),
      answerId: string('Assistant messages: the answer id.'),
      sources: array(ref('Source'), 'Assistant messages: the cited sources.'),
      complete: boolean('Assistant messages: false when generation stopped before the answer was complete (the client went away).'),
      createdAt: timestamp('When it was said.'),
    },
    ['role', 'text', 'createdAt'],
  ),
  Conversation: {
    allOf: [ref('ConversationSummary'), object({ messages: array(ref('ConversationMessage'), 'Oldest first.') }, ['messages'])],
    description: 'One transcript.',
  },
  ConversationList: object({ conversations: array(ref('ConversationSummary'), 'Newest first.') }, ['conversations']),
  KeepRequest: object(
    {
      user: string('The visitor id (may also come as the `user` query parameter).'),
      hash: ref('VisitorHash'),
      kept: boolean('`true` keeps the conversation from expiring; `false` releases it (it then expires 30 days after its last message).', {
        default: true,
      }),
    },
    [],
    { description: '`user` and `hash` are needed, here or as query parameters.' },
  ),
  VisitorProof: object(
    { user: string('The visitor id.'), hash: ref('VisitorHash') },
    [],
    { description: 'Optional body of conversation deletes: `user` and `hash` as body fields instead of query parameters.' },
  ),
  StreamMeta: object(
    {
      conversationId: id('Chat only.'),
      answerId: string('The answer being generated.'),
      sessionId: ref('SessionId', 'The session the answer counts in (made by the server when the request had none).'),
    },
    ['answerId'],
    { description: 'First event.' },
  ),
  StreamStatus: object({ status: string('What the server is doing.', { enum: STREAM_STATUSES }) }, ['status']),
  StreamSources: object({ sources: array(ref('Source')) }, ['sources'], { description: 'Once retrieval is done.' }),
  StreamToken: object({ delta: string('The next piece of the answer; all deltas concatenated equal `done.text`.') }, ['delta']),
  Health: object(
    { status: { const: 'ok' }, database: string('Which database the server uses.', { enum: ['pglite', 'postgres'] }) },
    ['status', 'database'],
  ),

  // Admin API.
  Plan: string('`free` (default): the config always says `branding: true`. `pro`: a widget may set `branding: false`.', { enum: PLANS }),
  Organisation: object(
    {
      id: ref('Id'),
      name: string('Display name.'),
      plan: ref('Plan'),
      credits: integer('Answer credits left.', { minimum: 0 }),
      eventsPerDay: integer(EVENTS_PER_DAY, { minimum: 0 }),
    },
    ['id', 'name', 'plan', 'credits', 'eventsPerDay'],
  ),
  OrganisationCreate: object(
    {
      id: ref('Id', 'Chosen by the caller. `admin` (in any case) is reserved: `/api/v1/admin/` is the admin API.'),
      name: string('Display name; defaults to the id.', { maxLength: 200 }),
      credits: integer('Answer credits; default 0.', { minimum: 0, maximum: 1_000_000_000 }),
      plan: ref('Plan'),
      eventsPerDay: integer(`${EVENTS_PER_DAY} Default 100000.`, { minimum: 0, maximum: 1_000_000_000 }),
    },
    ['id'],
  ),
  OrganisationUpdate: {
    ...object({
      name: string('Display name.', { maxLength: 200 }),
      plan: ref('Plan'),
      credits: integer('Sets the answer credits.', { minimum: 0, maximum: 1_000_000_000 }),
      eventsPerDay: integer(EVENTS_PER_DAY, { minimum: 0, maximum: 1_000_000_000 }),
    }),
    description: 'Only the fields sent change.',
  },
  OrganisationDetail: {
    allOf: [
      ref('Organisation'),
      object(
        {
          eventsToday: object(
            {
              stored: integer('Analytics events stored today (UTC).', { minimum: 0 }),
              dropped: integer('Events dropped today because the organisation reached `eventsPerDay`.', { minimum: 0 }),
            },
            ['stored', 'dropped'],
          ),
          sources: array(object({ id: ref('Id'), name: string('Display name.'), pages: integer('Page count.') }, ['id', 'name', 'pages'])),
          widgets: array(
            object(
              {
                id: ref('Id'),
                type: string('Widget type.', { enum: WIDGET_TYPES }),
                name: string('Display name.'),
                sources: array(ref('Id')),
                websites: array(string('Website list entry.')),
                config: ref('WidgetSettings'),
              },
              ['id', 'type', 'name', 'sources', 'websites', 'config'],
            ),
          ),
          apiKeys: array(
            object(
              {
                id: string('`key_…`'),
                name: string('What it is for.'),
                permissions: array(ref('Permission')),
                sources: nullable(array(ref('Id')) as SchemaObject),
                createdAt: timestamp('Created.'),
                revokedAt: nullable(timestamp('Revoked; `null` while valid.')),
              },
              ['id', 'name', 'permissions', 'sources', 'createdAt', 'revokedAt'],
            ),
          ),
        },
        ['sources', 'widgets', 'apiKeys'],
      ),
    ],
    description: 'An organisation with what it holds; never a secret.',
  },
  OrganisationListing: object({ organisations: array(ref('OrganisationDetail'), 'By id.') }, ['organisations']),
  SourceCreate: object({ id: ref('Id'), name: string('Display name; defaults to the id.', { maxLength: 200 }) }, ['id']),
  SourceRecord: object({ id: ref('Id'), name: string('Display name.') }, ['id', 'name']),
  WidgetCreate: object(
    {
      id: ref('Id'),
      type: string('Widget type.', { enum: WIDGET_TYPES }),
      name: string('Display name; defaults to the id.', { maxLength: 200 }),
      sources: array(ref('Id'), 'Sources of this organisation it searches and answers from.', { minItems: 1, maxItems: 100 }),
      websites: array(string('A host, host:port or *.domain.'), 'The website list; default empty (no browser may call it).', { maxItems: 200 }),
      config: ref('WidgetSettings'),
    },
    ['id', 'type', 'sources'],
    { description: 'The server makes the widget secret and the signing secret; a body naming `secret` or `signingSecret` is 400.' },
  ),
  WidgetUpdate: {
    ...object({
      name: string('Display name.', { maxLength: 200 }),
      sources: array(ref('Id'), undefined, { minItems: 1, maxItems: 100 }),
      websites: array(string('A host, host:port or *.domain.'), undefined, { maxItems: 200 }),
      config: ref('WidgetSettings', 'Replaces the whole config.'),
    }),
    description: 'Only the fields sent change.',
  },
  Widget: object(
    {
      organisation: ref('Id'),
      id: ref('Id'),
      key: string('The public widget key, `{organisation}/{widget}`, for `Assist.chat(key)` and friends.', { examples: ['acme/help'] }),
      type: string('Widget type.', { enum: WIDGET_TYPES }),
      name: string('Display name.'),
      sources: array(ref('Id')),
      websites: array(string('Website list entry, lowercased.')),
      config: ref('WidgetSettings'),
    },
    ['organisation', 'id', 'key', 'type', 'name', 'sources', 'websites', 'config'],
  ),
  CreatedWidget: {
    allOf: [
      ref('Widget'),
      object(
        {
          secret: string('The widget secret, `ws_…`. Shown only this once; stored as a hash.'),
          signingSecret: string('The identity signing secret, `sig_…`, for the integrator\'s server to sign visitor ids. Never send it to a browser.'),
        },
        ['secret', 'signingSecret'],
      ),
    ],
  },
  WidgetSecret: object(
    { widget: string('The widget key.'), secret: string('The new widget secret; shown only this once. The old one no longer works.') },
    ['widget', 'secret'],
  ),
  SigningSecret: object(
    {
      widget: string('The widget key.'),
      signingSecret: string('The new identity signing secret.'),
      previousValidUntil: timestamp('Until when hashes made with the previous signing secret are still accepted (24 hours).'),
    },
    ['widget', 'signingSecret', 'previousValidUntil'],
  ),
  PreviewToken: object(
    { widget: string('The widget key.'), token: string('`pt_…`; shown only this once.'), expiresAt: timestamp('One hour after minting.') },
    ['widget', 'token', 'expiresAt'],
  ),
  ApiKeyCreate: object(
    {
      name: string('What the key is for.', { maxLength: 200 }),
      permissions: array(ref('Permission'), undefined, { minItems: 1 }),
      sources: array(ref('Id'), 'The source limit; omit for every source of the organisation.', { minItems: 1, maxItems: 100 }),
    },
    ['name', 'permissions'],
    { description: 'The server makes the key; a body naming `key` is 400.' },
  ),
  CreatedApiKey: object(
    {
      id: string('The key\'s public id, `key_…`, used to revoke it.'),
      organisation: ref('Id'),
      name: string('What the key is for.'),
      permissions: array(ref('Permission')),
      sources: nullable(array(ref('Id')) as SchemaObject),
      key: string('The API key, `ak_…`. Shown only this once; stored as a hash.'),
    },
    ['id', 'organisation', 'name', 'permissions', 'sources', 'key'],
  ),
  RevokedApiKey: object({ id: string('The key id.'), revoked: { const: true } }, ['id', 'revoked']),
  QueryCount: object({ query: string('The query, lowercased and trimmed.'), searches: integer('How often it was searched.') }, ['query', 'searches']),
  WidgetAnalytics: object(
    {
      widget: string('The widget key.'),
      from: timestamp('Start of the period (included).'),
      to: timestamp('End of the period (excluded).'),
      sessions: integer('Distinct sessions with a search, answer or click in the period.'),
      searches: integer('Searches.'),
      topQueries: array(ref('QueryCount'), 'Most frequent queries, at most 20.'),
      noResultQueries: array(ref('QueryCount'), 'Most frequent queries that found nothing, at most 20.'),
      clicks: integer('Clicks.'),
      searchesWithClicks: integer('Searches followed by at least one click on one of their results.'),
      clickThroughRate: { type: 'number', minimum: 0, maximum: 1, description: '`searchesWithClicks / searches` (0 without searches), to 4 decimals.' },
      clicksByRank: array(
        object({ rank: nullable(integer('Result position, 1 first; `null` for clicks sent without one.')), clicks: integer('Clicks.') }, ['rank', 'clicks']),
      ),
      answers: object(
        { chat: integer('Complete chat answers.'), summaries: integer('Complete summaries.'), total: integer('Both.') },
        ['chat', 'summaries', 'total'],
      ),
      creditsSpent: integer('Answer credits spent (returned credits not counted).'),
      feedback: object(
        {
          helpful: integer('Answers rated helpful (a rating counts in the period it was last changed in).'),
          unhelpful: integer('Answers rated not helpful.'),
          helpfulRate: nullable({ type: 'number', minimum: 0, maximum: 1, description: '`helpful / (helpful + unhelpful)` to 4 decimals; `null` without ratings.' }),
          unhelpfulAnswers: array(
            object(
              {
                answerId: string('The answer.'),
                kind: string('A chat reply or a search summary.', { enum: ['chat', 'summary'] }),
                question: nullable(string('What was asked; `null` once a chat\'s conversation is deleted.')),
                comment: nullable(string('The visitor\'s comment.')),
                ratedAt: timestamp('When it was rated.'),
              },
              ['answerId', 'kind', 'question', 'comment', 'ratedAt'],
            ),
            'The latest answers rated not helpful, at most 50, newest first.',
          ),
        },
        ['helpful', 'unhelpful', 'helpfulRate', 'unhelpfulAnswers'],
      ),
    },
    ['widget', 'from', 'to', 'sessions', 'searches', 'topQueries', 'noResultQueries', 'clicks', 'searchesWithClicks', 'clickThroughRate', 'clicksByRank', 'answers', 'creditsSpent', 'feedback'],
    { description: "A widget's search and answer analytics over a period." },
  ),
};

// ---------------------------------------------------------------------------------------
// Parameters and headers.

const pathId = (name: string, description: string): Parameter => ({ name, in: 'path', required: true, description, schema: ref('Id') });
const visitorQuery = (name: 'user' | 'hash', description: string): Parameter => ({
  name,
  in: 'query',
  required: false,
  description: `${description} May come as a body field instead.`,
  schema: name === 'hash' ? ref('VisitorHash') : { type: 'string', maxLength: 512 },
});

const parameters: Record<string, Parameter> = {
  organisation: pathId('organisation', 'Organisation id.'),
  source: pathId('source', 'Source id.'),
  page: pathId('page', 'Page id (`p_…`, made by the server).'),
  widget: pathId('widget', 'Widget id.'),
  conversation: pathId('conversation', 'Conversation id (`c_…`).'),
  apiKeyId: { name: 'key', in: 'path', required: true, description: 'The API key\'s id (`key_…`), not the key.', schema: ref('Id') },
  limit: {
    name: 'limit',
    in: 'query',
    description: `How many pages to list: 1–${LIMITS.pageListMax}; default ${LIMITS.pageListDefault}.`,
    schema: { type: 'integer', minimum: 1, maximum: LIMITS.pageListMax, default: LIMITS.pageListDefault },
  },
  cursor: {
    name: 'cursor',
    in: 'query',
    description:
      'The `nextCursor` of the previous response. Opaque: pass it back as is. A listing is in creation order, so pages added or ' +
      'deleted between calls never make a page appear twice or be skipped; a cursor the API did not make is 400.',
    schema: { type: 'string' },
  },
  user: visitorQuery('user', 'The signed visitor\'s id.'),
  from: {
    name: 'from',
    in: 'query',
    description: 'Start of the period: an ISO 8601 date or time. Default: 30 days before `to`.',
    schema: { type: 'string', maxLength: 64 },
    example: '2025-01-01',
  },
  to: {
    name: 'to',
    in: 'query',
    description: 'End of the period: an ISO 8601 date or time; a date alone includes that whole day. Default: now.',
    schema: { type: 'string', maxLength: 64 },
    example: '2025-01-31',
  },
  hash: visitorQuery('hash', 'The visitor hash of `user`.'),
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

const VISITOR_PARAMETERS = [param('user'), param('hash')];
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
      '(`--admin-token-file`, `ASSIST_ADMIN_TOKEN`, or the demo\'s one-time token) the admin API is off and answers 404. The same operation as the `assist-server` command line.',
    tags: ['Admin'],
    security: ADMIN,
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: { ...spec.responses, ...errors(spec.errors) },
  };
}

const paths: Record<string, PathItem> = {
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
      parameters: [param('limit'), param('cursor')],
      responses: { '200': ok('One page of the listing.', ref('PageList')) },
    }),
    post: managementOperation(
      'createPage',
      'pages.write',
      'Create a page',
      {
        description: `Searchable as soon as the response arrives. Body up to ${LIMITS.pageWrite / 1024 / 1024} MiB.`,
        requestBody: body(ref('PageWrite')),
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
        requestBody: body(ref('PagePatch')),
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
      requestBody: body(ref('SearchRequest')),
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
      requestBody: body(ref('SummarizeRequest')),
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
      requestBody: body(ref('ChatRequest')),
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
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: ref('EventsBody') },
          'text/plain': { schema: { type: 'string', contentMediaType: 'application/json', description: 'An `EventsBody` as JSON text.' } },
        },
      },
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
      parameters: VISITOR_PARAMETERS,
      responses: { '200': ok('The conversations.', ref('ConversationList'), CORS_HEADERS) },
      errors: ['invalid_request', 'invalid_identity'],
    }),
    delete: widgetOperation('deleteConversations', {
      summary: "Delete all of a signed visitor's conversations",
      description: CONVERSATION_NOTE,
      type: 'chatbot',
      permission: '`chat`',
      tags: ['Conversations'],
      parameters: VISITOR_PARAMETERS,
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
      parameters: [param('conversation'), ...VISITOR_PARAMETERS],
      responses: { '200': ok('The conversation.', ref('Conversation'), CORS_HEADERS) },
      errors: ['invalid_request', 'invalid_identity'],
    }),
    delete: widgetOperation('deleteConversation', {
      summary: 'Delete one conversation',
      description: CONVERSATION_NOTE,
      type: 'chatbot',
      permission: '`chat`',
      tags: ['Conversations'],
      parameters: [param('conversation'), ...VISITOR_PARAMETERS],
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
      parameters: [param('conversation'), ...VISITOR_PARAMETERS],
      requestBody: body(ref('KeepRequest')),
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
      requestBody: body(ref('OrganisationCreate')),
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
      requestBody: body(ref('OrganisationUpdate')),
      responses: { '200': ok('The organisation as it is now.', ref('Organisation')) },
      errors: ADMIN_WRITE_ERRORS,
    }),
  },
  [`${ADMIN_ORG}/sources`]: {
    post: adminOperation('adminCreateSource', 'Create a source', {
      parameters: [param('organisation')],
      requestBody: body(ref('SourceCreate')),
      responses: { '201': ok('Created.', ref('SourceRecord')) },
      errors: [...ADMIN_WRITE_ERRORS, 'conflict'],
    }),
  },
  [`${ADMIN_ORG}/widgets`]: {
    post: adminOperation('adminCreateWidget', 'Create a widget', {
      description: 'The answer carries the widget secret, shown only this once, and the identity signing secret.',
      parameters: [param('organisation')],
      requestBody: body(ref('WidgetCreate')),
      responses: { '201': ok('Created, with its secrets.', ref('CreatedWidget')) },
      errors: [...ADMIN_WRITE_ERRORS, 'conflict'],
    }),
  },
  [ADMIN_WIDGET]: {
    patch: adminOperation('adminUpdateWidget', "Change a widget's name, sources, website list or config", {
      description: 'Only the fields sent change; a `config` sent replaces the whole config.',
      parameters: [param('organisation'), param('widget')],
      requestBody: body(ref('WidgetUpdate')),
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
      parameters: [param('organisation'), param('widget'), param('from'), param('to')],
      responses: { '200': ok('The analytics.', ref('WidgetAnalytics')) },
      errors: [...ADMIN_ERRORS, 'invalid_request'],
    }),
  },
  [`${ADMIN_ORG}/api-keys`]: {
    post: adminOperation('adminCreateApiKey', 'Create an API key', {
      description: 'With permissions and an optional source limit. The key is shown only this once.',
      parameters: [param('organisation')],
      requestBody: body(ref('ApiKeyCreate')),
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

export const openapiDocument: OpenApiDocument = {
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
  components: { schemas, parameters, headers, securitySchemes },
};
