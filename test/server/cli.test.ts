/**
 * The command line as an operator uses it: the real `assist-server` in a child process on a
 * temporary embedded database (or a fresh PostgreSQL database when the suite runs there),
 * then the real server on the same data, proving that what the CLI printed works.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS, main } from '../../server/cli.js';
import { jsonOf, runInProcess, type CliResult } from './cli-run.js';
import { freshPostgresDatabase, onPostgres, startTestServer, type TestServer } from './harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'server', 'cli.ts');

/** Runs `assist-server ARGS` as a child process, as `node --import tsx server/cli.ts` in the project root. */
function runCli(args: string[]): Promise<CliResult> {
  const env = { ...process.env };
  // Only the flags the test passes decide which database the command opens.
  delete env.DATABASE_URL;
  delete env.ASSIST_DATA;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr, json: jsonOf(stdout) });
    });
  });
}

let scratch: string;
let database: { url: string; drop(): Promise<void> } | undefined;
let databaseFlags: string[];

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'assist-cli-'));
  if (onPostgres) {
    database = await freshPostgresDatabase();
    databaseFlags = ['--database-url', database.url];
  } else {
    databaseFlags = ['--data', join(scratch, 'data')];
  }
});

after(async () => {
  await database?.drop();
  rmSync(scratch, { recursive: true, force: true });
});

type Runner = (...args: string[]) => Promise<CliResult>;

/** A command against the test's database, in a child process. */
const cli: Runner = (...args) => runCli([...args, ...databaseFlags]);

/**
 * The same through `main` in this process: the same code path minus the process start,
 * for the checks beyond the operator's main path (each child process costs seconds).
 */
const inProcess: Runner = (...args) => runInProcess([...args, ...databaseFlags]);

/** A command that must succeed; returns its JSON output. */
async function succeed(args: string[], run: Runner = cli): Promise<any> {
  const result = await run(...args);
  assert.equal(result.code, 0, `assist-server ${args.join(' ')} failed: ${result.stderr}`);
  assert.ok(result.json && typeof result.json === 'object', `stdout is one JSON object: ${result.stdout}`);
  return result.json;
}

/** A command that must be refused with exit code 2 and a message matching `message`. */
async function refuse(args: string[], message: RegExp, run: Runner = cli): Promise<CliResult> {
  const result = await run(...args);
  assert.equal(result.code, 2, `assist-server ${args.join(' ')} should exit 2; stderr: ${result.stderr}`);
  assert.match(result.stderr, message);
  assert.equal(result.stdout, '', 'nothing on stdout when refused');
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return result;
}

/** Runs the real server on the data the CLI wrote (after the CLI has exited), then stops it. */
async function withServer(work: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startTestServer(onPostgres ? { databaseUrl: database!.url } : { dataDir: join(scratch, 'data') });
  try {
    await work(server);
  } finally {
    await server.stop();
  }
}

const CONFIG = '/api/v1/acme/widgets/help/config';

/** What the first test created and printed; later tests use it. */
const created = { widgetSecret: '', signingSecret: '', apiKey: '', apiKeyId: '', previewToken: '' };

