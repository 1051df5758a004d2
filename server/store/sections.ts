/** Reads of indexed sections' bodies by id. */
import type { Queryable } from './db.js';

/**
 * The markdown of sections by id (fenced code with its language, inline code in
 * backticks), for answers that quote code as the page has it. A section indexed before
 * markdown was kept, or cut as text alone from one block longer than a section may be
 * (search/sections.ts `cutLongSection`), maps to ''.
 */
export async function readSectionMarkdown(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  return readSectionBodies(db, ids, 'markdown');
}

/** The plain texts of sections by id: read for the hits a search keeps, not for every section it ranked. */
export async function readSectionTexts(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  return readSectionBodies(db, ids, 'text');
}

async function readSectionBodies(db: Queryable, ids: string[], column: 'text' | 'markdown'): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; body: string }>(`SELECT id, ${column} AS body FROM search_section_texts WHERE id = ANY($1::text[])`, [ids]);
  return new Map(rows.map((row) => [row.id, row.body]));
}
