/**
 * From what a visitor typed to a PostgreSQL tsquery. Nothing typed ever reaches the tsquery
 * parser as syntax: each word is stemmed by PostgreSQL itself (`plainto_tsquery`, which
 * ignores operators), prefixes only from words made of letters and digits, and the
 * query is assembled from PostgreSQL's own output. Each word becomes a group of variants
 * (its stems in every configuration the sources use, its typo corrections, the words it
 * begins when it is the last one); a section must match every group (AND), or, when too
 * few do, as many groups as it can (OR).
 */
import type { Queryable } from '../store/db.js';
import { hasUnspacedScript, spaceUnspacedScripts, textSearchConfig } from './language.js';
import type { HighlightTerms } from './snippet.js';

export type ChunkKind = 'plain' | 'prefix' | 'phrase';

export interface QueryChunk {
  /** Lowercased, NFC; for `phrase`, characters of unspaced scripts are spaced apart. */
  text: string;
  kind: ChunkKind;
  /** Edits a typo correction may be away from the word: 0 (none), 1 (4+ letters), 2 (8+). */
  maxEdits: number;
}

/** Longer input is cut: questions pasted into a search box still work, and cost is bounded. */
export const MAX_QUERY_CHARS = 1000;
export const MAX_GROUPS = 12;
/** A last word shorter than this is not completed: one letter would match most of the index. */
export const MIN_PREFIX_CHARS = 2;

const ALPHANUMERIC = /^[\p{L}\p{M}\p{N}]+$/u;
const LETTERS = /^[\p{L}\p{M}]+$/u;
/** Words joined by `_`, `.` or `-` (pg_dump, postgresql.conf): still safe to give to to_tsquery with `:*`. */
const PREFIXABLE = /^[\p{L}\p{M}\p{N}]+(?:[_.-][\p{L}\p{M}\p{N}]+)*$/u;
const HAS_WORD_CHARACTER = /[\p{L}\p{N}]/u;

export function parseQuery(query: string): QueryChunk[] {
  const input = query.normalize('NFC').slice(0, MAX_QUERY_CHARS);
  // A space after the last word says it is complete; otherwise the visitor may still be typing it.
  const lastIsComplete = /\s$/.test(input);
  const pieces = input.toLowerCase().split(/\s+/).filter((piece) => HAS_WORD_CHARACTER.test(piece));
  const chunks: QueryChunk[] = [];
  const seen = new Set<string>();
  pieces.forEach((piece, index) => {
    const isLast = index === pieces.length - 1;
    let chunk: QueryChunk;
    if (hasUnspacedScript(piece)) chunk = { text: spaceUnspacedScripts(piece).trim(), kind: 'phrase', maxEdits: 0 };
    else if (isLast && !lastIsComplete && PREFIXABLE.test(piece) && [...piece].length >= MIN_PREFIX_CHARS) {
      chunk = { text: piece, kind: 'prefix', maxEdits: typoBudget(piece) };
    } else if (isLast && !lastIsComplete && pieces.length > 1 && ALPHANUMERIC.test(piece)) {
      return; // A single character still being typed after other words: wait for more.
    } else chunk = { text: piece, kind: 'plain', maxEdits: typoBudget(piece) };
    const key = `${chunk.kind}:${chunk.text}`;
    if (seen.has(key)) return;
    seen.add(key);
    chunks.push(chunk);
  });
  // Keep the last word (it may be a prefix) when cutting a long question down.
  return chunks.length > MAX_GROUPS ? [...chunks.slice(0, MAX_GROUPS - 1), chunks[chunks.length - 1]!] : chunks;
}

