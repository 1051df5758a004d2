#!/usr/bin/env node
/**
 * `assist-server`: starts the server, and does the dashboard's jobs from the command line.
 *
 * Every setup command calls the same function (store/organisations.ts, store/widgets.ts,
 * store/api-keys.ts) that the admin API and fixture files use, so all three validate alike
 * and store secrets alike (hashes only).
 * Each prints one JSON object on stdout; errors go to stderr as one human line, exit code 2
 * for input the command refuses and 1 for anything else (an unreachable database, say).
 *
 * New commands go in `COMMANDS`; `databaseCommand` adds the database flags and opens,
 * migrates and closes the database around the command's work.
 *
 * @example
 *   assist-server org create --id acme --name Acme --credits 100 --plan pro
 *   assist-server widget create --org acme --id help --type chatbot --sources docs --websites example.com
 */
import { realpathSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HttpError } from './http/errors.js';
import { ApiKeyCreate, OrganisationCreate, OrganisationUpdate, SourceCreate, WidgetCreate, WidgetUpdate } from './schema/admin-requests.js';
import { parseInput } from './schema/parse.js';
import { ingest, IngestRefused, stderrProgress, summaryLine, type IngestInput } from './ingest/ingest.js';
import { runServer } from './main.js';
import { DATABASE_FLAGS, flag, parseFlags, serverOptions, START_FLAGS, UsageError, type FlagSpec } from './options.js';
import { openDb, type Db } from './store/db.js';
import { applyFixture, readFixtureFile } from './store/fixture.js';
import { migrate } from './store/migrate.js';
import { closeLockedDatabase, DataDirectoryInUse, DataDirectoryReplaced, lockDataDirectory, type DataDirectoryLock } from './store/lock.js';
import { createApiKey, revokeApiKey } from './store/api-keys.js';
import { createOrganisation, createSource, listEverything, updateOrganisation } from './store/organisations.js';
import { createWidget, mintPreviewToken, rotateSigningSecret, rotateWidgetSecret, updateWidget } from './store/widgets.js';

/** Where a command writes; injected so `main` can be tested in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** stderr is a terminal: progress is a bar redrawn in place rather than plain lines. */
  stderrIsTerminal?: boolean;
}

export const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
  stderrIsTerminal: process.stderr.isTTY === true,
};

export interface CommandContext {
  /** The command's flags, converted by kind and keyed by flag name; absent flags are absent. */
  values: Record<string, unknown>;
  /** Every flag as parsed, including ones the command passes on (start). */
  flags: Record<string, string | true>;
  /** Words after the command's name (e.g. the FILE of `fixture apply FILE`). */
  words: string[];
  io: CliIo;
}

export interface Command {
  /** One or two words, e.g. `list` or `widget create`. */
  name: string;
  summary: string;
  flags: FlagSpec[];
  /** Positional arguments, for the usage line and the count check, e.g. `FILE`. */
  arguments?: string[];
  /** Opens the database given by --data / --database-url (the usage says so). */
  usesDatabase?: boolean;
  /** Its output holds a secret that is shown only this once. */
  printsSecret?: boolean;
  /** When false, flags the command does not list are passed on instead of refused (start). */
  strictFlags?: boolean;
  /** The result is printed as JSON on stdout; `undefined` prints nothing. */
  run(context: CommandContext): Promise<unknown>;
}

/** Flags shared by several commands. */
const ORG = (help = 'the organisation') => flag('org', 'text', 'ORG', help, true);
const WIDGET_ID = flag('id', 'text', 'WIDGET', 'the widget', true);
const NAME = (what: string) => flag('name', 'text', 'NAME', `display name of the ${what}`);
const SOURCES_LIST = (help: string, required = false) => flag('sources', 'list', 'S1,S2', help, required);
const WEBSITES = flag('websites', 'list', 'HOST,…', 'website list: hosts like example.com, *.example.com, localhost:8787');
const CONFIG = flag('config', 'json', 'JSON', 'presentation settings of spec 2.4, e.g. \'{"greeting":"Hi"}\'');

/** A command that works on the database: adds the database flags, and opens, migrates and closes it around `work`. */
function databaseCommand(
  spec: Omit<Command, 'run' | 'usesDatabase'>,
  work: (db: Db, values: Record<string, unknown>, context: CommandContext) => Promise<unknown>,
): Command {
  return {
    ...spec,
    usesDatabase: true,
    flags: [...spec.flags, ...DATABASE_FLAGS],
    run: (context) => withDatabase(context, (db) => work(db, context.values, context)),
  };
}

