/** Flags of the server's command line, each also readable from an environment variable. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FIELD_LIMITS } from './schema/limits.js';

export interface ServerOptions {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  fixture?: string;
  /** Bearer token of the admin API, from a file or the environment (never the command line). */
  adminToken?: string;
  /** Chat and summarize requests per minute per widget and client address; 0 is off. */
  rateLimit: number;
  /** Search, events, proxy, connection, stream and timeout limits; what is not given takes its default. */
  limits?: Partial<ServerLimits>;
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
 * How a flag's text becomes a value: `text` as is, `integer` a number when it looks like one
 * (otherwise the text, so the operation's own check names the field), `list` split at commas,
 * `json` parsed, `switch` true when present.
 */
export type FlagKind = 'text' | 'integer' | 'list' | 'json' | 'switch';

export interface FlagSpec {
  /** Without the leading `--`. */
  name: string;
  kind: FlagKind;
  /** Placeholder shown in the usage, e.g. `ID`. */
  value?: string;
  required?: boolean;
  help: string;
}

export const flag = (name: string, kind: FlagKind, value: string | undefined, help: string, required = false): FlagSpec => ({
  name,
  kind,
  value,
  help,
  required,
});

export const DATABASE_FLAGS: FlagSpec[] = [
  flag('data', 'text', 'DIR', 'directory of the embedded database (ASSIST_DATA; default ./.assist-data)'),
  flag('database-url', 'text', 'URL', 'a PostgreSQL URL, used instead of the embedded database (DATABASE_URL)'),
  flag('force', 'switch', undefined, 'open the embedded database even though another process holds it'),
];

export const START_FLAGS: FlagSpec[] = [
  flag('port', 'text', 'N', 'port; 0 picks a free one and prints it (PORT; default 8787)'),
  flag('host', 'text', 'HOST', 'interface (HOST; default 127.0.0.1)'),
  DATABASE_FLAGS[0]!,
  DATABASE_FLAGS[1]!,
  flag('fixture', 'text', 'FILE', 'fixture applied at start, idempotently; `none` for none (ASSIST_FIXTURE; default the demo fixture)'),
  flag(
    'admin-token',
    'text',
    'TOKEN',
    'bearer token of the admin API (ASSIST_ADMIN_TOKEN; default none: the demo makes one on its first start, otherwise the admin API is off); ' +
      'the process list shows it, so prefer ASSIST_ADMIN_TOKEN or --admin-token-file',
  ),
  flag('admin-token-file', 'text', 'FILE', 'a file holding the bearer token of the admin API, instead of --admin-token (ASSIST_ADMIN_TOKEN_FILE)'),
  flag('rate-limit', 'text', 'N', 'chat and summarize requests per minute per widget and client address; 0 is off (ASSIST_RATE_LIMIT; default 30)'),
  flag('search-rate-limit', 'text', 'N', 'search requests per minute per widget and client address; 0 is off (ASSIST_SEARCH_RATE_LIMIT; default 120)'),
  flag('events-rate-limit', 'text', 'N', 'events requests per minute per widget and client address; 0 is off (ASSIST_EVENTS_RATE_LIMIT; default 120)'),
  flag(
    'events-per-day',
    'text',
    'N',
    'analytics events an organisation may store per day (UTC), for each organisation the admin API or the fixture creates without its own ' +
      '`eventsPerDay` (ASSIST_EVENTS_PER_DAY; default 100000)',
  ),
  flag('trust-proxy', 'text', 'N', 'how many proxies in front append to X-Forwarded-For; the client address is taken from it (ASSIST_TRUST_PROXY; default 0: the socket\'s)'),
  flag('max-connections', 'text', 'N', 'open connections at once; 0 is no limit (ASSIST_MAX_CONNECTIONS; default 1000)'),
  flag('max-streams', 'text', 'N', 'chat and summarize answers in progress at once; 0 is no limit (ASSIST_MAX_STREAMS; default 1000)'),
  flag('max-streams-per-client', 'text', 'N', 'answers in progress at once per client address; 0 is no limit (ASSIST_MAX_STREAMS_PER_CLIENT; default 8)'),
  flag('idle-timeout', 'text', 'SECONDS', 'close a connection that sends and receives nothing this long (ASSIST_IDLE_TIMEOUT; default 30)'),
];

/**
 * Splits `--name value`, `--name=value` and bare words (`util.parseArgs`, told which of the
 * `known` flags take a value); a flag without a value is `true`, and so is one not known.
 * A flag given twice counts once, with its last value; `repeated` keeps every value of each
 * flag in order, for flags that may be repeated (`--exclude a --exclude b`).
 */
export function parseFlags(
  argv: string[],
  known: readonly FlagSpec[] = START_FLAGS,
): { words: string[]; flags: Record<string, string | true>; repeated: Record<string, string[]> } {
  const { tokens } = parseArgs({
    args: argv,
    // Unknown flags are the command's to refuse (or to pass on, for start), with its own message.
    strict: false,
    allowPositionals: true,
    tokens: true,
    options: Object.fromEntries(
      known.map((spec) => [spec.name, { type: spec.kind === 'switch' ? ('boolean' as const) : ('string' as const), multiple: true }]),
    ),
  });
  const words: string[] = [];
  const flags: Record<string, string | true> = {};
  const repeated: Record<string, string[]> = {};
  for (const token of tokens) {
    if (token.kind === 'positional') words.push(token.value);
    if (token.kind !== 'option') continue;
    // `--credits --org acme`: a flag is never another's value, so --credits has none (and says so).
    if (token.inlineValue === false && token.value!.startsWith('--')) {
      flags[token.name] = true;
      const rest = parseFlags(argv.slice(token.index + 1), known);
      words.push(...rest.words);
      Object.assign(flags, rest.flags);
      for (const [name, values] of Object.entries(rest.repeated)) (repeated[name] ??= []).push(...values);
      break;
    }
    const value = token.value ?? true;
    flags[token.name] = value;
    if (typeof value === 'string') (repeated[token.name] ??= []).push(value);
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

export interface ServerLimits {
  /** Search requests per minute per widget and client address; 0 is off. */
  searchRateLimit: number;
  /** Events requests per minute per widget and client address; 0 is off. */
  eventsRateLimit: number;
  /** Analytics events per day (UTC) an organisation gets when it is created (admin API, fixture) without its own `eventsPerDay`. */
  eventsPerDay: number;
  /** How many proxies in front of the server append to `X-Forwarded-For`; 0 trusts none. */
  trustProxy: number;
  /** Open connections the server holds at once; more are closed as they arrive. 0 is no limit. */
  maxConnections: number;
  /** Answers (chat and summarize, streamed or not) in progress at once, overall and per client address; 0 is no limit. */
  maxStreams: number;
  maxStreamsPerClient: number;
  /** A connection that sends and receives nothing for this long is closed. */
  idleTimeoutMs: number;
  /** The request headers must have arrived this long after the connection or the previous request. */
  headersTimeoutMs: number;
  /** The whole request (headers and body) must have arrived within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

/** Defaults of the limits; docs/server.md ("Limits and timeouts") lists the same numbers. */
export const LIMIT_DEFAULTS: ServerLimits = {
  searchRateLimit: 120,
  eventsRateLimit: 120,
  eventsPerDay: FIELD_LIMITS.eventsPerDayDefault,
  trustProxy: 0,
  maxConnections: 1000,
  maxStreams: 1000,
  maxStreamsPerClient: 8,
  idleTimeoutMs: 30_000,
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
};

/** Chat and summarize requests per minute per widget and client address, unless --rate-limit says otherwise. */
export const DEFAULT_RATE_LIMIT = 30;

/**
 * The admin token: `--admin-token` or ASSIST_ADMIN_TOKEN, as the contract names them, or
 * read from the file `--admin-token-file` names, which must hold 16 to 512 printable characters.
 */
function adminTokenOption(flags: Record<string, string | true>, env: NodeJS.ProcessEnv): string | undefined {
  const file = stringFlag(flags, 'admin-token-file', env.ASSIST_ADMIN_TOKEN_FILE);
  const given = stringFlag(flags, 'admin-token', env.ASSIST_ADMIN_TOKEN);
  if (file !== undefined && flags['admin-token'] !== undefined) throw new UsageError('give --admin-token or --admin-token-file, not both.');
  if (file === undefined) return given?.trim() || undefined;
  let token: string;
  try {
    token = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new UsageError(`--admin-token-file: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  if (!/^[\x21-\x7e]{16,512}$/.test(token)) {
    throw new UsageError(`--admin-token-file: ${file} must hold one token of 16 to 512 printable characters (no spaces).`);
  }
  return token;
}

/** What start prints when the admin token came on the command line, where `ps` shows it. */
export function adminTokenWarning(flags: Record<string, string | true>): string | undefined {
  if (typeof flags['admin-token'] !== 'string') return undefined;
  return 'assist-server: --admin-token shows the token to anyone who can list processes; ASSIST_ADMIN_TOKEN or --admin-token-file FILE keeps it out of sight.';
}

export function serverOptions(flags: Record<string, string | true>, env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const fixture = stringFlag(flags, 'fixture', env.ASSIST_FIXTURE);
  return {
    port: integerFlag(flags, 'port', env.PORT, 8787, 65535),
    host: stringFlag(flags, 'host', env.HOST) ?? '127.0.0.1',
    dataDir: resolveData(stringFlag(flags, 'data', env.ASSIST_DATA) ?? './.assist-data'),
    databaseUrl: stringFlag(flags, 'database-url', env.DATABASE_URL),
    fixture: fixture === 'none' ? undefined : (fixture ?? DEFAULT_FIXTURE()),
    adminToken: adminTokenOption(flags, env),
    rateLimit: integerFlag(flags, 'rate-limit', env.ASSIST_RATE_LIMIT, DEFAULT_RATE_LIMIT, 1_000_000),
    limits: {
      searchRateLimit: integerFlag(flags, 'search-rate-limit', env.ASSIST_SEARCH_RATE_LIMIT, LIMIT_DEFAULTS.searchRateLimit, 1_000_000),
      eventsRateLimit: integerFlag(flags, 'events-rate-limit', env.ASSIST_EVENTS_RATE_LIMIT, LIMIT_DEFAULTS.eventsRateLimit, 1_000_000),
      eventsPerDay: integerFlag(flags, 'events-per-day', env.ASSIST_EVENTS_PER_DAY, LIMIT_DEFAULTS.eventsPerDay, FIELD_LIMITS.count),
      trustProxy: integerFlag(flags, 'trust-proxy', env.ASSIST_TRUST_PROXY, LIMIT_DEFAULTS.trustProxy, 10),
      maxConnections: integerFlag(flags, 'max-connections', env.ASSIST_MAX_CONNECTIONS, LIMIT_DEFAULTS.maxConnections, 1_000_000),
      maxStreams: integerFlag(flags, 'max-streams', env.ASSIST_MAX_STREAMS, LIMIT_DEFAULTS.maxStreams, 1_000_000),
      maxStreamsPerClient: integerFlag(flags, 'max-streams-per-client', env.ASSIST_MAX_STREAMS_PER_CLIENT, LIMIT_DEFAULTS.maxStreamsPerClient, 1_000_000),
      idleTimeoutMs: 1000 * integerFlag(flags, 'idle-timeout', env.ASSIST_IDLE_TIMEOUT, LIMIT_DEFAULTS.idleTimeoutMs / 1000, 3600),
    },
  };
}

function resolveData(value: string): string {
  return value === 'memory' ? value : resolve(value);
}
