/**
 * Search over the sections of a widget's sources. This is the one entry point that the
 * search route and the answer engines' retrieval use.
 *
 * Two round trips: `search_run` (002_search.sql) resolves the words and ranks sections, in
 * PL/pgSQL so its statements are planned once per connection; then the texts of the hits
 * kept are read, not those of every section ranked (012_texts_of_hits.sql). What happens there:
 *
 * - Each word of the query (query.ts) matches through its stems in every text-search
 *   configuration the sources use; the last word, still being typed, as a prefix, and
 *   through the commonest words of the pages it begins; a word missing from the
 *   vocabulary of the sources searched (or much rarer than a neighbour) also through its nearest
 *   spellings: one edit for 4+ letters, two for 8+, a swap of two letters counting one.
 * - An identifier (`pg_hba.conf`, `__init__`, `os.path.join`) matches the identifier as
 *   written, which the indexer keeps whole beside the parser's words (language.ts).
 * - Two neighbouring words that the pages write as one ("default dict", "table space"), or a
 *   word with hyphens between its letters ("auto-vacuum"), also match the word joined; a
 *   word the pages never use ("colourscheme") matches two they do, side by side
 *   (015_joined_words.sql). A stop word is never joined to another word or split off.
 * - A word the pages write with hyphens ("btree", "builtin") also matches it so written
 *   ("B-tree", "built-in") where the pages use that form on a tenth as many pages or more
 *   (015_joined_words.sql too).
 * - Sections holding every word come first; when fewer than asked for do, sections
 *   holding some follow, always ranked below.
 * - Ranking: each word counts by how rare it is in the pages of the sources searched (BM25's
 *   inverse document frequency) times PostgreSQL's `ts_rank` of the section for that word
 *   alone, where the title counts ten times the body, a heading five times, the section's
 *   first paragraph twice, and length is normalised away; holding the words as typed, next
 *   to each other, counts 30% more. A bounded set of candidates is ranked (heading matches
 *   first, and only those when there are enough), so cost does not grow with the number of
 *   pages that mention a common word. Which of a common word's many sections are ranked is
 *   not a judgement of them: the body index is split into four buckets, and the first
 *   sections found, bucket by bucket, are taken. The bucket is a hash of the section's url,
 *   not of a random id, so the same pages pushed in the same order into two deployments are
 *   ranked from the same candidates.
 *
 * Here: a page's second and later sections are discounted, so one long page cannot fill
 * the list, and so are release notes unless the query asks about changes (not for answer
 * retrieval, which weighs them itself); a page named what was searched for ("threading",
 * "CREATE TABLE", "Backup and Restore") comes first, then an entry or a section it names
 * (namedSections; not for answer retrieval either); snippets are cut and escaped
 * (snippet.ts), unless the caller shows none (answer retrieval: `snippets: false`).
 */
import type { Hit } from '../../wire/contract.js';
import type { Queryable } from '../store/db.js';
import { readSectionTexts } from '../store/sections.js';
import { IDENTIFIER_MARK, isVocabularyWord, textSearchConfig, vocabularyWords } from './language.js';
import { ENTRY_KIND, NAME_TITLE, ownHeadingOf, PATH_SEPARATOR } from './sections.js';
import { CHANGES_ASKED, isReleaseNotes } from './release-notes.js';
import { adjacentSwaps, deletionNeighbourhood, highlightTerms, parseQuery, phraseText, type QueryChunk, type ResolvedGroup } from './query.js';
import { buildSnippet, escapeRegExp, type HighlightTerms } from './snippet.js';

/** The pages a search or a vocabulary lookup reads: those of some sources of an organisation (a widget's). */
export interface PagesSearched {
  organisationId: string;
  /** Only these sources are searched (a widget's sources). */
  sources: string[];
}

export interface SearchParams extends PagesSearched {
  query: string;
  limit: number;
  /** The visitor's language (`de`, `pt-BR`): the query is stemmed that way too, besides the pages' own languages. */
  language?: string;
  /** Whether hits carry a snippet (default true): answer retrieval reads their whole text and shows none, so it is spared cutting them. */
  snippets?: boolean;
  /**
   * Whether release notes rank lower unless the query asks about changes (default true), as a
   * visitor's search shows them. Answer retrieval ranks as the words alone do: its candidates
   * are weighed against the question, release notes among them, afterwards.
   */
  releaseNotesLower?: boolean;
  /**
   * Whether a page, an entry or a section named what was searched for comes first (default true), as a visitor's search
   * shows them. Answer retrieval looks up the names a question asks about itself (searchHeadings), and weighs its
   * candidates against the whole question.
   */
  namesFirst?: boolean;
}

/** A hit with the plain text of its section, for answer engines to quote from. */
export interface SectionHit extends Hit {
  text: string;
}

