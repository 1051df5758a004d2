/**
 * `assist-server ingest`: brings a source in line with a folder or a sitemap through the
 * pages API, idempotently by url.
 *
 * Each page written carries `metadata.ingestHash`, a hash of what was sent (title, format,
 * language, content). The next run lists the source (one request per 200 pages, no content)
 * and compares hashes: an unchanged page is skipped, a changed one PATCHed, a new one
 * created. A page without the hash (written some other way) is PATCHed once and has it
 * from then on; its other metadata is kept. An HTML page also carries `metadata.ingestReader`,
 * the version of the HTML reader of this release (HTML_READER_VERSION): a page marked otherwise,
 * or not at all, is written again though unchanged, so that the server reads it anew. With `deleteMissing`, pages of the source that
 * are within the input's scope but no longer in it are deleted: for a folder, pages whose
 * url starts with the base url; for a sitemap, pages on the same origins as its pages.
 * Pages that could not be read or fetched this time are never deleted.
 */
import { createHash } from 'node:crypto';
import type { Page } from '../../wire/contract.js';
import { UsageError } from '../options.js';
import {
  fetchDocument,
  isUnreadable,
  mapConcurrently,
  readFolder,
  sitemapUrls,
  withoutSharedSiteName,
  type CollectedDocument,
  type IngestDocument,
} from './documents.js';
import { HTML_READER_VERSION } from '../content/read.js';
import { DEFAULT_SELECTION, selects, type Selection } from './select.js';
import { PagesApiError, PagesClient, type PageWrite } from './pages-client.js';

export const INGEST_HASH_KEY = 'ingestHash';
export const INGEST_READER_KEY = 'ingestReader';

export type IngestInput = { kind: 'folder'; folder: string; baseUrl: string } | { kind: 'sitemap'; location: string };

export interface IngestOptions {
  serverUrl: string;
  apiKey: string;
  organisation: string;
  source: string;
  input: IngestInput;
  deleteMissing?: boolean;
  /** Plan only: count what would change, write nothing. */
  dryRun?: boolean;
  /** A language tag for every page; otherwise an HTML page's own `lang`. */
  language?: string;
  /** Requests in flight at once (fetches and writes). */
  concurrency?: number;
  /** Which files or urls are taken: globs, and whether generators' own pages are (select.ts). */
  selection?: Selection;
  progress?: IngestProgress;
}

export interface IngestFailure {
  url: string;
  error: string;
}

export interface IngestSummary {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  failed: number;
  failures: IngestFailure[];
  dryRun: boolean;
  /** Pages compared and written per second (the write phase, after reading or fetching). */
  pagesPerSecond: number;
  seconds: number;
}

/** Told about each phase and each finished item; the command line draws it on stderr. */
export interface IngestProgress {
  phase(name: string, total: number): void;
  advance(counts: Pick<IngestSummary, 'created' | 'updated' | 'unchanged' | 'deleted' | 'failed'>): void;
  failure(failure: IngestFailure): void;
  finish(): void;
}

const silent: IngestProgress = { phase() {}, advance() {}, failure() {}, finish() {} };

/** The hash stored in a page's metadata: of everything ingest sends that shapes the page. */
export function ingestHash(document: IngestDocument): string {
  return createHash('sha256')
    .update(JSON.stringify([document.title, document.format, document.language ?? null, document.content]))
    .digest('hex');
}

/** Whether an existing page's url is one `deleteMissing` may remove for this input. */
function scopeOf(input: IngestInput, documents: CollectedDocument[]): (url: string) => boolean {
  if (input.kind === 'folder') return (url) => url.startsWith(input.baseUrl);
  const origins = new Set(documents.map((document) => new URL(document.url).origin));
  return (url) => {
    try {
      return origins.has(new URL(url).origin);
    } catch {
      return false;
    }
  };
}

