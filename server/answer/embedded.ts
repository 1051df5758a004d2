/**
 * The embedded answer engine: no network and no model. It answers with the sentences of the
 * retrieved sections that answer the question (scored by the question's words they share,
 * rarer words weighing more, earlier and denser sentences preferred), a few of them at most,
 * in markdown, each cited with the number of its source. When the sections do not cover the
 * question it says so plainly instead of guessing.
 */
import { terms, unaskedHeadingShare } from './text.js';
import { sleep, type AnswerEngine, type GenerateInput, type GroundingSection } from './types.js';

export interface EmbeddedEngineOptions {
  /** Pause before each streamed piece, in milliseconds (demos and tests of slow streams); default 0. */
  tokenDelayMs?: number;
  /** Words per streamed piece; default 3. */
  wordsPerPiece?: number;
}

/** What the engine says when the content has no answer, per UI language (English otherwise). */
export const NO_ANSWER: Record<string, string> = {
  en: "I couldn't find this in the documentation, so I can't answer it reliably. Try rephrasing the question or searching for a related topic.",
  nl: 'Ik kon dit niet vinden in de documentatie, dus ik kan het niet betrouwbaar beantwoorden. Probeer de vraag anders te formuleren.',
  de: 'Ich konnte dazu nichts in der Dokumentation finden und kann die Frage daher nicht verlässlich beantworten. Formulieren Sie die Frage bitte anders.',
  fr: "Je n'ai pas trouvé cela dans la documentation, je ne peux donc pas répondre de façon fiable. Essayez de reformuler la question.",
  es: 'No encontré esto en la documentación, así que no puedo responder con seguridad. Intenta reformular la pregunta.',
  it: 'Non ho trovato questa informazione nella documentazione, quindi non posso rispondere in modo affidabile. Prova a riformulare la domanda.',
  'pt-BR': 'Não encontrei isso na documentação, então não posso responder com segurança. Tente reformular a pergunta.',
  'zh-Hans': '我在文档中没有找到相关内容，因此无法可靠地回答。请尝试换一种方式提问。',
  'zh-Hant': '我在文件中找不到相關內容，因此無法可靠地回答。請嘗試換一種方式提問。',
  'zh-HK': '我在文件中找不到相關內容，因此無法可靠地回答。請嘗試換一種方式提問。',
  ja: 'ドキュメントに該当する情報が見つからなかったため、確かな回答ができません。質問を言い換えてお試しください。',
  ko: '문서에서 이 내용을 찾지 못해 정확하게 답변할 수 없습니다. 질문을 바꿔서 다시 시도해 주세요.',
  th: 'ไม่พบข้อมูลนี้ในเอกสาร จึงไม่สามารถตอบได้อย่างแม่นยำ ลองถามด้วยคำอื่น',
};

export function noAnswerText(language: string): string {
  return NO_ANSWER[language] ?? NO_ANSWER[language.split('-')[0]!] ?? NO_ANSWER.en!;
}

/** The most sentences an answer quotes, and roughly the most words. */
const MAX_SENTENCES = 3;
const MAX_WORDS = 90;
/** Share of the question's (rarity-weighted) terms the chosen sentences must cover to count as an answer. */
const MIN_COVERAGE = 0.5;

export function createEmbeddedEngine(options: EmbeddedEngineOptions = {}): AnswerEngine {
  const delay = options.tokenDelayMs ?? 0;
  const wordsPerPiece = Math.max(1, options.wordsPerPiece ?? 3);
  return {
    name: 'embedded',
    async *generate(input: GenerateInput) {
      const text = composeAnswer(input);
      for (const piece of pieces(text, wordsPerPiece)) {
        if (delay > 0) await sleep(delay, input.signal);
        else await new Promise((resolve) => setImmediate(resolve));
        if (input.signal.aborted) throw input.signal.reason;
        yield piece;
      }
    },
  };
}

