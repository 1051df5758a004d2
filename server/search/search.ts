/**
 * Search over the sections of a widget's sources. This is the one entry point that the
 * search route and the answer engines' retrieval use.
 */
import type { Hit } from '../../wire/contract.js';
import type { Queryable } from '../store/db.js';

export interface SearchParams {
  organisationId: string;
  /** Only these sources are searched (a widget's sources). */
  sources: string[];
  query: string;
  limit: number;
}

/** A hit with the plain text of its section, for answer engines to quote from. */
export interface SectionHit extends Hit {
  text: string;
}

/** Placeholder until the section index lands: page-level substring match, best title matches first. */
export async function searchSections(db: Queryable, params: SearchParams): Promise<SectionHit[]> {
  const pattern = `%${params.query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const rows = await db.query<{ id: string; sourceId: string; url: string; title: string; content: string }>(
    `SELECT id, source_id AS "sourceId", url, title, content FROM pages
      WHERE organisation_id = $1 AND source_id = ANY($2::text[]) AND (title ILIKE $3 OR content ILIKE $3)
      ORDER BY (title ILIKE $3) DESC, seq LIMIT $4`,
    [params.organisationId, params.sources, pattern, params.limit],
  );
  return rows.map((row, index) => ({
    id: row.id,
    pageId: row.id,
    url: row.url,
    title: row.title,
    snippet: '',
    source: row.sourceId,
    score: 1 / (index + 1),
    text: row.content,
  }));
}
