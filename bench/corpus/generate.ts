/**
 * Realistic documentation at any size, recombined from the PostgreSQL manual: each
 * generated page is a manual page's title and opening, followed by two to four sections
 * (heading and text) taken from anywhere in the manual, cut to the length of a typical
 * docs page section. Seeded, so every run generates the same pages.
 */
import { splitSections } from '../../server/search/sections.js';
import { readHtml } from '../../server/content/html.js';
import type { Db } from '../../server/store/db.js';
import { INDEX_VERSION, indexPages, type IndexablePage } from '../../server/search/indexer.js';
import type { ManualPage } from './manual.js';

export interface GeneratedPage {
  url: string;
  title: string;
  content: string;
}

interface PoolSection {
  heading: string;
  text: string;
}

/** A small, fast, seedable generator (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = text.lastIndexOf(' ', max);
  return text.slice(0, end > max / 2 ? end : max);
}

export function generatePages(manual: ManualPage[], count: number, seed = 1): GeneratedPage[] {
  const next = random(seed);
  const openings: { title: string; text: string }[] = [];
  const pool: PoolSection[] = [];
  for (const page of manual) {
    const sections = splitSections(readHtml(page.html).markdown, page.title, { format: 'html' });
    openings.push({ title: page.title, text: sections[0]?.text ?? '' });
    for (const section of sections) if (section.heading && section.text.length > 80) pool.push({ heading: section.heading, text: section.text });
  }
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const pages: GeneratedPage[] = [];
  for (let index = 0; index < count; index++) {
    const opening = openings[index % openings.length]!;
    const parts = [cut(opening.text, 800)];
    const sections = 2 + Math.floor(next() * 3);
    for (let part = 0; part < sections; part++) {
      const section = pick(pool);
      parts.push(`## ${section.heading}\n\n${cut(section.text, 1200)}`);
    }
    pages.push({ url: `https://docs.example.test/${index}`, title: opening.title, content: parts.join('\n\n') });
  }
  return pages;
}

/**
 * Stores generated pages through the indexer's bulk path (pages and their sections in
 * one transaction per batch); returns pages per second.
 */
export async function loadPages(
  db: Db,
  organisationId: string,
  sourceId: string,
  pages: GeneratedPage[],
  options: { batch?: number; firstId?: number; progress?: (done: number) => void } = {},
): Promise<number> {
  const batch = options.batch ?? 250;
  const firstId = options.firstId ?? 0;
  const started = performance.now();
  for (let start = 0; start < pages.length; start += batch) {
    const slice: IndexablePage[] = pages.slice(start, start + batch).map((page, offset) => ({
      id: `g${firstId + start + offset}`,
      organisationId,
      sourceId,
      url: page.url,
      title: page.title,
      language: null,
      content: page.content,
    }));
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO pages (id, organisation_id, source_id, url, title, content, indexed_version)
         SELECT *, $7::integer FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
        [
          slice.map((page) => page.id),
          slice.map((page) => page.organisationId),
          slice.map((page) => page.sourceId),
          slice.map((page) => page.url),
          slice.map((page) => page.title),
          slice.map((page) => page.content),
          INDEX_VERSION,
        ],
      );
      await indexPages(tx, slice);
    });
    options.progress?.(Math.min(start + batch, pages.length));
  }
  return pages.length / ((performance.now() - started) / 1000);
}
