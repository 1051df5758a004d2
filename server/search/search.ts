/**
 * Search over the sections of a widget's sources. This is the one entry point that the
 * search route and the answer engines' retrieval use.
 *
 * Two round trips: one resolves the words (stems, typo corrections, prefixes; see
 * query.ts), one finds and ranks sections through the GIN index. A third runs only when
 * fewer sections than asked for hold every word: then sections holding some of them
 * follow, ranked below.
 */
import type { Hit } from '../../wire/contract.js';
import type { Queryable } from '../store/db.js';
import { andQuery, anyQuery, parseQuery, planQuery, type QueryPlan } from './query.js';
import { buildSnippet } from './snippet.js';

export interface SearchParams {
  organisationId: string;
  /** Only these sources are searched (a widget's sources). */
  sources: string[];
  query: string;
  limit: number;
  /** The visitor's language (`de`, `pt-BR`): the query is stemmed that way too, besides the pages' own languages. */
  language?: string;
}

/** A hit with the plain text of its section, for answer engines to quote from. */
export interface SectionHit extends Hit {
  text: string;
}

interface SectionRow {
  id: string;
  pageId: string;
  source: string;
  url: string;
  title: string;
  path: string;
  text: string;
  score: number;
}

export async function searchSections(db: Queryable, params: SearchParams): Promise<SectionHit[]> {
  const limit = Math.max(0, Math.min(Math.floor(params.limit), 100));
  const chunks = parseQuery(params.query);
  if (chunks.length === 0 || params.sources.length === 0 || limit === 0) return [];
  const plan = await planQuery(db, params, chunks);
  if (plan.groups.length === 0) return [];

  const rows = await findSections(db, params, andQuery(plan.groups), limit, []);
  if (rows.length < limit && plan.groups.length > 1) {
    const more = await findSections(db, params, anyQuery(plan.groups), limit - rows.length, rows.map((row) => row.id));
    rows.push(...more.map((row) => ({ ...row, score: row.score / 2 })));
  }
  return rows.map((row) => toHit(row, plan));
}

async function findSections(
  db: Queryable,
  scope: { organisationId: string; sources: string[] },
  query: string,
  limit: number,
  exclude: string[],
): Promise<SectionRow[]> {
  return db.query<SectionRow>(
    `SELECT id, page_id AS "pageId", source_id AS source, url, title, path, text,
            ts_rank('{0.1, 0.2, 0.4, 1.0}', document, $3::tsquery, 1) AS score
       FROM search_sections
      WHERE organisation_id = $1 AND source_id = ANY($2::text[]) AND document @@ $3::tsquery
        AND NOT (id = ANY($5::text[]))
      ORDER BY score DESC, id
      LIMIT $4`,
    [scope.organisationId, scope.sources, query, limit, exclude],
  );
}

function toHit(row: SectionRow, plan: QueryPlan): SectionHit {
  const hit: SectionHit = {
    id: row.id,
    pageId: row.pageId,
    url: row.url,
    title: row.title,
    snippet: buildSnippet(row.text, plan.highlight),
    source: row.source,
    score: Math.round(row.score * 1e6) / 1e6,
    text: row.text,
  };
  if (row.path) hit.section = row.path;
  return hit;
}
