/**
 * A page's title as a reader would say it: entities decoded, whitespace collapsed, and the
 * site name that every page of a source repeats (" — Python 3.11.2 documentation",
 * " | Acme Docs", "PostgreSQL: Documentation: 15: ") taken off.
 *
 * The site name is found two ways, neither of which guesses:
 * - against the page's own first heading: a title that is the heading plus a separator and
 *   more (or more and a separator, then the heading) is the heading;
 * - against the other pages of the same source (`ingest` sees them all): an ending that
 *   starts with a separator and that most titles share is the site's name.
 */
import { walkHtml } from './html-events.js';

/** What separates a page's name from the site's name in a `<title>`. */
const SEPARATOR = /^\s*[-–—|:·•»›~/]+\s+|^\s+[-–—|:·•»›~/]+\s*/;

/** Decodes HTML entities (`&#8212;`, `&amp;`) in a title written by a crawler; any `<` stays text. */
export function decodeTitleEntities(title: string): string {
  if (!title.includes('&')) return title;
  let text = '';
  // A title element is read as text with entities, never as tags: exactly what a raw title needs.
  walkHtml(`<title>${title.replace(/<\/title/gi, '&lt;/title')}</title>`, {
    open() {},
    close() {},
    text(chunk) {
      text += chunk;
    },
  });
  return text;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const folded = (text: string) => collapse(text).normalize('NFKC').toLowerCase();

/**
 * The title without the site name around the page's heading. `heading` is the plain text of
 * the page's first heading; without one, the title is only cleaned.
 */
export function withoutSiteName(title: string, heading: string | undefined): string {
  const clean = collapse(title);
  if (!heading) return clean;
  const name = collapse(heading);
  const lowerTitle = folded(clean);
  const lowerName = folded(name);
  if (!lowerName || lowerTitle === lowerName || lowerTitle.length !== clean.length || lowerName.length !== name.length) return clean;
  if (lowerTitle.startsWith(lowerName) && SEPARATOR.test(clean.slice(name.length)) && /\S/.test(clean.slice(name.length).replace(SEPARATOR, ''))) {
    return clean.slice(0, name.length);
  }
  if (lowerTitle.endsWith(lowerName)) {
    const before = clean.slice(0, clean.length - name.length);
    if (/\S/.test(before) && /(?:\s+|^)[-–—|:·•»›~/]+\s*$|:\s*$/.test(before)) return clean.slice(clean.length - name.length);
  }
  return clean;
}

/** Titles sharing one site name: at least this many pages, and this share of the source's titles. */
const MIN_SHARED_TITLES = 3;
const MIN_SHARED_SHARE = 0.6;

/**
 * The ending most titles of a source share, when it starts with a separator (" — Python
 * 3.11.2 documentation"); undefined when there is none. Linear in the titles' total length.
 */
export function sharedTitleSuffix(titles: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const title of new Set(titles.map(collapse))) {
    // Each ending of the title that starts at a separator, longest first.
    const seen = new Set<string>();
    const pattern = /\s+[-–—|·•»›~/]+\s+/g;
    for (let match = pattern.exec(title); match; match = pattern.exec(title)) {
      const suffix = title.slice(match.index);
      if (match.index === 0 || suffix.length === title.length || seen.has(suffix)) continue;
      seen.add(suffix);
      counts.set(suffix, (counts.get(suffix) ?? 0) + 1);
    }
  }
  const total = new Set(titles.map(collapse)).size;
  let best: string | undefined;
  let bestCount = 0;
  for (const [suffix, count] of counts) {
    if (count < MIN_SHARED_TITLES || count < total * MIN_SHARED_SHARE) continue;
    // The longest shared ending is the whole site name, not a tail of it.
    if (count > bestCount || (count === bestCount && suffix.length > (best?.length ?? 0))) {
      best = suffix;
      bestCount = count;
    }
  }
  return best;
}

/** The title without `suffix` when it ends with it and keeps some text of its own. */
export function withoutSuffix(title: string, suffix: string | undefined): string {
  const clean = collapse(title);
  if (!suffix || !clean.endsWith(suffix) || clean.length === suffix.length) return clean;
  return clean.slice(0, clean.length - suffix.length).trim() || clean;
}
