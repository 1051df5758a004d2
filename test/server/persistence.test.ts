/**
 * Restart persistence with the real server process: data written before a SIGTERM is there
 * after starting again on the same directory (or database); a fixture applied twice changes
 * nothing; on PostgreSQL, two server processes on one database serve the same data.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { baseFixture, freshPostgresDatabase, onPostgres, request, writeTempJson, type TestResponse } from './harness.js';
import { openDb } from '../../server/store/db.js';
import { applyFixture } from '../../server/store/fixture.js';
import { migrate } from '../../server/store/migrate.js';
import { assertError } from './expect.js';

const ADMIN_TOKEN = 'admin-token-for-persistence-tests';
const PROJECT_ROOT = new URL('../../', import.meta.url).pathname;

interface ServerProcess {
  url: string;
  child: ChildProcess;
  request(method: string, path: string, options?: Parameters<typeof request>[3]): Promise<TestResponse>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Starts `server/main.ts` as its own process and waits for its first line, `listening on http://HOST:PORT`. */
function startProcess(storage: string[], fixturePath: string): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', '--port', '0', '--host', '127.0.0.1', ...storage, '--fixture', fixturePath, '--rate-limit', '0'],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DATABASE_URL: '', ASSIST_DATA: '', ASSIST_ADMIN_TOKEN: ADMIN_TOKEN } },
  );
  running.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    running.delete(child);
    resolve(code);
  }));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within 60 s: ${stderr}`)), 60_000);
    exited.then((code) => reject(new Error(`the server exited with ${code} before listening: ${stderr}`)));
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      const match = /^listening on (http:\/\/[^\s]+)$/.exec(line);
      if (!match) return reject(new Error(`unexpected first line: ${line}`));
      const url = match[1]!;
      resolve({
        url,
        child,
        request: (method, path, options) => request(url, method, path, options),
        stop() {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}

after(() => {
  for (const child of running) child.kill('SIGKILL');
});

const fixtureFile = writeTempJson(baseFixture());
after(() => fixtureFile.remove());

/** What an operator and an API user can see: the admin listing, the pages with their ids and times, the config's ETag. */
async function observe(server: ServerProcess) {
  const listing = await server.request('GET', '/api/v1/admin/organisations', { token: ADMIN_TOKEN });
  assert.equal(listing.status, 200, listing.text);
  const pages = await server.request('GET', '/api/v1/acme/sources/docs/pages?limit=200', { token: 'ak_test_all' });
  assert.equal(pages.status, 200, pages.text);
  const config = await server.request('GET', '/api/v1/acme/widgets/help/config', { token: 'ws_test_help' });
  assert.equal(config.status, 200, config.text);
  return { listing: listing.json, pages: pages.json.pages, config: config.json, etag: config.headers.get('etag') };
}

/** Every row of every table, in a stable order: "nothing changed" means this is equal. */
async function databaseRows(storage: { dataDir?: string; databaseUrl?: string }): Promise<Record<string, string[]>> {
  const db = await openDb(storage);
  try {
    const tables = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const rows: Record<string, string[]> = {};
    for (const { table_name: table } of tables) {
      const found = await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table}" t`);
      rows[table] = found.map(({ row }) => row).sort();
    }
    return rows;
  } finally {
    await db.close();
  }
}

/** The same story on either storage: write, stop, start again, everything is there and nothing else changed. */
async function restartStory(storage: string[], direct: { dataDir?: string; databaseUrl?: string }) {
  const first = await startProcess(storage, fixtureFile.path);
  const written = await first.request('POST', '/api/v1/acme/sources/docs/pages', {
    token: 'ak_test_all',
    body: { url: 'https://acme.test/persisted', title: 'Persisted', content: '# Persisted\n\nWritten before the restart.', metadata: { kept: true } },
  });
  assert.equal(written.status, 201, written.text);
  const organisation = await first.request('POST', '/api/v1/admin/organisations', { token: ADMIN_TOKEN, body: { id: 'restarted', credits: 5, plan: 'pro' } });
  assert.equal(organisation.status, 201, organisation.text);
  const key = await first.request('POST', '/api/v1/admin/organisations/acme/api-keys', { token: ADMIN_TOKEN, body: { name: 'made-before', permissions: ['pages.read'] } });
  assert.equal(key.status, 201, key.text);
  // A fixture key revoked through the admin API must stay revoked, although the fixture names it.
  const listing = (await first.request('GET', '/api/v1/admin/organisations/acme', { token: ADMIN_TOKEN })).json;
  const readKey = listing.apiKeys.find((apiKey: { name: string }) => apiKey.name === 'read');
  assert.equal((await first.request('DELETE', `/api/v1/admin/organisations/acme/api-keys/${readKey.id}`, { token: ADMIN_TOKEN })).status, 200);
  // Spent credits are not refilled by the fixture.
  assert.equal((await first.request('PATCH', '/api/v1/admin/organisations/acme', { token: ADMIN_TOKEN, body: { credits: 42 } })).status, 200);
  const seen = await observe(first);
  assert.equal(await first.stop(), 0, 'SIGTERM stops the server cleanly');

  const rowsBetween = await databaseRows(direct);

  const second = await startProcess(storage, fixtureFile.path);
  try {
    const read = await second.request('GET', `/api/v1/acme/sources/docs/pages/${written.json.id}`, { token: 'ak_test_all' });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.json, written.json);
    assert.equal((await second.request('GET', '/api/v1/me', { token: key.json.key })).status, 200, 'a key made before the restart works');
    assertError(await second.request('GET', '/api/v1/me', { token: 'ak_test_read' }), 401, 'unauthenticated');
    const again = await observe(second);
    assert.deepEqual(again, seen, 'listing, pages (ids, updatedAt) and config are as before the restart');
    assert.equal(again.listing.organisations.find((entry: { id: string }) => entry.id === 'acme').credits, 42);
    assert.ok(again.listing.organisations.some((entry: { id: string }) => entry.id === 'restarted'));
  } finally {
    assert.equal(await second.stop(), 0);
  }

  // Applying the same fixture a second time changed no row at all.
  assert.deepEqual(await databaseRows(direct), rowsBetween);
}