/** The setup fields of `values`, under the names the store's setup functions read. */
const pick = (values: Record<string, unknown>, ...names: string[]): Record<string, unknown> =>
  Object.fromEntries(names.filter((name) => values[name] !== undefined).map((name) => [name, values[name]]));

const text = (values: Record<string, unknown>, name: string) => values[name] as string;

/**
 * Every command. `help` and the usage text are generated from this table; to add one (e.g.
 * `ingest`), add an entry: a plain `Command`, or `databaseCommand(...)` for database work.
 */
export const COMMANDS: Command[] = [
  {
    name: 'start',
    summary: 'Start the server (the default command). The first line on stdout is `listening on http://HOST:PORT`.',
    flags: START_FLAGS,
    strictFlags: false,
    async run({ words, flags }) {
      if (words.length > 0) throw new UsageError(`start takes no arguments, got "${words[0]}".`);
      await runServer(Object.entries(flags).map(([name, value]) => (value === true ? `--${name}` : `--${name}=${value}`)));
      return undefined;
    },
  },
  {
    name: 'help',
    summary: 'Print this text, or the usage of one command (`help widget create`).',
    flags: [],
    arguments: ['[COMMAND...]'],
    async run({ words, io }) {
      if (words.length === 0) io.stdout(usage());
      else io.stdout(commandUsage(findCommand(words).command));
      return undefined;
    },
  },
  databaseCommand(
    {
      name: 'org create',
      summary: 'Create an organisation with its answer credits and plan.',
      flags: [
        flag('id', 'text', 'ORG', 'its id: 1–64 letters, digits, _ or -', true),
        NAME('organisation'),
        flag('credits', 'integer', 'N', 'answer credits (default 0)'),
        flag('plan', 'text', 'free|pro', 'free shows the branding; pro may turn it off (default free)'),
      ],
    },
    (db, values) => createOrganisation(db, parseInput(OrganisationCreate, pick(values, 'id', 'name', 'credits', 'plan'))),
  ),
  databaseCommand(
    {
      name: 'org update',
      summary: "Change an organisation's name or plan; what is not given stays.",
      flags: [ORG(), NAME('organisation'), flag('plan', 'text', 'free|pro', 'the new plan')],
    },
    (db, values) => updateOrganisation(db, text(values, 'org'), parseInput(OrganisationUpdate, pick(values, 'name', 'plan'))),
  ),
  databaseCommand(
    {
      name: 'credits set',
      summary: "Set an organisation's answer credits.",
      flags: [ORG(), flag('credits', 'integer', 'N', 'the new number of credits', true)],
    },
    (db, values) => updateOrganisation(db, text(values, 'org'), parseInput(OrganisationUpdate, pick(values, 'credits'))),
  ),
  databaseCommand(
    {
      name: 'source create',
      summary: 'Create a source (a collection of pages) in an organisation.',
      flags: [ORG(), flag('id', 'text', 'SOURCE', 'its id', true), NAME('source')],
    },
    (db, values) => createSource(db, text(values, 'org'), parseInput(SourceCreate, pick(values, 'id', 'name'))),
  ),
  databaseCommand(
    {
      name: 'widget create',
      summary: 'Create a widget; prints its key, secret and signing secret (the secret only this once).',
      printsSecret: true,
      flags: [
        ORG(),
        flag('id', 'text', 'WIDGET', 'its id', true),
        flag('type', 'text', 'chatbot|search', 'the widget type', true),
        NAME('widget'),
        SOURCES_LIST('the sources it searches and answers from', true),
        WEBSITES,
        CONFIG,
      ],
    },
    (db, values) => createWidget(db, text(values, 'org'), parseInput(WidgetCreate, pick(values, 'id', 'type', 'name', 'sources', 'websites', 'config'))),
  ),
  databaseCommand(
    {
      name: 'widget update',
      summary: "Change a widget's name, sources, website list or config; what is not given stays (a given --config replaces the old one).",
      flags: [ORG(), WIDGET_ID, NAME('widget'), SOURCES_LIST('the sources it uses'), WEBSITES, CONFIG],
    },
    (db, values) => updateWidget(db, text(values, 'org'), text(values, 'id'), parseInput(WidgetUpdate, pick(values, 'name', 'sources', 'websites', 'config'))),
  ),
  databaseCommand(
    {
      name: 'widget rotate-secret',
      summary: "Replace a widget's secret key; the old one stops working at once. Prints the new one only this once.",
      printsSecret: true,
      flags: [ORG(), WIDGET_ID],
    },
    (db, values) => rotateWidgetSecret(db, text(values, 'org'), text(values, 'id')),
  ),
  databaseCommand(
    {
      name: 'widget rotate-signing-secret',
      summary: "Replace a widget's identity signing secret; hashes made with the old one stay valid for 24 hours.",
      printsSecret: true,
      flags: [ORG(), WIDGET_ID],
    },
    (db, values) => rotateSigningSecret(db, text(values, 'org'), text(values, 'id')),
  ),
  databaseCommand(
    {
      name: 'preview-token',
      summary: 'Mint a preview token for one widget, valid for one hour; printed only this once.',
      printsSecret: true,
      flags: [ORG(), flag('widget', 'text', 'WIDGET', 'the widget', true)],
    },
    (db, values) => mintPreviewToken(db, text(values, 'org'), text(values, 'widget')),
  ),
  databaseCommand(
    {
      name: 'key create',
      summary: 'Create an organisation API key; prints the key only this once.',
      printsSecret: true,
      flags: [
        ORG(),
        flag('name', 'text', 'NAME', 'what the key is for', true),
        flag('permissions', 'list', 'P1,P2', 'any of pages.read, pages.write, search, chat, summarize', true),
        SOURCES_LIST('limit the key to these sources (default: every source)'),
      ],
    },
    (db, values) => createApiKey(db, text(values, 'org'), parseInput(ApiKeyCreate, pick(values, 'name', 'permissions', 'sources'))),
  ),
  databaseCommand(
    {
      name: 'key revoke',
      summary: 'Revoke an API key (its id, key_…, is in the output of `key create` and `list`).',
      flags: [ORG(), flag('id', 'text', 'KEY_ID', 'the key id', true)],
    },
    (db, values) => revokeApiKey(db, text(values, 'org'), text(values, 'id')),
  ),
  databaseCommand(
    {
      name: 'list',
      summary: 'List organisations with their credits, sources, widgets and keys (no secrets).',
      flags: [{ ...ORG('only this organisation'), required: false }],
    },
    (db, values) => listEverything(db, values.org as string | undefined),
  ),
  {
    name: 'fixture apply',
    summary: 'Apply a fixture file, as `start --fixture` does: idempotent; credits are set only when an organisation is created.',
    arguments: ['FILE'],
    usesDatabase: true,
    flags: DATABASE_FLAGS,
    async run(context) {
      // Read the file first: a wrong path should not cost a database start.
      let fixture: ReturnType<typeof readFixtureFile>;
      try {
        fixture = readFixtureFile(context.words[0]!);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      return withDatabase(context, (db) => applyFixture(db, fixture));
    },
  },
  {
    name: 'ingest',
    summary:
      'Push a folder of .md/.html files (recursively), or the pages a sitemap lists, into a source through the pages API of a ' +
      'running server. Idempotent by url: creates new pages, updates changed ones, skips unchanged ones.',
    arguments: ['FOLDER|SITEMAP'],
    flags: [
      flag('server', 'text', 'URL', 'the running server (ASSIST_SERVER_URL; default http://localhost:8787)'),
      flag('key', 'text', 'ak_…', 'an API key with pages.read and pages.write on the source (ASSIST_API_KEY; required)'),
      ORG(),
      flag('source', 'text', 'SOURCE', 'the source that receives the pages', true),
      flag(
        'base-url',
        'text',
        'URL',
        'folders only: the url of the folder, e.g. https://example.com/docs/. A page\'s url is this plus the file\'s path; ' +
          '.md is dropped (guide/install.md → BASE/guide/install, guide/index.md → BASE/guide/), .html kept',
      ),
      flag('delete-missing', 'switch', undefined, 'also delete pages that vanished: under --base-url for a folder, on the sitemap\'s hosts for a sitemap'),
      flag('language', 'text', 'TAG', 'language of every page, e.g. de (default: an HTML page\'s lang attribute, else the source\'s default)'),
      flag('concurrency', 'integer', 'N', 'requests in flight at once, 1–32 (default 4)'),
      flag(
        'include',
        'list',
        'GLOB',
        'only files (a folder\'s paths, a sitemap\'s url paths) some glob matches, e.g. library/** or *.html; repeatable, or comma-separated',
      ),
      flag('exclude', 'list', 'GLOB', 'skip what any glob matches, e.g. whatsnew/ or changelog*.html; repeatable, or comma-separated'),
      flag(
        'include-generated',
        'switch',
        undefined,
        'also take the pages generators write for themselves, skipped by default: genindex*.html, search.html, py-modindex.html, ' +
          'modindex.html, bookindex.html, 404.html, _sources/, _static/, _modules/, /search/, /tags/…',
      ),
      flag('dry-run', 'switch', undefined, 'only count what would change; write nothing'),
    ],
    async run({ values, words, io }) {
      let summary;
      try {
        summary = await ingest({ ...ingestOptions(values, words[0]!, io.env), progress: stderrProgress(io.stderr, io.stderrIsTerminal === true) });
      } catch (error) {
        // The server refused the key, organisation or source: input, like a wrong flag (exit code 2).
        if (error instanceof IngestRefused && error.status !== undefined && error.status < 500) throw new UsageError(error.message);
        throw error;
      }
      io.stderr(`${summaryLine(summary)}\n`);
      if (summary.failed === 0) return summary;
      io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
      throw new Error(`${summary.failed} page${summary.failed === 1 ? '' : 's'} failed (listed above); the others were ingested.`);
    },
  },
];

/** The options of `ingest` from its flags, or a usage error naming the flag that is wrong. */
function ingestOptions(values: Record<string, unknown>, target: string, env: NodeJS.ProcessEnv) {
  const serverUrl = (values.server as string | undefined) ?? (env.ASSIST_SERVER_URL || 'http://localhost:8787');
  if (!/^https?:\/\/[^/]/i.test(serverUrl)) throw new UsageError(`--server must be an http(s) url like http://localhost:8787, got "${serverUrl}".`);
  const apiKey = (values.key as string | undefined) ?? env.ASSIST_API_KEY;
  if (!apiKey) throw new UsageError('--key is required (or ASSIST_API_KEY): an API key with pages.read and pages.write.');
  const concurrency = values.concurrency ?? 4;
  if (typeof concurrency !== 'number' || concurrency < 1 || concurrency > 32) throw new UsageError('--concurrency must be a whole number from 1 to 32.');
  const language = values.language as string | undefined;
  let input: IngestInput;
  let isFolder = false;
  if (!/^https?:\/\//i.test(target)) {
    try {
      isFolder = statSync(target).isDirectory();
    } catch {
      throw new UsageError(`${target} is neither a folder, a sitemap file nor an http(s) url of a sitemap.`);
    }
  }
  const baseUrlText = values['base-url'] as string | undefined;
  if (isFolder) {
    if (!baseUrlText) throw new UsageError('--base-url is required for a folder: the url its files are published under, e.g. https://example.com/docs/.');
    let baseUrl: URL;
    try {
      baseUrl = new URL(baseUrlText.endsWith('/') ? baseUrlText : `${baseUrlText}/`);
    } catch {
      throw new UsageError(`--base-url must be an absolute http(s) url, got "${baseUrlText}".`);
    }
    if (!/^https?:$/.test(baseUrl.protocol)) throw new UsageError(`--base-url must be an absolute http(s) url, got "${baseUrlText}".`);
    baseUrl.search = '';
    baseUrl.hash = '';
    input = { kind: 'folder', folder: target, baseUrl: baseUrl.href };
  } else {
    if (baseUrlText) throw new UsageError("--base-url is for folders; a sitemap's pages keep the urls it lists.");
    input = { kind: 'sitemap', location: target };
  }
  return {
    serverUrl: serverUrl.replace(/\/+$/, ''),
    apiKey,
    organisation: values.org as string,
    source: values.source as string,
    input,
    deleteMissing: values['delete-missing'] === true,
    dryRun: values['dry-run'] === true,
    language,
    concurrency,
    selection: {
      include: (values.include as string[] | undefined) ?? [],
      exclude: (values.exclude as string[] | undefined) ?? [],
      includeGenerated: values['include-generated'] === true,
    },
  };
}

/** Finds the command named by the first one or two words; throws a usage error naming what exists. */
export function findCommand(words: string[]): { command: Command; rest: string[] } {
  const [first = '', second] = words;
  const two = COMMANDS.find((command) => command.name === `${first} ${second}`);
  if (two) return { command: two, rest: words.slice(2) };
  const one = COMMANDS.find((command) => command.name === first);
  if (one) return { command: one, rest: words.slice(1) };
  const group = COMMANDS.filter((command) => command.name.startsWith(`${first} `));
  if (group.length > 0) {
    const known = group.map((command) => command.name.split(' ')[1]).join(', ');
    throw new UsageError(
      second === undefined ? `"${first}" needs a subcommand: ${known}.` : `unknown command "${first} ${second}"; "${first}" has: ${known}.`,
    );
  }
  throw new UsageError(`unknown command "${first}". Try: assist-server help`);
}

/** Every flag some command takes, and `--help`: what the command line is parsed with, before the command is known. */
const EVERY_FLAG: FlagSpec[] = [...COMMANDS.flatMap((command) => command.flags), flag('help', 'switch', undefined, 'print the usage')];

/** Refuses a flag the command does not list (but for start, which passes them on). */
function refuseUnknownFlags(command: Command, flags: Record<string, string | true>): void {
  if (command.strictFlags === false) return;
  for (const name of Object.keys(flags)) {
    if (!command.flags.some((spec) => spec.name === name)) {
      throw new UsageError(`${command.name} has no flag --${name}. Try: assist-server help ${command.name}`);
    }
  }
}

/**
 * Converts the flags a command lists; refuses missing required ones and flags without a
 * value. A list flag given several times holds the entries of all of them.
 */
function readValues(command: Command, flags: Record<string, string | true>, repeated: Record<string, string[]> = {}): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const spec of command.flags) {
    const raw = flags[spec.name];
    if (raw === undefined) {
      if (spec.required) throw new UsageError(`--${spec.name} is required: ${spec.help}.`);
      continue;
    }
    if (spec.kind === 'switch') {
      if (raw !== true) throw new UsageError(`--${spec.name} takes no value.`);
      values[spec.name] = true;
      continue;
    }
    if (raw === true) throw new UsageError(`--${spec.name} needs a value${spec.value ? ` (${spec.value})` : ''}.`);
    values[spec.name] = spec.kind === 'list' ? (repeated[spec.name] ?? [raw]).flatMap((each) => convert(spec, each) as string[]) : convert(spec, raw);
  }
  return values;
}

