/**
 * The embedded answer engine: no network and no model. It answers the way a careful writer
 * quotes documentation: the sentence (or table row) of the retrieved passages that answers
 * the question best (scored by the question's words it shares, rarer words weighing more,
 * its headings helping, earlier and denser sentences preferred), in its context (the
 * sentence it leans on, the rest of its point, one more good sentence of the passage),
 * cited with its number; then
 * that passage's code example, verbatim as the page has it in a fenced block with its
 * language, or else its steps (for "How do I …?", or else the example of its page that
 * retrieval puts after it, with the sentence announcing it); then, when the question has two parts and the first passage
 * answers only one, the same from one more passage. Inline code keeps its backticks.
 * Nothing comes from a passage that does not answer, and only what is quoted is cited.
 * When the passages do not cover the question it says so plainly, in the visitor's
 * language, instead of guessing.
 */
import { isTableDelimiter, plainInline, tableCells } from '../content/markdown.js';
import { escapeRegExp } from '../search/snippet.js';
import { COMPARING, actionAsked, entryHeadingOf, calls, calledEntry, calledEntryParts, kindsAsNamed, SETTING_ASKED, isSettingEntry, abbreviating, askedAndTold, abbreviationOf, abbreviationsIn, contentQuery, definingText, DEFINITION_ASKED, HOW_ASKED, words, errorMessageIn, errorStretches, showsErrorStretch, headingExactness, headingOpensAs, isStopWord, namedApis, nameAsTyped, headingTerms as headingTermsOf, keywordsInCapitals, NAME_AND_PURPOSE, onlyNamesPurpose, ownHeading, share, spelledOutIn, terms, pageTerms, termsDoneWithout, unaskedHeadingShare, questionAsked } from './text.js';
import { sleep, type AnswerEngine, type GenerateInput, type GroundingSection } from './types.js';
import { CHANGES_ASKED, isReleaseNotes } from '../search/release-notes.js';

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

