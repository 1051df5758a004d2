/** Pages of a source: the management API's list, get, create, patch and delete. */
import type { Page, PageFormat, PageList } from '../../wire/contract.js';
import { badRequest, conflict, notFound } from '../errors.js';
import type { PagePatch, PageWrite } from '../schema/page-requests.js';
import { INDEX_VERSION, indexPage, indexPages, markIndexed } from '../search/indexer.js';
import type { Db, Queryable } from './db.js';
import { firstHeading } from '../content/markdown.js';
import { readPageWrite } from '../content/page-reader.js';
import { pageTitle } from '../content/read.js';
import { generateId } from './secrets.js';

interface PageRow {
  seq: number;
  id: string;
  organisationId: string;
  sourceId: string;
  url: string;
  title: string;
  language: string | null;
  metadata: Record<string, string | number | boolean | null> | null;
  format: PageFormat;
  content: string;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `seq, id, organisation_id AS "organisationId", source_id AS "sourceId", url, title, language, metadata,
  format, content, created_at AS "createdAt", updated_at AS "updatedAt"`;

export function toWirePage(row: PageRow, withContent: boolean): Page {
  const page: Page = {
    id: row.id,
    source: row.sourceId,
    url: row.url,
    title: row.title,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
  if (row.language) page.language = row.language;
  if (row.metadata) page.metadata = row.metadata;
  if (withContent) page.content = row.content;
  return page;
}

/** Cursors are opaque to callers: the last listed page's position, so inserts and deletes never shift a listing. */
function encodeCursor(seq: number): string {
  return Buffer.from(`s${seq}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const decoded = Buffer.from(cursor, 'base64url').toString();
  const match = /^s(\d{1,15})$/.exec(decoded);
  if (!match) throw badRequest('`cursor` is not a cursor this API returned.');
  return Number(match[1]);
}

export async function listPages(db: Queryable, organisationId: string, sourceId: string, { limit, cursor }: { limit: number; cursor?: string }): Promise<PageList> {
  const after = cursor ? decodeCursor(cursor) : 0;
  const rows = await db.query<PageRow>(
    `SELECT ${COLUMNS} FROM pages WHERE organisation_id = $1 AND source_id = $2 AND seq > $3 ORDER BY seq LIMIT $4`,
    [organisationId, sourceId, after, limit + 1],
  );
  const pages = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor(Number(pages[pages.length - 1]!.seq)) : null;
  return { pages: pages.map((row) => toWirePage(row, false)), nextCursor };
}

export async function getPage(db: Queryable, organisationId: string, sourceId: string, pageId: string): Promise<Page> {
  return toWirePage(await requirePage(db, organisationId, sourceId, pageId), true);
}

async function requirePage(db: Queryable, organisationId: string, sourceId: string, pageId: string): Promise<PageRow> {
  const [row] = await db.query<PageRow>(`SELECT ${COLUMNS} FROM pages WHERE organisation_id = $1 AND source_id = $2 AND id = $3`, [
    organisationId,
    sourceId,
    pageId,
  ]);
  if (!row) throw notFound(`page "${pageId}"`);
  return row;
}

export async function createPage(db: Db, organisationId: string, sourceId: string, fields: PageWrite): Promise<Page> {
  const { reading, title, sections } = await readPageWrite({ format: fields.format, content: fields.content, title: fields.title, url: fields.url });
  const language = fields.language !== undefined ? fields.language : (reading.language ?? null);
  return db.transaction(async (tx) => {
    const [existing] = await tx.query<{ id: string }>('SELECT id FROM pages WHERE organisation_id = $1 AND source_id = $2 AND url = $3', [
      organisationId,
      sourceId,
      fields.url,
    ]);
    if (existing) throw conflict(URL_TAKEN, { pageId: existing.id });
    const [row] = await tx.query<PageRow>(
      `INSERT INTO pages (id, organisation_id, source_id, url, title, language, metadata, format, content, indexed_version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
      [generateId('p_'), organisationId, sourceId, fields.url, title, language, fields.metadata ? JSON.stringify(fields.metadata) : null, fields.format, reading.content, INDEX_VERSION],
    );
    await indexPage(tx, { ...row!, sections });
    return toWirePage(row!, true);
  }).catch(rethrowUrlConflict);
}

export async function updatePage(db: Db, organisationId: string, sourceId: string, pageId: string, patch: PagePatch): Promise<Page> {
  const fields = { ...patch };
  const before = await requirePage(db, organisationId, sourceId, pageId);
  // New content is read before the transaction, off the event loop when large; the page is
  // read again inside it, and a content or format changed meanwhile is read once more here.
  const format = fields.format ?? before.format;
  const read =
    fields.content !== undefined ? await readPageWrite({ format, content: fields.content, title: fields.title, keptTitle: before.title }) : undefined;
  return db.transaction(async (tx) => {
    const current = await requirePage(tx, organisationId, sourceId, pageId);
    const currentFormat = fields.format ?? current.format;
    const fresh =
      read && currentFormat === format && (fields.title !== undefined || current.title === before.title)
        ? read
        : fields.content !== undefined
          ? await readPageWrite({ format: currentFormat, content: fields.content, title: fields.title, keptTitle: current.title })
          : undefined;
    const reading = fresh?.reading;
    if (reading) fields.content = reading.content;
    // A new title is cleaned against the heading of the content the page will have.
    const heading = reading ? reading.heading : firstHeading(current.content);
    const title = fresh ? fresh.title : fields.title !== undefined ? pageTitle({ format: currentFormat, title: fields.title }, { heading }) : current.title;
    if (fields.url !== undefined && fields.url !== current.url) {
      const [clash] = await tx.query<{ id: string }>('SELECT id FROM pages WHERE organisation_id = $1 AND source_id = $2 AND url = $3', [
        organisationId,
        sourceId,
        fields.url,
      ]);
      if (clash) throw conflict(URL_TAKEN, { pageId: clash.id });
    }
    const next = {
      url: fields.url ?? current.url,
      title,
      language: fields.language !== undefined ? fields.language : (current.language ?? reading?.language ?? null),
      metadata: fields.metadata !== undefined ? fields.metadata : current.metadata,
      content: fields.content ?? current.content,
    };
    const [row] = await tx.query<PageRow>(
      `UPDATE pages SET url = $4, title = $5, language = $6, metadata = $7, format = $8, content = $9, indexed_version = $10, updated_at = now()
        WHERE organisation_id = $1 AND source_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
      [organisationId, sourceId, pageId, next.url, next.title, next.language, next.metadata ? JSON.stringify(next.metadata) : null, currentFormat, next.content, INDEX_VERSION],
    );
    await indexPage(tx, { ...row!, sections: fresh?.sections });
    return toWirePage(row!, true);
  }).catch(rethrowUrlConflict);
}

export async function deletePage(db: Db, organisationId: string, sourceId: string, pageId: string): Promise<void> {
  const rows = await db.query('DELETE FROM pages WHERE organisation_id = $1 AND source_id = $2 AND id = $3 RETURNING id', [
    organisationId,
    sourceId,
    pageId,
  ]);
  if (rows.length === 0) throw notFound(`page "${pageId}"`);
}

const URL_TAKEN = 'A page with that url exists already in this source.';

/** Two writers racing on one url: the loser gets the contract's 409, not a database error. */
function rethrowUrlConflict(error: unknown): never {
  if ((error as { code?: string })?.code === '23505') {
    throw conflict(URL_TAKEN);
  }
  throw error;
}

/** Creates or updates the page at `url` so it holds exactly `body`; used by fixtures and ingestion. */
export async function upsertPageByUrl(db: Db, organisationId: string, sourceId: string, fields: PageWrite): Promise<{ page: Page; changed: boolean }> {
  const { url } = fields;
  const [existing] = await db.query<PageRow>(`SELECT ${COLUMNS} FROM pages WHERE organisation_id = $1 AND source_id = $2 AND url = $3`, [
    organisationId,
    sourceId,
    url,
  ]);
  if (!existing) return { page: await createPage(db, organisationId, sourceId, fields), changed: true };
  const { reading, title } = await readPageWrite({ format: fields.format, content: fields.content, title: fields.title, url });
  const language = fields.language !== undefined ? fields.language : (reading.language ?? null);
  const same =
    existing.content === reading.content &&
    existing.title === title &&
    (existing.language ?? null) === language &&
    JSON.stringify(existing.metadata ?? null) === JSON.stringify(fields.metadata ?? null);
  if (same) return { page: toWirePage(existing, false), changed: false };
  const page = await updatePage(db, organisationId, sourceId, existing.id, {
    ...fields,
    title,
    language,
    metadata: fields.metadata ?? null,
  });
  return { page, changed: true };
}

/**
 * Pages indexed again per transaction: a batch holds its pages' rows, and on the embedded
 * database every other statement, for well under a second.
 */
const REINDEX_BATCH = 10;

/**
 * Indexes again, from their stored content, the pages an earlier version of the indexer
 * indexed (INDEX_VERSION), a batch per transaction, oldest first: after an upgrade that
 * changes how pages are cut or indexed, pages pushed before it are found as new ones are,
 * without being pushed again. Until a page's turn comes its earlier index serves it. Servers
 * sharing one PostgreSQL share the work (a batch skips pages another one holds). A page that
 * cannot be indexed is logged and keeps its earlier index, and the pages after it go on.
 * Resolves to the number of pages indexed again, after the batch in progress once `signal`
 * aborts.
 */
export async function reindexStalePages(
  db: Db,
  { signal, batch = REINDEX_BATCH, log }: { signal?: AbortSignal; batch?: number; log?: (line: string) => void } = {},
): Promise<number> {
  let total = 0;
  // Pages that failed on their own this run: left with their earlier index, tried again at the next start.
  const failed: string[] = [];
  // The oldest stale pages no other server holds, or only the one of `id`, locked until the transaction ends.
  const stalePages = (tx: Queryable, limit: number, id?: string) =>
    tx.query<PageRow>(
      `SELECT ${COLUMNS} FROM pages WHERE indexed_version < $1 AND NOT (id = ANY($3::text[])) AND ($4::text IS NULL OR id = $4)
       ORDER BY indexed_version, seq LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [INDEX_VERSION, limit, failed, id ?? null],
    );
  while (!signal?.aborted) {
    let done = 0;
    let tried = 0;
    try {
      done = tried = await db.transaction(async (tx) => {
        const stale = await stalePages(tx, batch);
        await indexPages(tx, stale);
        await markIndexed(tx, stale.map((page) => page.id));
        return stale.length;
      });
    } catch (batchError) {
      // One page that cannot be indexed must not keep every page after it on its old index: the batch again, page by page.
      const ids = (await stalePages(db, batch)).map((page) => page.id);
      tried = ids.length;
      for (const id of ids) {
        try {
          done += await db.transaction(async (tx) => {
            const page = await stalePages(tx, 1, id);
            await indexPages(tx, page);
            await markIndexed(tx, page.map(({ id }) => id));
            return page.length;
          });
        } catch (error) {
          failed.push(id);
          log?.(`search index: page ${id} could not be indexed again and keeps its earlier index: ${(error as Error)?.message ?? error}`);
        }
      }
      // Not one page of several could be indexed: the database is failing, not a page.
      if (done === 0 && tried > 1) throw batchError;
    }
    if (tried === 0) break;
    total += done;
    // The embedded database answers without I/O: without a turn of the event loop between batches, requests, the
    // server's start and signals would wait for the whole re-index.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}

/**
 * Starts indexing again the pages an earlier indexer indexed (reindexStalePages), beside the
 * server's work; `close` stops it after the batch in progress, and `done` resolves once it
 * has stopped, with how many pages it indexed again (0 when it failed, which it logs).
 */
export function startReindex(app: { db: Db; log: (line: string) => void }): { close(): void; done: Promise<number> } {
  const stop = new AbortController();
  const done = reindexStalePages(app.db, { signal: stop.signal, log: app.log }).then(
    (count) => {
      if (count > 0) app.log(`search index: ${count} page${count === 1 ? '' : 's'} indexed again for this version`);
      return count;
    },
    (error) => {
      if (!stop.signal.aborted) app.log(`search index: indexing pages again failed: ${(error as Error)?.message ?? error}`);
      return 0;
    },
  );
  return { close: () => stop.abort(), done };
}
