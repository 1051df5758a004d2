/**
 * From what a visitor typed to a PostgreSQL tsquery. Nothing typed ever reaches the tsquery
 * parser as syntax: each word is stemmed by PostgreSQL itself (`plainto_tsquery`, which
 * ignores operators), prefixes only from words made of letters and digits, and the
 * query is assembled from PostgreSQL's own output. Each word becomes a group of variants
 * (its stems in every configuration the sources use, its typo corrections, the words it
 * begins when it is the last one); a section must match every group (AND), or, when too
 * few do, as many groups as it can (OR).
 */
import { hasUnspacedScript, identifierIn, isKeyword, keywordsIn, operatorsIn, spaceUnspacedScripts, stopWordCalls, typedInCapitals } from './language.js';
import type { HighlightTerms } from './snippet.js';

/**
 * `identifier`: a name written with `_`, `.` or `-` (`pg_hba.conf`, `__init__`), a keyword in
 * capitals (`HAVING`), a call of a function named by a stop word (`now()`) or an operator
 * (`->>`, `//`), matched whole as written; `identifier-prefix`, one still being typed.
 */
export type ChunkKind = 'plain' | 'prefix' | 'phrase' | 'identifier' | 'identifier-prefix';

export interface QueryChunk {
  /** Lowercased, NFC; for `phrase`, characters of unspaced scripts are spaced apart. */
  text: string;
  kind: ChunkKind;
  /** Edits a typo correction may be away from the word: 0 (none), 1 (4+ letters), 2 (8+), none past 64. */
  maxEdits: number;
}

/**
 * Longer input is cut: questions pasted into a search box still work, and cost is bounded.
 * Past MAX_GROUPS words, the first ones and the last are kept.
 */
export const MAX_QUERY_CHARS = 1000;
export const MAX_GROUPS = 12;
/** Longer words are not spell-corrected: no one misspells them, and comparing them costs in their length squared. */
export const MAX_CORRECTED_CHARS = 64;
/** A last word shorter than this is not completed: one letter would match most of the index. */
export const MIN_PREFIX_CHARS = 2;

/** The fewest letters of a keyword (`WHERE`, `HAVING`) still being typed that are read as the keyword rather than a beginning. */
const MIN_KEYWORD_TYPED = 4;

const ALPHANUMERIC = /^[\p{L}\p{M}\p{N}]+$/u;
const LETTERS = /^[\p{L}\p{M}]+$/u;
/** Words joined by `_`, `.` or `-` (pg_dump, postgresql.conf): still safe to give to to_tsquery with `:*`. */
const PREFIXABLE = /^[\p{L}\p{M}\p{N}]+(?:[_.-][\p{L}\p{M}\p{N}]+)*$/u;
const HAS_WORD_CHARACTER = /[\p{L}\p{N}]/u;

