/**
 * Which files or urls `ingest` takes: `--include` and `--exclude` globs, and the pages a
 * documentation generator writes for itself (indexes, search pages, copies of the sources,
 * static assets), skipped unless `--include-generated` is given.
 *
 * A path is the file's path relative to the folder, or a url's path without its leading
 * `/`, with `/` between folders. A glob with a `/` (or starting with one) is matched against
 * the whole path; one without is matched against each folder name and the file name, as
 * `.gitignore` does.
 * `**` matches any number of folders, `*` anything within one name, `?` one character.
 */

export interface Selection {
  /** When not empty, only paths some glob matches are taken. */
  include: string[];
  /** Paths any glob matches are skipped (before `include` is looked at). */
  exclude: string[];
  /** Take the generators' own pages too. */
  includeGenerated: boolean;
}

export const DEFAULT_SELECTION: Selection = { include: [], exclude: [], includeGenerated: false };

/**
 * Pages generators write for themselves, not for readers: Sphinx (`genindex*.html`,
 * `search.html`, `py-modindex.html`, `_sources/`, `_static/`, `_modules/`…), DocBook
 * (`bookindex.html`), MkDocs (`404.html`, `search/`), Docusaurus and VitePress (`404.html`,
 * `search/`), Hugo (`tags/`, `categories/`).
 */
export const GENERATED_PAGES = [
  'genindex*.html', 'search.html', 'py-modindex.html', 'modindex.html', 'np-modindex.html', 'bookindex.html', '404.html',
  '_sources/', '_static/', '_images/', '_modules/', '_downloads/',
  // Folders with names a site's own pages could have are generated only at the top.
  '/search/', '/404/', '/tags/', '/categories/',
];

/** A glob as a regular expression over a whole path; every character but the wildcards is literal. */
export function globPattern(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === '*' && glob[index + 1] === '*') {
      // `**/` is zero or more folders; a final `**` is everything below.
      if (glob[index + 2] === '/') {
        source += '(?:[^/]*/)*';
        index += 2;
      } else {
        source += '.*';
        index += 1;
      }
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function matcher(globs: string[]): (path: string) => boolean {
  const patterns = globs.map((glob) => {
    const rooted = glob.startsWith('/');
    // A trailing `/` names a folder: everything below it.
    const whole = glob.replace(/^\/+/, '').replace(/\/$/, '/**');
    const pattern = globPattern(whole);
    const name = whole.replace(/\/\*\*$/, '');
    // Without a `/` (a trailing one aside), a glob names a file or folder at any depth.
    if (!rooted && !name.includes('/')) {
      const folder = whole.endsWith('/**');
      const namePattern = globPattern(name);
      return (path: string) => {
        const parts = path.split('/');
        return pattern.test(path) || (folder ? parts.slice(0, -1) : parts).some((part) => namePattern.test(part));
      };
    }
    return (path: string) => pattern.test(path);
  });
  return (path) => patterns.some((test) => test(path));
}

/** Whether `path` (relative, `/`-separated) is taken under `selection`. */
export function selects(selection: Selection): (path: string) => boolean {
  const excluded = matcher(selection.exclude);
  const included = matcher(selection.include);
  const generated = matcher(GENERATED_PAGES);
  return (path) => {
    const clean = path.replace(/^\/+/, '');
    if (!selection.includeGenerated && generated(clean)) return false;
    if (excluded(clean)) return false;
    return selection.include.length === 0 || included(clean);
  };
}
