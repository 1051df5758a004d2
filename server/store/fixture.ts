/**
 * Fixture files declare a whole setup in one go (contract: "Setting up organisations,
 * widgets and keys"). Applying one is idempotent: what exists is brought in line with the
 * file, what is missing is created, and applying it twice changes nothing. Credits are set
 * when an organisation is created, so restarting a server does not refill spent credits.
 * Secrets written in a fixture are taken as given.
 *
 * A source may also name a `folder` of markdown files (with the `baseUrl` its pages live at):
 * every `.md` file under it becomes a page, so a project's own docs can be the content.
 *
 * @example
 *   { "id": "docs", "name": "Docs", "folder": "../docs", "baseUrl": "http://localhost:8787/demo/docs/" }
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { PLANS, type Plan } from '../../wire/contract.js';
import { markdownTitle } from '../content/markdown.js';
import { urlOfFile } from '../content/paths.js';
import { badRequest } from '../http/errors.js';
import { optionalInteger, optionalString, requireHttpUrl, requireId, requireOneOf, type Body } from '../http/validate.js';
import { joinTransaction, type Db } from './db.js';
import { deletePage, upsertPageByUrl } from './pages.js';
import { findWidget } from './records.js';
import { hashSecret } from './secrets.js';
import { createApiKey } from './api-keys.js';
import { createOrganisation, createSource, DEFAULT_EVENTS_PER_DAY, eventsPerDayField, requireOrganisationId } from './organisations.js';
import { createWidget, updateWidget } from './widgets.js';

export interface FixtureSummary {
  organisations: number;
  pagesChanged: number;
}

export function readFixtureFile(path: string): Body {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read the fixture file ${path}: ${(error as Error).message}`);
  }
  let fixture: Body;
  try {
    fixture = JSON.parse(text) as Body;
  } catch (error) {
    throw new Error(`The fixture file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  resolveFolders(fixture, dirname(resolve(path)));
  return fixture;
}

/** A source's `folder` is relative to the fixture file, wherever the server was started from. */
function resolveFolders(fixture: Body, fixtureDir: string): void {
  const organisations = Array.isArray(fixture.organisations) ? (fixture.organisations as unknown[]) : [];
  for (const organisation of organisations) {
    const sources = (organisation as Body | null)?.sources;
    if (!Array.isArray(sources)) continue;
    for (const source of sources as (Body | null)[]) {
      if (source && typeof source.folder === 'string' && !isAbsolute(source.folder)) source.folder = join(fixtureDir, source.folder);
    }
  }
}

/** The folder source of a fixture: where the files are and the address their pages get. */
interface FolderSource {
  folder: string;
  baseUrl: string;
}

function folderSource(source: Body, sourceId: string): FolderSource | undefined {
  if (source.folder === undefined) return undefined;
  if (typeof source.folder !== 'string' || source.folder === '') throw badRequest(`sources[${sourceId}].folder must be a path.`);
  const baseUrl = requireHttpUrl(source, 'baseUrl');
  if (!baseUrl.endsWith('/')) throw badRequest(`sources[${sourceId}].baseUrl must end with "/": the files' paths are appended to it.`);
  return { folder: source.folder, baseUrl };
}

/**
 * One page per `.md` file under the folder (subfolders included, in a stable order): its url
 * by the folder-to-url rule of content/paths.ts (`guide/index.md` → `baseUrl/guide/`), its
 * title its first `# ` heading (else the file name).
 */
export function readFolderPages({ folder, baseUrl }: FolderSource): Body[] {
  let files: string[];
  try {
    files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md')).sort();
  } catch (error) {
    throw new Error(`Cannot read the fixture folder ${folder}: ${(error as Error).message}`);
  }
  return files.map((file) => {
    const content = readFileSync(join(folder, file), 'utf8');
    const title = markdownTitle(content) ?? basename(file, '.md');
    return { url: urlOfFile(baseUrl, file), title, format: 'markdown', content };
  });
}

/** Pages under a folder source's `baseUrl` whose file is gone are deleted: the source mirrors the folder. */
async function deletePagesWithoutFile(db: Db, organisationId: string, sourceId: string, baseUrl: string, kept: Set<string>): Promise<number> {
  const rows = await db.query<{ id: string; url: string }>('SELECT id, url FROM pages WHERE organisation_id = $1 AND source_id = $2', [
    organisationId,
    sourceId,
  ]);
  const gone = rows.filter((row) => row.url.startsWith(baseUrl) && !kept.has(row.url));
  for (const row of gone) await deletePage(db, organisationId, sourceId, row.id);
  return gone.length;
}

