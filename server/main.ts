/**
 * Starts the reference server: opens the database (PGlite or PostgreSQL), applies
 * migrations and the fixture, and listens. The first line on stdout, once connections are
 * accepted, is `listening on http://HOST:PORT`.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp, type AppContext } from './app.js';
import { openDb, optimiseEmbeddedDatabase, type Db } from './store/db.js';
import { applyFixture, readFixtureFile } from './store/fixture.js';
import { migrate } from './store/migrate.js';
import { startConversationPurge } from './store/conversations.js';
import { parseFlags, projectRoot, serverOptions, UsageError, type ServerOptions } from './options.js';

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  context: AppContext;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions, log: (line: string) => void = (line) => console.error(line)): Promise<RunningServer> {
  const db = await openDb({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  try {
    await migrate(db);
    if (options.fixture) await applyFixture(db, readFixtureFile(options.fixture));
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  const root = projectRoot();
  const { server, context } = createApp({
    db,
    adminToken: options.adminToken,
    rateLimit: options.rateLimit,
    widgetDir: join(root, 'dist', 'widget', 'v1'),
    demoDir: join(root, 'demo'),
    log,
  });
  await startConversationPurge(context);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    db,
    context,
    close() {
      closing ??= (async () => {
        for (const service of context.services.values()) (service as { close?: () => void }).close?.();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await db.close();
      })();
      return closing;
    },
  };
}

export async function runServer(argv: string[]): Promise<void> {
  const options = serverOptions(parseFlags(argv).flags);
  if (!options.databaseUrl) optimiseEmbeddedDatabase();
  const running = await startServer(options);
  process.stdout.write(`listening on ${running.url}\n`);
  const stop = () => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runServer(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof UsageError ? `assist-server: ${error.message}` : `assist-server: cannot start: ${(error as Error).message}`);
    process.exit(2);
  });
}