/** Splits a text into pieces of a few words each, keeping every character: joined they are the text. */
export function pieces(text: string, wordsPerPiece: number): string[] {
  const tokens = text.match(/\s*\S+/g) ?? [];
  const result: string[] = [];
  for (let index = 0; index < tokens.length; index += wordsPerPiece) result.push(tokens.slice(index, index + wordsPerPiece).join(''));
  const trailing = /\s+$/.exec(text)?.[0];
  if (trailing && result.length > 0) result[result.length - 1] += trailing;
  return result;
}

interface Unit {
  text: string;
  terms: Set<string>;
  headingTerms: Set<string>;
  citation: number;
  sectionRank: number;
  /** Position within its section (0 first). */
  position: number;
  /** Position under its own heading, to favour a heading's opening sentence. */
  positionUnderHeading: number;
  listItem: boolean;
  words: number;
  /** The heading the unit is under, within its section (empty at the section's top). */
  heading: string;
}

/** Builds the whole answer: chosen sentences with citations, or the plain "not found". */
export function composeAnswer(input: Pick<GenerateInput, 'question' | 'sections' | 'language' | 'history'>): string {
  const questionTerms = [...new Set(terms(input.question))];
  const units = input.sections.flatMap((section, rank) => splitSection(section, rank));
  if (questionTerms.length === 0 || units.length === 0) return noAnswerText(input.language);

  const documentFrequency = new Map<string, number>();
  for (const unit of units) for (const term of new Set([...unit.terms, ...unit.headingTerms])) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const weight = (term: string) => Math.log(1 + units.length / (1 + (documentFrequency.get(term) ?? 0)));
  // A follow-up ("and on Windows?") leans on the previous question's words, at a lower weight.
  const previousQuestion = [...input.history].reverse().find((turn) => turn.role === 'user');
  const contextTerms = new Set(previousQuestion ? terms(previousQuestion.text) : []);

  const totalWeight = questionTerms.reduce((sum, term) => sum + weight(term), 0);
  const askedAbout = new Set([...questionTerms, ...contextTerms]);
  const scored = units
    .map((unit) => {
      let match = 0;
      let matched = 0;
      let headingMatch = 0;
      for (const term of questionTerms) {
        if (unit.terms.has(term)) {
          match += weight(term);
          matched++;
        } else if (unit.headingTerms.has(term)) headingMatch += weight(term);
      }
      let followUp = 0;
      for (const term of contextTerms) if (unit.terms.has(term) && !questionTerms.includes(term)) followUp += weight(term);
      const opensHeading = unit.positionUnderHeading < 2 && headingMatch > 0;
      if (matched === 0 && !opensHeading) return { unit, score: 0 };
      // The share of the question the sentence itself answers counts most; its headings help.
      const coverage = (match + 0.5 * headingMatch + 0.25 * followUp) / totalWeight;
      const density = Math.min(1, matched / Math.sqrt(unit.terms.size + 1));
      // A sentence under a heading nobody asked about ("Windows") answers a narrower question.
      const narrower = 1 - 0.3 * unaskedHeadingShare(unit.heading, askedAbout);
      const score = coverage * (0.7 + 0.3 * density) * narrower * (1 / (1 + 0.1 * unit.position)) * (1 / (1 + 0.1 * unit.sectionRank));
      return { unit, score };
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score);
  if (scored.length === 0) return noAnswerText(input.language);

  const chosen: Unit[] = [];
  const covered = new Set<string>();
  let totalWords = 0;
  const best = scored[0]!.score;
  for (const { unit, score } of scored) {
    if (chosen.length >= MAX_SENTENCES) break;
    if (chosen.length > 0 && (score < 0.4 * best || totalWords + unit.words > MAX_WORDS)) continue;
    // A further sentence must answer a part of the question not answered yet, or be nearly as good as the best.
    const adds = questionTerms.some((term) => !covered.has(term) && (unit.terms.has(term) || unit.headingTerms.has(term)));
    if (chosen.length > 0 && !adds && score < 0.8 * best) continue;
    // Docs repeat themselves: a sentence saying nearly what a chosen one says adds nothing.
    if (chosen.some((other) => overlap(other.terms, unit.terms) >= 0.8)) continue;
    chosen.push(unit);
    totalWords += unit.words;
    for (const term of questionTerms) if (unit.terms.has(term) || unit.headingTerms.has(term)) covered.add(term);
  }
  const coverage = [...covered].reduce((sum, term) => sum + weight(term), 0) / totalWeight;
  if (coverage < MIN_COVERAGE) return noAnswerText(input.language);

  // Read in the order of the sources, and within one source in the order of the text.
  chosen.sort((a, b) => a.sectionRank - b.sectionRank || a.position - b.position);
  const cited = chosen.map((unit) => cite(unit.text, unit.citation));
  if (chosen.length >= 3 || (chosen.length > 1 && chosen.every((unit) => unit.listItem))) return cited.map((line) => `- ${line}`).join('\n');
  return cited.join(' ');
}

/** How much of the smaller term set the larger one holds (1: one says all the other says). */
function overlap(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  const smaller = Math.min(a.size, b.size);
  return smaller === 0 ? 1 : shared / smaller;
}

/** `Install it.` → `Install it [1].`; a marker goes inside the final punctuation. */
function cite(sentence: string, citation: number): string {
  const match = /([.!?。！？]+)$/.exec(sentence);
  return match ? `${sentence.slice(0, -match[1]!.length)} [${citation}]${match[1]}` : `${sentence} [${citation}]`;
}

/** A section's text as sentences and list items, each knowing the headings above it. */
function splitSection(section: GroundingSection, sectionRank: number): Unit[] {
  const units: Unit[] = [];
  const baseHeading = [section.title, section.section ?? ''].join(' ');
  let heading = '';
  let positionUnderHeading = 0;
  let paragraph: string[] = [];
  let inFence = false;
  const push = (raw: string, listItem: boolean) => {
    for (const sentence of sentences(raw)) {
      const text = cleanInline(sentence);
      const wordCount = text.split(/\s+/).filter(Boolean).length;
      if (wordCount < 3 && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u.test(text)) continue;
      units.push({
        text,
        terms: new Set(terms(text)),
        headingTerms: new Set(terms(`${baseHeading} ${heading}`)),
        citation: section.citation,
        sectionRank,
        position: units.length,
        positionUnderHeading: positionUnderHeading++,
        listItem,
        words: wordCount,
        heading: [section.section ?? '', heading].join(' ').trim(),
      });
    }
  };
  const flush = () => {
    if (paragraph.length > 0) push(paragraph.join(' '), false);
    paragraph = [];
  };
  for (const line of section.text.split('\n')) {
    const trimmed = line.trim();
    if (/^(```|~~~)/.test(trimmed)) {
      flush();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const headingMatch = /^#{1,6}\s+(.*)$/.exec(trimmed);
    if (headingMatch) {
      flush();
      heading = headingMatch[1]!.replace(/#+\s*$/, '');
      positionUnderHeading = 0;
      continue;
    }
    if (trimmed === '' || /^(\||-{3,}|\*{3,}|_{3,}|<)/.test(trimmed)) {
      flush();
      continue;
    }
    const item = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(trimmed);
    if (item) {
      flush();
      push(item[1]!, true);
      continue;
    }
    paragraph.push(trimmed.replace(/^>\s?/, ''));
  }
  flush();
  return units;
}

/** Splits prose into sentences at `.`, `!` or `?` followed by space and a capital or digit (and at CJK stops). */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'“(`*])|(?<=[。！？])/u)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/** Keeps readable inline markdown (code, emphasis, links with absolute targets), drops images and raw tags. */
function cleanInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\((?!https?:)[^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
