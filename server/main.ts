/**
 * Starts the reference server: opens the database (PGlite or PostgreSQL), applies
 * migrations and the fixture, and listens. The first line on stdout, once connections are
 * accepted, is `listening on http://HOST:PORT`.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp } from './server.js';
import type { AppContext } from './context.js';
import { openDb, optimiseEmbeddedDatabase, type Db } from './store/db.js';
import { applyFixture, readFixtureFile } from './store/fixture.js';
import { migrate } from './store/migrate.js';
import { startConversationPurge } from './store/conversations.js';
import { startReindex } from './store/pages.js';
import { createFirstAdminToken } from './store/admin-tokens.js';
import { closeLockedDatabase, DataDirectoryReplaced, lockDataDirectory } from './store/lock.js';
import { adminTokenWarning, DEFAULT_FIXTURE, LIMIT_DEFAULTS, parseFlags, projectRoot, serverOptions, UsageError, type ServerOptions } from './options.js';

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  context: AppContext;
  close(): Promise<void>;
}

/** How often a server checks that its embedded database's directory is still the one it locked. */
const DATA_DIRECTORY_CHECK_MS = 2000;

/**
 * `onDataDirectoryLost` is called once the embedded database's directory was removed or
 * replaced under the server; by default the server closes, leaving the database unwritten.
 */
export async function startServer(
  options: ServerOptions,
  log: (line: string) => void = (line) => console.error(line),
  onDataDirectoryLost?: () => void,
): Promise<RunningServer> {
  const lock = options.databaseUrl || options.dataDir === 'memory' ? undefined : lockDataDirectory(options.dataDir);
  const limits = { ...LIMIT_DEFAULTS, ...options.limits };
  let db: Db;
  try {
    db = await openDb({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  } catch (error) {
    lock?.release();
    throw error;
  }
  try {
    await migrate(db);
    if (options.fixture) await applyFixture(db, readFixtureFile(options.fixture), limits.eventsPerDay);
    if (!options.adminToken && options.fixture === DEFAULT_FIXTURE()) {
      const token = await createFirstAdminToken(db);
      if (token) log(firstAdminTokenNotice(token));
    }
  } catch (error) {
    await db.close().catch(() => {});
    lock?.release();
    throw error;
  }
  const root = projectRoot();
  const { server, context } = createApp({
    db,
    adminToken: options.adminToken,
    rateLimit: options.rateLimit,
    limits,
    widgetDir: join(root, 'dist', 'widget', 'v1'),
    demoDir: join(root, 'demo'),
    log,
  });
  context.services.conversationPurge = await startConversationPurge(context);
  context.services.reindex = startReindex(context);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  let closing: Promise<void> | undefined;
  // Removed under a running server, a database directory's files are gone, and a new start
  // may have made another database at that path: this server's writes would land in it.
  const watch =
    lock &&
    setInterval(() => {
      if (lock.held()) return;
      clearInterval(watch);
      if (onDataDirectoryLost) onDataDirectoryLost();
      else running.close().catch((error) => log(`assist-server: stopped: ${(error as Error).message}`));
    }, DATA_DIRECTORY_CHECK_MS).unref();
  const running: RunningServer = {
    url: `http://${host}:${port}`,
    port,
    db,
    context,
    close() {
      closing ??= (async () => {
        clearInterval(watch);
        context.services.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        // The batch of pages being indexed again commits (or rolls back) before the database closes.
        await context.services.reindex?.done;
        await closeLockedDatabase(db, lock);
      })();
      return closing;
    },
  };
  return running;
}

export async function runServer(argv: string[]): Promise<void> {
  const { flags } = parseFlags(argv);
  const options = serverOptions(flags);
  const warning = adminTokenWarning(flags);
  if (warning) console.error(warning);
  if (!options.databaseUrl) optimiseEmbeddedDatabase();
  // Ctrl+C on `npm start` delivers SIGINT more than once (the terminal signals every process
  // of the group, and npm and scripts/start.mjs pass it on): the first one closes the
  // database and exits, the others must not interrupt that close. A signal during the start
  // waits for the start to finish, so the database is never left half open.
  let running: RunningServer | undefined;
  let stopping = false;
  const close = (server: RunningServer) =>
    server.close().then(
      () => process.exit(0),
      (error) => {
        const stopped = error instanceof DataDirectoryReplaced ? 'stopped' : 'could not close cleanly';
        console.error(`assist-server: ${stopped}: ${(error as Error)?.message ?? error}`);
        process.exit(1);
      },
    );
  const stop = () => {
    if (stopping) return;
    stopping = true;
    if (running) void close(running);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  running = await startServer(options, undefined, stop);
  if (stopping) {
    await close(running);
    return;
  }
  process.stdout.write(`listening on ${running.url}\n`);
}

/** What the demo's first start prints: the token, once, and where to read how to use it. */
function firstAdminTokenNotice(token: string): string {
  return [
    'assist-server: created an admin token for this database; it is shown only now and stored as a hash:',
    `  ${token}`,
    '  Send it as "Authorization: Bearer <token>" to /api/v1/admin/... to set up your own organisation, widgets and keys',
    '  without a restart: see docs/server.md, "The admin API". To use a token of your own instead, start with',
    '  ASSIST_ADMIN_TOKEN, --admin-token-file FILE or --admin-token TOKEN.',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runServer(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof UsageError ? `assist-server: ${error.message}` : `assist-server: cannot start: ${(error as Error).message}`);
    process.exit(2);
  });
}