async function collect(options: IngestOptions, progress: IngestProgress): Promise<CollectedDocument[]> {
  const { input } = options;
  const selection = options.selection ?? DEFAULT_SELECTION;
  if (input.kind === 'folder') return readFolder(input.folder, input.baseUrl, options.language, selection);
  const listed = await sitemapUrls(input.location);
  if (listed.length === 0) throw new UsageError(`${input.location} lists no page urls: is it a sitemap (<urlset> with <loc> entries)?`);
  const selected = selects(selection);
  const urls = listed.filter((url) => {
    const path = new URL(url).pathname;
    try {
      return selected(decodeURIComponent(path));
    } catch {
      return selected(path);
    }
  });
  progress.phase('fetching', urls.length);
  const counts = { created: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0 };
  const documents = await mapConcurrently(urls, options.concurrency ?? 4, async (url) => {
    const document = await fetchDocument(url, options.language);
    progress.advance(counts);
    return document;
  });
  progress.finish();
  return withoutSharedSiteName(documents);
}

/** Why a write failed, in the server's words when it gave any. */
function describe(error: unknown): string {
  return error instanceof PagesApiError || error instanceof Error ? error.message : String(error);
}

/**
 * Brings the source in line with the input; resolves to what it did. Throws before writing
 * anything when the source cannot be listed (a wrong key, server or source).
 *
 * @example
 *   const summary = await ingest({
 *     serverUrl: 'http://localhost:8787', apiKey: 'ak_…', organisation: 'acme', source: 'docs',
 *     input: { kind: 'folder', folder: './docs', baseUrl: 'https://acme.example/docs/' },
 *     deleteMissing: true,
 *   });
 *   console.log(summary.created, summary.updated, summary.unchanged);
 */
export async function ingest(options: IngestOptions): Promise<IngestSummary> {
  const progress = options.progress ?? silent;
  const client = new PagesClient(options.serverUrl, options.apiKey, options.organisation, options.source);
  let existing: Page[];
  try {
    existing = await client.listAll();
  } catch (error) {
    const reason = describe(error);
    throw new IngestRefused(`cannot list the pages of ${options.organisation}/${options.source} on ${options.serverUrl}: ${reason}`, error);
  }
  const documents = await collect(options, progress);
  const readable = documents.filter((document): document is IngestDocument => !isUnreadable(document));
  if (options.deleteMissing && readable.length === 0) {
    throw new UsageError('found no pages to ingest; refusing to --delete-missing every page of the source.');
  }

  const counts = { created: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0 };
  const failures: IngestFailure[] = [];
  const fail = (url: string, error: string) => {
    counts.failed++;
    failures.push({ url, error });
    progress.failure({ url, error });
  };
  for (const document of documents) if (isUnreadable(document)) fail(document.url, document.error);

  const byUrl = new Map(existing.map((page) => [page.url, page]));
  const seen = new Set(documents.map((document) => document.url));
  const inScope = scopeOf(options.input, documents);
  const vanished = options.deleteMissing ? existing.filter((page) => !seen.has(page.url) && inScope(page.url)) : [];
  const unique = [...new Map(readable.map((document) => [document.url, document])).values()];

  const started = performance.now();
  progress.phase(options.dryRun ? 'planning' : 'writing', unique.length + vanished.length);
  await mapConcurrently(unique, options.concurrency ?? 4, async (document) => {
    const hash = ingestHash(document);
    const page = byUrl.get(document.url);
    try {
      if (page && page.metadata?.[INGEST_HASH_KEY] === hash && readByThisReader(document, page)) counts.unchanged++;
      else if (page) {
        if (!options.dryRun) await client.update(page.id, pageWrite(document, hash, page));
        counts.updated++;
      } else {
        if (!options.dryRun) await createOrUpdate(client, document, hash);
        counts.created++;
      }
    } catch (error) {
      fail(document.url, describe(error));
    }
    progress.advance(counts);
  });
  await mapConcurrently(vanished, options.concurrency ?? 4, async (page) => {
    try {
      if (!options.dryRun) await client.remove(page.id);
      counts.deleted++;
    } catch (error) {
      // Deleted meanwhile by someone else: gone, as wanted.
      if (error instanceof PagesApiError && error.status === 404) counts.deleted++;
      else fail(page.url, describe(error));
    }
    progress.advance(counts);
  });
  progress.finish();
  const seconds = (performance.now() - started) / 1000;
  const processed = unique.length + vanished.length;
  return {
    ...counts,
    failures,
    dryRun: Boolean(options.dryRun),
    seconds: Math.round(seconds * 1000) / 1000,
    pagesPerSecond: processed === 0 ? 0 : Math.round((processed / Math.max(seconds, 1e-6)) * 10) / 10,
  };
}

