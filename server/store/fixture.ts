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
import { markdownTitle } from '../content/markdown.js';
import { urlOfFile } from '../content/paths.js';
import { Fixture, type FixtureSource } from '../schema/fixture.js';
import { PageWrite } from '../schema/page-requests.js';
import { FIELD_LIMITS } from '../schema/limits.js';
import { parseInput } from '../schema/parse.js';
import { joinTransaction, type Db } from './db.js';
import { deletePage, upsertPageByUrl } from './pages.js';
import { findWidget } from './records.js';
import { hashSecret } from './secrets.js';
import { createApiKey } from './api-keys.js';
import { createOrganisation, createSource } from './organisations.js';
import { createWidget, updateWidget } from './widgets.js';

export interface FixtureSummary {
  organisations: number;
  pagesChanged: number;
}

/** A fixture file as written: its shape is checked when it is applied (see applyFixture). */
type FixtureText = Record<string, unknown>;

export function readFixtureFile(path: string): FixtureText {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read the fixture file ${path}: ${(error as Error).message}`);
  }
  let fixture: FixtureText;
  try {
    fixture = JSON.parse(text) as FixtureText;
  } catch (error) {
    throw new Error(`The fixture file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  resolveFolders(fixture, dirname(resolve(path)));
  return fixture;
}

/** A source's `folder` is relative to the fixture file, wherever the server was started from. */
function resolveFolders(fixture: FixtureText, fixtureDir: string): void {
  const organisations = Array.isArray(fixture.organisations) ? (fixture.organisations as unknown[]) : [];
  for (const organisation of organisations) {
    const sources = (organisation as FixtureText | null)?.sources;
    if (!Array.isArray(sources)) continue;
    for (const source of sources as (FixtureText | null)[]) {
      if (source && typeof source.folder === 'string' && !isAbsolute(source.folder)) source.folder = join(fixtureDir, source.folder);
    }
  }
}

/** The folder source of a fixture: where the files are and the address their pages get. */
interface FolderSource {
  folder: string;
  baseUrl: string;
}

function folderSource(source: FixtureSource): FolderSource | undefined {
  // The schema requires a baseUrl wherever a folder is named.
  return source.folder === undefined ? undefined : { folder: source.folder, baseUrl: source.baseUrl! };
}

/**
 * One page per `.md` file under the folder (subfolders included, in a stable order): its url
 * by the folder-to-url rule of content/paths.ts (`guide/index.md` → `baseUrl/guide/`), its
 * title its first `# ` heading (else the file name).
 */
export function readFolderPages({ folder, baseUrl }: FolderSource): PageWrite[] {
  let files: string[];
  try {
    files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md')).sort();
  } catch (error) {
    throw new Error(`Cannot read the fixture folder ${folder}: ${(error as Error).message}`);
  }
  return files.map((file) => {
    const content = readFileSync(join(folder, file), 'utf8');
    const title = markdownTitle(content) ?? basename(file, '.md');
    return parseInput(PageWrite, { url: urlOfFile(baseUrl, file), title, format: 'markdown', content }, [file]);
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

/** Held while a fixture is applied (beside migrate.ts's lock for migrations). */
const FIXTURE_LOCK = 74_151_002;

/**
 * Applies a fixture in one transaction under an advisory lock: two servers starting together
 * on one PostgreSQL apply it one after the other (the second finds nothing left to do instead
 * of failing on the first one's rows), and a fixture that fails half-way leaves nothing behind.
 */
/** `defaultEventsPerDay`: the cap of organisations the fixture creates without their own (the server's `--events-per-day`). */
export async function applyFixture(db: Db, fixtureText: FixtureText, defaultEventsPerDay: number = FIELD_LIMITS.eventsPerDayDefault): Promise<FixtureSummary> {
  const fixture = parseInput(Fixture, fixtureText);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [FIXTURE_LOCK]);
    return applyFixtureWithin(joinTransaction(db, tx), fixture, defaultEventsPerDay);
  });
}

async function applyFixtureWithin(db: Db, fixture: Fixture, defaultEventsPerDay: number): Promise<FixtureSummary> {
  const summary: FixtureSummary = { organisations: 0, pagesChanged: 0 };
  for (const organisation of fixture.organisations) {
    const { id, plan, eventsPerDay } = organisation;
    const existing = await db.query('SELECT 1 FROM organisations WHERE id = $1', [id]);
    if (existing.length === 0) await createOrganisation(db, organisation, defaultEventsPerDay);
    else await db.query('UPDATE organisations SET name = $2, plan = $3, events_per_day = $4 WHERE id = $1', [id, organisation.name ?? id, plan, eventsPerDay ?? defaultEventsPerDay]);
    summary.organisations++;

    for (const source of organisation.sources) {
      const sourceId = source.id;
      const known = await db.query<{ name: string }>('SELECT name FROM sources WHERE organisation_id = $1 AND id = $2', [id, sourceId]);
      if (known.length === 0) await createSource(db, id, source);
      else if (source.name !== undefined && known[0]!.name !== source.name) {
        await db.query('UPDATE sources SET name = $3 WHERE organisation_id = $1 AND id = $2', [id, sourceId, source.name]);
      }
      const folder = folderSource(source);
      const folderPages = folder ? readFolderPages(folder) : [];
      for (const page of [...source.pages, ...folderPages]) {
        if ((await upsertPageByUrl(db, id, sourceId, page)).changed) summary.pagesChanged++;
      }
      if (folder) {
        const kept = new Set(folderPages.map((page) => page.url));
        summary.pagesChanged += await deletePagesWithoutFile(db, id, sourceId, folder.baseUrl, kept);
      }
    }

    for (const key of organisation.apiKeys) {
      const known = await db.query('SELECT 1 FROM api_keys WHERE key_hash = $1', [hashSecret(key.key)]);
      if (known.length === 0) await createApiKey(db, id, key);
    }

    for (const widget of organisation.widgets) {
      const current = await findWidget(db, id, widget.id);
      if (!current) {
        await createWidget(db, id, widget);
        continue;
      }
      await updateWidget(db, id, widget.id, { name: widget.name, sources: widget.sources, websites: widget.websites, config: widget.config });
      if (widget.secret !== undefined) {
        await db.query('UPDATE widgets SET secret_hash = $3 WHERE organisation_id = $1 AND id = $2', [id, widget.id, hashSecret(widget.secret)]);
      }
      if (widget.signingSecret !== undefined) {
        await db.query('UPDATE widgets SET signing_secret = $3 WHERE organisation_id = $1 AND id = $2', [id, widget.id, widget.signingSecret]);
      }
    }
  }
  return summary;
}
