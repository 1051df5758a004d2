/**
 * The folder-to-url rule, one for fixtures and `ingest`: a file's url is the base url (which
 * ends with `/`) plus its path relative to the folder. Markdown is what a site generator
 * turns into a page without extension, so `.md` is dropped and an `index.md` stands for its
 * folder (`guide/install.md` → `BASE/guide/install`, `guide/index.md` → `BASE/guide/`); HTML
 * is served as it is, so an `.html` file keeps its path.
 */
import { extname, sep } from 'node:path';

export const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown']);
export const HTML_EXTENSIONS = new Set(['.html', '.htm']);

/** The url of the file at `relativePath` (with the platform's separators) under `baseUrl`. */
export function urlOfFile(baseUrl: string, relativePath: string): string {
  const parts = relativePath.split(sep);
  const file = parts.pop()!;
  const extension = extname(file).toLowerCase();
  if (MARKDOWN_EXTENSIONS.has(extension)) {
    const stem = file.slice(0, -extension.length);
    parts.push(stem.toLowerCase() === 'index' ? '' : stem);
  } else {
    parts.push(file);
  }
  return new URL(parts.map(encodeURIComponent).join('/'), baseUrl).href;
}
