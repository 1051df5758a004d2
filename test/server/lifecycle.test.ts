/**
 * The server as a process: one process per embedded database directory (the lock), Ctrl+C
 * on `npm start` (SIGINT to the whole process group) closing the database cleanly, the
 * admin token kept off the command line, and the demo's first start: no key that can
 * write, and a one-time admin token.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startServer } from '../../server/main.js';
import { DEFAULT_FIXTURE, projectRoot, serverOptions, UsageError } from '../../server/options.js';
import { LOCK_FILE } from '../../server/store/lock.js';
import { databaseReasons } from '../../server/store/db.js';
import { hashSecret } from '../../server/store/secrets.js';
import { runInProcess } from './cli-run.js';
import { freshPostgresDatabase, onPostgres, request } from './harness.js';

const ROOT = projectRoot();
const scratch = mkdtempSync(join(tmpdir(), 'assist-lifecycle-'));
const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  /** The `listening on` URL, or undefined when the process exited first. */
  url?: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/** Runs a command and waits for its `listening on` line, or for it to exit. */
function launch(args: string[], options: { detached?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<Started> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached,
    env: { ...process.env, DATABASE_URL: '', ASSIST_DATA: '', ASSIST_ADMIN_TOKEN: '', ...options.env },
  });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 120 s: ${stderr}`)), 120_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /^listening on (http:\/\/\S+)$/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve({ child, url: match[1], exited, stderr: () => stderr });
    });
    exited.then(() => {
      clearTimeout(timer);
      resolve({ child, exited, stderr: () => stderr });
    });
  });
}

/** The pid on the first line of a directory's lock file. */
const lockPid = (dataDir: string) => readFileSync(join(dataDir, LOCK_FILE), 'utf8').split('\n')[0];

const serverArgs = (dataDir: string) => ['--import', 'tsx', 'server/cli.ts', 'start', '--port', '0', '--data', dataDir, '--fixture', 'none'];

describe('one process per data directory', { skip: onPostgres && 'the lock is for the embedded database' }, () => {
  test('a second server on a directory another one holds exits with a message naming it; the first keeps its data', async () => {
    const dataDir = join(scratch, 'locked');
    const first = await launch(serverArgs(dataDir));
    assert.ok(first.url, first.stderr());
    try {
      assert.equal(lockPid(dataDir), String(first.child.pid));
      const second = await launch(serverArgs(dataDir));
      assert.equal(second.url, undefined, 'the second server must not listen');
      const { code } = await second.exited;
      assert.notEqual(code, 0);
      assert.match(second.stderr(), new RegExp(`in use by another process \\(pid ${first.child.pid}`));
      assert.equal((await request(first.url!, 'GET', '/healthz')).status, 200);
      // The command line refuses it too.
      const list = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'list', '--data', dataDir], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(list.status, 2, list.stderr);
      assert.match(list.stderr, /in use by another process/);
    } finally {
      first.child.kill('SIGTERM');
      const { code } = await first.exited;
      assert.equal(code, 0, first.stderr());
    }
    assert.equal(existsSync(join(dataDir, LOCK_FILE)), false, 'the lock goes when the server stops');
  });

  test('a lock left by a process that died is taken over', async () => {
    const dataDir = join(scratch, 'stale');
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    const first = await launch(serverArgs(dataDir));
    first.child.kill('SIGKILL');
    await first.exited;
    writeFileSync(join(dataDir, LOCK_FILE), `${dead.stdout.trim()}\n`);
    const next = await launch(serverArgs(dataDir));
    assert.ok(next.url, next.stderr());
    assert.equal(lockPid(dataDir), String(next.child.pid));
    next.child.kill('SIGTERM');
    const ended = await next.exited;
    assert.equal(ended.code, 0, `${JSON.stringify(ended)} ${next.stderr()}`);
  });
});

describe('a data directory that changes under a server', { skip: onPostgres && 'the directory is the embedded database' }, () => {
  test('removed and made again by a new start, the old server stops on its own and the new database stays readable', { timeout: 600_000 }, async () => {
    const dataDir = join(scratch, 'replaced');
    const old = await launch(serverArgs(dataDir));
    assert.ok(old.url, old.stderr());
    // Someone clears the directory while the server runs, and starts a new one on the same path.
    rmSync(dataDir, { recursive: true, force: true });
    const replacement = await launch(serverArgs(dataDir));
    assert.ok(replacement.url, replacement.stderr());
    assert.equal((await request(replacement.url!, 'GET', '/healthz')).status, 200);
    replacement.child.kill('SIGTERM');
    assert.equal((await replacement.exited).code, 0, replacement.stderr());
    // The old server has stopped on its own, without writing its database into the new one's directory.
    const oldEnded = await Promise.race([old.exited, new Promise<undefined>((resolve) => setTimeout(resolve, 10_000))]);
    if (!oldEnded) old.child.kill('SIGTERM');
    assert.ok(oldEnded, 'the old server did not stop by itself');
    assert.equal(oldEnded.signal, null);
    assert.notEqual(oldEnded.code, 0);
    assert.match(old.stderr(), new RegExp(`stopped: the data directory ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was removed or replaced`));
    const next = await launch(serverArgs(dataDir));
    assert.ok(next.url, `the directory no longer opens: ${next.stderr()}`);
    next.child.kill('SIGTERM');
    assert.equal((await next.exited).code, 0, next.stderr());
  });

  test('a lock file deleted on its own (the directory and its database still there) is made again; the server goes on', { timeout: 600_000 }, async () => {
    const dataDir = join(scratch, 'lock-deleted');
    const started = await launch(serverArgs(dataDir));
    assert.ok(started.url, started.stderr());
    rmSync(join(dataDir, LOCK_FILE));
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    assert.equal(started.child.exitCode, null, started.stderr());
    assert.equal((await request(started.url!, 'GET', '/healthz')).status, 200);
    assert.equal(lockPid(dataDir), String(started.child.pid));
    started.child.kill('SIGTERM');
    assert.equal((await started.exited).code, 0, started.stderr());
    assert.equal(existsSync(join(dataDir, LOCK_FILE)), false);
  });

  test("the database's reasons are its last lines before it stopped, without their timestamps", () => {
    const log = [
      'pglitec: shmctl: no such segment 1',
      '2026-11-24 17:57:40.727 UTC [42] LOG:  database system was shut down at 2026-11-24 17:38:22 UTC',
      '2026-11-24 17:57:40.727 UTC [42] LOG:  WAL file is from different database system',
      '2026-11-24 17:57:40.727 UTC [42] LOG:  invalid checkpoint record',
      '2026-11-24 17:57:40.727 UTC [42] PANIC:  could not locate a valid checkpoint record at 0/26A9EB0',
      '2026-11-24 17:57:40.728 UTC [42] DETAIL:  more about it',
      '2026-11-24 17:57:40.728 UTC [42] HINT:  It looks like you need to initdb.',
    ];
    assert.deepEqual(databaseReasons(log), ['WAL file is from different database system', 'invalid checkpoint record', 'PANIC: could not locate a valid checkpoint record at 0/26A9EB0', 'more about it']);
    assert.deepEqual(databaseReasons(log.slice(0, 3)), []);
  });

  test('a directory that cannot be opened is named with the database\'s reason, not "Aborted()"', async () => {
    const dataDir = join(scratch, 'damaged');
    const made = await runInProcess(['list', '--data', dataDir]);
    assert.equal(made.code, 0, made.stderr);
    // A control file that is not one (a disk fault, a copy cut short).
    const control = join(dataDir, 'global', 'pg_control');
    const bytes = readFileSync(control);
    bytes.fill(0xff, 8, 24);
    writeFileSync(control, bytes);
    const started = await launch(serverArgs(dataDir));
    assert.equal(started.url, undefined);
    assert.notEqual((await started.exited).code, 0);
    assert.match(started.stderr(), /cannot start: the embedded database in \S+damaged cannot be opened: FATAL: database files are incompatible with server; The database cluster was initialized with PG_CONTROL_VERSION/);
    assert.match(started.stderr(), /start with another --data directory or restore this one from a backup/);
    assert.doesNotMatch(started.stderr(), /Aborted|failed to initialize/);
    assert.equal(existsSync(join(dataDir, LOCK_FILE)), false, 'a start that failed leaves no lock');
  });
});

describe('Ctrl+C on npm start', { skip: onPostgres && 'the embedded database is what is left open' }, () => {
  test('SIGINT to the whole process group closes the database once and leaves nothing behind', { timeout: 600_000 }, async () => {
    const dataDir = join(scratch, 'interrupted');
    // scripts/start.mjs is what `npm start` runs; in its own process group, as a terminal's foreground job.
    const started = await launch(['scripts/start.mjs', '--port', '0', '--data', dataDir, '--fixture', 'none'], { detached: true });
    assert.ok(started.url, started.stderr());
    assert.equal((await request(started.url!, 'GET', '/healthz')).status, 200);
    assert.ok(existsSync(join(dataDir, 'postmaster.pid')), 'the database is open');
    // What a terminal does on Ctrl+C: every process of the foreground group gets SIGINT (start.mjs passes it on too).
    process.kill(-started.child.pid!, 'SIGINT');
    const { code } = await started.exited;
    assert.equal(code, 0, started.stderr());
    assert.equal(existsSync(join(dataDir, 'postmaster.pid')), false, 'the database was closed');
    assert.equal(existsSync(join(dataDir, LOCK_FILE)), false, 'the lock was released');
    // And it opens again, without --force.
    const list = await runInProcess(['list', '--data', dataDir]);
    assert.equal(list.code, 0, list.stderr);
  });
});

describe('the admin token', () => {
  test('--admin-token, as the contract names it, opens the admin API, with a warning that the process list shows it', async () => {
    assert.equal(serverOptions({ 'admin-token': 'a-token-that-shows-in-ps' }, {}).adminToken, 'a-token-that-shows-in-ps');
    assert.throws(() => serverOptions({ 'admin-token': 'a-token-that-shows-in-ps', 'admin-token-file': 'x' }, {}), UsageError);
    const started = await launch(['--import', 'tsx', 'server/cli.ts', 'start', '--port', '0', '--data', 'memory', '--fixture', 'none', '--admin-token', 'a-token-that-shows-in-ps']);
    try {
      assert.ok(started.url, started.stderr());
      const listed = await fetch(`${started.url}/api/v1/admin/organisations`, { headers: { authorization: 'Bearer a-token-that-shows-in-ps' } });
      assert.equal(listed.status, 200);
      const wrong = await fetch(`${started.url}/api/v1/admin/organisations`, { headers: { authorization: 'Bearer another-token-entirely' } });
      assert.equal(wrong.status, 401);
      assert.match(started.stderr(), /--admin-token shows the token to anyone who can list processes/);
      assert.doesNotMatch(started.stderr(), /a-token-that-shows-in-ps/);
    } finally {
      started.child.kill('SIGTERM');
      await started.exited;
    }
  });

  test('the token is read from --admin-token-file or ASSIST_ADMIN_TOKEN', () => {
    const file = join(scratch, 'admin-token');
    writeFileSync(file, 'token-from-a-file-0123456789\n');
    assert.equal(serverOptions({ 'admin-token-file': file }, {}).adminToken, 'token-from-a-file-0123456789');
    assert.equal(serverOptions({}, { ASSIST_ADMIN_TOKEN_FILE: file }).adminToken, 'token-from-a-file-0123456789');
    assert.equal(serverOptions({}, { ASSIST_ADMIN_TOKEN: 'token-from-the-environment' }).adminToken, 'token-from-the-environment');
    assert.throws(() => serverOptions({ 'admin-token-file': join(scratch, 'missing') }, {}), /cannot read/);
    writeFileSync(file, 'short');
    assert.throws(() => serverOptions({ 'admin-token-file': file }, {}), /16 to 512 printable characters/);
  });
});

describe('the demo', () => {
  test('its first start makes a one-time admin token and no key that can write; a restart makes none', { timeout: 300_000 }, async () => {
    const database = onPostgres ? await freshPostgresDatabase() : undefined;
    const dataDir = join(scratch, 'demo');
    const options = { port: 0, host: '127.0.0.1', dataDir, databaseUrl: database?.url, fixture: DEFAULT_FIXTURE(), rateLimit: 0 };
    const lines: string[] = [];
    let running = await startServer(options, (line) => lines.push(line));
    try {
      const printed = lines.join('\n');
      const token = /\b(adm_[A-Za-z0-9_-]+)/.exec(printed)?.[1];
      assert.ok(token, printed);
      assert.match(printed, /docs\/server\.md/);
      const stored = await running.db.query<{ token_hash: string }>('SELECT token_hash FROM admin_tokens');
      assert.deepEqual(stored.map((row) => row.token_hash), [hashSecret(token)], 'only the hash is stored');
      const organisations = await request(running.url, 'GET', '/api/v1/admin/organisations', { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(organisations.status, 200);
      const keys = organisations.json.organisations.flatMap((organisation: { apiKeys: { permissions: string[]; revokedAt: string | null }[] }) =>
        organisation.apiKeys.filter((key) => key.revokedAt === null),
      );
      assert.deepEqual(keys, [], 'the demo has no API key');
      const write = await request(running.url, 'POST', '/api/v1/demo/sources/docs/pages', {
        token: 'ak_demo_local_only',
        body: { url: 'http://localhost:8787/demo/docs/evil', title: 'Evil', content: 'x' },
      });
      assert.equal(write.status, 401);
      // Setting up one's own organisation needs no restart.
      const created = await request(running.url, 'POST', '/api/v1/admin/organisations', {
        headers: { Authorization: `Bearer ${token}` },
        body: { id: 'mine', name: 'Mine' },
      });
      assert.equal(created.status, 201, created.text);
      await running.close();
      lines.length = 0;
      running = await startServer(options, (line) => lines.push(line));
      assert.doesNotMatch(lines.join('\n'), /adm_/, 'the token is shown once');
      assert.equal((await request(running.url, 'GET', '/api/v1/admin/organisations', { headers: { Authorization: `Bearer ${token}` } })).status, 200);
    } finally {
      await running.close();
      await database?.drop();
    }
  });
});
