/**
 * Keeps the search index in step with pages. Called inside the same transaction as the
 * page write, so a write is searchable as soon as its response arrives. Deleting a page
 * deletes its sections by cascade; their words leave the vocabulary at the next index
 * write (see `search_removed_sections` in 002_search.sql).
 */
import type { PageFormat } from '../../wire/contract.js';
import type { Queryable } from '../store/db.js';
import { identifierVector, spaceUnspacedScripts, textSearchConfig, vocabularyWords } from './language.js';
import { entryNameOf, isTableOfContents, NAME_TITLE, ownHeadingOf, pageSections, type Section } from './sections.js';

export interface IndexablePage {
  id: string;
  organisationId: string;
  sourceId: string;
  url: string;
  title: string;
  language: string | null;
  content: string;
  /** How the content was written: headings of pages read from HTML link only to ids the page has. */
  format?: PageFormat;
  /** The sections, when the page writer cut them already (off the event loop, see content/page-reader.ts). */
  sections?: Section[];
}

/**
 * The version of how pages are cut into sections and indexed. Raise it with any change to
 * that (search/sections.ts, this file, search/language.ts, the markdown the sections are cut
 * from): each page keeps the version that indexed it (`pages.indexed_version`, set by the
 * statement that writes the page or, for a page indexed again, by markIndexed), and a server
 * indexes again the pages an earlier version indexed (reindexStalePages, store/pages.ts).
 */
export const INDEX_VERSION = 4;

export async function indexPage(tx: Queryable, page: IndexablePage): Promise<void> {
  await indexPages(tx, [page]);
}

interface SectionText {
  organisationId: string;
  sourceId: string;
  pageId: string;
  title: string;
  path: string;
  text: string;
}

/**
 * Replaces the sections of many pages in a few statements: bulk loads (benchmarks,
 * imports) pay per statement, not per page, and each vocabulary word is written once. The
 * statement writing a page marks it with INDEX_VERSION, in the same transaction: a page
 * written earlier and indexed again here is marked by markIndexed.
 */
