/**
 * One SQL dialect, two connections: PGlite (embedded, a directory or memory) by default,
 * PostgreSQL through `pg` when a database URL is given. Everything above this file speaks
 * plain PostgreSQL SQL with `$1` parameters and never knows which one it has.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Pool } from 'pg';
import { preparedQueries } from './pglite-statements.js';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction; it commits when `work` resolves and rolls back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The open transaction `tx` seen as a Db: its `transaction` joins `tx` instead of opening
 * another, so code written against a Db (e.g. page writes) can run inside a larger unit.
 */
/** Whether the database answers a trivial query (for the health check). */
export async function databaseAnswers(db: Queryable): Promise<boolean> {
  try {
    await db.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

export function joinTransaction(db: Db, tx: Queryable): Db {
  return {
    kind: db.kind,
    query: (sql, params) => tx.query(sql, params),
    exec: (sql) => tx.exec(sql),
    transaction: (work) => work(tx),
    close: () => Promise.reject(new Error('A joined transaction is closed by its owner.')),
  };
}

export interface DbOptions {
  /** A PostgreSQL URL; when set, the embedded database is not used. */
  databaseUrl?: string;
  /** Directory of the embedded database, or `memory`. */
  dataDir?: string;
}

/**
 * For a process that serves for long (the server, and benchmarks that measure it): PGlite's
 * WebAssembly is compiled by V8's optimising compiler before the first query, instead of
 * by its baseline compiler and then re-optimised piece by piece while in use. The first
 * open takes about two seconds longer; searches never run the slower baseline code, nor
 * wait for a core while the optimiser works. Takes effect only before PGlite is first
 * loaded in the process. Tests, which open and close databases, are quicker without it.
 */
export function optimiseEmbeddedDatabase(): void {
  setFlagsFromString('--no-liftoff');
}

export async function openDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir ?? './.assist-data');
}

/** An embedded database directory that PGlite cannot open, with the database's reasons. */
export class EmbeddedDatabaseUnreadable extends Error {
  constructor(
    readonly dataDir: string,
    readonly reasons: string[],
    cause: string,
  ) {
    super(
      `the embedded database in ${resolve(dataDir)} cannot be opened: ${reasons.length ? reasons.join('; ').replace(/\.$/, '') : cause}. ` +
        'The directory is damaged (for example, written by two servers at once, or removed under a running server) or is not ' +
        'a database of this version. Keep the directory as it is, and start with another --data directory or restore ' +
        'this one from a backup.',
    );
  }
}

/**
 * The lines of a PostgreSQL log that say why it stopped, without their timestamps: up to two
 * lines before the PANIC or FATAL one, that line, and its DETAIL.
 */
export function databaseReasons(log: string[]): string[] {
  const entries = log
    .map((line) => /\b(LOG|WARNING|ERROR|FATAL|PANIC|DETAIL):\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, level, text]) => ({ level, text }));
  let fatal = entries.length - 1;
  while (fatal >= 0 && entries[fatal].level !== 'PANIC' && entries[fatal].level !== 'FATAL') fatal--;
  if (fatal < 0) return [];
  const detail = entries[fatal + 1]?.level === 'DETAIL' ? [entries[fatal + 1]] : [];
  return [...entries.slice(Math.max(0, fatal - 2), fatal).filter(({ level }) => level !== 'DETAIL'), entries[fatal], ...detail].map(({ level, text }) =>
    level === 'LOG' || level === 'DETAIL' ? text : `${level}: ${text}`,
  );
}

async function openPglite(dataDir: string): Promise<Db> {
  const lib = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { fuzzystrmatch } = await import('@electric-sql/pglite/contrib/fuzzystrmatch');
  const inMemory = dataDir === 'memory';
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  // The database's own log is quiet unless asked for; its last lines say why an open failed.
  const logTail: string[] = [];
  const onStderr = (line: string) => {
    logTail.push(line);
    if (logTail.length > 20) logTail.shift();
    return false;
  };
  let pglite: InstanceType<typeof lib.PGlite>;
  try {
    pglite = await lib.PGlite.create(inMemory ? undefined : dataDir, { extensions: { pg_trgm, fuzzystrmatch }, onStderr });
  } catch (error) {
    if (inMemory) throw error;
    const reasons = databaseReasons(logTail);
    throw new EmbeddedDatabaseUnreadable(dataDir, reasons, `the database stopped without saying why (${(error as Error).message.replace(/\s*Build with -sASSERTIONS.*$/, '')})`);
  }
  const query = preparedQueries(pglite, lib);
  return {
    kind: 'pglite',
    query: (sql, params) => query(sql, params),
    exec: async (sql) => void (await pglite.exec(sql)),
    transaction: (work) =>
      pglite.transaction((tx) => work({ query: (sql, params) => query(sql, params, tx), exec: async (sql) => void (await tx.exec(sql)) })),
    close: () => pglite.close(),
  };
}

async function openPostgres(databaseUrl: string): Promise<Db> {
  const { default: pg } = await import('pg');
  // Return bigint counts and timestamps as strings/ISO, the same as PGlite hands them back.
  pg.types.setTypeParser(20, (value: string) => Number(value));
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle client's connection error must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  const run = async <T>(target: { query: Pool['query'] }, sql: string, params?: unknown[]) =>
    (await target.query(sql, params as unknown[] | undefined)).rows as T[];
  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    exec: async (sql) => void (await pool.query(sql)),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({
          query: (sql, params) => run(client as unknown as Pool, sql, params),
          exec: async (sql) => void (await client.query(sql)),
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
