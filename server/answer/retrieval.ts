/**
 * Picks the sections an answer is grounded on. The search engine is asked for the question
 * as typed, the previous question of the conversation (follow-ups like "and on Windows?")
 * and the title of the page the visitor is on, and the ranked lists are fused (reciprocal
 * rank fusion); when the question alone finds little, its content words are asked one by
 * one too. The candidates are then re-ranked: the share of the question's terms a section
 * holds first, the engine's ranking next, then the conversation's terms and the page being
 * read; a section whose heading names something the visitor did not ask about ("Windows"
 * when nobody said Windows) ranks lower, and sections sharing no term with the question or
 * the conversation are dropped.
 */
import type { Hit, Source } from '../../wire/contract.js';
import { publicHits, searchSections, type SectionHit } from '../search/search.js';
import type { Queryable } from '../store/db.js';
import { keywords, share, terms, unaskedHeadingShare } from './text.js';
import type { GroundingSection, PageContext } from './types.js';

export interface RetrievalInput {
  organisationId: string;
  sources: string[];
  question: string;
  /** Earlier questions of the conversation, oldest first. */
  previousQuestions: string[];
  context?: PageContext;
  /** The widget's language, for stemming the query. */
  language?: string;
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
  const candidates = new Map<string, { hit: SectionHit; fused: number }>();
  const asked = new Set<string>();
  const ask = async (query: Query): Promise<number> => {
    const key = query.text.trim().toLowerCase();
    if (!key || asked.has(key)) return 0;
    asked.add(key);
    const hits = await searchSections(db, {
      organisationId: input.organisationId,
      sources: input.sources,
      query: query.text.slice(0, 1000),
      limit: PER_QUERY,
      language: input.language,
    });
    hits.forEach((hit, rank) => {
      const entry = candidates.get(hit.id) ?? { hit, fused: 0 };
      entry.fused += query.weight / (FUSION_K + rank + 1);
      candidates.set(hit.id, entry);
    });
    return hits.length;
  };

  const found = await ask({ text: input.question, weight: 1 });
  if (found < PER_QUERY / 2) for (const word of keywords(input.question, 4)) await ask({ text: word, weight: 0.6 });
  if (lastQuestion) await ask({ text: lastQuestion, weight: 0.3 });
  if (input.context?.title) await ask({ text: input.context.title, weight: 0.15 });

  const questionTerms = new Set(terms(input.question));
  const conversationTerms = new Set(input.previousQuestions.slice(-2).flatMap((question) => terms(question)));
  const askedAbout = new Set([...questionTerms, ...conversationTerms, ...terms(input.context?.title ?? '')]);
  const contextPage = normaliseUrl(input.context?.url);
  const bestFused = Math.max(0, ...[...candidates.values()].map((entry) => entry.fused));
  const ranked = [...candidates.values()]
    .map(({ hit, fused }) => {
      const sectionTerms = new Set(terms(`${hit.title} ${hit.section ?? ''} ${hit.text}`));
      const coverage = share(questionTerms, sectionTerms);
      const followUp = share(conversationTerms, sectionTerms);
      const onThisPage = contextPage !== undefined && normaliseUrl(hit.url) === contextPage;
      const offTopic = unaskedHeadingShare(hit.section, askedAbout);
      const score = coverage + 0.5 * (fused / bestFused) + 0.3 * followUp + (onThisPage ? 0.25 : 0) - 0.3 * offTopic;
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
    if (index === -1) index = sources.push({ url: hit.url, title: hit.title, pageId: hit.pageId, ...(hit.section && { section: hit.section }) }) - 1;
    grounding.push({ citation: index + 1, url: hit.url, title: hit.title, section: hit.section, text: hit.text });
  }
  return { sources, sections: grounding };
}

/** Search hits for a message over a widget's sources (the 402 fallback): as search answers it, else as retrieval finds it. */
export async function fallbackHits(db: Queryable, input: Omit<RetrievalInput, 'previousQuestions'>): Promise<Hit[]> {
  let hits: SectionHit[] = await searchSections(db, { organisationId: input.organisationId, sources: input.sources, query: input.question, limit: 10 });
  if (hits.length === 0) hits = await retrieveSections(db, { ...input, previousQuestions: [], limit: 10 });
  return publicHits(hits);
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