function convert(spec: FlagSpec, raw: string): unknown {
  switch (spec.kind) {
    case 'integer':
      return /^-?\d{1,15}$/.test(raw.trim()) ? Number(raw) : raw;
    case 'list':
      return raw
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
    case 'json':
      try {
        return JSON.parse(raw);
      } catch (error) {
        throw new UsageError(`--${spec.name} must be JSON, e.g. '{"greeting":"Hi"}': ${(error as Error).message}`);
      }
    default:
      return raw;
  }
}

/**
 * Opens the database the flags name (as `start` would), applies migrations, runs `work`
 * and closes it. An embedded database must not be opened by two processes at once: the
 * command holds the directory's lock (store/lock.ts) as a server does, and refuses while a
 * running server or command holds it, unless given --force.
 */
async function withDatabase<T>(context: CommandContext, work: (db: Db) => Promise<T>): Promise<T> {
  const { env } = context.io;
  const databaseFlags = Object.fromEntries(Object.entries(context.flags).filter(([name]) => name === 'data' || name === 'database-url'));
  const options = serverOptions(databaseFlags, { ASSIST_DATA: env.ASSIST_DATA, DATABASE_URL: env.DATABASE_URL });
  let lock: DataDirectoryLock | undefined;
  if (!options.databaseUrl) {
    if (options.dataDir === 'memory') {
      throw new UsageError('--data memory would keep nothing after the command ends; give the directory of the server\'s database or --database-url.');
    }
    if (!context.values.force) {
      try {
        lock = lockDataDirectory(options.dataDir);
      } catch (error) {
        if (error instanceof DataDirectoryInUse) throw new UsageError(`${error.message} (--force opens it all the same.)`);
        throw error;
      }
    }
  }
  let db: Db;
  try {
    db = await openDb({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  } catch (error) {
    lock?.release();
    throw new Error(`cannot open the database: ${(error as Error).message}`);
  }
  try {
    await migrate(db);
    return await work(db);
  } finally {
    // A directory replaced under the command lost its changes: that is said, not swallowed.
    await closeLockedDatabase(db, lock).catch((error) => {
      if (error instanceof DataDirectoryReplaced) throw error;
    });
  }
}

function flagUsage(spec: FlagSpec): string {
  const text = spec.value ? `--${spec.name} ${spec.value}` : `--${spec.name}`;
  return spec.required ? text : `[${text}]`;
}

function synopsis(command: Command): string {
  const own = command.usesDatabase ? command.flags.filter((spec) => !DATABASE_FLAGS.includes(spec)) : command.flags;
  const parts = [command.name, ...(command.arguments ?? []), ...(command.name === 'start' ? ['[flags]'] : own.map(flagUsage))];
  if (command.usesDatabase) parts.push('[database flags]');
  return parts.join(' ');
}

function flagTable(specs: FlagSpec[]): string {
  const width = Math.max(...specs.map((spec) => flagUsage(spec).length)) + 2;
  return specs.map((spec) => `    ${flagUsage(spec).replace(/^\[|\]$/g, '').padEnd(width)}${spec.help}${spec.required ? ' (required)' : ''}\n`).join('');
}

const DATABASE_NOTE = `The embedded database (PGlite) must not be opened by two processes at once; a server or
command holds its --data directory (the file assist.lock there) and the others refuse it.
Stop the server before running these commands on its directory, or, while it runs, use its
admin API instead: call /api/v1/admin/... with
"Authorization: Bearer TOKEN", the token from --admin-token, ASSIST_ADMIN_TOKEN or --admin-token-file, or
the one the demo printed on its first start (documented in /api/v1/openapi.json). On
PostgreSQL (--database-url) the commands and running servers share the database safely,
and a change shows at once.
`;

export function commandUsage(command: Command): string {
  let text = `Usage: assist-server ${synopsis(command)}\n\n${command.summary}\n`;
  const own = command.flags.filter((spec) => !DATABASE_FLAGS.includes(spec) || command.name === 'start');
  if (own.length > 0) text += `\nFlags:\n${flagTable(own)}`;
  if (command.usesDatabase) text += `\nDatabase flags:\n${flagTable(DATABASE_FLAGS)}\n${DATABASE_NOTE}`;
  return text;
}

export function usage(): string {
  const commands = COMMANDS.map((command) => `  ${synopsis(command)}\n      ${command.summary}\n`).join('');
  return `assist-server: the Assist reference server, and the dashboard's jobs without a dashboard.

Usage: assist-server <command> [flags]      (flags as --name value or --name=value)

Commands:
${commands}
Flags of start (each also read from the environment variable in brackets):
${flagTable(START_FLAGS)}
Database flags (every command that says [database flags]; the same as start's):
${flagTable(DATABASE_FLAGS)}
${DATABASE_NOTE}
Output: one JSON object on stdout. API keys, widget secrets and preview tokens are
printed once, when created or rotated, and stored only as hashes; the signing secret is
kept so the server can check visitor hashes. Nothing secret is written to stderr.
Errors: one line on stderr; exit code 2 for input a command refuses (a message names the
field or flag), 1 for anything else (e.g. a database that cannot be reached).
Help on one command: assist-server help <command>, or <command> --help.
`;
}

/**
 * Runs one command line and resolves to its exit code: 0, 2 for input it refuses, 1 for
 * any other failure. `start` resolves once the server listens, and the server keeps running.
 */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const { words, flags, repeated } = parseFlags(argv.filter((arg) => arg !== '-h'), EVERY_FLAG);
  const wantsHelp = 'help' in flags || argv.includes('-h');
  delete flags.help;
  let command: Command | undefined;
  try {
    // No command, or flags only: start, as `npm start -- --port 0` expects.
    const found = words.length === 0 ? { command: COMMANDS[0]!, rest: [] } : findCommand(words);
    command = found.command;
    if (wantsHelp) {
      io.stdout(words.length === 0 ? usage() : commandUsage(command));
      return 0;
    }
    refuseUnknownFlags(command, flags);
    const expected = command.arguments ?? [];
    const optional = expected.filter((name) => name.startsWith('[')).length;
    const variadic = expected.some((name) => name.endsWith('...]'));
    if ((found.rest.length > expected.length && !variadic) || found.rest.length < expected.length - optional) {
      throw new UsageError(
        found.rest.length > expected.length
          ? `${command.name} does not take "${found.rest[expected.length]}".`
          : `${command.name} needs ${expected.join(' ')}.`,
      );
    }
    const values = readValues(command, flags, repeated);
    const result = await command.run({ values, flags, words: found.rest, io });
    if (result !== undefined) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    if (command.printsSecret) io.stderr('assist-server: save the secret now; it is not shown again.\n');
    return 0;
  } catch (error) {
    const refused = error instanceof UsageError || error instanceof HttpError;
    const prefix = command?.name === 'start' && !refused ? 'assist-server: cannot start: ' : 'assist-server: ';
    io.stderr(`${prefix}${(error as Error)?.message ?? String(error)}\n`);
    return refused ? 2 : 1;
  }
}

/** True when this file is the program being run (also through npm's bin symlink). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
