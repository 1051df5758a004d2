/**
 * The PostgreSQL 15 manual as Debian ships it (`postgresql-doc-15`, about 1,170 HTML pages),
 * read from disk as the seed of the generated corpora of search speed (bench/corpus/generate.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readPage } from '../../server/content/read.js';
import { CORPORA, ensureCorpus } from './docs.js';

export const MANUAL_DIR = CORPORA.postgres.folder;
/** Pages get this base url, so a hit's url ends with the manual's file name. */
export const MANUAL_BASE_URL = CORPORA.postgres.baseUrl;

export interface ManualPage {
  /** The file name, e.g. `sql-vacuum.html`. */
  file: string;
  url: string;
  title: string;
  /** The page's HTML without the manual's navigation bars. */
  html: string;
}

/** Makes sure the manual is on disk, installing the Debian package when it is not. */
export function ensureManual(log: (line: string) => void = console.log): void {
  ensureCorpus(CORPORA.postgres, log);
}

/** Every page of the manual, in file name order. */
export function readManual(): ManualPage[] {
  return readdirSync(MANUAL_DIR)
    .filter((file) => file.endsWith('.html'))
    .sort()
    .map((file) => {
      const raw = readFileSync(join(MANUAL_DIR, file), 'utf8');
      return { file, url: MANUAL_BASE_URL + file, title: readPage('html', raw).title ?? file, html: withoutNavigation(raw) };
    });
}

/**
 * The DocBook stylesheets put Prev/Up/Home/Next bars in `div.navheader` and `div.navfooter`
 * (plain divs, not `<nav>`): site chrome that a crawler would drop, so both engines get the
 * page without it.
 */
function withoutNavigation(html: string): string {
  return html.replace(/<div class="nav(?:header|footer)">[\s\S]*?<\/div>/g, '');
}