test('org, source, widget, key and preview token made by the CLI work on the server', async () => {
  assert.deepEqual(await succeed(['org', 'create', '--id', 'acme', '--name', 'Acme', '--credits', '100', '--plan', 'pro']), {
    id: 'acme',
    name: 'Acme',
    plan: 'pro',
    credits: 100,
    eventsPerDay: 100000,
  });
  assert.deepEqual(await succeed(['source', 'create', '--org', 'acme', '--id', 'docs', '--name', 'Docs']), { id: 'docs', name: 'Docs' });
  await succeed(['source', 'create', '--org', 'acme', '--id', 'blog'], inProcess);

  const widgetRun = await cli(
    'widget', 'create', '--org', 'acme', '--id', 'help', '--type', 'chatbot', '--name', 'Help', '--sources', 'docs,blog',
    '--websites', 'example.com,*.example.com', '--config', '{"greeting":"Hi"}',
  );
  assert.equal(widgetRun.code, 0, widgetRun.stderr);
  const widget = widgetRun.json;
  assert.equal(widget.key, 'acme/help');
  assert.equal(widget.type, 'chatbot');
  assert.deepEqual(widget.sources, ['docs', 'blog']);
  assert.deepEqual(widget.websites, ['example.com', '*.example.com']);
  assert.deepEqual(widget.config, { greeting: 'Hi' });
  assert.match(widget.secret, /^ws_/);
  assert.match(widget.signingSecret, /^sig_/);
  assert.ok(!widgetRun.stderr.includes(widget.secret) && !widgetRun.stderr.includes(widget.signingSecret), 'secrets only on stdout');
  created.widgetSecret = widget.secret;
  created.signingSecret = widget.signingSecret;

  const keyRun = await cli('key', 'create', '--org', 'acme', '--name', 'ci', '--permissions', 'pages.read,pages.write', '--sources', 'docs');
  assert.equal(keyRun.code, 0, keyRun.stderr);
  assert.match(keyRun.json.key, /^ak_/);
  assert.match(keyRun.json.id, /^key_/);
  assert.deepEqual(keyRun.json.permissions, ['pages.read', 'pages.write']);
  assert.deepEqual(keyRun.json.sources, ['docs']);
  assert.ok(!keyRun.stderr.includes(keyRun.json.key));
  created.apiKey = keyRun.json.key;
  created.apiKeyId = keyRun.json.id;

  const preview = await succeed(['preview-token', '--org', 'acme', '--widget', 'help'], inProcess);
  assert.match(preview.token, /^pt_/);
  assert.ok(Date.parse(preview.expiresAt) > Date.now() + 50 * 60 * 1000);
  created.previewToken = preview.token;

  await withServer(async (server) => {
    const me = await server.request('GET', '/api/v1/me', { token: created.apiKey });
    assert.equal(me.status, 200, me.text);
    assert.deepEqual(me.json.organisation, { id: 'acme', name: 'Acme' });
    assert.deepEqual(me.json.key, { id: created.apiKeyId, name: 'ci', permissions: ['pages.read', 'pages.write'], sources: ['docs'] });
    assert.deepEqual(me.json.sources, [{ id: 'docs', name: 'Docs', pages: 0 }]);

    const page = await server.request('POST', '/api/v1/acme/sources/docs/pages', {
      token: created.apiKey,
      body: { url: 'https://example.com/start', title: 'Start', content: '# Start' },
    });
    assert.equal(page.status, 201, page.text);
    const outside = await server.request('GET', '/api/v1/acme/sources/blog/pages', { token: created.apiKey });
    assert.equal(outside.json?.error?.code, 'source_forbidden');

    const bySecret = await server.request('GET', CONFIG, { token: created.widgetSecret });
    assert.equal(bySecret.status, 200, bySecret.text);
    assert.equal(bySecret.json.type, 'chatbot');
    assert.equal(bySecret.json.name, 'Help');
    assert.equal(bySecret.json.greeting, 'Hi');
    assert.equal((await server.request('GET', CONFIG, { token: created.previewToken })).status, 200);
    assert.equal((await server.request('GET', CONFIG, { origin: 'https://www.example.com' })).status, 200);
    assert.equal((await server.request('GET', CONFIG, { origin: 'https://example.com.evil.test' })).json?.error?.code, 'origin_not_allowed');

    if (!onPostgres) {
      // The server holds the embedded database: a second process must not open it.
      await refuse(['list'], /stop the server.*admin API/s);
    }
  });
});