export function parseQuery(query: string): QueryChunk[] {
  const input = query.normalize('NFC').slice(0, MAX_QUERY_CHARS);
  // A space after the last word says it is complete; otherwise the visitor may still be typing it.
  const lastIsComplete = /\s$/.test(input);
  const typed = input.split(/\s+/).filter((piece) => HAS_WORD_CHARACTER.test(piece) || operatorsIn(piece).length > 0);
  const pieces = typed.map((piece) => piece.toLowerCase());
  // A keyword written in capitals ("WHERE", "HAVING") is one, unless the whole query is typed in capitals; a complete
  // query of nothing but keywords ("having ", "is not ") means them however it is written (being typed, "over" may be "overview").
  const keywords = typedInCapitals(input) ? [] : keywordsIn(typed);
  const bare = pieces.map((piece) => piece.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, ''));
  const onlyKeywords = lastIsComplete && !keywords.some(Boolean) && bare.every(isKeyword);
  // An identifier being typed (`shared_b`) stays whole: it begins identifiers as written.
  // Another last word joined by `_` or `-` (`x_y`) becomes its parts, only the last of them
  // a prefix: to_tsquery would make every part of `x_y:*` a prefix, and `x:*` matches half
  // the index.
  const last = pieces.at(-1);
  if (last && !lastIsComplete && !identifierIn(last) && PREFIXABLE.test(last) && /[_-]/.test(last)) {
    pieces.splice(-1, 1, ...last.split(/[_-]+/).filter((part) => HAS_WORD_CHARACTER.test(part)));
  }
  const chunks: QueryChunk[] = [];
  const seen = new Set<string>();
  // Each chunk once: a word typed twice is looked up once.
  const add = (chunk: QueryChunk) => {
    const key = `${chunk.kind}:${chunk.text}`;
    if (seen.has(key)) return;
    seen.add(key);
    chunks.push(chunk);
  };
  pieces.forEach((piece, index) => {
    // An operator (`->>`, `//`, `@>`) is looked up as written, as an identifier is, whether alone or between words (`data->>'name'`).
    for (const operator of operatorsIn(piece)) add({ text: operator, kind: 'identifier', maxEdits: 0 });
    if (!HAS_WORD_CHARACTER.test(piece)) return;
    const isLast = index === pieces.length - 1;
    let chunk: QueryChunk;
    const identifier = identifierIn(piece);
    // A short one still being typed ("IN", "on") may be the start of a word ("INSERT", "online").
    const keyword = isLast && !lastIsComplete && piece.length < MIN_KEYWORD_TYPED ? undefined : (keywords[index] ?? (onlyKeywords ? bare[index] : undefined));
    // A call of a function named by a stop word (`now()`, `any(iterable)`) is that function; in capitals (`ANY(`) it is the keyword.
    const call = identifier ? undefined : stopWordCalls(typed[index]!).find((found) => piece.replace(/^[^\p{L}]+/u, '').startsWith(found.slice(0, -1)));
    if (call) chunk = { text: call, kind: 'identifier', maxEdits: 0 };
    else if (keyword) chunk = { text: keyword, kind: 'identifier', maxEdits: 0 };
    else if (identifier) chunk = { text: identifier, kind: isLast && !lastIsComplete ? 'identifier-prefix' : 'identifier', maxEdits: 0 };
    else if (hasUnspacedScript(piece)) chunk = { text: spaceUnspacedScripts(piece).trim(), kind: 'phrase', maxEdits: 0 };
    else if (isLast && !lastIsComplete && PREFIXABLE.test(piece) && [...piece].length >= MIN_PREFIX_CHARS) {
      chunk = { text: piece, kind: 'prefix', maxEdits: typoBudget(piece) };
    } else if (isLast && !lastIsComplete && pieces.length > 1 && ALPHANUMERIC.test(piece)) {
      return; // A single character still being typed after other words: wait for more.
    } else chunk = { text: piece, kind: 'plain', maxEdits: typoBudget(piece) };
    add(chunk);
  });
  // Keep the last word (it may be a prefix) when cutting a long question down.
  return chunks.length > MAX_GROUPS ? [...chunks.slice(0, MAX_GROUPS - 1), chunks[chunks.length - 1]!] : chunks;
}