/** Whether a page was read as this release reads it: any page but HTML, which another version of the HTML reader may have read otherwise. */
function readByThisReader(document: IngestDocument, page: Page): boolean {
  return document.format !== 'html' || page.metadata?.[INGEST_READER_KEY] === HTML_READER_VERSION;
}

/** The write body for a document; on an update, the page's other metadata is kept. */
function pageWrite(document: IngestDocument, hash: string, existing?: Page): PageWrite {
  const { [INGEST_READER_KEY]: _reader, ...kept } = existing?.metadata ?? {};
  return {
    url: document.url,
    title: document.title,
    content: document.content,
    format: document.format,
    language: document.language ?? (existing ? null : undefined),
    metadata: { ...kept, [INGEST_HASH_KEY]: hash, ...(document.format === 'html' && { [INGEST_READER_KEY]: HTML_READER_VERSION }) },
  };
}

/** Creates the page; when it appeared since the listing (409 with its id), updates that one. */
async function createOrUpdate(client: PagesClient, document: IngestDocument, hash: string): Promise<void> {
  try {
    await client.create(pageWrite(document, hash));
  } catch (error) {
    const pageId = error instanceof PagesApiError && error.status === 409 ? error.details.pageId : undefined;
    if (typeof pageId !== 'string') throw error;
    await client.update(pageId, pageWrite(document, hash));
  }
}

/** The source cannot be listed: nothing was written. `status` tells a refusal (4xx) from an outage. */
export class IngestRefused extends Error {
  readonly status?: number;
  constructor(message: string, cause: unknown) {
    super(message);
    if (cause instanceof PagesApiError) this.status = cause.status;
  }
}

/**
 * Draws progress on stderr: a bar redrawn in place on a terminal, otherwise a plain line at
 * every tenth of the way, so logs stay short.
 */
export function stderrProgress(write: (text: string) => void, terminal: boolean): IngestProgress {
  let name = '';
  let total = 0;
  let done = 0;
  let lastLine = 0;
  let lastDraw = 0;
  let drawn = false;
  const line = (counts: Pick<IngestSummary, 'created' | 'updated' | 'unchanged' | 'deleted' | 'failed'>) =>
    name === 'fetching'
      ? `${done}/${total} pages`
      : `${done}/${total}  created ${counts.created} · updated ${counts.updated} · unchanged ${counts.unchanged} · deleted ${counts.deleted} · failed ${counts.failed}`;
  let latest = { created: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0 };
  const draw = () => {
    const width = 24;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    write(`\r\x1b[2K${name.padEnd(8)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${line(latest)}`);
    drawn = true;
    lastDraw = performance.now();
  };
  return {
    phase(phaseName, phaseTotal) {
      name = phaseName;
      total = phaseTotal;
      done = 0;
      lastLine = 0;
      if (terminal) draw();
    },
    advance(counts) {
      done++;
      latest = { ...counts };
      if (terminal) {
        if (done === total || performance.now() - lastDraw > 50) draw();
        return;
      }
      const step = Math.max(1, Math.ceil(total / 10));
      if (done === total || done - lastLine >= step) {
        lastLine = done;
        write(`ingest: ${name} ${line(counts)}\n`);
      }
    },
    failure({ url, error }) {
      if (terminal && drawn) write('\r\x1b[2K');
      write(`ingest: failed ${url}: ${error}\n`);
      if (terminal && drawn) draw();
    },
    finish() {
      if (terminal && drawn) write('\n');
      drawn = false;
    },
  };
}

/** The summary line printed at the end. */
export function summaryLine(summary: IngestSummary): string {
  const verb = summary.dryRun ? 'ingest (dry run, nothing written):' : 'ingest:';
  return (
    `${verb} ${summary.created} created, ${summary.updated} updated, ${summary.unchanged} unchanged, ` +
    `${summary.deleted} deleted, ${summary.failed} failed (${summary.seconds.toFixed(1)} s, ${summary.pagesPerSecond} pages/s)`
  );
}
