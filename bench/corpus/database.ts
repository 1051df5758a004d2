/**
 * Benchmark databases: PGlite directories under bench/.cache/, built once and reused
 * while nothing that shapes the index has changed (migrations, the indexer, the HTML
 * reduction, the corpus). A search-only change re-runs in seconds.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb, type Db } from '../../server/store/db.js';
import { migrate } from '../../server/store/migrate.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE_DIR = join(ROOT, 'bench', '.cache');

/** Files whose content decides what an index looks like. */
const INDEX_INPUTS = [
  'server/search/sections.ts',
  'server/search/indexer.ts',
  'server/search/language.ts',
  'server/content/html.ts',
  'server/content/markdown.ts',
  'server/content/read.ts',
  'server/store/pages.ts',
  'bench/corpus/manual.ts',
  'bench/corpus/generate.ts',
];

export function indexFingerprint(extra: string): string {
  const hash = createHash('sha256').update(extra);
  const migrations = join(ROOT, 'server', 'store', 'migrations');
  for (const file of readdirSync(migrations).sort()) hash.update(file).update(readFileSync(join(migrations, file)));
  for (const file of INDEX_INPUTS) if (existsSync(join(ROOT, file))) hash.update(file).update(readFileSync(join(ROOT, file)));
  return hash.digest('hex').slice(0, 16);
}

export function cachePath(name: string, fingerprint: string): string {
  return join(CACHE_DIR, `${name}-${fingerprint}`);
}

/**
 * The directory of the cached database `name` when its fingerprint matches, or else one
 * that `build` fills (in a temporary directory, which becomes the cache only once complete).
 */
export async function cachedDatabase(
  name: string,
  fingerprint: string,
  build: (dir: string) => Promise<void>,
  options: { fresh?: boolean; log?: (line: string) => void } = {},
): Promise<{ dir: string; built: boolean }> {
  const dir = cachePath(name, fingerprint);
  if (options.fresh) rmSync(dir, { recursive: true, force: true });
  if (existsSync(dir)) return { dir, built: false };
  mkdirSync(CACHE_DIR, { recursive: true });
  for (const stale of readdirSync(CACHE_DIR).filter((entry) => entry.startsWith(`${name}-`))) {
    rmSync(join(CACHE_DIR, stale), { recursive: true, force: true });
  }
  const building = `${dir}.building`;
  rmSync(building, { recursive: true, force: true });
  await build(building);
  renameSync(building, dir);
  options.log?.(`cached in ${dir}`);
  return { dir, built: true };
}

/** Creates a migrated database in `dir`, lets `fill` load it, and closes it. */
export async function createDatabase(dir: string, fill: (db: Db) => Promise<void>): Promise<void> {
  const db = await openDb({ dataDir: dir });
  try {
    await migrate(db);
    await fill(db);
  } finally {
    await db.close();
  }
}