/**
 * Candidates ranked per query: sections whose title or headings match, then, unless
 * HEADINGS_ENOUGH of those were found, others that mention the words.
 */
const HEADING_CANDIDATES = 50;
const HEADINGS_ENOUGH = 10;
const BODY_CANDIDATES = 80;
/** Each further section of a page already listed counts this much less. */
const SAME_PAGE_DISCOUNT = 0.6;
/**
 * A section of release notes counts this much less, unless the query asks about versions or
 * changes: they mention most features in passing ("how big is my database" found three
 * releases' notes on the size functions before the page on disk usage).
 */
const RELEASE_NOTES_DISCOUNT = 0.5;
export const MAX_LIMIT = 100;

interface SectionRow {
  /** 0: holds every word; 1: all but one; 2: some. */
  tier: number;
  id: string;
  pageId: string;
  source: string;
  url: string;
  /** The section's place on its page: with the url and the source, what breaks a tie in score. */
  position: number;
  title: string;
  path: string;
  text: string;
  score: number;
}

/** A section as search_run ranks it: without its text, which is read for the hits kept. */
type RankedRow = Omit<SectionRow, 'text'>;

interface RunResult {
  groups: ResolvedGroup[];
  hits: RankedRow[];
  partial: RankedRow[];
}

/** Hits as a visitor receives them: without the section text kept for answer engines. */
export function publicHits(sections: SectionHit[]): Hit[] {
  return sections.map(({ text: _text, ...hit }) => hit);
}

export async function searchSections(db: Queryable, params: SearchParams): Promise<SectionHit[]> {
  return (await searchRun(db, params)).hits;
}

/**
 * Hits, and the words of the query (plain, or the last one being typed when it completes none)
 * that the pages searched use (`known`) and never use (`unknown`), the ones the search
 * read as another (`misspelt`: "decorater" → "decorator") with that spelling:
 * of its corrections one edit away (a swap of two neighbouring letters counting one), the one
 * the most hits hold, then the commonest. A rare word the pages do use is not among them, though the search also matched its
 * neighbours. Only a query with a correction is looked into. `typing`: the last word, when the
 * query ends while it is still being typed (no space after it).
 */
export async function searchSectionsSpelled(
  db: Queryable,
  params: SearchParams,
): Promise<{ hits: SectionHit[]; known: string[]; unknown: string[]; misspelt: Map<string, string>; typing?: string }> {
  const { hits, complete, chunks, groups } = await searchRun(db, params);
  const last = chunks.at(-1);
  const typing = last?.kind === 'prefix' ? last.text : undefined;
  const misspelt = new Map<string, string>();
  // A word being typed is one only when the search corrected it: else it may be the start of a word of the pages ("inst").
  const corrected = groups.filter((group) => group.corrections.length > 0 && ['plain', 'prefix'].includes(chunks[group.group - 1]?.kind ?? ''));
  if (corrected.length === 0) return { hits, known: [], unknown: [], misspelt, typing };
  // Only words the vocabulary could hold are known or unknown: not "a" or "v2", which no page's vocabulary lists.
  const typed = chunks
    .filter((chunk, index) => chunk.kind === 'plain' || (chunk.kind === 'prefix' && corrected.some((group) => group.group === index + 1)))
    .map((chunk) => chunk.text)
    .filter(isVocabularyWord);
  const pages = await vocabularyPages(db, params, [...typed, ...corrected.flatMap((group) => group.corrections)]);
  // "vacuum freze": of corrections equally near, the one the hits hold ("freeze" beside "vacuum", not the commoner "free"),
  // those holding every word of the query when there are any: the others may hold the correction alone.
  const hitWords = hits.slice(0, complete || hits.length).map((hit) => vocabularyWords(`${hit.title} ${hit.section ?? ''} ${hit.text}`));
  const heldBy = (word: string) => hitWords.filter((words) => words.has(word)).length;
  for (const group of corrected) {
    const word = chunks[group.group - 1]!.text;
    if (pages.has(word)) continue;
    // One edit away only: a word two edits from one of the pages' ("bookings", "looking") is more often another word than a typo.
    const near = group.corrections.filter((other) => editDistance(word, other) === 1).map((other) => ({ other, held: heldBy(other), pages: pages.get(other) ?? 0 }));
    const [best] = near.sort((a, b) => b.held - a.held || b.pages - a.pages || (a.other < b.other ? -1 : 1));
    if (best) misspelt.set(word, best.other);
  }
  return { hits, known: typed.filter((word) => pages.has(word)), unknown: typed.filter((word) => !pages.has(word)), misspelt, typing };
}

/** How many of the pages searched use each of these words, for those that some page uses. */
export async function vocabularyPages(db: Queryable, { organisationId, sources }: PagesSearched, words: string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ word: string; pages: number }>(
    `SELECT word, sum(pages) AS pages FROM search_vocabulary
      WHERE word = ANY($3::text[]) AND organisation_id = $1 AND source_id = ANY($2::text[]) AND pages > 0 GROUP BY word`,
    [organisationId, sources, words],
  );
  return new Map(rows.map((row) => [row.word, Number(row.pages)]));
}