const list = (value: unknown, field: string): Body[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((entry) => entry === null || typeof entry !== 'object')) {
    throw badRequest(`\`${field}\` must be an array of objects.`);
  }
  return value as Body[];
};

/** Held while a fixture is applied (beside migrate.ts's lock for migrations). */
const FIXTURE_LOCK = 74_151_002;

/**
 * Applies a fixture in one transaction under an advisory lock: two servers starting together
 * on one PostgreSQL apply it one after the other (the second finds nothing left to do instead
 * of failing on the first one's rows), and a fixture that fails half-way leaves nothing behind.
 */
export async function applyFixture(db: Db, fixture: Body, defaultEventsPerDay = DEFAULT_EVENTS_PER_DAY): Promise<FixtureSummary> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [FIXTURE_LOCK]);
    return applyFixtureWithin(joinTransaction(db, tx), fixture, defaultEventsPerDay);
  });
}

async function applyFixtureWithin(db: Db, fixture: Body, defaultEventsPerDay: number): Promise<FixtureSummary> {
  const summary: FixtureSummary = { organisations: 0, pagesChanged: 0 };
  for (const organisation of list(fixture.organisations, 'organisations')) {
    const id = requireOrganisationId(organisation.id, 'organisations[].id');
    const name = optionalString(organisation, 'name', { max: 200 }) ?? id;
    const plan = requireOneOf<Plan>(organisation, 'plan', PLANS, 'free');
    const existing = await db.query('SELECT 1 FROM organisations WHERE id = $1', [id]);
    if (existing.length === 0) await createOrganisation(db, organisation, defaultEventsPerDay);
    else {
      optionalInteger(organisation, 'credits', 0, 1_000_000_000);
      const eventsPerDay = eventsPerDayField(organisation) ?? defaultEventsPerDay;
      await db.query('UPDATE organisations SET name = $2, plan = $3, events_per_day = $4 WHERE id = $1', [id, name, plan, eventsPerDay]);
    }
    summary.organisations++;

    for (const source of list(organisation.sources, `organisations[${id}].sources`)) {
      const sourceId = requireId(source.id, 'sources[].id');
      const known = await db.query<{ name: string }>('SELECT name FROM sources WHERE organisation_id = $1 AND id = $2', [id, sourceId]);
      if (known.length === 0) await createSource(db, id, source);
      else if (typeof source.name === 'string' && known[0]!.name !== source.name) {
        await db.query('UPDATE sources SET name = $3 WHERE organisation_id = $1 AND id = $2', [id, sourceId, source.name]);
      }
      const folder = folderSource(source, sourceId);
      const folderPages = folder ? readFolderPages(folder) : [];
      for (const page of [...list(source.pages, `sources[${sourceId}].pages`), ...folderPages]) {
        if ((await upsertPageByUrl(db, id, sourceId, page)).changed) summary.pagesChanged++;
      }
      if (folder) {
        const kept = new Set(folderPages.map((page) => page.url as string));
        summary.pagesChanged += await deletePagesWithoutFile(db, id, sourceId, folder.baseUrl, kept);
      }
    }

    for (const key of list(organisation.apiKeys, `organisations[${id}].apiKeys`)) {
      if (typeof key.key !== 'string') throw badRequest('Fixture API keys need their `key`.');
      const known = await db.query('SELECT 1 FROM api_keys WHERE key_hash = $1', [hashSecret(key.key)]);
      if (known.length === 0) await createApiKey(db, id, key);
    }

    for (const widget of list(organisation.widgets, `organisations[${id}].widgets`)) {
      const widgetId = requireId(widget.id, 'widgets[].id');
      const current = await findWidget(db, id, widgetId);
      if (!current) {
        await createWidget(db, id, widget);
        continue;
      }
      await updateWidget(db, id, widgetId, { name: widget.name, sources: widget.sources, websites: widget.websites ?? [], config: widget.config ?? {} });
      if (typeof widget.secret === 'string') {
        await db.query('UPDATE widgets SET secret_hash = $3 WHERE organisation_id = $1 AND id = $2', [id, widgetId, hashSecret(widget.secret)]);
      }
      if (typeof widget.signingSecret === 'string') {
        await db.query('UPDATE widgets SET signing_secret = $3 WHERE organisation_id = $1 AND id = $2', [id, widgetId, widget.signingSecret]);
      }
    }
  }
  return summary;
}