export function createEmbeddedEngine(options: EmbeddedEngineOptions = {}): AnswerEngine {
  const delay = options.tokenDelayMs ?? 0;
  const wordsPerPiece = Math.max(1, options.wordsPerPiece ?? 3);
  return {
    name: 'embedded',
    cites: (input) => composeAnswer(input).cited,
    async *generate(input: GenerateInput) {
      const { text } = composeAnswer(input);
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

/**
 * Share of the question's terms the quoted passages (their headings and whole text: the
 * grounding, not only the sentence quoted) must hold to count as an answer. Every term counts the same here: rarity among the retrieved passages says
 * little, since they all share the topic's own words.
 */
const MIN_COVERAGE = 0.6;
/** Of a longer question, told as visitors chat, the passage ranked first covers it with fewer of its words: from this many terms… */
const LONG_QUESTION_TERMS = 6;
/** …a share less for each term more… */
const COVERAGE_PER_TERM = 0.03;
/** …down to this share. */
const MIN_LONG_COVERAGE = 0.4;
/** The share of a question's `count` terms a passage retrieval ranks first must hold to answer it (MIN_COVERAGE of a short one). */
function coverageNeeded(count: number): number {
  return Math.max(MIN_LONG_COVERAGE, MIN_COVERAGE - COVERAGE_PER_TERM * Math.max(0, count - LONG_QUESTION_TERMS));
}
/** Share of a second part's terms the further passage must hold to be quoted for it. */
const MIN_PART_COVERAGE = 0.5;
/** How much more a sentence counts that says two of the question's words side by side, as it does. */
const PAIR_WEIGHT = 0.3;

/** The question's pairs of adjacent words holding a content word and a word that names (not "how do", not "do i"). */
function wordPairs(question: string): string[] {
  const all = words(question);
  const pairs = new Set<string>();
  for (let index = 0; index + 1 < all.length; index++) {
    const pair = [all[index]!, all[index + 1]!];
    const content = pair.filter((word) => terms(word).length > 0).length;
    if (content === 2 || (content === 1 && pair.every((word) => !QUESTION_WORDS.has(word)))) pairs.add(pair.join(' '));
  }
  return [...pairs];
}

/** Words that ask rather than name. */
const QUESTION_WORDS = new Set(['how', 'what', 'why', 'when', 'where', 'which', 'who', 'do', 'does', 'did', 'i', 'is', 'are', 'can', 'to', 'a', 'an', 'the', 'my', 'me', 'you', 'it', 'of', 'in', 'for', 'and', 'or', 'with', 'that', 'this', 'there']);

/** How good, against the answering sentence, another sentence of its passage must be to be quoted with it. */
const SUPPORTING_SHARE = 0.4;

const isProse = (unit: Unit) => unit.passage.blocks[unit.block]!.kind === 'prose';

/** A list item that announces the items nested in it ("… the following payments are settled:") or an example, as a sentence would. */
const announcesWhatFollows = (unit: Unit) => {
  const [block, next] = [unit.passage.blocks[unit.block], unit.passage.blocks[unit.block + 1]];
  return block?.kind === 'item' && /:$/.test(unit.text) && (next?.kind === 'code' || (next?.kind === 'item' && next.indent > block.indent));
};

/** A sentence about the page rather than its topic, or one that sends the reader elsewhere. */
const SIGNPOST =
  /^(?:(?:this|the following|the next|the present)\s+(?:chapter|section|page|part|document|appendix|tutorial|guide|article|manual|howto|module documentation)\b|(?:refer to|for (?:more|further) (?:information|details)|more information)\b|if you want (?:those|these|that|this), see\b|see\s+(?:also|(?:the\s+)?(?:section|chapter|table|figure|appendix|page|documentation|reference)|below|above)\b)/i;

/**
 * A sentence that says where the document goes on rather than anything of the topic, from its start ("Later in this
 * chapter we will see how to deal with this issue.", "This is covered in Chapter 7."; not "As we will see, the default
 * is 5."), or anywhere when it sends the reader ahead ("… you can skip ahead to Chapter 6").
 */
const POINTS_ELSEWHERE =
  /^(?:(?:then|next|now|below)\s*,?\s+)?(?:(?:later|earlier|elsewhere|further on)\s+in\s+(?:this|the)\s+(?:chapter|section|document|manual|tutorial|guide|page|book)\b|we(?:['’]ll|\s+will|\s+shall)\s+(?:see|discuss|describe|explain|look\s+at|cover|return\s+to|come\s+back\s+to)\b|(?:this|these|they|it)\s+(?:is|are|will\s+be)\s+(?:described|discussed|explained|covered)\s+(?:later|below|in\s+(?:a\s+later|the\s+next|chapter|section))\b)|\bskip\s+ahead\s+to\b/i;
const isSignpost = (text: string) => SIGNPOST.test(text) || POINTS_ELSEWHERE.test(text);

const SEE_ALSO = /^see also:?$/i;
/** An entry of a list of further reading: its title (which may hold a colon, unlike DEFINITION_ENTRY's term), then " : " and what it is. */
const REFERENCE_ENTRY = /^.{1,100}?\s:\s\S/;

/** An entry of a definition list as a passage reads it, its term then its description: "`name` : The name of the new role." */
const DEFINITION_ENTRY = /^[^.!?:]{1,80}\s:\s\S/;

/** A bare note of the version that added what a passage describes ("New in version 3.7."): it says when, not what. */
const VERSION_NOTE = /^(?:new|added|changed|deprecated) (?:in|since) version [\d.]*\d\.?$/i;

/** A note of what a version changed ("Changed in version 3.9: … raise `ImportError` instead of `ValueError`"). */
const CHANGE_NOTE = /^(?:new|added|changed|deprecated|removed) (?:in|since) version\b/i;
/** What used to be, before a release: "Before PostgreSQL 10, it was necessary …", "In Python versions 3.5 to 3.10 you could …". */
const TELLS_PAST = /^(?:before|prior to|until|up to|in)\s+(?:\p{Lu}[\p{L}/]*\s+(?:versions?\s+)?|versions?\s+|v)\d+(?:\.\d+)*(?:\s+(?:to|and|through)\s+\d+(?:\.\d+)*)?,?\s+(?:it\s+was|you\s+(?:could|had|needed|would)|there\s+was|(?:\p{L}+\s+){1,2}(?:was|were|had|could|did))\b/iu;
/** How much a change note, or what used to be, counts against another sentence, unless the question asks about versions. */
const CHANGE_NOTE_WEIGHT = 0.5;

/** A sentence that ends as a statement does (not with a colon, nor cut off before an example). */
const ENDS_SENTENCE = /[.!?。！？]["”’')\]]?$/;
/** How much a list item counts against a sentence of prose as what answers: an item is often one of many options, a sentence says how. */
const LIST_ITEM = 0.7;
/** How much more a sentence of a setting's entry counts when the question asks which setting does something. */
const SETTING_ENTRY = 1.5;
/** A sentence that says how to fix what the passage shows: "The fix is to …", "To avoid this, …", "You can prevent it by …". */
const FIX_CUE = /^(?:the (?:fix|solution|remedy|workaround|cure) (?:is|for this is)|to (?:fix|avoid|prevent|solve|work around|get around|correct|resolve) (?:this|it|that|the (?:problem|error|issue))|(?:you can )?(?:fix|avoid|prevent|solve) (?:this|it) by)\b/i;
/** How much more the sentence with the fix counts than the others that explain a pasted error. */
const FIX_WEIGHT = 1.5;
/**
 * A sentence saying when a message is given ("If checkpoints happen closer together than `checkpoint_warning` seconds, a
 * message will be output to the server log recommending …", "a `TabError` is raised in that case"): for a pasted message,
 * where the page tells when the visitor meets it, and often what to do.
 */
const TELLS_WHEN_SHOWN =
  /\b(?:messages?|errors?|warnings?|exceptions?|notices?|`?\w*(?:Error|Exception|Warning)`?)\s+(?:is|are|will be|would be|gets|get)\s+(?:\w+ly\s+)?(?:raised|thrown|output|emitted|issued|logged|reported|written|printed|shown|displayed|generated|produced|given)\b/;
/** How much more such a sentence counts for a pasted message than others sharing its words. */
const WHEN_SHOWN_WEIGHT = 1.5;
/**
 * A sentence that says how to do something, as a purpose and the step for it ("To display the date and time of an event,
 * you would place `%(asctime)s` in your format string"): what "How do I …?" asks for. Not one that says what it takes
 * ("To alter the owner, you must also be a member of the new owning role"), nor one that gives the writer's purpose
 * ("To illustrate how you can send log messages via email, …, you can subclass `BufferingHandler`").
 */
const TELLS_HOW = /^to\s+(?!illustrate\b|demonstrate\b|exemplify\b)\p{L}+\b[^.!?]*,\s*(?:you\s+(?:can|could|would|should|may|might)|use|call|pass|set|add|run|write|create|simply|just)\b/iu;
/** How much more such a sentence counts for a how-question. */
const TELLS_HOW_WEIGHT = 2;

/** A sentence that says by what a thing is turned on or set: "It can be enabled or disabled using the `-X utf8` command line option". */
const MEANS_TOLD = /\b(?:can|may)\s+(?:also\s+|only\s+)?be\s+(?:enabled|disabled|activated|deactivated|turned\s+(?:on|off)|switched\s+(?:on|off)|set|configured|forced)(?:\s+or\s+(?:disabled|enabled|off|on|changed|set))?\s+(?:\w+\s+)?(?:using|with|by|via|through|in)\b/i;
/** Code in backticks within a sentence: the option or variable it names. */
const INLINE_CODE = /`[^`\n]+`/;

const WHY_ASKED = /^\s*(?:why|how come)\b/i;
/** In a sentence ending with a colon, what announces the reasons listed after it: "There are two factors that produce this result:". */
const REASONS = /\b(?:reasons?|factors?|causes?)\b/i;

/** "What is typing.Protocol for?", "what's the point of …", "why would I use …": what a thing is for, more than what it is. */
const PURPOSE_ASKED =
  /^\s*(?:what(?:['’]?s| is| are)\b.*(?<!\b(?:wait|look|search|check|listen|ask|pay|account|test|watch|apply|call|hope|prepare|stand|go)(?:s|ed|ing)?)\s+for\s*\??\s*$|what(?:['’]?s| is) the (?:point|purpose|use) of\b|why would (?:i|you|one|anyone) (?:use|want)\b)/i;
/** A sentence that says what a thing is for: "Such classes are primarily used with static type checkers …". */
const TELLS_PURPOSE = /\b(?:(?:are|is|be) (?:\w+ly )?used (?:for|to|with|when)|useful (?:for|when|to|if)|lets? you|allows? (?:you|one|users?)|(?<![\w-])purpose (?:of|is)|intended (?:for|to)|designed (?:for|to)|makes? it possible)\b/i;
/** Words that ask what a thing is for ("what's the point of …", "why would I use …"), not which thing. */
const PURPOSE_WORDS = new Set(terms('point purpose use using want'));
/** The most items quoted as a passage's steps. */
const MAX_STEPS = 12;

/** A block of a passage's markdown, in order. */
type Block =
  /**
   * `sentences`: the paragraph's sentences as units read them. `row`: read from a table's row; `names` finds in code the name
   * of what the row is about (the code span it opens with, if any). `term`: the term a definition's paragraph opens with
   * (its line before the one starting ": ", `list.insert(i, x)`).
   */
  | { kind: 'prose'; text: string; sentences: string[]; row?: { names?: RegExp }; term?: string }
  | { kind: 'item'; text: string; ordered: boolean; list: number; indent: number; number?: number }
  /** `step`: the numbered list it belongs to, as the code shown under one of its steps. */
  | { kind: 'code'; markdown: string; step?: number };

interface Passage {
  section: GroundingSection;
  rank: number;
  blocks: Block[];
  /** Terms of the page title and the section's headings. */
  headingTerms: Set<string>;
  /** Terms of the section's own heading (the page title for a page's opening section). */
  ownHeadingTerms: Set<string>;
  /** Terms of the headings and of the whole body, code included. */
  allTerms: Set<string>;
}

/** A sentence or list item of a passage: what can answer. */
interface Unit {
  /** As written, inline code in backticks. */
  text: string;
  terms: Set<string>;
  /** Its words as read, lowercased, one space between and around them (for finding word pairs). */
  spoken: string;
  passage: Passage;
  /** The block it comes from. */
  block: number;
  /** Position within its passage (0 first). */
  position: number;
  /** Its place among its block's sentences (0 for a list item). */
  sentence: number;
  words: number;
  /**
   * The end of a sentence an example interrupted, where it goes on after the example ("The main differences between:
   * [example] and: [example] are that the materialized view cannot …"): the first sentence of the paragraph after an
   * example, starting in lower case with a stop word ("are", "and", "which"), not a name (`pg_upgrade allows …`). It is
   * not a sentence to quote on its own.
   */
  endOfInterrupted: boolean;
  /** An entry of a "See also": it names other reading, and answers nothing itself. */
  furtherReading: boolean;
}

/** The answer's text, and the sections it cites, numbered as the text cites them. */
export interface ComposedAnswer {
  text: string;
  cited: GroundingSection[];
}

/** Builds the whole answer: quoted sentences and examples with citations, or the plain "not found" without any. */
export function composeAnswer(given: Pick<GenerateInput, 'question' | 'sections' | 'language' | 'history' | 'subject'>): ComposedAnswer {
  const input = { ...given, question: questionAsked(given.question, given.subject) };
  const refusal = { text: noAnswerText(input.language), cited: [] };
  // What a question only tells ("… I tried the docs but got lost.") says which answer fits better, as the conversation
  // does (contextTerms), but an answer need not repeat it: what it asks does.
  const { asked: questionTerms, told: onlyTold } = askedAndTold(input.question);
  const passages = input.sections.map((section, rank) => readPassage(section, rank));
  // "What is WAL?" is answered where a passage says "Write-Ahead Logging" too, when one of them says they are the same.
  const asWritten = input.sections.map((section) => ({ ...section, text: section.markdown || section.text }));
  const abbreviations = abbreviationsIn(input.question, asWritten);
  const spelledOut = abbreviating(abbreviations, questionTerms);
  // "the nonlocal keyword" is named by the heading "The nonlocal statement" (kindsAsNamed); a passage holds what its headings name.
  const asKinds = kindsAsNamed(input.question);
  for (const passage of passages) {
    passage.headingTerms = asKinds(spelledOut(passage.headingTerms));
    passage.ownHeadingTerms = asKinds(spelledOut(passage.ownHeadingTerms));
    passage.allTerms = new Set([...spelledOut(passage.allTerms), ...passage.headingTerms]);
  }
  const units = passages.flatMap(unitsOf);
  for (const unit of units) unit.terms = spelledOut(unit.terms);
  if (questionTerms.length === 0 || units.length === 0) return refusal;

  const documentFrequency = new Map<string, number>();
  for (const unit of units) for (const term of new Set([...unit.terms, ...unit.passage.headingTerms])) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const weight = (term: string) => Math.log(1 + units.length / (1 + (documentFrequency.get(term) ?? 0)));
  const weightOf = (wanted: string[], have: (term: string) => boolean) => {
    const total = wanted.reduce((sum, term) => sum + weight(term), 0);
    return total === 0 ? 0 : wanted.reduce((sum, term) => sum + (have(term) ? weight(term) : 0), 0) / total;
  };
  // A follow-up ("and on Windows?") leans on the previous question's words, at a lower weight.
  const previousQuestion = [...input.history].reverse().find((turn) => turn.role === 'user');
  const contextTerms = new Set([...(previousQuestion ? terms(previousQuestion.text) : []), ...onlyTold]);
  const askedAbout = new Set([...questionTerms, ...contextTerms]);

  const definitional = DEFINITION_ASKED.test(input.question);
  const changesAsked = CHANGES_ASKED.test(input.question);
  const asksHow = HOW_ASKED.test(input.question);
  const settingAsked = SETTING_ASKED.test(input.question);
  const asksWhy = WHY_ASKED.test(input.question);
  // A pasted error is explained right where the page shows it: the sentence holding it or following the example that does.
  const error = errorMessageIn(input.question);
  const stretches = (error ? errorStretches(error) : []).filter((stretch) => stretch.length >= 8);
  const showsError = (text: string) => showsErrorStretch(text, stretches);
  // "The fix is to close the file explicitly.": what the visitor wants of a page that shows their error.
  const fixesError = (unit: Unit) =>
    stretches.length > 0 && FIX_CUE.test(unit.text) && unit.passage.blocks.some((block) => showsError(block.kind === 'code' ? block.markdown : block.text));
  const readsAsExplaining = (unit: Unit) => {
    if (stretches.length === 0) return false;
    if (showsError(unit.text) || fixesError(unit)) return true;
    const blocks = unit.passage.blocks;
    const block = blocks[unit.block]!;
    if (block.kind === 'code') return false;
    // The sentence that leads to an example showing it, in the question's words ("After a file object is closed, … attempts to
    // use the file object will automatically fail." before `f.read()` raising `ValueError: I/O operation on closed file.`),
    // also before a short announcement of it ("For example:")…
    const after = blocks[unit.block + 1];
    if (block.kind === 'prose' && after?.kind === 'code' && showsError(after.markdown) && ENDS_SENTENCE.test(unit.text) && [...unit.terms].some((term) => questionTerms.includes(term))) {
      const announcement = block.sentences.at(-1)!;
      const last = /:$/.test(announcement) && wordCount(announcement) <= SHORT_ANNOUNCEMENT_WORDS ? block.sentences.length - 2 : block.sentences.length - 1;
      if (unit.sentence === last) return true;
    }
    // …the first sentence after the example, past the end of one the example interrupted ("where your login name is shown")…
    const before = blocks[unit.block - 1];
    if (before?.kind === 'code') {
      const opening = block.kind === 'prose' ? (block.sentences[0] ?? '') : unit.text;
      return showsError(before.markdown) && unit.sentence === (endsInterrupted(opening) ? 1 : 0);
    }
    // …or, when that end is a paragraph of its own ("because a repeatable read transaction cannot …"), the next paragraph's first.
    const code = blocks[unit.block - 2];
    if (before?.kind !== 'prose' || code?.kind !== 'code' || !showsError(code.markdown)) return false;
    return before.sentences.length === 1 && endsInterrupted(before.sentences[0]!) && unit.sentence === 0;
  };
  // Asked of each unit by every search for a sentence and again when quoting: read once per unit.
  const explained = new Map<Unit, boolean>();
  const explainsError = (unit: Unit) => {
    let known = explained.get(unit);
    if (known === undefined) explained.set(unit, (known = readsAsExplaining(unit)));
    return known;
  };
  // Two of the question's words side by side ("DISTINCT ON", "UNION ALL") name one thing: a sentence saying them so is about it.
  const pairs = wordPairs(input.question);
  const pairShare = (unit: Unit) => {
    if (pairs.length === 0) return 0;
    return pairs.filter((pair) => unit.spoken.includes(` ${pair} `)).length / pairs.length;
  };
  // A table row that starts with the name asked about, as code ("`unnest` ( `anyarray` ) → …"), is its entry.
  const named = namedApis(input.question).map((name) => new RegExp(`^(?:[\\w.]*\\.)?${escapeRegExp(name.replace(/\(\)$/, ''))}(?![\\w.])`));
  const entries = new Set(
    units.filter((unit) => {
      const code = /^`([^`]+)`/.exec(unit.text)?.[1]?.toLowerCase();
      return code !== undefined && named.some((name) => name.test(code));
    }),
  );
  // The entry of a call the question names, headed by it as the visitor writes it (`class dbg.Settle(frame)` for
  // "Settle(x)", not the built-in `settle()`): what its heading says besides, the kind and the module, is not off the question.
  const callsAsTyped = namedApis(input.question)
    .filter((name) => name.endsWith('()'))
    .map((name) => nameAsTyped(name, input.question).slice(0, -2));
  const besidesCallAsTyped = (section: string | undefined): string[] => {
    const entry = calledEntryParts(section);
    const dotted = entry && `${entry.module}${entry.name}`;
    const named = entry && callsAsTyped.some((call) => (call.includes('.') ? dotted === call || dotted!.endsWith(`.${call}`) : entry.name === call));
    return named ? terms(`${entry.kind} ${entry.module.replace(/\./g, ' ')}`) : [];
  };
  // Where a passage's first entry of the named API is: a reference table lists functions in its own order, so an entry
  // far down a long table is no less an answer than an opening sentence, though the first of several (`age(timestamp,
  // timestamp)`, then `age(timestamp)`) comes first.
  const firstEntryAt = new Map<Passage, number>();
  for (const unit of entries) if (!firstEntryAt.has(unit.passage)) firstEntryAt.set(unit.passage, unit.position);
  // "What is typing.Protocol for?": a sentence of a passage about it that says what it is used for (purposeTold, once the
  // passages that can answer are known).
  const thing = questionTerms.filter((term) => !PURPOSE_WORDS.has(term));
  const tellsPurposeOf = (unit: Unit) => thing.length > 0 && TELLS_PURPOSE.test(unit.text) && weightOf(thing, (term) => unit.passage.ownHeadingTerms.has(term)) > 0.99;
  let purposeTold = false;
  // A FAQ entry headed by the question in the visitor's own opening words ("Why does Python use indentation for grouping of
  // statements?") answers it with its first sentence, whatever words the rest of either uses.
  const entriesOfQuestion = new Set(passages.filter((passage) => headingOpensAs(entryHeadingOf(passage.section), input.question)));
  const best = (candidates: Unit[], wanted: string[]): { unit: Unit; score: number } | undefined => {
    const totalWeight = wanted.reduce((sum, term) => sum + weight(term), 0);
    let chosen: { unit: Unit; score: number } | undefined;
    for (const unit of candidates) {
      if (unit.endOfInterrupted) continue;
      let match = 0;
      let matched = 0;
      let headingMatch = 0;
      for (const term of wanted) {
        if (unit.terms.has(term)) {
          match += weight(term);
          matched++;
        } else if (unit.passage.headingTerms.has(term)) headingMatch += weight(term);
      }
      let followUp = 0;
      for (const term of contextTerms) if (unit.terms.has(term) && !wanted.includes(term)) followUp += weight(term);
      // A heading that names the question makes its opening sentence the answer, even in other words.
      const opensHeading = unit.position < 2 && headingMatch > 0;
      const explains = explainsError(unit);
      // "There are two factors that produce this result:", under headings that hold most of the question, answers "Why …?" with its list.
      const reasons =
        asksWhy && unit.text.endsWith(':') && REASONS.test(unit.text) && headingMatch / totalWeight >= MIN_PART_COVERAGE && unit.passage.blocks[unit.block + 1]?.kind === 'item';
      // "What is … for?" is answered by what that passage says it is for, when it says so, rather than by what it is.
      const tellsPurpose = purposeTold && tellsPurposeOf(unit);
      const opensEntryOfQuestion = unit.position === 0 && entriesOfQuestion.has(unit.passage);
      if (matched === 0 && !opensHeading && !definitional && !explains && !reasons && !tellsPurpose) continue;
      // A passage whose own heading names what is asked is about it, whatever its rank.
      const about = weightOf(wanted, (term) => unit.passage.ownHeadingTerms.has(term));
      // "What is a decorator?" is answered by the first sentence under the heading "decorator", which need not repeat it.
      const defines = definitional && !purposeTold && unit.position === 0 && about > 0.99;
      // The entry of a function the question names says what it does, not why: "Why does now() return the same time …?"
      // is answered by the sentence that explains it ("Since these functions return the start time of the transaction …").
      const isEntry = entries.has(unit) && !asksWhy;
      // The heading "List Comprehensions" defines them; "Nested List Comprehensions" narrows them.
      const coverage =
        (explains || isEntry || reasons || tellsPurpose || opensEntryOfQuestion ? 1 : 0) +
        (defines ? 1 + headingExactness(unit.passage.ownHeadingTerms, wanted) + (0.25 * followUp) / totalWeight : (match + 0.5 * headingMatch + 0.25 * followUp) / totalWeight);
      const density = Math.min(1, matched / Math.sqrt(unit.terms.size + 1));
      const phrased = 1 + PAIR_WEIGHT * pairShare(unit);
      // A passage under a heading nobody asked about ("Windows") answers a narrower question.
      const besides = besidesCallAsTyped(unit.passage.section.section);
      const narrower = 1 - 0.3 * unaskedHeadingShare(unit.passage.section.section, besides.length > 0 ? new Set([...askedAbout, ...besides]) : askedAbout);
      // "This chapter explains how the Write-Ahead Log is used" points to an answer without giving it; "CREATE VIEW —
      // define a new view" says what a command does, which answers "How do I …?" less than a sentence that shows how.
      const signpost = isSignpost(unit.text) || unit.furtherReading ? 0.1 : asksHow && NAME_AND_PURPOSE.test(unit.text) ? NAME_AND_PURPOSE_FOR_HOW : 1;
      // "Changed in version 3.9: … raise `ImportError` …" says what a version changed, not what happens now; "Before
      // PostgreSQL 10, it was necessary …" what used to be.
      const changeNote = !changesAsked && (CHANGE_NOTE.test(unit.text) || TELLS_PAST.test(unit.text.replace(/`/g, ''))) ? CHANGE_NOTE_WEIGHT : 1;
      // "Which setting …?" asks for a setting's name: its entry says it.
      const setting = settingAsked && isSettingEntry(unit.passage.section.section, unit.passage.section.title) ? SETTING_ENTRY : 1;
      // Later sentences of a passage count less, but not the one explaining a pasted error: it is where the page shows it.
      const later = explains ? 1 : 1 / (1 + 0.05 * (isEntry ? unit.position - firstEntryAt.get(unit.passage)! : unit.position));
      const score =
        (fixesError(unit) ? FIX_WEIGHT : 1) *
        (stretches.length > 0 && matched > 0 && TELLS_WHEN_SHOWN.test(unit.text) ? WHEN_SHOWN_WEIGHT : 1) *
        (asksHow && TELLS_HOW.test(unit.text) ? TELLS_HOW_WEIGHT : 1) *
        setting *
        changeNote *
        signpost *
        (isProse(unit) || announcesWhatFollows(unit) ? 1 : LIST_ITEM) *
        phrased *
        coverage * (0.7 + 0.3 * density) * narrower * (1 + about) * later * (1 / (1 + unit.passage.rank)) ** 0.6;
      if (!chosen || score > chosen.score) chosen = { unit, score };
    }
    return chosen;
  };

  // A version the visitor mentions ("in postgres 15"), or a value a pasted error quotes (the bytes `0xe9 0x20` of
  // "invalid byte sequence"), is rarely written where the answer is, nor what they want to do without.
  const doneWithout = termsDoneWithout(input.question);
  const pasted = errorMessageIn(input.question)?.toLowerCase() ?? '';
  const answerTerms = questionTerms.filter((term) => !/^\d+$/.test(term) && !(/^0x[\da-f]+$/.test(term) && pasted.includes(term)));
  const required = new Set(answerTerms.every((term) => doneWithout.has(term)) ? answerTerms : answerTerms.filter((term) => !doneWithout.has(term)));
  const parts = questionParts(keywordsInCapitals(input.question)).map((part) => terms(part));
  // Only a passage that covers the question can answer it: when the best sentence is in one that does not, another may.
  // A question of two parts no passage covers alone may be answered by two that each cover a part.
  // A long question told as visitors chat holds words no passage needs to say ("… on my windows laptop … on my mac it was
  // fine"): the passage retrieval ranks first covers it with fewer of them, when its headings name some of what is asked
  // and it is no release notes ("nothing changed in the code" asks nothing about versions).
  const covers = (wanted: Set<string>, have: Set<string>, passage?: Passage) => {
    const ranksFirst = passage !== undefined && passage.rank === 0 && !isReleaseNotes(passage.section) && [...wanted].some((term) => passage.headingTerms.has(term));
    return share(wanted, have) >= (ranksFirst ? coverageNeeded(wanted.size) : MIN_COVERAGE);
  };
  /** Whether the quotes together cover the question, `first` the passage the answer leads with. */
  const quotesCover = (quotes: Quote[], first?: Passage) => covers(required, new Set(quotes.flatMap((part) => [...part.passage.allTerms])), first);
  const covering = (wanted: Set<string>[]) => new Set(passages.filter((passage) => wanted.some((asked) => covers(asked, passage.allTerms, passage))));
  let answerable = covering([required]);
  if (answerable.size === 0 && parts.length > 1) answerable = covering(parts.map((part) => new Set(part.filter((term) => required.has(term)))));
  purposeTold = PURPOSE_ASKED.test(input.question) && units.some((unit) => answerable.has(unit.passage) && tellsPurposeOf(unit));
  // "staticmethod vs classmethod", "pg_dump vs pg_dumpall": each thing compared is told by the opening of its own entry
  // (retrieval puts them first), in the question's order, when the entries together cover the question.
  const comparedQuotes = passages.filter((passage) => passage.section.compares).flatMap((passage) => {
    const opening = openingUnit(passage, units);
    const text = openingSentences(passage, units) ?? (opening && NAME_AND_PURPOSE.test(opening.text) ? opening.text : undefined);
    return text ? [quoteOf(passage, text)] : [];
  });
  if (comparedQuotes.length >= 2) {
    // "… and do I still need __init__.py?": what the openings leave out is answered by the sentence of a passage that holds most of it.
    const said = new Set(comparedQuotes.flatMap((part) => [...part.terms]));
    const leftOut = [...required].filter((term) => !said.has(term) && !COMPARING.has(term));
    const rest = leftOut.length > 0 ? best(units.filter((unit) => isProse(unit) && ENDS_SENTENCE.test(unit.text) && !comparedQuotes.some((part) => part.lead.includes(unit.text))), leftOut)?.unit : undefined;
    const quotes = rest && weightOf(leftOut, (term) => rest.terms.has(term)) >= MIN_PART_COVERAGE ? [...comparedQuotes, quoteOf(rest.passage, termed(rest))] : comparedQuotes;
    if (quotesCover(quotes)) return answerOf(quotes);
  }
  const answeringFrom = (from: (passage: Passage) => boolean) => best(units.filter((unit) => answerable.has(unit.passage) && from(unit.passage)), questionTerms);
  // Release notes tell what changed: they answer a question about versions, or one no other passage answers.
  const answering = CHANGES_ASKED.test(input.question) ? answeringFrom(() => true) : (answeringFrom((passage) => !isReleaseNotes(passage.section)) ?? answeringFrom(() => true));
  if (!answering) return refusal;
  const first = answering.unit;
  // A passage headed by what is asked opens by saying what that is ("Transform a method into a class
  // method"): its opening sentences go before a later one that answers, when they are short.
  const openingOf = (unit: Unit): string | undefined => {
    const opening = openingUnit(unit.passage, units);
    if (!opening || isSignpost(opening.text) || VERSION_NOTE.test(opening.text)) return undefined;
    if (weightOf(questionTerms, (term) => unit.passage.ownHeadingTerms.has(term)) < OPENING_ABOUT) return undefined;
    // Before the answering sentence's own paragraph, which is quoted in context.
    return openingSentences(unit.passage, units, unit.block);
  };
  const asked = { terms: questionTerms, action: actionAsked(input.question), asksHow, openingOf, showsError, explainsError, fixesError };
  const quoted = [quote(first, asked)];
  // A later sentence of the passage often says the rest ("It can be enabled using `-X dev`"): quoted too when good enough.
  const lead = quoted[0]!;
  const supporting = best(
    units.filter((unit) => unit.passage === first.passage && unit.position > first.position && unit.block !== first.block && isProse(unit) && !lead.lead.includes(unit.text)),
    questionTerms,
  );
  // Not after a lead that announces the example ("The syntax is", "defined like this:"), which must come next.
  if (supporting && supporting.score >= SUPPORTING_SHARE * answering.score && ENDS_SENTENCE.test(lead.lead)) {
    // The example that sentence leads to ("you can loop over the file object. This is … simple code:") shows "How do I …?"
    // better than the lead's own, unless that is the procedure's steps, and any question when the lead has none; a
    // sentence announcing what is not shown is not quoted.
    const shown = !lead.example || (asked.asksHow && !lead.steps) ? announcedExample(supporting.unit, lead.lead) : undefined;
    const added = shown?.text ?? (ENDS_SENTENCE.test(supporting.unit.text) ? withLeaning(supporting.unit, lead.lead) : undefined);
    if (added) {
      lead.lead = `${lead.lead} ${added}`;
      if (shown) lead.example = shown.example;
      for (const term of pageTerms(plainInline(added))) lead.terms.add(term);
    }
  } else if (supporting && supporting.score >= SUPPORTING_SHARE * answering.score && /:$/.test(lead.lead) && lead.example && ENDS_SENTENCE.test(supporting.unit.text) && !DEFINITION_ENTRY.test(supporting.unit.text)) {
    // After a lead that announces its example, a later sentence that says more of the question than the lead, most of it
    // ("… if the module is executed in the top-level code environment, its `__name__` is set to the string `'__main__'`."),
    // follows the example; not an entry of a list of terms ("Test Driven Development : A book by Kent Beck on writing tests
    // before code."), which is a further reading, not the rest of the passage's point.
    const said = new Set(pageTerms(plainInline(lead.lead)));
    const saysMore = weightOf(questionTerms, (term) => supporting.unit.terms.has(term));
    if (saysMore >= MIN_COVERAGE && saysMore > weightOf(questionTerms, (term) => said.has(term))) {
      lead.more = termed(supporting.unit, lead.lead);
      for (const term of supporting.unit.terms) lead.terms.add(term);
    }
  }
  // What the lead's sentences say so far, and another sentence of its passage quoted after them (after the example).
  const quotedSoFar = () => `${lead.lead} ${lead.more ?? ''}`;
  const goOnWith = (unit: Unit, said: string) => {
    lead.more = lead.more ? `${lead.more} ${termed(unit, said)}` : termed(unit, said);
    for (const term of unit.terms) lead.terms.add(term);
  };
  // A question of two parts that the passage answers both of ("Why did … deadlock, and how do I avoid it?") is answered
  // for both from it: a part the quoted sentences say nothing of gets the passage's sentence for it, after the example.
  if (parts.length > 1)
    for (const part of parts) {
      const quotedText = quotedSoFar();
      const said = new Set(pageTerms(plainInline(quotedText)));
      if (part.length === 0 || part.some((term) => said.has(term)) || !part.every((term) => first.passage.allTerms.has(term))) continue;
      const other = best(units.filter((unit) => unit.passage === first.passage && isProse(unit) && ENDS_SENTENCE.test(unit.text) && !quotedText.includes(unit.text)), part)?.unit;
      if (other) goOnWith(other, quotedText);
    }
  // "How do I force UTF-8 …?" answered by what the mode does is told how to turn it on, where a later sentence of the passage
  // says so, naming the option or variable to use ("It can be enabled or disabled using the `-X utf8` command line option …").
  const leadSays = quotedSoFar();
  if (asksHow && !lead.example?.includes('```') && !TELLS_HOW.test(leadSays) && !MEANS_TOLD.test(leadSays)) {
    const means = units.find((unit) => unit.passage === first.passage && unit.position > first.position && isProse(unit) && ENDS_SENTENCE.test(unit.text) && MEANS_TOLD.test(unit.text) && INLINE_CODE.test(unit.text) && !leadSays.includes(unit.text));
    if (means) goOnWith(means, leadSays);
  }
  // A reference page's opening line names what is asked and says what for ("VACUUM — garbage-collect and optionally analyze a
  // database"); its description, which retrieval puts right after it, says what it does: its opening sentences follow.
  const following = passages[first.passage.rank + 1];
  const description = !first.passage.section.section && onlyNamesPurpose(lead.lead) && !lead.example && following?.section.describesOpening ? following : undefined;
  const described = description && openingSentences(description, units);
  // A question of two parts ("install it and set the colour") may need a second passage for the part the first leaves out,
  // not for a part it holds most of ("… and can I put count(*) in the where clause?" of a passage on WHERE and count
  // that never says "put").
  const leftOut = parts.filter((part) => weightOf(part, (term) => first.passage.allTerms.has(term)) < MIN_PART_COVERAGE);
  const unanswered = parts.length > 1 ? leftOut.flat().filter((term) => !first.passage.allTerms.has(term)) : [];
  if (unanswered.length > 0) {
    const second = best(units.filter((unit) => unit.passage !== first.passage && unit.passage !== description), unanswered)?.unit;
    // It answers the part when it holds most of what the first leaves out, and most of the part itself: not one word of it
    // ("what happens when it gets bigger …" is not answered by "workloads that are bigger than shared_buffers").
    const holds = (wanted: string[]) => second !== undefined && weightOf(wanted, (term) => second.terms.has(term) || second.passage.headingTerms.has(term)) >= MIN_PART_COVERAGE;
    if (second && holds(unanswered) && holds(leftOut.flat())) {
      quoted.push(quote(second, asked));
      // Answered in the order the question asks.
      const partOf = (part: Quote) => {
        const index = parts.findIndex((partTerms) => weightOf(partTerms, (term) => part.terms.has(term)) >= MIN_PART_COVERAGE);
        return index === -1 ? parts.length : index;
      };
      quoted.sort((a, b) => partOf(a) - partOf(b));
    }
  }
  if (description && described) quoted.splice(quoted.indexOf(lead) + 1, 0, quoteOf(description, described));
  if (!quotesCover(quoted, first.passage)) return refusal;
  // "How do I write a unit test?" answered from a passage that shows nothing (a page's opening) is shown the example of its
  // page that retrieval puts right after it, or after its description: what announces it, then the example.
  const shownFor = description && described ? description : first.passage;
  const examples = passages[shownFor.rank + 1];
  if (!lead.example && examples?.section.showsExample && !quoted.some((part) => part.passage === examples)) {
    const shown = announcedExampleOf(examples, asked, calledEntry(shownFor.section.section));
    if (shown) quoted.splice(quoted.findIndex((part) => part.passage === shownFor) + 1, 0, shown);
  }

  // "What is TOAST?" is told first what the abbreviation stands for, where a passage spells it out beside it ("TOAST (The
  // Oversized-Attribute Storage Technique)") and what is quoted does not: only when the question asks about just that.
  const said = alike(quoted.map((part) => `${part.lead} ${part.example ?? ''} ${part.more ?? ''}`).join(' '));
  const expansions = (definitional ? [...abbreviations.keys()] : []).flatMap((term) => {
    const written = words(input.question).find((word) => terms(word)[0] === term);
    if (!written) return [];
    const short = abbreviationOf(written);
    // "What is a BRIN index?" asks about just that, since its long form says "index"; "the default port of the API" does not.
    const others = terms(contentQuery(input.question)).filter((other) => other !== term);
    for (const [index, passage] of passages.entries()) {
      const long = spelledOutIn(definingText(asWritten[index]!), short);
      if (!long) continue;
      const aboutIt = others.every((other) => terms(long).includes(other));
      return aboutIt && !said.includes(alike(long)) ? [{ passage, short, long }] : [];
    }
    return [];
  });
  // Spelled out by the passage the answer is quoted from, it heads the answer: "MVCC (Multi-version concurrency control): …".
  const opening = quoted[0]!;
  for (const { short, long } of expansions.filter((expansion) => expansion.passage === opening.passage).reverse()) opening.lead = `${short} (${long}): ${opening.lead}`;
  const told = expansions.filter((expansion) => expansion.passage !== opening.passage).map(({ passage, short, long }) => ({ passage, line: `${short}: ${long}.` }));
  return answerOf(quoted, told);
}

/** The answer quoting some passages, after what some of them spell out (`told`), each cited by its number in the order first quoted. */
function answerOf(quoted: Quote[], told: { passage: Passage; line: string }[] = []): { text: string; cited: GroundingSection[] } {
  const order = [...new Set([...told.map((expansion) => expansion.passage), ...quoted.map((part) => part.passage)])];
  const citation = (passage: Passage) => order.indexOf(passage) + 1;
  const cited = order.map((passage) => ({ ...passage.section, citation: citation(passage) }));
  const text = [
    ...(told.length > 0 ? [told.map(({ passage, line }) => cite(line, citation(passage))).join(' ')] : []),
    ...quoted.map((part) => [cite(part.lead, citation(part.passage)), ...(part.example ? [part.example] : []), ...(part.more ? [cite(part.more, citation(part.passage))] : [])].join('\n\n')),
  ].join('\n\n');
  return { text, cited };
}

/** Text compared for the same words: lowercased, hyphens and runs of space as one space ("Multi-version" is "multi version"). */
const alike = (text: string) => text.toLowerCase().replace(/[\s\-‐–]+/g, ' ');

/** What is quoted from one passage: the answering sentence, and its example or steps. */
interface Quote {
  passage: Passage;
  lead: string;
  example?: string;
  /** Whether the example is the passage's steps or list rather than code. */
  steps?: boolean;
  /** What the passage says after the example: the rest of what is asked, or another part of the question. */
  more?: string;
  /** Terms of all that is quoted and of the passage's headings. */
  terms: Set<string>;
}

/**
 * A sentence with the rest of its paragraph when that announces the code example right after
 * it ("For reading lines from a file, you can loop over the file object. This is memory
 * efficient, fast, and leads to simple code:"), with the example; after the sentence it leans
 * on, if it leans on one.
 */
function announcedExample(unit: Unit, said = ''): { text: string; example: string } | undefined {
  const next = unit.passage.blocks[unit.block + 1];
  const place = inParagraph(unit);
  if (next?.kind !== 'code' || !place) return undefined;
  const { paragraph, at: found } = place;
  // With the sentence it leans on ("If user_function is specified, it must be a callable. This allows …").
  const start = leaningStart(paragraph, found);
  const rest = paragraph.slice(start);
  if (rest.length > 3 || !/:$/.test(rest.at(-1)!) || wordCount(rest.join(' ')) > LEAD_WORDS) return undefined;
  return { text: afterTerm(place, start, rest.join(' '), said), example: next.markdown };
}

/** A sentence's paragraph, as its sentences, and where it is among them. */
interface Place {
  paragraph: string[];
  at: number;
  /** The term of the definition the paragraph is, if it is one. */
  term?: string;
}

/** The sentences of a prose unit's paragraph, as units read them, and where the unit is among them. */
function inParagraph(unit: Unit): Place | undefined {
  const block = unit.passage.blocks[unit.block];
  return block?.kind === 'prose' ? { paragraph: block.sentences, at: unit.sentence, term: block.term } : undefined;
}

/**
 * Text from a paragraph's sentence `from` on, after the paragraph's term when it is a definition's and that sentence is a
 * later one ("The first argument is the index of the element before which to insert" is said of `list.insert(i, x)`),
 * unless what is quoted with it (`said`) holds the term already.
 */
function afterTerm({ term }: Place, from: number, text: string, said = ''): string {
  return term && from > 0 && !said.includes(term) ? `${term} : ${text}` : text;
}

/** A unit's text, after its paragraph's term when it is a later sentence of a definition (afterTerm). */
function termed(unit: Unit, said = ''): string {
  const place = inParagraph(unit);
  return place ? afterTerm(place, place.at, unit.text, said) : unit.text;
}

/**
 * A sentence with those after it in its paragraph that lean on it and finish its point ("PostgreSQL supports building
 * indexes without locking out writes. This method is invoked by specifying the `CONCURRENTLY` option of `CREATE INDEX`."),
 * while the sentence and they come to at most LEAD_WORDS words; not one ending in a colon, which announces what follows.
 */
function withLeaning(unit: Unit, said = ''): string {
  const place = inParagraph(unit);
  if (!place) return unit.text;
  let text = afterTerm(place, place.at, unit.text, said);
  for (const next of place.paragraph.slice(place.at + 1)) {
    if (!LEANS_BACK.test(next) || !ENDS_SENTENCE.test(next) || wordCount(text) + wordCount(next) > LEAD_WORDS) break;
    text = `${text} ${next}`;
  }
  return text;
}

/**
 * A passage's opening: its first sentence, with the sentences after it in the opening paragraphs
 * (up to the first list or example, and before block `before`), as far as they fit in
 * OPENING_WORDS; not a sentence announcing an example ("use this idiom:"), which is not quoted here.
 */
function openingSentences(passage: Passage, units: Unit[], before = Infinity): string | undefined {
  const opening = openingUnit(passage, units);
  if (!opening || opening.block >= before || !isProse(opening) || opening.words > OPENING_WORDS) return undefined;
  let text = opening.text;
  const end = passage.blocks.findIndex((block) => block.kind !== 'prose');
  for (const next of units.filter((unit) => unit.passage === passage && unit.position > opening.position)) {
    if (next.block >= before || (end !== -1 && next.block >= end) || wordCount(text) + next.words > OPENING_WORDS || !ENDS_SENTENCE.test(next.text)) break;
    text = `${text} ${next.text}`;
  }
  return ENDS_SENTENCE.test(text) ? text : undefined;
}

/** A sentence wholly in parentheses: an aside. */
const ASIDE = /^\((?:[^()]|\([^()]*\))*\)$/;

/**
 * The unit a passage opens with: its first, or the one after it when that is an aside to some readers ("(If you are
 * already familiar with the basic concepts of testing, you might want to skip to the list of assert methods.)").
 */
function openingUnit(passage: Passage, units: Unit[]): Unit | undefined {
  const [first, second] = units.filter((unit) => unit.passage === passage);
  return first && ASIDE.test(first.text) ? second : first;
}

/** The most words of a passage's opening put before the sentence that answers. */
const OPENING_WORDS = 40;
/** Share of the question's terms (rarer ones weighing more) the passage's own heading must name for its opening to go first. */
const OPENING_ABOUT = 0.25;

function quote(
  unit: Unit,
  question: Wanted & { asksHow: boolean; openingOf: (unit: Unit) => string | undefined; showsError: (text: string) => boolean; explainsError: (unit: Unit) => boolean; fixesError: (unit: Unit) => boolean },
): Quote {
  const { passage } = unit;
  const blocks = passage.blocks;
  const block = blocks[unit.block]!;
  let lead = unit.text;
  let example: string | undefined;
  let steps = false;
  if (block.kind === 'item' && block.ordered) {
    // A step answers as the whole procedure, introduced by the sentence before it when there is one.
    const before = blocks.slice(0, unit.block).reverse().find((other) => (other.kind !== 'item' || other.list !== block.list) && (other.kind !== 'code' || other.step !== block.list));
    if (before?.kind === 'prose') lead = before.sentences.at(-1)!;
    example = listOf(blocks, block.list);
    steps = true;
  } else {
    const next = blocks[unit.block + 1];
    // What the paragraph announces at its end ("the following variations apply:") is quoted only when it is shown.
    const place = inParagraph(unit);
    if (place) lead = inContext(place, next?.kind === 'code' || next?.kind === 'item');
    // The example of a sentence is next to it: among the two blocks after it, else right before it; but a list the sentence
    // announces is what it leads to, with any code between its items. "How do I …?" is shown the numbered steps that follow
    // the sentence, after a short paragraph announcing them in the question's words ("To use declarative partitioning in
    // this case, use the following steps:"), rather than the code above the sentence.
    const announcesList = next?.kind === 'item' && /:$/.test(lead);
    const procedure = blocks.find((other): other is Extract<Block, { kind: 'item' }> => other.kind === 'item' && other.ordered && other.list !== (block.kind === 'item' ? block.list : -1));
    const stepsAnnounced =
      question.asksHow && procedure !== undefined && blocks.indexOf(procedure) === unit.block + 2 && next?.kind === 'prose' && /:$/.test(next.text.trim()) && wordCount(next.text) <= ANNOUNCING_WORDS && terms(plainInline(next.text)).some((term) => question.terms.includes(term));
    const nearby = stepsAnnounced ? [next] : [next, blocks[unit.block + 2], blocks[unit.block - 1]];
    // A table's row has no example beside it in the table: the code after the table shows the row it names, if any
    // (`SELECT has_table_privilege(…)` after a table of functions is not the example of `pg_notification_queue_usage`).
    const row = block.kind === 'prose' ? block.row : undefined;
    const examplesRow = (other: Block) => !row || (row.names !== undefined && other.kind === 'code' && row.names.test(other.markdown));
    const code = announcesList ? undefined : nearby.find((other) => other?.kind === 'code' && examplesRow(other));
    if (code?.kind === 'code') {
      example = code.markdown;
      // A short paragraph between them that announces it ("There is a socket flag to set, in order to prevent this:") goes with it.
      const announcing = code === blocks[unit.block + 2] && next?.kind === 'prose' && announcesExample(next.text);
      if (announcing && !/:$/.test(lead)) lead = `${lead} ${cleanInline(next.text)}`;
      // Else a pasted error is shown by the example that shows it, before the sentence explaining it, not by a later one,
      // unless the sentence leads to that one ("To prevent this, set the reuse flag:") or gives the fix, whose example it is.
      const showing = [blocks[unit.block - 1], blocks[unit.block - 2]].find((other) => other?.kind === 'code' && question.showsError(other.markdown));
      const leadsToIt = code === next && (/:$/.test(lead) || question.showsError(code.markdown));
      if (!announcing && !leadsToIt && showing?.kind === 'code' && question.explainsError(unit) && !question.fixesError(unit)) example = showing.markdown;
    } else if (announcesList) {
      // An item announcing a list ("the following commands … can use a parallel plan:") is followed by its own items, nested in it.
      example = block.kind === 'item' && next.list === block.list ? listOf(blocks, block.list, unit.block) : listOf(blocks, next.list);
      steps = example !== undefined;
    } else if (procedure) {
      example = listOf(blocks, procedure.list);
      steps = true;
      if (stepsAnnounced && next?.kind === 'prose' && ENDS_SENTENCE.test(lead)) lead = `${lead} ${cleanInline(next.text)}`;
    } else if (question.asksHow) {
      // "How do I …?" is shown as well as told: the passage's example that shares most with the question.
      example = bestExample(blocks.filter(examplesRow), question);
    }
  }
  // Not before a sentence showing, explaining or fixing a pasted error: what the section opens with is not about the error.
  const opening = question.explainsError(unit) ? undefined : question.openingOf(unit);
  if (opening && !lead.includes(opening)) lead = `${opening} ${lead}`;
  // An API entry's sentence ("Deserialize s to a Python object") says what the entry does, not its name: the name goes first.
  const entry = apiEntry(passage.section);
  if (entry && !lead.includes(entry.name.replace(/^@/, ''))) lead = `\`${entry.label}\`: ${lead}`;
  return quoteOf(passage, lead, example, steps);
}

/** An announcement of an example this short ("For example:") leaves the sentence before it as the one that leads to it. */
const SHORT_ANNOUNCEMENT_WORDS = 6;

/** What is quoted from a passage, with the terms of all of it and of the passage's headings. */
function quoteOf(passage: Passage, lead: string, example?: string, steps = false): Quote {
  return { passage, lead, example, steps, terms: new Set([...pageTerms(plainInline(`${lead}\n${example ?? ''}`)), ...passage.headingTerms]) };
}

/** The most words a lead grows to with the sentences that follow it in its paragraph. */
const LEAD_WORDS = 60;
/** The most words of a paragraph that announces the example after it, quoted with the sentence before it. */
const ANNOUNCING_WORDS = 30;
/** A lead shorter than this always takes the sentence after it, if that is not too long. */
const SHORT_LEAD_WORDS = 15;

/**
 * A sentence that leans on the one before it ("These are called advisory locks", "To prevent this, set …", "But this is not
 * a convenient option if …", "Instead, the decorator raises …"), or an aside to it in parentheses ("(Actually the data is still there …)").
 */
const LEANS_BACK =
  /^(?:\((?=\p{L})|(?:these|this|those|that|they|it|its|such|there|here|then|however|also|thus|therefore|so|but|instead(?!\s+of\b)|otherwise|likewise|similarly|nevertheless|nonetheless|in\s+(?:this|that|such\s+a|either)\s+case|to\s+\p{L}+(?:\s+\p{L}+)?\s+(?:this|that|it|these|those)\b)\b)/iu;

/**
 * Where a sentence of a paragraph starts to be quoted: at the sentence before it when it leans
 * on that one, but not at the end of a sentence an example interrupted ("with your own user
 * name."), which leans back itself.
 */
function leaningStart(paragraph: string[], at: number): number {
  return at > 0 && LEANS_BACK.test(paragraph[at]!) && !endsInterrupted(paragraph[at - 1]!) ? at - 1 : at;
}

/** A sentence that starts in lower case: the end of one that an example interrupted ("with your own user name."). */
const endsInterrupted = (sentence: string) => /^\p{Ll}/u.test(sentence);

/**
 * A sentence (the one `at` of its paragraph) in its context: after the sentence it leans on, if it leans on one, and with the
 * ones after it in its paragraph while they fit in `LEAD_WORDS` (they often finish its point),
 * but not a last one announcing what follows the paragraph ("the following variations apply:")
 * unless that is `shown`.
 */
function inContext(place: Place, shown: boolean): string {
  const { paragraph, at } = place;
  // A sentence that announces what follows ("as follows:") is followed by that, not by more sentences.
  const announces = !ENDS_SENTENCE.test(paragraph[at]!);
  const start = leaningStart(paragraph, at);
  let text = afterTerm(place, start, paragraph.slice(start, at + 1).join(' '));
  let count = wordCount(text);
  for (const [offset, next] of (announces ? [] : paragraph.slice(at + 1)).entries()) {
    const countBefore = count;
    count += wordCount(next);
    // A short lead ("The major practical difference is one of efficiency.") is followed by what it announces.
    if (count > LEAD_WORDS && !(countBefore < SHORT_LEAD_WORDS && count <= 1.5 * LEAD_WORDS)) break;
    if (!shown && at + 1 + offset === paragraph.length - 1 && /[:：]$/.test(next)) break;
    text = `${text} ${next}`;
  }
  return text;
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** The longest signature shown with its parameters; a longer one is named alone. */
const SIGNATURE_CHARACTERS = 60;

/**
 * The name a passage documents, when its heading is an API entry (`json.loads(s, *, cls=None)`,
 * `shared_buffers (integer)`, a decorator's `@functools.lru_cache(user_function)`) or its page
 * is named after a module (`timeit — Measure execution time of small code snippets`), and how
 * an answer introduces it: with its signature, when that is short.
 */
function apiEntry(section: GroundingSection): { name: string; label: string } | undefined {
  const heading = section.section ? ownHeading(section.section, { withParameters: true }) : section.title;
  const entry = /^((?:class |exception |@)?[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)(\s*(?:\(.*\)|\[.*\]))?\s*$/.exec(heading.trim());
  // A word in a glossary with what kind of thing it is ("Analyze (operation)", "Checkpointer (process)") is a term, not code.
  const glossaryTerm = entry !== null && /^[A-Z][a-z]+$/.test(entry[1]!) && /^\s+\(/.test(entry[2] ?? '');
  if (entry && /[._(@]/.test(heading) && !glossaryTerm) {
    const name = entry[1]!.replace(/^(?:class|exception) /, '');
    const parameters = entry[2]?.trim();
    const signature = parameters && parameters !== '(…)' && name.length + parameters.length <= SIGNATURE_CHARACTERS;
    return { name, label: signature ? `${name}${entry[2]}` : name };
  }
  const module = /^([a-z_][\w.]*) — /.exec(heading.trim())?.[1];
  return module ? { name: module, label: module } : undefined;
}

/**
 * Of a passage of examples, the one announced by a sentence of its own ("Here is a short script to test three string
 * methods:") that does what the question asks to do (`action`: "how to restore a dump made with pg_dump -Fc" is shown
 * `pg_restore`, not the `pg_dump -Fc` that made it) and shares most of its terms (the first on a tie), in its code or that
 * sentence, quoted with the sentence; with `calling`, only one whose code calls that entry.
 */
function announcedExampleOf(passage: Passage, wanted: Wanted, calling?: string): Quote | undefined {
  let best: { lead: string; example: string; shared: number } | undefined;
  for (const [index, block] of passage.blocks.entries()) {
    const before = passage.blocks[index - 1];
    const lead = before?.kind === 'prose' ? before.sentences.at(-1) : undefined;
    if (block.kind !== 'code' || !lead || !announcesExample(lead) || (calling && !calls(block.markdown, calling))) continue;
    const shared = sharedWith(block.markdown, wanted, pageTerms(plainInline(lead)));
    if (!best || shared > best.shared) best = { lead, example: block.markdown, shared };
  }
  return best && quoteOf(passage, best.lead, best.example);
}

/** A short paragraph or sentence announcing the example after it ("There is a socket flag to set, in order to prevent this:"), not a bare "Output:". */
const announcesExample = (text: string) => /:$/.test(text.trim()) && wordCount(text) >= 4 && wordCount(text) <= ANNOUNCING_WORDS;

/** What an example is chosen for: the question's terms, and what it asks to do (actionAsked). */
interface Wanted {
  terms: string[];
  action?: string;
}

/**
 * How much a code block (its names, and their parts as words too: `pg_restore` restores), with some more terms, shares
 * with the question: how many of its terms, and more than all of them when it does what the question asks to do.
 */
function sharedWith(code: string, wanted: Wanted, more: string[] = []): number {
  const have = new Set([...pageTerms(code), ...pageTerms(code.replace(/_/g, ' ')), ...more]);
  return (wanted.action !== undefined && have.has(wanted.action) ? wanted.terms.length + 1 : 0) + wanted.terms.filter((term) => have.has(term)).length;
}

/** The code block of a passage that shares most with the question (the first one on a tie), if any. */
function bestExample(blocks: Block[], wanted: Wanted): string | undefined {
  let best: { markdown: string; shared: number } | undefined;
  for (const block of blocks) {
    if (block.kind !== 'code') continue;
    const shared = sharedWith(block.markdown, wanted);
    if (!best || shared > best.shared) best = { markdown: block.markdown, shared };
  }
  return best?.markdown;
}

/**
 * A list of a passage, as markdown. With `under`, what that item announces: the items nested in
 * it, or when it has none, the items after it.
 */
function listOf(blocks: Block[], list: number, under?: number): string | undefined {
  type Item = Extract<Block, { kind: 'item' }>;
  let items = blocks.slice(under === undefined ? 0 : under + 1).filter((block): block is Item => block.kind === 'item' && block.list === list);
  if (under !== undefined) {
    const end = items.findIndex((item) => item.indent <= (blocks[under] as Item).indent);
    if (end > 0) items = items.slice(0, end);
    if (items.length === 0) return undefined;
  }
  // A step's code (numbered steps' only) follows it, as on the page.
  const shown = items.slice(0, MAX_STEPS);
  const isStepCode = (block: Block | undefined) => block?.kind === 'code' && block.step === list;
  let end = blocks.indexOf(shown.at(-1)!) + 1;
  while (isStepCode(blocks[end])) end++;
  const parts: string[] = [];
  let number = 0;
  for (const block of blocks.slice(blocks.indexOf(shown[0]!), end)) {
    if (block.kind === 'code' && isStepCode(block)) parts.push(`\n${block.markdown}\n`);
    else if (block.kind === 'item' && shown.includes(block)) parts.push(`${block.ordered ? `${++number}.` : '-'} ${block.text}`);
  }
  return parts.join('\n').trim();
}

/** The parts of a question asking two things: split at a further question, a semicolon or "and" joining clauses. */
function questionParts(question: string): string[] {
  return question
    .split(/[?？]\s+(?=\S)|;\s+|\s+(?:and|and then|as well as)\s+(?=(?:how|what|where|when|why|which|who|can|do|does|is|are|also)\b)/i)
    .filter((part) => terms(part).length > 0);
}

/** A block of prose, its sentences read once. */
const prose = (text: string): Extract<Block, { kind: 'prose' }> => ({ kind: 'prose', text, sentences: sentences(text).map(cleanInline) });

/** A passage's markdown (or its plain text when no markdown was kept) as blocks. */
function readPassage(section: GroundingSection, rank: number): Passage {
  const lines = (section.markdown || section.text).split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let lists = 0;
  let list: { number: number; ordered: boolean } | undefined;
  /** The header cells of the table being read. */
  let header: string[] | undefined;
  const flush = () => {
    const term = paragraph.length > 1 && /^:\s/.test(paragraph[1]!) ? cleanInline(paragraph[0]!) : undefined;
    if (paragraph.length > 0) blocks.push({ ...prose(paragraph.join(' ')), ...(term && { term }) });
    paragraph = [];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = /^(\s*)(`{3,}|~{3,})/.exec(line);
    if (fence) {
      flush();
      list = undefined;
      header = undefined;
      // Lines inside a fence are relative to the fence's own indentation (CommonMark), which is all that is removed.
      const indent = fence[1]!.length;
      const marker = fence[2]!;
      const body = [line.slice(indent)];
      const closing = new RegExp(`^\\s*${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
      while (++index < lines.length) {
        const inner = lines[index]!;
        body.push(inner.slice(Math.min(indent, /^\s*/.exec(inner)![0].length)));
        if (closing.test(inner)) break;
      }
      blocks.push({ kind: 'code', markdown: body.join('\n') });
      continue;
    }
    const trimmed = line.trim();
    if (isTableDelimiter(lines[index + 1])) header = tableCells(trimmed);
    const row = tableRow(trimmed, lines[index + 1], header);
    if (row !== undefined) {
      // A table's row (a function and what it does, a setting and its meaning) answers like a paragraph.
      flush();
      list = undefined;
      if (row) blocks.push({ ...prose(row), row: { names: nameFinder(/^`([^`(]+)/.exec(row)?.[1]?.trim()) } });
      continue;
    }
    header = undefined;
    // A line of a quote's marks alone ("> >") parts two of its paragraphs, as a blank line does.
    if (trimmed === '' || /^(#{1,6}\s|\||-{3,}$|\*{3,}$|_{3,}$|<|>(?:\s+>)*\s*$)/.test(trimmed)) {
      flush();
      if (trimmed !== '' || !/^(\s*)([-*+]|\d+[.)])\s/.test(lines[index + 1] ?? '')) list = undefined;
      continue;
    }
    const item = /^(?:([-*+])|(\d+)[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/.exec(trimmed);
    if (item) {
      flush();
      const ordered = item[1] === undefined;
      if (!list || list.ordered !== ordered) list = { number: lists++, ordered };
      blocks.push({ kind: 'item', text: item[3]!, ordered, list: list.number, indent: /^\s*/.exec(line)![0].replace(/\t/g, '    ').length, ...(ordered && { number: Number(item[2]) }) });
      continue;
    }
    const last = blocks.at(-1);
    if (paragraph.length === 0 && list && last?.kind === 'item' && /^\s/.test(line)) {
      // The continuation of a list item's text.
      last.text = `${last.text} ${trimmed}`;
      continue;
    }
    list = undefined;
    paragraph.push(trimmed.replace(/^(?:>(?:\s|$))+/, ''));
  }
  flush();
  joinStepsAroundCode(blocks);
  const headingTerms = new Set([...pageTerms(section.title), ...headingTermsOf(section.section ?? '')]);
  const ownHeadingTerms = headingTermsOf(ownHeading(section.section) || section.title);
  return { section, rank, blocks, headingTerms, ownHeadingTerms, allTerms: new Set([...headingTerms, ...pageTerms(plainInline(section.markdown || section.text))]) };
}

/**
 * Numbered steps with their code between them ("1. Create the table …", its `CREATE TABLE`, "2.
 * Create partitions …") are one procedure: markdown ends a list at a code block that is not
 * indented under its item, so the step after it, numbered on, starts another. It joins the
 * first again, and the code between them is part of it.
 */
function joinStepsAroundCode(blocks: Block[]): void {
  for (let index = 0; index < blocks.length; index++) {
    const before = blocks[index - 1];
    if (blocks[index]!.kind !== 'code' || before?.kind !== 'item' || !before.ordered || before.number === undefined) continue;
    let end = index;
    while (blocks[end]?.kind === 'code') end++;
    const after = blocks[end];
    // Numbered on ("2." after "1."), or every step numbered "1." as markdown allows.
    const continues = after?.kind === 'item' && after.ordered && (after.number === before.number + 1 || after.number === 1 && before.number === 1) && after.list !== before.list;
    // The last step's code too, when the step announces it ("So the commands might look like:").
    if (!continues && !/:$/.test(before.text)) continue;
    for (let code = index; code < end; code++) (blocks[code] as Extract<Block, { kind: 'code' }>).step = before.list;
    if (!continues) continue;
    const joined = after.list;
    for (const block of blocks) if (block.kind === 'item' && block.list === joined) block.list = before.list;
  }
}

/**
 * A markdown table line's cells as one text, `''` for its header and rule lines (which say
 * nothing themselves), `undefined` for a line of no table. In a table of three columns or
 * more, a row that names its subject in its first cell has each further value named by its
 * column's header ("Read committed: Dirty read: Not possible; Phantom read: Possible."):
 * without them the row is a list of values. As in GFM, a row has the header's cells, missing
 * ones empty and extra ones ignored.
 */
function tableRow(line: string, next: string | undefined, header: string[] | undefined): string | undefined {
  if (!line.startsWith('|')) return undefined;
  if (isTableDelimiter(line) || isTableDelimiter(next)) return '';
  const cells = tableCells(line);
  if (header !== undefined && header.length >= 3 && cells[0]) {
    const values = header.slice(1).flatMap((name, index) => {
      const cell = cells[index + 1]?.replace(/[.!?;:]$/, '');
      return cell ? [name ? `${name}: ${cell}` : cell] : [];
    });
    if (values.length > 0) return `${cells[0].replace(/[.:]$/, '')}: ${values.join('; ')}.`;
  }
  const filled = cells.filter(Boolean);
  return filled.map((cell) => (/[.!?:]$/.test(cell) || filled.length === 1 ? cell : `${cell}:`)).join(' ').replace(/:$/, '.');
}

/** How much such a line counts in answering "How do I …?". */
const NAME_AND_PURPOSE_FOR_HOW = 0.3;

/** A passage's sentences and list items. */
function unitsOf(passage: Passage): Unit[] {
  const units: Unit[] = [];
  // A "See also" section, or the entries after a "See also" line (Sphinx's box), name other reading: "The Python Testing
  // Tools Taxonomy : An extensive list of Python testing tools …".
  const seeAlsoSection = SEE_ALSO.test(ownHeading(passage.section.section) || passage.section.title);
  let seeAlso = seeAlsoSection;
  passage.blocks.forEach((block, index) => {
    if (block.kind === 'code') return;
    if (block.kind === 'prose' && SEE_ALSO.test(plainInline(block.text).replace(/[*_]/g, '').trim())) seeAlso = true;
    else if (block.kind === 'prose' && !REFERENCE_ENTRY.test(block.text)) seeAlso = seeAlsoSection;
    for (const [at, text] of (block.kind === 'item' ? [cleanInline(block.text)] : block.sentences).entries()) {
      const count = wordCount(text);
      if (count < 3 && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u.test(text)) continue;
      // A short line that ends no sentence ("Source code: Lib/json/__init__.py") is a label, not an answer; a name and
      // what it does ("CREATE VIEW — define a new view") is one.
      if (block.kind === 'prose' && count < 8 && !/[.!?:。！？：]$/.test(text) && !NAME_AND_PURPOSE.test(text)) continue;
      if (listsNames(text)) continue;
      const plain = plainInline(text);
      const endOfInterrupted = block.kind === 'prose' && at === 0 && passage.blocks[index - 1]?.kind === 'code' && endsInterrupted(text) && isStopWord(words(text)[0] ?? '');
      units.push({ text, terms: new Set(pageTerms(plain)), spoken: ` ${words(plain).join(' ')} `, passage, block: index, position: units.length, sentence: at, words: count, endOfInterrupted, furtherReading: seeAlso });
    }
  });
  return units;
}

/** The fewest names in inline code a line lists to be read as an index of names. */
const INDEX_NAMES = 8;

/**
 * A line that only lists names ("A `abs()` `aiter()` `all()` `any()` … B `bin()`", a table
 * of a module's functions in alphabetical order): it says what exists, not what any of it
 * does, so it answers nothing.
 */
function listsNames(text: string): boolean {
  const names = text.match(/`[^`\n]+`/g) ?? [];
  if (names.length < INDEX_NAMES) return false;
  const rest = text.replace(/`[^`\n]+`/g, ' ').replace(/[\s|,;·•–—-]+/g, ' ').trim();
  return rest.split(' ').filter((word) => word.length > 1).length < names.length / 4;
}

/** `Install it.` → `Install it [1].`; a marker goes inside the final punctuation. */
function cite(sentence: string, citation: number): string {
  // Before the sentence's closing mark; only before the colon of "e.g.:", whose period is the abbreviation's.
  const match = /([:：]|[.!?。！？]+)$/.exec(sentence);
  return match ? `${sentence.slice(0, -match[1]!.length)} [${citation}]${match[1]}` : `${sentence} [${citation}]`;
}

/**
 * Splits prose into sentences at `.`, `!` or `?` followed by space and a capital or digit
 * (and at CJK stops), never inside inline code.
 */
function sentences(text: string): string[] {
  const result: string[] = [];
  let current = '';
  // Code spans are kept whole; the prose between them is split.
  for (const piece of text.split(/(`+[^`]*`+)/)) {
    if (piece.startsWith('`')) {
      current += piece;
      continue;
    }
    const parts = piece.split(/(?<=[.!?]["”’')\]]?)\s+(?=[\p{Lu}\p{N}"'“(`*])|(?<=[。！？])/u);
    parts.forEach((part, index) => {
      if (index > 0) {
        result.push(current);
        current = '';
      }
      current += part;
    });
  }
  result.push(current);
  // A note's mark after a sentence ("Compares `datetime` to `datetime`. (4)") is no sentence: the notes it points to are
  // quoted, if at all, as a list of their own.
  return result.map((sentence) => sentence.trim()).filter((sentence) => sentence !== '' && !NOTE_MARK.test(sentence));
}

/** The mark of a note the page gives below ("(4)"). */
const NOTE_MARK = /^\(\d{1,2}\)\.?$/;

/** Finds a name in code as a word of its own (`abs` in `SELECT abs(-3);`, not `age` in `queue_usage`), in any letter case. */
function nameFinder(name: string | undefined): RegExp | undefined {
  return name ? new RegExp(`(?<![\\w.])${escapeRegExp(name)}(?!\\w)`, 'i') : undefined;
}

/** Keeps readable inline markdown (code, emphasis, links with absolute targets), drops images and raw tags. */
function cleanInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\((?!https?:)[^)]*\)/g, '$1')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