/** Whether a word some page searched uses starts with this one: the last word of a query, still being typed ("fauc"). */
export async function completesWord(db: Queryable, { organisationId, sources }: PagesSearched, prefix: string): Promise<boolean> {
  const [row] = await db.query<{ found: boolean }>(
    `SELECT EXISTS (SELECT FROM search_vocabulary
                     WHERE word > $3 AND word < $3 || chr(1114111) AND organisation_id = $1 AND source_id = ANY($2::text[]) AND pages > 0) AS found`,
    [organisationId, sources, prefix],
  );
  return row?.found === true;
}

/**
 * For each of some beginnings, up to `limit` words the pages searched use that start with it,
 * commonest first: the forms a word takes in the pages ("sits", "sitting"). One query for all.
 */
export async function wordsStartingWith(db: Queryable, { organisationId, sources }: PagesSearched, prefixes: string[], limit: number): Promise<Map<string, string[]>> {
  const rows = await db.query<{ prefix: string; word: string }>(
    `SELECT asked.prefix, found.word
       FROM unnest($3::text[]) WITH ORDINALITY AS asked(prefix, position)
       CROSS JOIN LATERAL (
         SELECT word, sum(pages) AS pages FROM search_vocabulary
          WHERE word >= asked.prefix AND word < asked.prefix || chr(1114111) AND organisation_id = $1 AND source_id = ANY($2::text[]) AND pages > 0
          GROUP BY word ORDER BY sum(pages) DESC, word LIMIT $4
       ) AS found
      ORDER BY asked.position, found.pages DESC, found.word`,
    [organisationId, sources, [...new Set(prefixes)], limit],
  );
  const forms = new Map<string, string[]>(prefixes.map((prefix) => [prefix, []]));
  for (const row of rows) forms.get(row.prefix)!.push(row.word);
  return forms;
}

/** Edits from one word to another, a swap of two neighbouring letters counting one (as the database's corrections count them). */
function editDistance(from: string, to: string): number {
  const a = [...from];
  const b = [...to];
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i]![j] = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i]![j] = Math.min(rows[i]![j]!, rows[i - 2]![j - 2]! + 1);
    }
  return rows[a.length]![b.length]!;
}

/**
 * A word's letters without the punctuation around it ("dict?"), which the database joins to its neighbour's or splits
 * when it is a word of letters (LETTERS), or joins without its hyphens when they are between letters (HYPHENATED).
 */
const lettersOf = (text: string) => text.replace(/^[^\p{L}\p{M}]+|[^\p{L}\p{M}]+$/gu, '');
const LETTERS = /^[\p{L}\p{M}]+$/u;
const HYPHENATED = /^[\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)+$/u;

/** Hits, the first `complete` of them holding every word of the query, and the query's words as the search read them. */
async function searchRun(db: Queryable, params: SearchParams): Promise<{ hits: SectionHit[]; complete: number; chunks: QueryChunk[]; groups: ResolvedGroup[] }> {
  const limit = Math.max(0, Math.min(Math.floor(params.limit), MAX_LIMIT));
  const chunks = parseQuery(params.query);
  if (chunks.length === 0 || params.sources.length === 0 || limit === 0) return { hits: [], complete: 0, chunks, groups: [] };
  // Per word that may be misspelt: spellings the database compares and looks up (search_run).
  const spellings = (of: (chunk: QueryChunk) => string[]) =>
    chunks.flatMap((chunk, index) => (chunk.maxEdits > 0 ? of(chunk).map((spelling) => ({ group: index + 1, spelling })) : []));
  const swaps = spellings((chunk) => adjacentSwaps(chunk.text));
  const nearby = spellings((chunk) => deletionNeighbourhood(chunk.text, chunk.maxEdits));
  const letters = chunks.map((chunk) => lettersOf(chunk.text));
  // A few more than asked for, so that discounting repeats of a page can let other pages in.
  const wanted = Math.min(limit + 10, 2 * limit);
  const [row] = await db.query<{ result: RunResult }>(
    `SELECT search_run($1, $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[], $9::int[], $10::text[],
                       $11, $12, $13, $14, $15, $16, $17::text[], $18::text[]) AS result`,
    [
      params.organisationId,
      params.sources,
      params.language ? [textSearchConfig(params.language)] : [],
      chunks.map((chunk) => chunk.text),
      chunks.map((chunk) => chunk.kind),
      chunks.map((chunk) => chunk.maxEdits),
      swaps.map((entry) => entry.group),
      swaps.map((entry) => entry.spelling),
      nearby.map((entry) => entry.group),
      nearby.map((entry) => entry.spelling),
      phraseText(chunks),
      limit,
      wanted,
      HEADING_CANDIDATES,
      HEADINGS_ENOUGH,
      BODY_CANDIDATES,
      letters.map((word) => (LETTERS.test(word) ? word : null)),
      letters.map((word) => (HYPHENATED.test(word) ? word.replace(/-/g, '') : null)),
    ],
  );
  const result = typeof row!.result === 'string' ? (JSON.parse(row!.result) as RunResult) : row!.result;
  const terms = highlightTerms(chunks, result.groups);
  const lowerReleaseNotes = params.releaseNotesLower !== false && !CHANGES_ASKED.test(params.query);
  const diverse = diversify([...result.hits, ...result.partial], { lowerReleaseNotes });
  // "threading": the page named so comes first, however many sections of other pages say the word in their headings;
  // "zip", the entry of `zip()`, before `zipfile`, which ranking by words puts first; "generators", the section headed so.
  const named = params.namesFirst === false ? [] : await namedSections(db, params, { chunks, groups: result.groups, ranked: diverse, lowerReleaseNotes });
  // A section is named once, and not again as a piece of it that the words rank.
  const namedAt = new Set(named.map(sectionOf));
  const top = diverse[0]?.score ?? 1;
  const kept = [...named.map((row) => ({ ...row, score: top })), ...diverse.filter((row) => !namedAt.has(sectionOf(row)))].slice(0, limit);
  const texts = await readSectionTexts(db, kept.map((section) => section.id));
  // A section its page's new version replaced since it was ranked is gone.
  const ranked = kept.filter((section) => texts.has(section.id));
  const hits = ranked.map((section) => toHit({ ...section, text: texts.get(section.id)! }, params.snippets === false ? undefined : terms));
  return { hits, complete: ranked.filter((section) => section.tier === 0).length, chunks, groups: result.groups };
}