export async function indexPages(tx: Queryable, pages: IndexablePage[]): Promise<void> {
  if (pages.length === 0) return;
  const columns = {
    id: [] as string[],
    pageId: [] as string[],
    organisationId: [] as string[],
    sourceId: [] as string[],
    position: [] as number[],
    url: [] as string[],
    title: [] as string[],
    path: [] as string[],
    text: [] as string[],
    markdown: [] as string[],
    config: [] as string[],
    indexedTitle: [] as string[],
    indexedPath: [] as string[],
    /** The section's own heading (the title, for a page's opening), whose stems name it (`heading_key`). */
    ownHeading: [] as string[],
    /** The name its heading gives an API entry (`entry_name`), or ''. */
    entryName: [] as string[],
    lead: [] as string[],
    rest: [] as string[],
    /** Identifiers as written, per part (tsvector input): the parser cuts most of them into words. */
    titleIdentifiers: [] as string[],
    pathIdentifiers: [] as string[],
    leadIdentifiers: [] as string[],
    restIdentifiers: [] as string[],
  };
  const configs = new Map<string, [organisationId: string, sourceId: string, config: string]>();
  const added: SectionText[] = [];
  for (const page of pages) {
    const config = textSearchConfig(page.language);
    configs.set(`${page.organisationId}\n${page.sourceId}\n${config}`, [page.organisationId, page.sourceId, config]);
    // NFC, so a word typed on one keyboard matches the same word stored decomposed.
    const title = page.title.normalize('NFC');
    const indexedTitle = spaceUnspacedScripts(withNameWords(title));
    const titleIdentifiers = identifierVector(title);
    for (const section of page.sections ?? pageSections(page.content, title, page.format)) {
      // A table of contents lists every title of the documentation: found by its words, it would be a hit for any query,
      // above the pages it points to. It is found by its own title and headings only.
      const body = isTableOfContents(section.markdown, section.text) ? '' : section.text;
      // The first paragraph usually says what the section is about: it weighs more than the rest.
      const split = body.indexOf('\n\n');
      columns.id.push(`${page.id}-${section.position}`);
      columns.pageId.push(page.id);
      columns.organisationId.push(page.organisationId);
      columns.sourceId.push(page.sourceId);
      columns.position.push(section.position);
      columns.url.push(sectionUrl(page.url, section.anchor));
      columns.title.push(title);
      columns.path.push(section.path);
      columns.text.push(section.text);
      columns.markdown.push(section.markdown);
      columns.config.push(config);
      columns.indexedTitle.push(indexedTitle);
      columns.indexedPath.push(spaceUnspacedScripts(withNameWords(section.path)));
      columns.ownHeading.push(namedBy(section.path ? ownHeadingOf(section.path) : title));
      columns.entryName.push(entryNameOf(section.path));
      const lead = split === -1 ? body : body.slice(0, split);
      const rest = split === -1 ? '' : body.slice(split + 2);
      columns.lead.push(spaceUnspacedScripts(lead));
      columns.rest.push(spaceUnspacedScripts(rest));
      columns.titleIdentifiers.push(titleIdentifiers);
      columns.pathIdentifiers.push(identifierVector(section.path));
      columns.leadIdentifiers.push(identifierVector(lead));
      columns.restIdentifiers.push(identifierVector(rest));
      added.push({ organisationId: page.organisationId, sourceId: page.sourceId, pageId: page.id, title, path: section.path, text: section.text });
    }
  }

  const replaced = await tx.query<SectionText>(
    `WITH gone AS (DELETE FROM search_sections WHERE page_id = ANY($1::text[]) RETURNING id, organisation_id, source_id, page_id, title, path)
     SELECT gone.organisation_id AS "organisationId", gone.source_id AS "sourceId", gone.page_id AS "pageId", gone.title, gone.path, texts.text
       FROM gone JOIN search_section_texts texts ON texts.id = gone.id`,
    [pages.map((page) => page.id)],
  );
  const parked = await tx.query<SectionText>(
    `DELETE FROM search_removed_sections RETURNING organisation_id AS "organisationId", source_id AS "sourceId", page_id AS "pageId", title, path, text`,
  );
  await tx.query(
    `INSERT INTO search_sections (id, page_id, organisation_id, source_id, position, url, title, path, heading, document, heading_key, entry_name)
     SELECT id, page_id, organisation_id, source_id, position, url, title, path,
            CASE WHEN position = 0 THEN vector.title_vector ELSE ''::tsvector END || vector.path_vector,
            vector.title_vector || vector.path_vector ||
              setweight(to_tsvector(config::regconfig, lead) || lead_identifiers::tsvector, 'C') ||
              setweight(to_tsvector(config::regconfig, rest) || rest_identifiers::tsvector, 'D'),
            left(array_to_string(tsvector_to_array(to_tsvector(config::regconfig, search_heading_name(own_heading))), ' '), 200),
            left(entry_name, 200)
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[],
                   $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[])
         AS section(id, page_id, organisation_id, source_id, position, url, title, path,
                    config, indexed_title, indexed_path, lead, rest, title_identifiers, path_identifiers, lead_identifiers, rest_identifiers, own_heading, entry_name)
       CROSS JOIN LATERAL (SELECT setweight(to_tsvector(config::regconfig, indexed_title) || title_identifiers::tsvector, 'A') AS title_vector,
                                  setweight(to_tsvector(config::regconfig, indexed_path) || path_identifiers::tsvector, 'B') AS path_vector) vector`,
    [
      columns.id, columns.pageId, columns.organisationId, columns.sourceId, columns.position, columns.url, columns.title,
      columns.path, columns.config, columns.indexedTitle, columns.indexedPath, columns.lead, columns.rest,
      columns.titleIdentifiers, columns.pathIdentifiers, columns.leadIdentifiers, columns.restIdentifiers, columns.ownHeading,
      columns.entryName,
    ],
  );
  await tx.query(`INSERT INTO search_section_texts (id, text, markdown) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`, [
    columns.id,
    columns.text,
    columns.markdown,
  ]);
  const known = [...configs.values()];
  await tx.query(
    `INSERT INTO search_configs (organisation_id, source_id, config)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`,
    [known.map((entry) => entry[0]), known.map((entry) => entry[1]), known.map((entry) => entry[2])],
  );
  await updateVocabulary(tx, added, [...replaced, ...parked]);
}

/**
 * A heading as what names its section (`heading_key`): none for one that names an identifier ("foreign_data_wrappers",
 * "os.path"), or a view or a catalog ("37.44. sequences"), whose words are not what it is about.
 */
function namedBy(heading: string): string {
  return IDENTIFIER_IN_HEADING.test(heading) || NAME_TITLE.test(heading) ? '' : spaceUnspacedScripts(heading);
}

/** A dot or an underscore joining a letter to a letter or a digit: a name in code, not a number ("9.9."). */
const IDENTIFIER_IN_HEADING = /\p{L}[_.][\p{L}\p{N}]|[\p{L}\p{N}][_.]\p{L}/u;

/** Marks pages indexed by this version, once indexPages indexed them again in the same transaction. */
export async function markIndexed(tx: Queryable, pageIds: string[]): Promise<void> {
  await tx.query('UPDATE pages SET indexed_version = $2 WHERE id = ANY($1::text[]) AND indexed_version <> $2', [pageIds, INDEX_VERSION]);
}

/**
 * Adds one page to the count of every word a page now has and takes one away for every
 * word it had, in one statement. Words go in sorted order, so two concurrent writers on
 * PostgreSQL lock the rows of shared words in the same order and cannot deadlock.
 */
async function updateVocabulary(tx: Queryable, added: SectionText[], removed: SectionText[]): Promise<void> {
  const delta: VocabularyDelta = new Map();
  countWords(delta, added, 1);
  countWords(delta, removed, -1);
  await writeVocabulary(tx, delta);
}

/** Changes to the vocabulary's counts, by organisation, source and word. */
type VocabularyDelta = Map<string, { organisationId: string; sourceId: string; word: string; pages: number }>;

