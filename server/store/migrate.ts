/**
 * Versioned migrations, applied in order at start. Each file in `migrations/` is named
 * `NNN_name.sql`, a few with a step in TypeScript besides (STEPS); a version once applied is
 * never applied again. An advisory lock keeps two server processes starting on one
 * PostgreSQL from applying the same version twice.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db, Queryable } from './db.js';
import { recountVocabulary } from '../search/indexer.js';

const MIGRATION_LOCK = 74_151_001;

/**
 * What a migration needs done after its SQL that SQL cannot do, in the same transaction:
 * 013 keeps the vocabulary per source, whose words only the indexer can split.
 */
const STEPS: Record<number, (tx: Queryable) => Promise<void>> = {
  13: recountVocabulary,
};

export function migrationsDir(): string {
  // Works from server/store (tsx) and from dist/node/server/store (compiled): both keep the .sql files beside.
  const here = dirname(fileURLToPath(import.meta.url));
  return join(here, 'migrations');
}

export function listMigrations(dir = migrationsDir()): { version: number; name: string; sql: string }[] {
  return readdirSync(dir)
    .filter((file) => /^\d{3}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ version: Number(file.slice(0, 3)), name: file, sql: readFileSync(join(dir, file), 'utf8') }));
}

/** Applies the migrations not applied yet, up to version `last` (every one, by default); resolves to the versions applied. */
export async function migrate(db: Db, last = Infinity): Promise<number[]> {
  const applied: number[] = [];
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version));
    for (const migration of listMigrations()) {
      if (done.has(migration.version) || migration.version > last) continue;
      await tx.exec(migration.sql);
      await STEPS[migration.version]?.(tx);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.version);
    }
  });
  return applied;
}