/** The most words a name is looked up by: "threading", "CREATE TABLE", "Backup and Restore". */
const MAX_NAME_WORDS = 4;
/** The most pages, entries and sections of one name put first. */
const MAX_NAMED_PAGES = 3;
const MAX_NAMED_ENTRIES = 2;
const MAX_NAMED_SECTIONS = 3;
/** The most sections of one heading read to choose those put first: those the words rank, else the first in the pages' order. */
const NAMED_SECTIONS_READ = 50;

/**
 * What a query names, in one statement (014_names.sql):
 *
 * - the openings of the pages it names (`search_page_name`: "threading" names "threading — Thread-based parallelism"),
 *   which ranking by words finds among hundreds of sections whose headings say "thread", and may leave out: the ones
 *   ranked are the first found of those. A view's or a catalog's page ("37.44. sequences") only for a name in code;
 * - for a word, the entries it names (`entry_name`: "zip" names `zip(*iterables, strict=False)`, not `os.zip` nor a
 *   class's member), which ranking puts below pages of words that begin with it (`zipfile`) or share its stem;
 * - the sections whose own heading has its stems and no others (`heading_key`: "generators" names "9.9. Generators" and
 *   the glossary's "generator"), those the words rank first; not a release's notes, unless `lowerReleaseNotes` is off.
 *
 * The query is read as typed, then with a misspelt word as each of the search's corrections ("threding" as "threading").
 */
