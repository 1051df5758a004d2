/**
 * What `assist-server ingest` pushes: documents read from a folder of `.md`/`.html` files,
 * or fetched from the pages a sitemap lists, each with the url it will have in the source.
 *
 * A file's url follows the folder-to-url rule of content/paths.ts. Title and language come
 * from the same reader the server uses (content/read.ts): the first `# heading` of markdown;
 * an HTML page's `<title>` without the site name, else its first heading; its `lang`. A site
 * name that most titles of the input share (" — Python 3.11.2 documentation") is taken off
 * them all. Files and urls are chosen by select.ts (globs, generated pages skipped).
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join, relative, sep } from 'node:path';
import { Parser } from 'htmlparser2';
import type { PageFormat } from '../../wire/contract.js';
import { HTML_EXTENSIONS, MARKDOWN_EXTENSIONS, urlOfFile } from '../content/paths.js';
import { readPage } from '../content/read.js';
import { sharedTitleSuffix, withoutSuffix } from '../content/title.js';
import { DEFAULT_SELECTION, selects, type Selection } from './select.js';

/** One page as it should be in the source. */
export interface IngestDocument {
  url: string;
  title: string;
  content: string;
  format: PageFormat;
  language?: string;
  /** An HTML page's `<title>` as written, site name included: what finds the name the site's titles share. Not sent. */
  documentTitle?: string;
}

/** A page that could not be read or fetched: counted as failed, and never deleted as "vanished". */
export interface UnreadableDocument {
  url: string;
  error: string;
}

export type CollectedDocument = IngestDocument | UnreadableDocument;

export const isUnreadable = (document: CollectedDocument): document is UnreadableDocument => 'error' in document;

/** A document from a file's or a response's text. */
export function toDocument(url: string, text: string, format: PageFormat, fallbackTitle: string, language?: string): IngestDocument {
  const reading = readPage(format, text);
  const title = reading.title ?? fallbackTitle;
  const pageLanguage = language ?? reading.language;
  return {
    url,
    title,
    content: text,
    format,
    ...(pageLanguage ? { language: pageLanguage } : {}),
    ...(reading.documentTitle ? { documentTitle: reading.documentTitle } : {}),
  };
}

/** The documents with the site name most of their titles share taken off (see the header). */
export function withoutSharedSiteName(documents: CollectedDocument[]): CollectedDocument[] {
  const readable = documents.filter((document): document is IngestDocument => !isUnreadable(document));
  const suffix = sharedTitleSuffix(readable.map((document) => document.documentTitle ?? document.title));
  if (!suffix) return documents;
  return documents.map((document) => (isUnreadable(document) ? document : { ...document, title: withoutSuffix(document.title, suffix) }));
}

/** Every `.md`/`.html` file below `folder` that `selected` takes (hidden files and folders skipped), in path order. */
async function filesBelow(folder: string, selected: (path: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const extension = extname(entry.name).toLowerCase();
        const known = MARKDOWN_EXTENSIONS.has(extension) || HTML_EXTENSIONS.has(extension);
        if (known && selected(relative(folder, path).split(sep).join('/'))) found.push(path);
      }
    }
  };
  await walk(folder);
  return found.sort();
}

/** Reads a folder of `.md`/`.html` files into documents under `baseUrl`. */
export async function readFolder(
  folder: string,
  baseUrl: string,
  language?: string,
  selection: Selection = DEFAULT_SELECTION,
): Promise<CollectedDocument[]> {
  const documents: CollectedDocument[] = [];
  for (const path of await filesBelow(folder, selects(selection))) {
    const relativePath = relative(folder, path);
    const url = urlOfFile(baseUrl, relativePath);
    const format: PageFormat = HTML_EXTENSIONS.has(extname(path).toLowerCase()) ? 'html' : 'markdown';
    try {
      const text = await readFile(path, 'utf8');
      documents.push(toDocument(url, text, format, basename(path, extname(path)), language));
    } catch (error) {
      documents.push({ url, error: `cannot read ${relativePath}: ${(error as Error).message}` });
    }
  }
  return withoutSharedSiteName(documents);
}

/** The `<loc>` entries of a sitemap, and whether it is a sitemap index (its entries are sitemaps). */
export function parseSitemap(xml: string): { index: boolean; locations: string[] } {
  const locations: string[] = [];
  let index = false;
  let inLoc = false;
  let text = '';
  const parser = new Parser(
    {
      onopentag(name) {
        const local = name.toLowerCase().replace(/^.*:/, '');
        if (local === 'sitemapindex') index = true;
        if (local === 'loc') {
          inLoc = true;
          text = '';
        }
      },
      ontext(chunk) {
        if (inLoc) text += chunk;
      },
      onclosetag(name) {
        if (name.toLowerCase().replace(/^.*:/, '') === 'loc' && inLoc) {
          inLoc = false;
          const location = text.trim();
          if (location) locations.push(location);
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return { index, locations };
}

const FETCH_TIMEOUT_MS = 30_000;

async function fetchText(url: string): Promise<{ text: string; contentType: string }> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { Accept: 'text/html, text/markdown;q=0.9, text/plain;q=0.8, */*;q=0.1' } });
  } catch (error) {
    const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new Error(`cannot fetch ${url}: ${cause}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`fetching ${url} answered ${response.status} ${response.statusText}`.trim());
  }
  return { text: await response.text(), contentType: response.headers.get('content-type') ?? '' };
}

/** How a fetched page is stored: by its content type, else by its url's extension; HTML when in doubt. */
function formatOf(url: string, contentType: string): PageFormat {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (type === 'text/plain') return MARKDOWN_EXTENSIONS.has(extname(new URL(url).pathname).toLowerCase()) ? 'markdown' : 'text';
  return 'html';
}

/** The last path segment of a url without extension, or its host: a title of last resort. */
function nameOfUrl(url: string): string {
  const { pathname, host } = new URL(url);
  const last = decodeURIComponent(pathname.split('/').filter(Boolean).pop() ?? '');
  return last ? basename(last, extname(last)) : host;
}

/** Runs `work` over `items` with at most `concurrency` at a time, keeping the order of results. */
export async function mapConcurrently<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

const MAX_SITEMAP_DEPTH = 3;

/**
 * The page urls a sitemap lists: `location` is a file path or an http(s) url; a sitemap index
 * is followed to its sitemaps. Duplicates are dropped, order kept.
 */
export async function sitemapUrls(location: string, depth = 0): Promise<string[]> {
  const remote = /^https?:\/\//i.test(location);
  let xml: string;
  try {
    xml = remote ? (await fetchText(location)).text : await readFile(location, 'utf8');
  } catch (error) {
    throw new Error(remote ? (error as Error).message : `cannot read the sitemap ${location}: ${(error as Error).message}`);
  }
  const { index, locations } = parseSitemap(xml);
  if (!index) return [...new Set(locations.filter((url) => /^https?:\/\//i.test(url)))];
  if (depth >= MAX_SITEMAP_DEPTH) throw new Error(`sitemap indexes nest deeper than ${MAX_SITEMAP_DEPTH} levels at ${location}`);
  const nested: string[] = [];
  for (const sitemap of locations) nested.push(...(await sitemapUrls(sitemap, depth + 1)));
  return [...new Set(nested)];
}

/** Fetches one page a sitemap lists into a document (or the reason it could not be). */
export async function fetchDocument(url: string, language?: string): Promise<CollectedDocument> {
  try {
    const { text, contentType } = await fetchText(url);
    return toDocument(url, text, formatOf(url, contentType), nameOfUrl(url), language);
  } catch (error) {
    return { url, error: (error as Error).message };
  }
}
