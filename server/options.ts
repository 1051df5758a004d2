/** Flags of the server's command line, each also readable from an environment variable. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ServerOptions {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  fixture?: string;
  adminToken?: string;
  rateLimit: number;
}

/** The project root: the nearest folder above this file with a package.json (works from server/ and dist/node/server/). */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the project root (package.json).');
    dir = parent;
  }
  return dir;
}

export const DEFAULT_FIXTURE = () => join(projectRoot(), 'demo', 'fixture.json');

/**
 * Splits `--name value`, `--name=value` and bare words; a flag without a value is `true`.
 * A flag given twice counts once, with its last value; `repeated` keeps every value of each
 * flag in order, for flags that may be repeated (`--exclude a --exclude b`).
 */
export function parseFlags(argv: string[]): { words: string[]; flags: Record<string, string | true>; repeated: Record<string, string[]> } {
  const words: string[] = [];
  const flags: Record<string, string | true> = {};
  const repeated: Record<string, string[]> = {};
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (inline !== undefined) flags[name] = inline;
    else if (index + 1 < argv.length && !argv[index + 1]!.startsWith('--')) flags[name] = argv[++index]!;
    else flags[name] = true;
    if (typeof flags[name] === 'string') (repeated[name] ??= []).push(flags[name] as string);
  }
  return { words, flags, repeated };
}

export class UsageError extends Error {}

function stringFlag(flags: Record<string, string | true>, name: string, env: string | undefined): string | undefined {
  const value = flags[name] ?? env;
  if (value === true) throw new UsageError(`--${name} needs a value.`);
  return value === undefined || value === '' ? undefined : value;
}

function integerFlag(flags: Record<string, string | true>, name: string, env: string | undefined, fallback: number, max: number): number {
  const value = stringFlag(flags, name, env);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max) throw new UsageError(`--${name} must be a whole number from 0 to ${max}.`);
  return Number(value);
}

export function serverOptions(flags: Record<string, string | true>, env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const fixture = stringFlag(flags, 'fixture', env.ASSIST_FIXTURE);
  return {
    port: integerFlag(flags, 'port', env.PORT, 8787, 65535),
    host: stringFlag(flags, 'host', env.HOST) ?? '127.0.0.1',
    dataDir: resolveData(stringFlag(flags, 'data', env.ASSIST_DATA) ?? './.assist-data'),
    databaseUrl: stringFlag(flags, 'database-url', env.DATABASE_URL),
    fixture: fixture === 'none' ? undefined : (fixture ?? DEFAULT_FIXTURE()),
    adminToken: stringFlag(flags, 'admin-token', env.ASSIST_ADMIN_TOKEN),
    rateLimit: integerFlag(flags, 'rate-limit', env.ASSIST_RATE_LIMIT, 30, 1_000_000),
  };
}

function resolveData(value: string): string {
  return value === 'memory' ? value : resolve(value);
}
