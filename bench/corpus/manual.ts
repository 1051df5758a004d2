/**
 * The benchmark corpus: the PostgreSQL 15 manual as Debian ships it (`postgresql-doc-15`,
 * about 1,170 HTML pages). Installed with apt-get when missing; the benchmark says so
 * plainly and stops when it cannot be.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readPage } from '../../server/content/read.js';

export const MANUAL_PACKAGE = 'postgresql-doc-15';
export const MANUAL_DIR = '/usr/share/doc/postgresql-doc-15/html';
/** Pages get this base url, so a hit's url ends with the manual's file name. */
export const MANUAL_BASE_URL = 'https://www.postgresql.org/docs/15/';

export interface ManualPage {
  /** The file name, e.g. `sql-vacuum.html`: what the judgments name. */
  file: string;
  url: string;
  title: string;
  /** The page's HTML without the manual's navigation bars. */
  html: string;
}

/** Makes sure the manual is on disk, installing the Debian package when it is not. */
export function ensureManual(log: (line: string) => void = console.log): void {
  if (hasManual()) return;
  log(`The benchmark corpus (${MANUAL_DIR}) is missing; installing ${MANUAL_PACKAGE} with apt-get…`);
  try {
    const asRoot = process.getuid?.() === 0;
    const command = asRoot ? 'apt-get' : 'sudo';
    const args = asRoot ? ['install', '-y', MANUAL_PACKAGE] : ['-n', 'apt-get', 'install', '-y', MANUAL_PACKAGE];
    execFileSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } catch (error) {
    throw new Error(
      `Could not install ${MANUAL_PACKAGE} (${(error as Error).message.split('\n')[0]}). ` +
        `Install it by hand (as root: apt-get install -y ${MANUAL_PACKAGE}) and run the benchmark again.`,
    );
  }
  if (!hasManual()) throw new Error(`${MANUAL_PACKAGE} is installed but ${MANUAL_DIR} holds no HTML pages.`);
}

function hasManual(): boolean {
  return existsSync(MANUAL_DIR) && readdirSync(MANUAL_DIR).some((file) => file.endsWith('.html'));
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

/** The manual file name a url points at, without any fragment. */
export function fileOf(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1).split('#')[0]!;
}