async function namedSections(
  db: Queryable,
  searched: PagesSearched,
  query: { chunks: QueryChunk[]; groups: ResolvedGroup[]; ranked: RankedRow[]; lowerReleaseNotes: boolean },
): Promise<RankedRow[]> {
  const names = namesSearched(query.chunks, query.groups);
  if (names.length === 0) return [];
  const word = query.chunks.length === 1 && /^[\p{L}_][\p{L}\p{N}_]+$/u.test(names[0]!) ? names[0]! : '';
  const rows = await db.query<RankedRow & { kind: 'page' | 'entry' | 'section' }>(
    // Each lookup compares with an array of names, so that the database finds them through the names' indexes.
    `WITH named AS (SELECT ARRAY(SELECT lower(name) FROM unnest($3::text[]) WITH ORDINALITY AS asked(name, at) ORDER BY at) AS names),
     keyed AS (
       SELECT ARRAY(
         SELECT array_to_string(tsvector_to_array(stems), ' ')
           FROM unnest($3::text[]) WITH ORDINALITY AS asked(name, at),
                (SELECT DISTINCT config FROM search_configs WHERE organisation_id = $1 AND source_id = ANY($2::text[])) c,
                LATERAL to_tsvector(c.config::regconfig, asked.name) AS stems
          -- Only a name whose every word has a stem: "ON CONFLICT" is not the heading "Conflicts".
          WHERE length(stems) = cardinality(regexp_split_to_array(btrim(asked.name), '\\s+'))
          ORDER BY asked.at) AS keys)
     (SELECT 'page' AS kind, s.id, s.page_id AS "pageId", s.source_id AS source, s.url, s.position, s.title, s.path, 0 AS tier, 1 AS score
        FROM search_sections s, named
       WHERE s.organisation_id = $1 AND search_page_name(s.title) = ANY(named.names) AND s.position = 0 AND s.source_id = ANY($2::text[])
       ORDER BY array_position(named.names, search_page_name(s.title)), s.url COLLATE "C", s.source_id COLLATE "C" LIMIT $6)
     UNION ALL
     (SELECT 'entry', s.id, s.page_id, s.source_id, s.url, s.position, s.title, s.path, 0, 1
        FROM search_sections s
       WHERE s.organisation_id = $1 AND s.entry_name = $4 AND s.entry_name <> '' AND s.source_id = ANY($2::text[])
       ORDER BY s.url COLLATE "C", s.position, s.source_id COLLATE "C" LIMIT $7)
     UNION ALL
     (SELECT 'section', s.id, s.page_id, s.source_id, s.url, s.position, s.title, s.path, 0, 1
        FROM search_sections s, keyed
       WHERE s.organisation_id = $1 AND s.heading_key = ANY(keyed.keys) AND s.heading_key <> '' AND s.source_id = ANY($2::text[])
       ORDER BY array_position($5::text[], s.id), array_position(keyed.keys, s.heading_key), s.url COLLATE "C", s.position, s.source_id COLLATE "C" LIMIT $8)`,
    [searched.organisationId, searched.sources, names, word, query.ranked.map((row) => row.id), MAX_NAMED_PAGES, MAX_NAMED_ENTRIES, NAMED_SECTIONS_READ],
  );
  const inCode = names.some((name) => /[_.]/.test(name));
  const wanted = rows.filter((row) => {
    if (row.kind === 'page') return inCode || !NAME_TITLE.test(row.title);
    return row.kind === 'entry' || !(query.lowerReleaseNotes && isReleaseNotes(row));
  });
  // Each section once (a long one is stored in pieces under one heading), and the first few named by their heading.
  const seen = new Set<string>();
  const chosen: RankedRow[] = [];
  let headed = 0;
  for (const { kind, ...row } of wanted) {
    const section = sectionOf(row);
    if (seen.has(section) || (kind === 'section' && headed === MAX_NAMED_SECTIONS)) continue;
    if (kind === 'section') headed++;
    seen.add(section);
    chosen.push(row);
  }
  return chosen;
}

/** Which section a row is of: the pieces of a long section share its page and its headings. */
const sectionOf = (row: RankedRow) => `${row.pageId} ${row.path}`;

/**
 * The query as names to look up: as typed, then with a misspelt word as each of the search's corrections of it
 * ("threding" as "threading"); each word without the quotes or punctuation around it. None for a query longer than a
 * name or without a letter.
 */
function namesSearched(chunks: QueryChunk[], groups: ResolvedGroup[]): string[] {
  const typed = chunks.map((chunk) => chunk.text.replace(/^[^\p{L}\p{N}_@]+|[^\p{L}\p{N}_]+$/gu, '')).filter(Boolean);
  if (typed.length === 0 || typed.length > MAX_NAME_WORDS || !typed.some((word) => /\p{L}/u.test(word))) return [];
  const corrected = groups.flatMap((group) => group.corrections.map((correction) => typed.map((word, index) => (index === group.group - 1 ? correction : word))));
  return [...new Set([typed, ...corrected].map((words) => words.join(' ')))];
}

/**
 * Tier by tier (every word, all but one, some), each below the one before whatever its
 * own score; within a tier by score after discounting each page's second, third… section,
 * and release notes when `lowerReleaseNotes`.
 */
function diversify(rows: RankedRow[], { lowerReleaseNotes }: { lowerReleaseNotes: boolean }): RankedRow[] {
  const seen = new Map<string, number>();
  const ordered: RankedRow[] = [];
  for (const tier of [0, 1, 2]) {
    const ranked = rows
      .filter((row) => row.tier === tier)
      .map((row) => {
        const repeats = seen.get(row.pageId) ?? 0;
        seen.set(row.pageId, repeats + 1);
        const notes = lowerReleaseNotes && isReleaseNotes(row) ? RELEASE_NOTES_DISCOUNT : 1;
        return { ...row, score: row.score * SAME_PAGE_DISCOUNT ** repeats * notes };
      })
      .sort((a, b) => b.score - a.score || byCodeUnits(a.url, b.url) || a.position - b.position || byCodeUnits(a.source, b.source));
    // Scores stay decreasing down the list: a weaker tier is scaled under the last of the one above.
    const floor = ordered.at(-1)?.score;
    const top = ranked[0]?.score ?? 0;
    const scale = floor !== undefined && top >= floor ? (floor * 0.99) / top : 1;
    ordered.push(...ranked.map((row) => ({ ...row, score: row.score * scale })));
  }
  return ordered;
}

