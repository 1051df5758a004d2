/**
 * Starts the real server on a real port for a test file: on an in-memory PGlite by default,
 * or on a fresh PostgreSQL database of its own when ASSIST_TEST_DATABASE_URL points at a
 * server (CI runs the suite both ways).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startServer, type RunningServer } from '../../server/main.js';
import type { Db } from '../../server/store/db.js';
import { migrate, migrationsDir } from '../../server/store/migrate.js';
import { applyFixture } from '../../server/store/fixture.js';
import type { ServerLimits } from '../../server/options.js';

export const TEST_DATABASE_URL = process.env.ASSIST_TEST_DATABASE_URL;
export const onPostgres = Boolean(TEST_DATABASE_URL);

/** Creates an empty PostgreSQL database for one test and returns its URL and a way to drop it. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error('ASSIST_TEST_DATABASE_URL is not set');
  const { default: pg } = await import('pg');
  const name = `assist_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A database as a deployment of schema `version` left it, holding `fixture`: migrated up to
 * that version, the fixture written by today's page writer. The columns it writes that the
 * schema lacks are there only for the write, and what they counted is left as that version
 * kept it: the indexer's version (11) is gone, the vocabulary counted over the organisation
 * (13), no section keyed by its heading's name (14).
 */
export async function databaseAtVersion(db: Db, version: number, fixture: Parameters<typeof applyFixture>[1]): Promise<void> {
  await migrate(db, version);
  if (version < 11) await db.exec('ALTER TABLE pages ADD COLUMN indexed_version integer NOT NULL DEFAULT 0');
  if (version < 13)
    await db.exec(`ALTER TABLE search_vocabulary DROP CONSTRAINT search_vocabulary_pkey;
                   ALTER TABLE search_vocabulary ADD COLUMN source_id text NOT NULL DEFAULT '';
                   ALTER TABLE search_vocabulary ADD PRIMARY KEY (word, organisation_id, source_id);
                   ALTER TABLE search_removed_sections ADD COLUMN source_id text NOT NULL DEFAULT ''`);
  // The indexer keys each section by its heading's name and its entry's (014_names.sql).
  const headingName = /CREATE FUNCTION search_heading_name[^;]*;/.exec(readFileSync(join(migrationsDir(), '014_names.sql'), 'utf8'))![0];
  if (version < 14)
    await db.exec(`ALTER TABLE search_sections ADD COLUMN heading_key text NOT NULL DEFAULT '', ADD COLUMN entry_name text NOT NULL DEFAULT ''; ${headingName}`);
  await applyFixture(db, fixture);
  if (version < 14) {
    await db.exec('ALTER TABLE search_sections DROP COLUMN heading_key, DROP COLUMN entry_name; DROP FUNCTION search_heading_name(text)');
    // Written by the indexer of that version.
    if (version >= 11) await db.exec('UPDATE pages SET indexed_version = 2');
  }
  if (version < 11) await db.exec('ALTER TABLE pages DROP COLUMN indexed_version');
  if (version < 13)
    await db.exec(`CREATE TEMPORARY TABLE organisation_words AS
                     SELECT word, organisation_id, sum(pages)::integer AS pages FROM search_vocabulary GROUP BY word, organisation_id;
                   DELETE FROM search_vocabulary;
                   ALTER TABLE search_vocabulary DROP COLUMN source_id;
                   ALTER TABLE search_vocabulary ADD PRIMARY KEY (word, organisation_id);
                   INSERT INTO search_vocabulary (word, organisation_id, pages) SELECT word, organisation_id, pages FROM organisation_words;
                   DROP TABLE organisation_words;
                   ALTER TABLE search_removed_sections DROP COLUMN source_id`);
}

export function writeTempJson(value: unknown): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'assist-test-'));
  const path = join(dir, 'fixture.json');
  writeFileSync(path, JSON.stringify(value));
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestServerOptions {
  fixture?: unknown;
  adminToken?: string;
  rateLimit?: number;
  /** Limits and timeouts; in tests every rate limit and cap is off unless given here. */
  limits?: Partial<ServerLimits>;
  /** A PGlite directory (for restart tests); ignored on PostgreSQL. */
  dataDir?: string;
  /** Reuse a database URL (for restart tests on PostgreSQL). */
  databaseUrl?: string;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when it is not JSON. */
  json: any;
}

