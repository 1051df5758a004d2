/** Searches as asked, so that clicks carrying a search's id join it (the search → click funnel). */
import { randomBytes } from 'node:crypto';
import type { Queryable } from './db.js';

/** Records one search and returns its new id (`q_…`), which the response and later clicks carry. */
export async function recordSearchQuery(
  db: Queryable,
  search: { organisationId: string; widgetId: string; sessionId: string; query: string; hitCount: number },
): Promise<string> {
  const id = `q_${randomBytes(12).toString('hex')}`;
  await db.query(
    'INSERT INTO search_queries (id, organisation_id, widget_id, session_id, query, hit_count) VALUES ($1, $2, $3, $4, $5, $6)',
    [id, search.organisationId, search.widgetId, search.sessionId, search.query, search.hitCount],
  );
  return id;
}