/** One edit for words of 4 letters or more, two from 8; none for shorter or longer words, or words with digits. */
export function typoBudget(word: string): number {
  if (word.length > MAX_CORRECTED_CHARS || !LETTERS.test(word) || hasUnspacedScript(word)) return 0;
  const length = [...word].length;
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

/**
 * The misspellings one swap of adjacent letters away ("foriegn" → "foreign"): Levenshtein
 * counts a swap as two edits, people make it as one, so the database measures the distance
 * to these too, plus one.
 */
export function adjacentSwaps(word: string): string[] {
  const letters = [...word];
  const swaps = new Set<string>();
  for (let index = 0; index + 1 < letters.length; index++) {
    if (letters[index] === letters[index + 1]) continue;
    const swapped = [...letters];
    [swapped[index], swapped[index + 1]] = [swapped[index + 1]!, swapped[index]!];
    swaps.add(swapped.join(''));
  }
  return [...swaps];
}

const MAX_TWO_DELETION_LETTERS = 12;

/**
 * A word's deletion neighbourhood: itself and every spelling with up to `edits` letters
 * taken out. The vocabulary keeps each word with its one-letter deletions
 * (`search_deletions`), so a dictionary word one edit away shares one of these; with two
 * edits allowed, deletions of two letters find a word with a letter changed and one added.
 * Past twelve letters the two-letter deletions grow many and the trigram index takes over.
 */
export function deletionNeighbourhood(word: string, edits: number): string[] {
  const spellings = new Set([word]);
  const rounds = Math.min(edits, [...word].length > MAX_TWO_DELETION_LETTERS ? 1 : 2);
  let last = [word];
  for (let round = 0; round < rounds; round++) {
    const next: string[] = [];
    for (const spelling of last) {
      const letters = [...spelling];
      for (let index = 0; index < letters.length; index++) {
        const shorter = letters.slice(0, index).join('') + letters.slice(index + 1).join('');
        if (!spellings.has(shorter)) {
          spellings.add(shorter);
          next.push(shorter);
        }
      }
    }
    last = next;
  }
  return [...spellings];
}

/** The words of a query that are complete (not a prefix still being typed), for a phrase match. */
export function phraseText(chunks: QueryChunk[]): string {
  const words = chunks.filter((chunk) => chunk.kind === 'plain').map((chunk) => chunk.text);
  return words.length > 1 ? words.join(' ') : '';
}

/** One word of the query as the database resolved it. */
export interface ResolvedGroup {
  /** 1-based position among the chunks. */
  group: number;
  /** tsquery text of every variant, e.g. `'vaccum':* | 'vacuum'`. */
  query: string;
  /** Pages holding the word's stems (or those of its corrections or completions). */
  pages: number;
  /** Corrections used, e.g. `vacuum` for `vaccum`. */
  corrections: string[];
}

/** What to mark in snippets: the words as typed and corrected, the stems matched, prefixes, unspaced phrases. */
export function highlightTerms(chunks: QueryChunk[], groups: ResolvedGroup[]): HighlightTerms {
  const terms: HighlightTerms = { words: [], stems: [], prefixes: [], phrases: [] };
  for (const group of groups) {
    const chunk = chunks[group.group - 1];
    if (!chunk) continue;
    if (chunk.kind === 'phrase') {
      terms.phrases.push(chunk.text.replace(/ /g, ''));
      continue;
    }
    terms.words.push(chunk.text, ...group.corrections);
    if (chunk.kind === 'prefix') terms.prefixes.push(chunk.text);
    // An operator is shown where it is written (`->>`), as it is written.
    if (chunk.kind === 'identifier' && !HAS_WORD_CHARACTER.test(chunk.text)) terms.phrases.push(chunk.text);
    // Snippets mark words: an identifier is shown by its words (`shared`, `buffers`), the last one being typed.
    if (chunk.kind === 'identifier' || chunk.kind === 'identifier-prefix') {
      const parts = chunk.text.split(/[_.-]+/).filter(Boolean);
      if (chunk.kind === 'identifier-prefix' && parts.length > 0) terms.prefixes.push(parts.pop()!);
      terms.words.push(...parts);
    }
    // A word the pages hyphenate ("btree" matching `b-tree`) is marked by the words of the form matched, those of 3 letters or more.
    terms.stems.push(...lexemes(group.query).flatMap((lexeme) => (lexeme.includes('-') ? lexeme.split('-').filter((part) => part.length >= 3) : [lexeme])));
  }
  return terms;
}

/** The lexemes of tsquery text as PostgreSQL prints it: `'configur':* & 'pg' <-> 'dump'`. */
function lexemes(query: string): string[] {
  return [...query.matchAll(/'((?:[^']|'')*)'/g)].map((match) => match[1]!.replace(/''/g, "'"));
}