/** Text in the order of its characters' codes (as the database's ties are broken, `COLLATE "C"`), not a locale's. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The most sections looked at for the names asked for by heading. */
const HEADED_CANDIDATES = 200;

/** Sections with their text, as rows of a hit found by its heading rather than ranked by the words searched. */
const SECTIONS_WITH_TEXT = `SELECT 0 AS tier, s.id, s.page_id AS "pageId", s.source_id AS source, s.url, s.position, s.title, s.path, t.text, 1 AS score
       FROM search_sections s JOIN search_section_texts t ON t.id = s.id`;

/** A hit found by its heading has no searched words to highlight in its snippet. */
const NOTHING_HIGHLIGHTED: HighlightTerms = { words: [], stems: [], prefixes: [], phrases: [] };

/**
 * Sections whose own heading is the entry of one of the names (`zip(*iterables)`,
 * `class collections.defaultdict(…)`, `max_connections (integer)`), best first in the order
 * the names are given. Ranking by words weighs a module named after a word (`zipfile`) above
 * the entry of that word among many others (the built-in `zip()`), so a question naming an
 * API asks for its entry this way too.
 */
export async function searchHeadings(db: Queryable, params: PagesSearched & { names: string[]; limit: number }): Promise<SectionHit[]> {
  // Each name as the visitor first writes it, by its lower case.
  const typedAs = new Map<string, string>();
  for (const name of params.names) if (!typedAs.has(name.toLowerCase())) typedAs.set(name.toLowerCase(), name);
  const asked = [...typedAs.keys()].filter((name) => /^[\p{L}_][\p{L}\p{N}_.]*(?:\(\))?$/u.test(name));
  const names = asked.map((name) => name.replace(/\(\)$/, ''));
  if (names.length === 0 || params.sources.length === 0) return [];
  // An identifier is indexed whole (`~generate_series`); a plain word through each of the sources' configurations.
  const rows = await headingRows(db, params, names, HEADED_CANDIDATES, `CASE WHEN asked ~ '[._]' THEN ('''${IDENTIFIER_MARK}' || asked || '''')::tsquery ELSE ${HEADING_WORDS} END`);
  const entries = names.map(entryHeading);
  // Each name in the visitor's letter case, as a word of a heading.
  const cased = asked.map((name) => new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(typedAs.get(name)!.replace(/\(\)$/, ''))}(?![\\p{L}\\p{N}_])`, 'u'));
  return rows
    .map((row) => {
      const heading = ownHeadingOf(row.path || row.title);
      const at = entries.findIndex((entry) => entry.test(heading.toLowerCase()));
      // Asked as a call (`zip()`), the entry with a parameter list comes before a heading of just the name.
      const called = at !== -1 && asked[at]!.endsWith('()') && !ownHeadingOf(row.path).includes('(') ? 1 : 0;
      // Then written as the visitor writes it (`breakpoint()`, the built-in) before in another letter case (`class bdb.Breakpoint`).
      const otherCase = at !== -1 && cased[at]!.test(heading) ? 0 : 1;
      return { row, at, called, otherCase };
    })
    .filter((entry) => entry.at !== -1)
    .sort((a, b) => a.at - b.at || a.called - b.called || a.otherCase - b.otherCase || a.row.path.length - b.row.path.length)
    .slice(0, params.limit)
    .map((entry) => toHit(entry.row, NOTHING_HIGHLIGHTED));
}

/**
 * Sections whose heading (a page's opening: its title) holds every word of one of the texts,
 * in the pages' order: where the entries of the things a question compares ("staticmethod vs
 * classmethod") are looked for, which the caller tells apart from headings that only mention them.
 */
export async function searchHeadingWords(db: Queryable, params: PagesSearched & { texts: string[]; limit: number }): Promise<SectionHit[]> {
  if (params.texts.length === 0 || params.sources.length === 0) return [];
  return (await headingRows(db, params, params.texts, params.limit, HEADING_WORDS)).map((row) => toHit(row, NOTHING_HIGHLIGHTED));
}

/** The words of a text `asked`, as a query through one of the sources' configurations (`c.config`): see headingRows. */
const HEADING_WORDS = 'plainto_tsquery(c.config::regconfig, asked)';

/**
 * Sections of the sources whose heading matches one of the texts, each made a query by `match`
 * (SQL of the text `asked` and a configuration `c.config` of the sources), up to `limit`.
 */
async function headingRows(db: Queryable, searched: PagesSearched, texts: string[], limit: number, match: string): Promise<SectionRow[]> {
  return db.query<SectionRow>(
    `${SECTIONS_WITH_TEXT}
      WHERE s.organisation_id = $1 AND s.source_id = ANY($2::text[])
        AND s.heading @@ ANY (ARRAY(
              SELECT ${match}
                FROM unnest($3::text[]) AS asked,
                     (SELECT DISTINCT config FROM search_configs WHERE organisation_id = $1 AND source_id = ANY($2::text[])) c))
      -- In the pages' order, not as they were stored: entries that rank alike come in the same order on every deployment.
      ORDER BY s.url COLLATE "C", s.position
      LIMIT $4`,
    [searched.organisationId, searched.sources, texts, limit],
  );
}

/**
 * The section of a page headed `heading` (its own heading, or the page title for its opening
 * section; letter case aside), if it has one: where a glossary's "GIL: See global interpreter
 * lock." sends the reader.
 */
export async function sectionHeaded(db: Queryable, params: { organisationId: string; pageId: string; heading: string }): Promise<SectionHit | undefined> {
  const [row] = await db.query<SectionRow>(
    `${SECTIONS_WITH_TEXT}
      WHERE s.organisation_id = $1 AND s.page_id = $2
        AND lower(btrim(CASE WHEN s.path = '' THEN s.title ELSE regexp_replace(s.path, $4, '') END)) = $3
      ORDER BY s.position
      LIMIT 1`,
    [params.organisationId, params.pageId, params.heading.trim().toLowerCase(), `^.*${PATH_SEPARATOR}`],
  );
  return row && toHit(row, NOTHING_HIGHLIGHTED);
}

/**
 * The other pieces of some sections: those of the same page, address and headings (a long section cut in pieces, or
 * the part of a section that goes on after the entries under it), at most `limit` per section, in the page's order.
 * Each section's page is read by its index, so the cost grows with the sections given, not with the sources.
 */
export async function sectionPieces(db: Queryable, params: { organisationId: string; sections: SectionHit[]; limit: number }): Promise<SectionHit[]> {
  if (params.sections.length === 0) return [];
  // The pieces' ids first, each section's page read through its index; then their rows, as the other lookups read them.
  const rows = await db.query<SectionRow>(
    `${SECTIONS_WITH_TEXT}
      WHERE s.id = ANY(ARRAY(
        SELECT piece.id
          FROM (SELECT DISTINCT * FROM unnest($2::text[], $3::text[], $4::text[]) AS found (page_id, url, path)) found
          CROSS JOIN LATERAL (
            SELECT p.id
              FROM search_sections p
             WHERE p.page_id = found.page_id AND p.url = found.url AND p.path = found.path
               AND p.organisation_id = $1 AND NOT p.id = ANY($5::text[])
             ORDER BY p.position
             LIMIT $6
          ) piece))
      ORDER BY s.page_id, s.position`,
    [params.organisationId, params.sections.map((hit) => hit.pageId), params.sections.map((hit) => hit.url), params.sections.map((hit) => hit.section ?? ''), params.sections.map((hit) => hit.id), params.limit],
  );
  return rows.map((row) => toHit(row, NOTHING_HIGHLIGHTED));
}

/** The first `limit` sections of a page after its opening (the part before its first heading), in the page's order. */
export async function sectionsAfterOpening(db: Queryable, params: { organisationId: string; pageId: string; limit: number }): Promise<SectionHit[]> {
  const rows = await db.query<SectionRow>(
    `${SECTIONS_WITH_TEXT}
      WHERE s.organisation_id = $1 AND s.page_id = $2 AND s.path <> ''
      ORDER BY s.position
      LIMIT $3`,
    [params.organisationId, params.pageId, params.limit],
  );
  return rows.map((row) => toHit(row, NOTHING_HIGHLIGHTED));
}

/** The most sections headed by examples ("Examples", "Basic example", "Example: a resource limit") looked at after a section. */
const EXAMPLE_SECTIONS = 10;

/**
 * The sections headed by examples that come after a section on its page, in the page's order: its own subsections (a
 * page's opening: the page's top-level sections); with `beside`, also the sections beside it under the same heading
 * ("Description" and "Examples" of a reference page); with `page`, any after it on the page (an API entry's, which the
 * caller keeps when they call it).
 */
export async function examplesAfter(db: Queryable, params: { organisationId: string; section: SectionHit; belonging: 'under' | 'beside' | 'page' }): Promise<SectionHit[]> {
  const { section } = params;
  const path = section.section ?? '';
  const rows = await db.query<SectionRow>(
    `${SECTIONS_WITH_TEXT}
      WHERE s.organisation_id = $1 AND s.page_id = $2 AND regexp_replace(s.path, $6, '') ~* $3
        AND s.position > (SELECT position FROM search_sections WHERE id = $4)
      ORDER BY s.position
      LIMIT $5`,
    [params.organisationId, section.pageId, '\\mexamples?\\M', section.id, EXAMPLE_SECTIONS, `^.*${PATH_SEPARATOR}`],
  );
  const depth = (of: string) => (of === '' ? 0 : of.split(PATH_SEPARATOR).length);
  const parent = path.split(PATH_SEPARATOR).slice(0, -1).join(PATH_SEPARATOR);
  const under = (other: string) => depth(other) === depth(path) + 1 && (path === '' || other.startsWith(`${path}${PATH_SEPARATOR}`));
  const beside = (other: string) => params.belonging === 'beside' && path !== '' && depth(other) === depth(path) && (parent === '' || other.startsWith(`${parent}${PATH_SEPARATOR}`));
  const belongs = (other: string) => params.belonging === 'page' || under(other) || beside(other);
  return rows.filter((row) => belongs(row.path)).map((row) => toHit(row, NOTHING_HIGHLIGHTED));
}

/**
 * Of some pages, how many sections each has under a heading of its own (a page's opening has none), and those own
 * headings that hold parentheses: the calls and declarations a reference page is made of.
 */
export async function pageHeadings(db: Queryable, params: { organisationId: string; pageIds: string[] }): Promise<Map<string, { count: number; withParentheses: string[] }>> {
  if (params.pageIds.length === 0) return new Map();
  const rows = await db.query<{ pageId: string; count: number; paths: string[] }>(
    `SELECT page_id AS "pageId", count(*)::int AS count, coalesce(array_agg(path) FILTER (WHERE path LIKE '%(%'), '{}') AS paths
       FROM search_sections WHERE organisation_id = $1 AND page_id = ANY($2::text[]) AND path <> ''
      GROUP BY page_id`,
    [params.organisationId, params.pageIds],
  );
  return new Map(rows.map((row) => [row.pageId, { count: Number(row.count), withParentheses: row.paths.map(ownHeadingOf) }]));
}

/**
 * A lowercased heading that is the entry of `name`: the name (a decorator's with its `@`), qualified or not, then its
 * parameters or type; or one of the names of an entry that has several (`re.a, re.ascii`, `-h, --help`).
 */
export function entryHeading(name: string): { test: (heading: string) => boolean } {
  const entry = new RegExp(
    `^@?${ENTRY_KIND}(?:[\\w.]*\\.)?${escapeRegExp(name)}\\s*(?:\\(.*\\)|\\[.*\\])?$`,
  );
  return { test: (heading) => entry.test(heading) || namesOf(heading).some((one) => entry.test(one)) };
}

/**
 * The names a heading lists, split at its commas outside parentheses and brackets, when each is one word or a signature
 * and one at least is written as a name, with a dot, an underscore, a dash or parameters (`re.a, re.ascii`, `lineno,
 * col_offset`, `quit(code=none), exit(code=none)`): "Lists, Tuples, and Sequences" or "Sorting, grouping" list no names.
 * Empty when it does not list several.
 */
function namesOf(heading: string): string[] {
  if (!heading.includes(', ')) return [];
  const names: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < heading.length; index++) {
    const character = heading[index];
    if (character === '(' || character === '[') depth++;
    else if ((character === ')' || character === ']') && depth > 0) depth--;
    else if (character === ',' && depth === 0 && heading[index + 1] === ' ') {
      names.push(heading.slice(start, index));
      start = index + 2;
    }
  }
  names.push(heading.slice(start));
  return names.length > 1 && names.every((one) => LISTED_NAME.test(one)) && names.some((one) => /[._(-]/.test(one)) ? names : [];
}

/** One name of several heading an entry: a kind word, then one word, with its parameters if it has them. */
const LISTED_NAME = new RegExp(String.raw`^${ENTRY_KIND}[^\s,()[\]]+(?:\s*\(.*\)|\[.*\])?$`);

/** A ranked section as a hit: with its snippet, unless there are no `terms` to cut it by (then it is ''). */
function toHit(row: SectionRow, terms: HighlightTerms | undefined): SectionHit {
  const hit: SectionHit = {
    id: row.id,
    pageId: row.pageId,
    url: row.url,
    title: row.title,
    snippet: terms ? buildSnippet(row.text, terms) : '',
    source: row.source,
    score: Math.round(row.score * 1e6) / 1e6,
    text: row.text,
  };
  if (row.path) hit.section = row.path;
  return hit;
}

/** The opening section (the part before the first heading) of each of some pages. */
export async function pageOpenings(db: Queryable, params: { organisationId: string; pageIds: string[] }): Promise<SectionHit[]> {
  if (params.pageIds.length === 0) return [];
  const rows = await db.query<SectionRow>(
    `${SECTIONS_WITH_TEXT}
      WHERE s.page_id = ANY($2::text[]) AND s.organisation_id = $1 AND s.position = 0
      ORDER BY s.url COLLATE "C"`,
    [params.organisationId, [...new Set(params.pageIds)]],
  );
  return rows.map((row) => toHit(row, NOTHING_HIGHLIGHTED));
}