test('credits set and org update show in list, which holds no secret', async () => {
  assert.equal((await succeed(['credits', 'set', '--org', 'acme', '--credits', '50'])).credits, 50);
  const updated = await succeed(['org', 'update', '--org', 'acme', '--plan', 'free', '--name', 'Acme Inc'], inProcess);
  assert.deepEqual(updated, { id: 'acme', name: 'Acme Inc', plan: 'free', credits: 50, eventsPerDay: 100000 });

  const listRun = await cli('list');
  assert.equal(listRun.code, 0, listRun.stderr);
  const [organisation] = listRun.json.organisations;
  assert.equal(organisation.id, 'acme');
  assert.equal(organisation.credits, 50);
  assert.equal(organisation.plan, 'free');
  assert.deepEqual(
    organisation.sources.map((source: { id: string; pages: number }) => [source.id, source.pages]),
    [['blog', 0], ['docs', 1]],
  );
  assert.deepEqual(organisation.widgets.map((widget: { id: string }) => widget.id), ['help']);
  assert.deepEqual(organisation.apiKeys.map((key: { id: string; revokedAt: unknown }) => [key.id, key.revokedAt]), [[created.apiKeyId, null]]);
  for (const secret of Object.values(created)) {
    if (secret !== created.apiKeyId) assert.ok(!listRun.stdout.includes(secret), 'list prints no secret');
  }

  const one = await succeed(['list', '--org', 'acme'], inProcess);
  assert.deepEqual(one.organisations.map((entry: { id: string }) => entry.id), ['acme']);
  await refuse(['list', '--org', 'nobody'], /No such organisation/, inProcess);
});

test('key revoke makes the key 401; rotate-secret retires the old secret; widget update applies', async () => {
  assert.deepEqual(await succeed(['key', 'revoke', '--org', 'acme', '--id', created.apiKeyId]), { id: created.apiKeyId, revoked: true });
  const rotated = await succeed(['widget', 'rotate-secret', '--org', 'acme', '--id', 'help']);
  assert.match(rotated.secret, /^ws_/);
  assert.notEqual(rotated.secret, created.widgetSecret);
  const signing = await succeed(['widget', 'rotate-signing-secret', '--org', 'acme', '--id', 'help'], inProcess);
  assert.match(signing.signingSecret, /^sig_/);
  assert.notEqual(signing.signingSecret, created.signingSecret);
  const widget = await succeed(
    ['widget', 'update', '--org', 'acme', '--id', 'help', '--websites', 'docs.example.org', '--config', '{"greeting":"Hello"}'],
    inProcess,
  );
  assert.deepEqual(widget.websites, ['docs.example.org']);
  assert.equal(widget.secret, undefined, 'update prints no secret');

  await withServer(async (server) => {
    const revoked = await server.request('GET', '/api/v1/me', { token: created.apiKey });
    assert.equal(revoked.status, 401);
    assert.equal(revoked.json.error.code, 'unauthenticated');
    assert.equal(revoked.headers.get('www-authenticate'), 'Bearer');

    assert.equal((await server.request('GET', CONFIG, { token: created.widgetSecret })).status, 401, 'the old secret is gone');
    const current = await server.request('GET', CONFIG, { token: rotated.secret });
    assert.equal(current.status, 200, current.text);
    assert.equal(current.json.greeting, 'Hello');
    assert.equal((await server.request('GET', CONFIG, { origin: 'https://docs.example.org' })).status, 200);
    assert.equal((await server.request('GET', CONFIG, { origin: 'https://www.example.com' })).status, 403);
  });
});

