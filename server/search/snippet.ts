/**
 * Snippets: a short window of a section's text around the words that matched, those words
 * wrapped in `<mark>`, every other character HTML-escaped. Built here over plain text, not
 * with ts_headline: ts_headline returns the document's characters unescaped, and the
 * `<mark>` tags must be the only markup a widget ever renders from page content.
 */

/** What to highlight, as the query planner resolved it. */
export interface HighlightTerms {
  /** Words as typed or as corrected (`vacuum` for `vaccum`), lowercased. */
  words: string[];
  /** Stems PostgreSQL matched on (`configur`); a word starting with one matches. */
  stems: string[];
  /** Prefixes typed so far (`ind` of "create ind"). */
  prefixes: string[];
  /** Runs of Chinese, Japanese, Korean or Thai text, matched as substrings. */
  phrases: string[];
}

export const SNIPPET_LENGTH = 180;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

const ASCII = /^[\x00-\x7f]*$/;
/** A letter, mark or digit outside ASCII: a word character that ASCII scanning would miss. */
const NON_ASCII_WORD_CHARACTER = /(?![\x00-\x7f])[\p{L}\p{M}\p{N}]/u;

/** Lowercase without accents, so `Häuser` meets the German stem `haus`. */
export function fold(text: string): string {
  // Most words of most pages are ASCII: no accents to take off, and normalising each one is a large share of a search's time.
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

const TOKEN = /[\p{L}\p{M}\p{N}]+/gu;
/** A character of a word (TOKEN) in lowercased ASCII text. */
function isAsciiLetterOrDigit(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/** `text` matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface Span {
  start: number;
  end: number;
  term: string;
}

/** The terms of one query, folded and compiled once for all the sections it shows. */
interface PreparedTerms {
  words: Set<string>;
  stems: string[];
  prefixes: string[];
  /** Lowercased, without repeats or empty ones. */
  phrases: string[];
  /** Beginnings of the words that can match, in ASCII text; undefined when none is ASCII. */
  asciiBeginnings?: RegExp;
}

const prepared = new WeakMap<HighlightTerms, PreparedTerms>();

function prepare(terms: HighlightTerms): PreparedTerms {
  let entry = prepared.get(terms);
  if (entry) return entry;
  const words = new Set(terms.words.map(fold));
  const stems = [...new Set(terms.stems.map(fold))].filter((stem) => stem.length >= 2);
  const prefixes = [...new Set(terms.prefixes.map(fold))].filter(Boolean);
  // Only a word beginning like a term can match one (matchingTerm): the regular expression
  // engine finds those beginnings, so the many other words are never looked at one by one.
  // ASCII only, as the texts it is used on are: a Unicode pattern takes longer to compile than to run.
  const beginnings = [...words, ...prefixes, ...stems, ...stems.filter((stem) => stem.endsWith('i')).map((stem) => stem.slice(0, -1))];
  const ascii = [...new Set(beginnings)].filter((beginning) => beginning && ASCII.test(beginning));
  entry = {
    words,
    stems,
    prefixes,
    phrases: [...new Set(terms.phrases.map((phrase) => phrase.toLowerCase()))].filter(Boolean),
    asciiBeginnings: ascii.length > 0 ? new RegExp(`(?<![a-z0-9])(?:${ascii.map(escapeRegExp).join('|')})`, 'g') : undefined,
  };
  prepared.set(terms, entry);
  return entry;
}

/** Where in `text` the query's terms occur, in order, not overlapping. */
export function findMatches(text: string, terms: HighlightTerms): Span[] {
  const { words, stems, prefixes, phrases, asciiBeginnings } = prepare(terms);
  const spans: Span[] = [];
  const lower = text.toLowerCase();
  // Words made of ASCII only (typographic quotes, dashes and arrows around them are common):
  // lowercasing folds them and keeps every index.
  if (ASCII.test(text) || !NON_ASCII_WORD_CHARACTER.test(text)) {
    if (asciiBeginnings) {
      asciiBeginnings.lastIndex = 0;
      for (let match = asciiBeginnings.exec(lower); match; match = asciiBeginnings.exec(lower)) {
        const start = match.index;
        let end = start;
        while (end < lower.length && isAsciiLetterOrDigit(lower.charCodeAt(end))) end++;
        if (end === start) continue; // a term beginning with punctuation, which no word does
        const term = matchingTerm(lower.slice(start, end), words, stems, prefixes);
        if (term !== undefined) spans.push({ start, end, term });
        asciiBeginnings.lastIndex = end;
      }
    }
  } else {
    for (const match of text.matchAll(TOKEN)) {
      const term = matchingTerm(fold(match[0]), words, stems, prefixes);
      if (term !== undefined) spans.push({ start: match.index, end: match.index + match[0].length, term });
    }
  }
  // Lowercasing keeps the length of almost every text; when it does not, indexes would not carry over.
  if (lower.length === text.length) {
    for (const phrase of phrases) {
      for (let at = lower.indexOf(phrase); at !== -1; at = lower.indexOf(phrase, at + phrase.length)) {
        spans.push({ start: at, end: at + phrase.length, term: phrase });
      }
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of spans) {
    if (merged.length > 0 && span.start < merged[merged.length - 1]!.end) continue;
    merged.push(span);
  }
  return merged;
}

function matchingTerm(token: string, words: Set<string>, stems: string[], prefixes: string[]): string | undefined {
  if (words.has(token)) return token;
  for (const prefix of prefixes) if (token.startsWith(prefix)) return prefix;
  for (const stem of stems) {
    // Stems are word beginnings with a short ending cut (configur·ation, queri → query).
    if (token === stem) return stem;
    if (stem.endsWith('i') && token.startsWith(stem.slice(0, -1)) && token.length <= stem.length + 3) return stem;
    if (token.startsWith(stem) && token.length - stem.length <= (stem.length >= 4 ? 6 : 2)) return stem;
  }
  return undefined;
}

/**
 * The snippet of one section: the window of about SNIPPET_LENGTH characters that holds
 * the most different matched terms, cut at word boundaries, with `…` where text was left
 * out. A section matched only by its title or headings shows its beginning.
 */
export function buildSnippet(text: string, terms: HighlightTerms, length = SNIPPET_LENGTH): string {
  // Every run of white space becomes one space; a lone space, the most of them, is left alone.
  const flat = text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
  if (!flat) return '';
  const spans = findMatches(flat, terms);
  let start = 0;
  if (spans.length > 0) {
    start = bestWindowStart(spans, length);
    // Some words of lead-in before the first match, so it does not open the snippet cold.
    start = Math.max(0, start - Math.floor(length / 6));
  }
  let end = Math.min(flat.length, start + length);
  if (end < flat.length) end = wordBoundaryBefore(flat, end, start);
  if (start > 0) start = wordBoundaryAfter(flat, start, end);
  // A window that had to move past the end is pulled back to show a full snippet.
  if (end === flat.length && end - start < length && start > 0) start = wordBoundaryAfter(flat, Math.max(0, end - length), end);

  let html = start > 0 ? '…' : '';
  let at = start;
  for (const span of spans) {
    if (span.start < start || span.end > end) continue;
    html += escapeHtml(flat.slice(at, span.start)) + '<mark>' + escapeHtml(flat.slice(span.start, span.end)) + '</mark>';
    at = span.end;
  }
  html += escapeHtml(flat.slice(at, end));
  if (end < flat.length) html += '…';
  return html;
}

/** The start of the window (a match's start) covering the most distinct terms, then the most matches. */
function bestWindowStart(spans: Span[], length: number): number {
  let best = { start: spans[0]!.start, distinct: 0, count: 0 };
  let last = 0;
  for (let first = 0; first < spans.length; first++) {
    while (last < spans.length && spans[last]!.end - spans[first]!.start <= length) last++;
    const inside = spans.slice(first, last);
    const distinct = new Set(inside.map((span) => span.term)).size;
    if (distinct > best.distinct || (distinct === best.distinct && inside.length > best.count)) {
      best = { start: spans[first]!.start, distinct, count: inside.length };
    }
  }
  return best.start;
}

function wordBoundaryBefore(text: string, index: number, floor: number): number {
  const space = text.lastIndexOf(' ', index);
  return space > floor + 20 ? space : keepPairs(text, index);
}

function wordBoundaryAfter(text: string, index: number, ceiling: number): number {
  const space = text.indexOf(' ', index);
  return space !== -1 && space < ceiling - 20 && space - index < 30 ? space + 1 : keepPairs(text, index);
}

/** Never cut between the two halves of a surrogate pair. */
function keepPairs(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff ? index + 1 : index;
}
