/**
 * One SQL dialect, two connections: PGlite (embedded, a directory or memory) by default,
 * PostgreSQL through `pg` when a database URL is given. Everything above this file speaks
 * plain PostgreSQL SQL with `$1` parameters and never knows which one it has.
 */
import { mkdirSync } from 'node:fs';
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

async function openPglite(dataDir: string): Promise<Db> {
  const lib = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { fuzzystrmatch } = await import('@electric-sql/pglite/contrib/fuzzystrmatch');
  const inMemory = dataDir === 'memory';
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const pglite = await lib.PGlite.create(inMemory ? undefined : dataDir, { extensions: { pg_trgm, fuzzystrmatch } });
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
