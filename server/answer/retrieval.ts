/**
 * Picks the sections an answer is grounded on. A question in a sentence is a poor search
 * query on its own, so retrieval asks the search engine several times and fuses the ranked
 * lists (reciprocal rank fusion): the question as typed, its content words one by one,
 * the previous question of the conversation (follow-ups like "and on Windows?"), and the
 * title of the page the visitor is on. The candidates are then re-ranked by how many of
 * the question's terms they hold, the page the visitor is reading gets a small lift, and
 * sections sharing no term with the question or the conversation are dropped.
 */
import type { Hit, Source } from '../../wire/contract.js';
import { searchSections, type SectionHit } from '../search/search.js';
import type { Queryable } from '../store/db.js';
import { keywords, terms } from './text.js';
import type { GroundingSection, PageContext } from './types.js';

export interface RetrievalInput {
  organisationId: string;
  sources: string[];
  question: string;
  /** Earlier questions of the conversation, oldest first. */
  previousQuestions: string[];
  context?: PageContext;
  /** How many sections to keep; default 4. */
  limit?: number;
}

const PER_QUERY = 8;
const FUSION_K = 10;

interface Query {
  text: string;
  weight: number;
}

export async function retrieveSections(db: Queryable, input: RetrievalInput): Promise<SectionHit[]> {
  const limit = input.limit ?? 4;
  const lastQuestion = input.previousQuestions.at(-1);
  const queries: Query[] = [
    { text: input.question, weight: 1 },
    ...keywords(input.question, 5).map((word) => ({ text: word, weight: 0.6 })),
    ...(lastQuestion ? [{ text: lastQuestion, weight: 0.3 }, ...keywords(lastQuestion, 2).map((word) => ({ text: word, weight: 0.2 }))] : []),
    ...(input.context?.title ? [{ text: input.context.title, weight: 0.15 }] : []),
  ];
  const seen = new Set<string>();
  const unique = queries.filter((query) => {
    const key = query.text.trim().toLowerCase();
    if (!key || key.length > 1000 || seen.has(key)) return false;
    seen.add(key);
    return true;
  });

  const candidates = new Map<string, { hit: SectionHit; fused: number }>();
  for (const query of unique) {
    const hits = await searchSections(db, { organisationId: input.organisationId, sources: input.sources, query: query.text, limit: PER_QUERY });
    hits.forEach((hit, rank) => {
      const entry = candidates.get(hit.id) ?? { hit, fused: 0 };
      entry.fused += query.weight / (FUSION_K + rank + 1);
      candidates.set(hit.id, entry);
    });
  }

  const questionTerms = new Set(terms(input.question));
  const conversationTerms = new Set(input.previousQuestions.slice(-2).flatMap((question) => terms(question)));
  const contextPage = normaliseUrl(input.context?.url);
  const bestFused = Math.max(0, ...[...candidates.values()].map((entry) => entry.fused));
  const ranked = [...candidates.values()]
    .map(({ hit, fused }) => {
      const sectionTerms = new Set(terms(`${hit.title} ${hit.section ?? ''} ${hit.text}`));
      const share = (wanted: Set<string>) => (wanted.size === 0 ? 0 : [...wanted].filter((term) => sectionTerms.has(term)).length / wanted.size);
      const coverage = share(questionTerms);
      const followUp = share(conversationTerms);
      const onThisPage = contextPage !== undefined && normaliseUrl(hit.url) === contextPage;
      // The question's own words first, the search engine's ranking next, then the conversation and the page being read.
      const score = coverage + 0.5 * (fused / bestFused) + 0.3 * followUp + (onThisPage ? 0.25 : 0);
      return { hit, score, relevant: coverage > 0 || followUp > 0 };
    })
    .filter((entry) => entry.relevant)
    .sort((a, b) => b.score - a.score);
  return ranked.slice(0, limit).map((entry) => entry.hit);
}

/** The cited sources of an answer, in citation order ([1] is the first), one per address. */
export function groundingOf(sections: SectionHit[]): { sources: Source[]; sections: GroundingSection[] } {
  const sources: Source[] = [];
  const grounding: GroundingSection[] = [];
  for (const hit of sections) {
    let index = sources.findIndex((source) => source.url === hit.url);
    if (index === -1) index = sources.push({ url: hit.url, title: hit.title, pageId: hit.pageId }) - 1;
    grounding.push({ citation: index + 1, url: hit.url, title: hit.title, section: hit.section, text: hit.text });
  }
  return { sources, sections: grounding };
}

/** Search hits for a message over a widget's sources (the 402 fallback): as search answers it, else as retrieval finds it. */
export async function fallbackHits(db: Queryable, input: Omit<RetrievalInput, 'previousQuestions'>): Promise<Hit[]> {
  let hits: SectionHit[] = await searchSections(db, { organisationId: input.organisationId, sources: input.sources, query: input.question, limit: 10 });
  if (hits.length === 0) hits = await retrieveSections(db, { ...input, previousQuestions: [], limit: 10 });
  return hits.map(({ text: _text, ...hit }) => hit);
}

function normaliseUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}