test('bad input exits 2 with a message naming the field or flag', async () => {
  // Two through a real process; the rest in-process, the same code without the start-up cost.
  await refuse(['widget', 'create', '--org', 'acme', '--id', 'w2', '--type', 'robot', '--sources', 'docs'], /`type`/);
  await refuse(['org', 'create', '--id', 'bad id!'], /`id`/, inProcess);
  await refuse(['credits', 'set', '--org', 'acme', '--credits', 'lots'], /`credits`/);
  await refuse(['key', 'create', '--org', 'acme', '--name', 'x', '--permissions', 'pages.read,fly'], /`permissions`.*fly/, inProcess);
  await refuse(['widget', 'create', '--org', 'acme', '--id', 'w3', '--type', 'search', '--sources', 'nowhere'], /`sources`.*nowhere/, inProcess);
  await refuse(['widget', 'update', '--org', 'acme', '--id', 'help', '--config', '{"colour":"red"}'], /`config.colour`/, inProcess);
  await refuse(['widget', 'update', '--org', 'acme', '--id', 'help', '--config', '{oops'], /--config must be JSON/, inProcess);
  await refuse(['widget', 'create', '--org', 'acme', '--id', 'w4', '--type', 'search'], /--sources is required/);
  await refuse(['credits', 'set', '--org', 'acme', '--credits'], /--credits needs a value/, inProcess);
  await refuse(['org', 'create', '--id', 'acme'], /exists already/, inProcess);
  await refuse(['widget', 'rotate-secret', '--org', 'acme', '--id', 'ghost'], /widget "ghost"/, inProcess);
});

test('unknown commands and flags exit 2; help lists every command and how to reach a running server', async () => {
  await refuse(['frob'], /unknown command "frob"/, (...args) => runCli(args));
  await refuse(['org', 'frob'], /unknown command "org frob".*create, update/, (...args) => runCli(args));
  await refuse(['list', '--bogus'], /no flag --bogus/);
  await refuse(['list', 'extra'], /does not take "extra"/);

  const help = await runCli(['help']);
  assert.equal(help.code, 0, help.stderr);
  for (const command of COMMANDS) assert.ok(help.stdout.includes(`  ${command.name}`), `help lists ${command.name}`);
  for (const flag of ['--data', '--database-url', '--admin-token', '--port', '--fixture', '--rate-limit']) assert.ok(help.stdout.includes(flag));
  assert.match(help.stdout, /stop the\s+server/i);
  assert.match(help.stdout, /\/api\/v1\/admin\//);
});

test('main runs in-process with injected writers', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (text: string) => void out.push(text), stderr: (text: string) => void err.push(text), env: {} };
  assert.equal(await main(['widget', 'create', '--help'], io), 0);
  assert.match(out.join(''), /Usage: assist-server widget create --org ORG --id WIDGET --type chatbot\|search/);
  assert.equal(await main(['help', 'key', 'revoke'], io), 0);
  assert.match(out.join(''), /key revoke --org ORG --id KEY_ID/);
  assert.equal(await main(['key'], io), 2);
  assert.match(err.join(''), /"key" needs a subcommand: create, revoke/);
  assert.equal(await main(['list', '--data', 'memory'], io), 2);
  assert.match(err.join(''), /--data memory/);
});

test('fixture apply is idempotent', async () => {
  const fixturePath = join(scratch, 'fixture.json');
  writeFileSync(
    fixturePath,
    JSON.stringify({
      organisations: [
        {
          id: 'beta', name: 'Beta', credits: 7,
          sources: [{ id: 'kb', name: 'KB', pages: [{ url: 'https://beta.test/a', title: 'A', content: 'Alpha' }] }],
          widgets: [{ id: 'find', type: 'search', sources: ['kb'], websites: ['beta.test'] }],
        },
      ],
    }),
  );
  assert.deepEqual(await succeed(['fixture', 'apply', fixturePath]), { organisations: 1, pagesChanged: 1 });
  assert.deepEqual(await succeed(['fixture', 'apply', fixturePath], inProcess), { organisations: 1, pagesChanged: 0 });
  const [beta] = (await succeed(['list', '--org', 'beta'], inProcess)).organisations;
  assert.equal(beta.credits, 7);
  assert.deepEqual(beta.sources, [{ id: 'kb', name: 'KB', pages: 1 }]);
  await refuse(['fixture', 'apply', join(scratch, 'missing.json')], /Cannot read the fixture file/, inProcess);
  await refuse(['fixture', 'apply'], /needs FILE/, inProcess);
});