describe('restart on the embedded database', { skip: onPostgres ? 'covered on PostgreSQL below' : false }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'assist-persist-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('pages, organisations and keys survive a restart; the fixture applied again changes nothing', { timeout: 120_000 }, async () => {
    await restartStory(['--data', dataDir], { dataDir });
  });
});

describe('PostgreSQL', { skip: onPostgres ? false : 'set ASSIST_TEST_DATABASE_URL (scripts/with-postgres.sh) to run' }, () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  before(async () => {
    database = await freshPostgresDatabase();
  });
  after(() => database?.drop());

  test('two server processes started together on one database serve the same data', { timeout: 120_000 }, async () => {
    const storage = ['--database-url', database.url];
    const [one, two] = await Promise.all([startProcess(storage, fixtureFile.path), startProcess(storage, fixtureFile.path)]);
    try {
      const written = await one.request('POST', '/api/v1/acme/sources/blog/pages', {
        token: 'ak_test_all',
        body: { url: 'https://acme.test/shared', title: 'Shared', content: 'Written through one' },
      });
      assert.equal(written.status, 201, written.text);
      const readThroughTwo = await two.request('GET', `/api/v1/acme/sources/blog/pages/${written.json.id}`, { token: 'ak_test_all' });
      assert.deepEqual(readThroughTwo.json, written.json);

      const patched = await two.request('PATCH', `/api/v1/acme/sources/blog/pages/${written.json.id}`, { token: 'ak_test_all', body: { title: 'Changed through two' } });
      assert.equal(patched.status, 200);
      assert.equal((await one.request('GET', `/api/v1/acme/sources/blog/pages/${written.json.id}`, { token: 'ak_test_all' })).json.title, 'Changed through two');

      const conflict = await two.request('POST', '/api/v1/acme/sources/blog/pages', {
        token: 'ak_test_all',
        body: { url: 'https://acme.test/shared', title: 'Again', content: 'x' },
      });
      assertError(conflict, 409, 'conflict');
      assert.equal(conflict.json.pageId, written.json.id);

      const key = await one.request('POST', '/api/v1/admin/organisations/acme/api-keys', { token: ADMIN_TOKEN, body: { name: 'shared', permissions: ['pages.read'] } });
      assert.equal((await two.request('GET', '/api/v1/me', { token: key.json.key })).status, 200, 'a key made through one works through two');
      await two.request('DELETE', `/api/v1/admin/organisations/acme/api-keys/${key.json.id}`, { token: ADMIN_TOKEN });
      assertError(await one.request('GET', '/api/v1/me', { token: key.json.key }), 401, 'unauthenticated', 'revoked through two, refused by one');

      assert.deepEqual(await observe(one), await observe(two));
    } finally {
      assert.equal(await one.stop(), 0);
      assert.equal(await two.stop(), 0);
    }
  });

  test('two servers applying migrations and the fixture at the same moment both succeed, with one copy of everything', { timeout: 60_000 }, async () => {
    const fresh = await freshPostgresDatabase();
    const connections = await Promise.all([openDb({ databaseUrl: fresh.url }), openDb({ databaseUrl: fresh.url })]);
    try {
      // What each server does at start, raced exactly rather than by process timing.
      await Promise.all(connections.map(async (db) => {
        await migrate(db);
        await applyFixture(db, baseFixture());
      }));
      const [counts] = await connections[0]!.query<{ organisations: number; pages: number; keys: number }>(
        `SELECT (SELECT count(*) FROM organisations)::int AS organisations, (SELECT count(*) FROM pages)::int AS pages, (SELECT count(*) FROM api_keys)::int AS keys`,
      );
      assert.deepEqual(counts, { organisations: 2, pages: 1, keys: 5 });
    } finally {
      await Promise.all(connections.map((db) => db.close()));
      await fresh.drop();
    }
  });

  test('data survives a restart; the fixture applied again changes nothing', { timeout: 120_000 }, async () => {
    const fresh = await freshPostgresDatabase();
    try {
      await restartStory(['--database-url', fresh.url], { databaseUrl: fresh.url });
    } finally {
      await fresh.drop();
    }
  });
});