export interface RequestOptions {
  token?: string;
  origin?: string;
  body?: unknown;
  /** Sent as is, without JSON encoding. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface TestServer extends RunningServer {
  /** The database URL on PostgreSQL, for a second process or a restart. */
  databaseUrl?: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  stop(): Promise<void>;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const fixture = options.fixture ? writeTempJson(options.fixture) : undefined;
  const database = !options.databaseUrl && onPostgres ? await freshPostgresDatabase() : undefined;
  const databaseUrl = options.databaseUrl ?? database?.url;
  const running = await startServer(
    {
      port: 0,
      host: '127.0.0.1',
      dataDir: options.dataDir ?? 'memory',
      databaseUrl,
      fixture: fixture?.path,
      adminToken: options.adminToken,
      rateLimit: options.rateLimit ?? 0,
      limits: { searchRateLimit: 0, eventsRateLimit: 0, maxConnections: 0, maxStreams: 0, maxStreamsPerClient: 0, ...options.limits },
    },
    () => {},
  );
  return Object.assign(running, {
    databaseUrl,
    request: (method: string, path: string, requestOptions?: RequestOptions) => request(running.url, method, path, requestOptions),
    async stop() {
      await running.close();
      await database?.drop();
      fixture?.remove();
    },
  });
}

/**
 * Rate limits count in fixed one-minute windows of the clock (server/http/rate-limit.ts): a
 * test that counts requests up to a limit starts, when the current minute is nearly over, at
 * the next one, so that a new window does not reset its count halfway.
 */
export async function inOneRateWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

export async function request(base: string, method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.origin) headers.Origin = options.origin;
  let body: string | Uint8Array | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  // A Uint8Array over any ArrayBufferLike is a fine body; TypeScript's DOM types only admit ArrayBuffer-backed ones.
  const response = await fetch(base + path, { method, headers, body: body as BodyInit | undefined });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * A setup most tests start from: `acme` (pro plan, 100 credits) with two sources, keys of
 * every shape, a chat and a search widget; `other`, a second organisation.
 */
export function baseFixture() {
  return {
    organisations: [
      {
        id: 'acme',
        name: 'Acme',
        credits: 100,
        plan: 'pro',
        sources: [
          {
            id: 'docs',
            name: 'Docs',
            pages: [
              {
                url: 'https://acme.test/start',
                title: 'Start',
                content: '# Start\n\nInstall the widget with one script tag.\n\n## Configure\n\nSet the accent colour in the dashboard.',
              },
            ],
          },
          { id: 'blog', name: 'Blog', pages: [] },
        ],
        apiKeys: [
          { name: 'all', key: 'ak_test_all', permissions: ['pages.read', 'pages.write', 'search', 'chat', 'summarize'] },
          { name: 'read', key: 'ak_test_read', permissions: ['pages.read'] },
          { name: 'docs-only', key: 'ak_test_docs', permissions: ['pages.read', 'pages.write', 'search', 'chat', 'summarize'], sources: ['docs'] },
          { name: 'blog-only', key: 'ak_test_blog', permissions: ['pages.read', 'pages.write', 'search', 'chat', 'summarize'], sources: ['blog'] },
        ],
        widgets: [
          {
            id: 'help', type: 'chatbot', name: 'Help', sources: ['docs'],
            websites: ['acme.test', '*.acme.dev', 'localhost:8787'], secret: 'ws_test_help', signingSecret: 'sig_test_help',
            config: { variant: 'bubble', greeting: 'Hi!' },
          },
          {
            id: 'find', type: 'search', name: 'Find', sources: ['docs'],
            websites: ['acme.test'], secret: 'ws_test_find', signingSecret: 'sig_test_find',
            config: { summary: true },
          },
        ],
      },
      {
        id: 'other',
        name: 'Other',
        credits: 0,
        sources: [{ id: 'kb', name: 'KB', pages: [] }],
        apiKeys: [{ name: 'other', key: 'ak_other_all', permissions: ['pages.read', 'pages.write', 'search', 'chat', 'summarize'] }],
        widgets: [{ id: 'bot', type: 'chatbot', name: 'Bot', sources: ['kb'], websites: ['other.test'], secret: 'ws_other_bot', signingSecret: 'sig_other_bot' }],
      },
    ],
  };
}