/** One edit for words of 4 letters or more, two from 8; none for shorter words or words with digits. */
export function typoBudget(word: string): number {
  if (!LETTERS.test(word) || hasUnspacedScript(word)) return 0;
  const length = [...word].length;
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

/** One word of the query with everything it may match. */
export interface QueryGroup {
  chunk: QueryChunk;
  /** tsquery text matching this word in any of its variants, e.g. `'vacuum' | 'vaccum'`. */
  query: string;
  /** tsquery text of the word as typed (no typo corrections). */
  exactQuery: string;
  /** Pages holding the word (or its best correction): the rarer, the more it says. */
  pages: number;
  /** Corrections used, e.g. `vacuum` for `vaccum`. */
  corrections: string[];
}

export interface QueryPlan {
  groups: QueryGroup[];
  highlight: HighlightTerms;
}

interface VariantRow {
  grp: number;
  word: string;
  distance: number;
  pages: number;
  completes: boolean;
  query: string;
}

/** Corrections further than this from the word, or rarer, are noise: this many at most per word. */
const MAX_CORRECTIONS = 3;
/** A word that exists is still corrected when a neighbour occurs in this many times more pages (a typo in the content itself). */
const CORRECT_EXISTING_RATIO = 20;

/**
 * Resolves the chunks against the index in one round trip: the configurations of the
 * sources, each word's stems in them, typo corrections from the organisation's vocabulary
 * (trigram index first, so Levenshtein runs on a handful of candidates only) and how many
 * pages hold each word.
 */
export async function planQuery(
  db: Queryable,
  scope: { organisationId: string; sources: string[]; language?: string },
  chunks: QueryChunk[],
): Promise<QueryPlan> {
  const extraConfigs = scope.language ? [textSearchConfig(scope.language)] : [];
  const rows = await db.query<VariantRow>(
    `WITH config AS (
       SELECT config FROM search_configs WHERE organisation_id = $1 AND source_id = ANY($2::text[])
       UNION SELECT unnest($3::text[])
     ),
     chunk AS (
       SELECT * FROM unnest($4::int[], $5::text[], $6::text[], $7::int[], $8::text[]) AS chunk(grp, text, kind, max_edits, pattern)
     ),
     variant AS (
       SELECT chunk.grp, chunk.text AS word, chunk.kind, 0 AS distance,
              coalesce((SELECT pages FROM search_vocabulary
                         WHERE organisation_id = $1 AND word = chunk.text), 0) AS pages,
              chunk.kind = 'prefix' AND EXISTS (SELECT 1 FROM search_vocabulary
                         WHERE organisation_id = $1 AND word LIKE chunk.pattern AND word <> chunk.text AND pages > 0) AS completes
         FROM chunk
       UNION ALL
       SELECT chunk.grp, candidate.word, 'plain', candidate.distance, candidate.pages, false
         FROM chunk CROSS JOIN LATERAL (
           SELECT word, pages, levenshtein_less_equal(word, chunk.text, chunk.max_edits) AS distance
             FROM search_vocabulary
            WHERE organisation_id = $1 AND word % chunk.text AND word <> chunk.text AND pages > 0
         ) candidate
        WHERE chunk.max_edits > 0 AND candidate.distance <= chunk.max_edits
     )
     SELECT variant.grp, variant.word, variant.distance, variant.pages, variant.completes,
            (CASE variant.kind
               WHEN 'prefix' THEN to_tsquery(config.config::regconfig, variant.word || ':*')
               WHEN 'phrase' THEN phraseto_tsquery(config.config::regconfig, variant.word)
               ELSE plainto_tsquery(config.config::regconfig, variant.word)
             END)::text AS query
       FROM variant CROSS JOIN config`,
    [
      scope.organisationId,
      scope.sources,
      extraConfigs,
      chunks.map((_, index) => index),
      chunks.map((chunk) => chunk.text),
      chunks.map((chunk) => chunk.kind),
      chunks.map((chunk) => chunk.maxEdits),
      chunks.map((chunk) => `${chunk.text.replace(/[\\%_]/g, '\\$&')}%`),
    ],
  );

  const highlight: HighlightTerms = { words: [], stems: [], prefixes: [], phrases: [] };
  const groups: QueryGroup[] = [];
  chunks.forEach((chunk, index) => {
    const variants = rows.filter((row) => row.grp === index);
    const typed = variants.filter((row) => row.distance === 0);
    const typedPages = typed[0]?.pages ?? 0;
    const completes = typed.some((row) => row.completes);
    // A prefix that completes to real words is a word being typed, not a typo.
    const corrections = chunk.kind === 'prefix' && completes ? [] : chooseCorrections(variants, typedPages);
    const used = [...typed, ...variants.filter((row) => corrections.includes(row.word))];
    const query = orQuery(used.map((row) => row.query));
    if (!query) return; // stop words only, in every configuration
    groups.push({
      chunk,
      query,
      exactQuery: orQuery(typed.map((row) => row.query)),
      pages: Math.max(typedPages, ...variants.filter((row) => corrections.includes(row.word)).map((row) => row.pages)),
      corrections,
    });
    if (chunk.kind === 'phrase') highlight.phrases.push(chunk.text.replace(/ /g, ''));
    else {
      highlight.words.push(chunk.text, ...corrections);
      if (chunk.kind === 'prefix') highlight.prefixes.push(chunk.text);
      for (const row of used) highlight.stems.push(...lexemes(row.query));
    }
  });
  return { groups, highlight };
}

function chooseCorrections(variants: VariantRow[], typedPages: number): string[] {
  const seen = new Set<string>();
  return variants
    .filter((row) => row.distance > 0 && (typedPages === 0 || row.pages >= typedPages * CORRECT_EXISTING_RATIO))
    .sort((a, b) => a.distance - b.distance || b.pages - a.pages || (a.word < b.word ? -1 : 1))
    .map((row) => row.word)
    .filter((word) => !seen.has(word) && seen.add(word))
    .slice(0, MAX_CORRECTIONS);
}

/** `(a) | (b)` over distinct non-empty tsquery texts; '' when none is left. */
function orQuery(queries: string[]): string {
  const distinct = [...new Set(queries.filter((query) => query.trim() !== ''))];
  return distinct.length <= 1 ? (distinct[0] ?? '') : distinct.map((query) => `( ${query} )`).join(' | ');
}

/** The lexemes of tsquery text as PostgreSQL prints it: `'configur':* & 'pg' <-> 'dump'`. */
function lexemes(query: string): string[] {
  return [...query.matchAll(/'((?:[^']|'')*)'/g)].map((match) => match[1]!.replace(/''/g, "'"));
}

/** All groups must match. */
export function andQuery(groups: QueryGroup[], pick: (group: QueryGroup) => string = (group) => group.query): string {
  return groups.map((group) => `( ${pick(group)} )`).join(' & ');
}

/** Any group may match. */
export function anyQuery(groups: QueryGroup[]): string {
  return groups.map((group) => `( ${group.query} )`).join(' | ');
}