/** Adds `sign` to the count of each word of each page the sections are of. */
function countWords(delta: VocabularyDelta, sections: SectionText[], sign: 1 | -1): void {
  for (const { organisationId, sourceId, words } of wordsByPage(sections))
    for (const word of words) {
      const key = `${organisationId}\n${sourceId}\n${word}`;
      const entry = delta.get(key) ?? { organisationId, sourceId, word, pages: 0 };
      entry.pages += sign;
      delta.set(key, entry);
    }
}

async function writeVocabulary(tx: Queryable, delta: VocabularyDelta): Promise<void> {
  const changes = [...delta.values()].filter((entry) => entry.pages !== 0);
  if (changes.length === 0) return;
  await tx.query(
    `INSERT INTO search_vocabulary (organisation_id, source_id, word, pages)
     SELECT change.organisation_id, change.source_id, change.word, change.pages
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS change(organisation_id, source_id, word, pages)
       -- Parked sections may belong to an organisation deleted since.
       JOIN organisations ON organisations.id = change.organisation_id
      ORDER BY change.word COLLATE "C", change.organisation_id COLLATE "C", change.source_id COLLATE "C"
     ON CONFLICT (word, organisation_id, source_id) DO UPDATE SET pages = search_vocabulary.pages + excluded.pages`,
    [changes.map((entry) => entry.organisationId), changes.map((entry) => entry.sourceId), changes.map((entry) => entry.word), changes.map((entry) => entry.pages)],
  );
}

/** The words of each page's sections, one entry per page. */
function wordsByPage(sections: SectionText[]): { organisationId: string; sourceId: string; words: Set<string> }[] {
  const pages = new Map<string, { organisationId: string; sourceId: string; words: Set<string> }>();
  for (const section of sections) {
    const key = `${section.organisationId}\n${section.sourceId}\n${section.pageId}`;
    const page = pages.get(key) ?? { organisationId: section.organisationId, sourceId: section.sourceId, words: new Set<string>() };
    vocabularyWords(section.title, page.words);
    vocabularyWords(section.path, page.words);
    vocabularyWords(section.text, page.words);
    pages.set(key, page);
  }
  return [...pages.values()];
}

/** Pages read at a time by recountVocabulary: their sections' texts are held in memory together. */
const RECOUNT_BATCH = 500;

/**
 * Counts the vocabulary anew from the sections stored, into an empty `search_vocabulary`:
 * the step of migration 013, which keeps the counts per source (the words are split here,
 * in TypeScript, as every index write splits them). The texts are read `batch` pages at a
 * time, the counts kept until the end and written once: a row written once per batch would
 * leave as many dead versions of it, and of its index entries, until the migration commits.
 */
export async function recountVocabulary(tx: Queryable, { batch = RECOUNT_BATCH }: { batch?: number } = {}): Promise<void> {
  const delta: VocabularyDelta = new Map();
  let after = 0;
  for (;;) {
    const pages = await tx.query<{ id: string; seq: number }>('SELECT id, seq FROM pages WHERE seq > $1 ORDER BY seq LIMIT $2', [after, batch]);
    if (pages.length === 0) break;
    after = Number(pages.at(-1)!.seq);
    const pageIds = pages.map((page) => page.id);
    const sections = await tx.query<SectionText>(
      `SELECT sections.organisation_id AS "organisationId", sections.source_id AS "sourceId", sections.page_id AS "pageId",
              sections.title, sections.path, texts.text
         FROM search_sections sections JOIN search_section_texts texts ON texts.id = sections.id
        WHERE sections.page_id = ANY($1::text[])`,
      [pageIds],
    );
    countWords(delta, sections, 1);
  }
  await writeVocabulary(tx, delta);
}

/** The page's url pointing at the section's heading; the intro links to the page itself. */
export function sectionUrl(pageUrl: string, anchor: string | null): string {
  if (anchor === null) return pageUrl;
  try {
    const url = new URL(pageUrl);
    url.hash = anchor;
    return url.href;
  } catch {
    return `${pageUrl.split('#')[0]}#${encodeURIComponent(anchor)}`;
  }
}

/**
 * A title or heading with the last word of each dotted name in it added: PostgreSQL's parser
 * reads `os.path.exists` as one token, so without it the heading `os.path.exists(path)` holds
 * no word "exists" and "check if a file exists" cannot find it by its heading, nor "delete a
 * file" `os.remove`. The name itself stays searchable as written (identifierVector).
 */
function withNameWords(text: string): string {
  const words = [...text.matchAll(DOTTED_NAME)].map((match) => match[1]!);
  return words.length > 0 ? `${text} ${words.join(' ')}` : text;
}

/**
 * A name of parts joined by full stops (`os.path.exists`, `sqlite3.connect`; not `3.11`), with
 * its last part when that is one word: `sqlite3.SQLITE_DENY` would give every constant of a
 * module a heading about "sqlite" and "deny".
 */
const DOTTED_NAME = /(?<![\p{L}\p{N}_.])[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*\.(\p{L}[\p{L}\p{N}]*)(?![\p{L}\p{N}_.])/gu;
