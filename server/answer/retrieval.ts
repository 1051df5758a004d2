/**
 * Picks the passages an answer is grounded on: the sections whose heading and text match
 * the question best, with their markdown (code examples as written). The search engine is
 * asked for the question's content words (question words like "how do I" or "is there a
 * way to" are not content: pages do not ask; what a question only tells beside what it asks
 * weighs as the conversation does), the previous question of the conversation
 * (follow-ups like "and on Windows?") and the title of the page the visitor is on, and the
 * ranked lists are fused (reciprocal rank fusion); a longer question's rarest words are
 * also asked three at a time, and when the question alone finds little, its content words
 * are asked one by one too. A section is read whole: the other pieces of a section found (a
 * long one cut in parts, or the part that goes on after the entries under it) are candidates
 * too. The candidates are then re-ranked: the share
 * of the question's terms (rarer ones weighing more) a section's heading and text hold, and
 * one of its sentences holds, first; its heading and its page's title holding them next, then
 * the engine's ranking, the conversation's terms and the page being read; a section that quotes a
 * pasted error message whole (an example that raises it) above those that only use its words; the
 * entry of a call the question names ("What does zip() do?") above a page named after the word; a section
 * whose heading (a page's opening: the page's title) names something the visitor did not ask
 * about ("Windows" when nobody said Windows) ranks lower, as does a page of a C API (its sections
 * headed by C declarations) when the question does not speak of C, and sections sharing no term
 * with the question or the conversation are dropped. Things a question compares ("staticmethod vs
 * classmethod") are each told by their own entry, first and in the question's order (entriesCompared). "How do I …?"
 * answered by a passage that shows neither code nor steps (a module's opening) is followed by the section of examples of
 * its page that belongs with it (withExample).
 */
import type { Hit, Source } from '../../wire/contract.js';
import { MAX_QUERY_CHARS } from '../search/query.js';
import { isVocabularyWord } from '../search/language.js';
import { pageOpenings, completesWord, pageHeadings, publicHits, searchHeadingWords, searchHeadings, searchSections, searchSectionsSpelled, sectionHeaded, sectionPieces, sectionsAfterOpening, examplesAfter, vocabularyPages, wordsStartingWith, type PagesSearched, type SectionHit } from '../search/search.js';
import type { Queryable } from '../store/db.js';
import { fencedBlocks, plainInline } from '../content/markdown.js';
import { escapeRegExp } from '../search/snippet.js';
import { readSectionMarkdown } from '../store/sections.js';
import { isNavigation, NAME_TITLE } from '../search/sections.js';
import { entryHeadingOf, headingAsksAs, headingOpensAs, inPagesWords, namesNoTopic, calls, calledEntry, HOW_TO_ASKED, SETTING_ASKED, isSettingEntry, abbreviating, comparedNames, COMPARING, headedBy, withoutKind, abbreviationsIn, askedAndTold, kindsAsNamed, DEFINITION_ASKED, HOW_ASKED, contentQuery, errorMessageIn, errorStretch, errorStretches, showsErrorStretch, headingExactness, headingTerms, isApiHeading, keywords, namedApis, nameAsTyped, onlyNamesPurpose, purposeNamed, stem, isStopWord, synonymsOf, ownHeading, parentHeadings, questionClauses, share, terms, pageTerms, unaskedHeadingShare, questionAsked } from './text.js';
import type { GroundingSection, PageContext } from './types.js';
import { CHANGES_ASKED, isReleaseNotes } from '../search/release-notes.js';

export interface RetrievalInput extends PagesSearched {
  question: string;
  /** Earlier questions of the conversation, oldest first. */
  previousQuestions: string[];
  context?: PageContext;
  /** The widget's language, for stemming the query. */
  language?: string;
  /** How many sections to keep; default 4. */
  limit?: number;
  /** What the documentation is about (GenerateInput.subject). */
  subject?: string[];
  /** Whether the sections carry snippets, as search hits shown to a visitor do; default false (answers show none). */
  snippets?: boolean;
}

/** A retrieved section with its body as written. */
export interface RetrievedSection extends SectionHit {
  markdown: string;
  /** The description of the reference page whose opening line (a name and its purpose) is the section right before it. */
  describesOpening?: boolean;
  /** The entry of a thing the question compares (GroundingSection.compares). */
  compares?: boolean;
  /** The examples of the section right before it, which shows none (GroundingSection.showsExample). */
  showsExample?: boolean;
}

const PER_QUERY = 20;
/** The fewest words of a pasted error message that a page quoting them is taken to show it. */
const MIN_QUOTED_ERROR_WORDS = 4;
/** How many sections with a compared thing's words in their heading are looked at for its entry. */
const COMPARED_CANDIDATES = 200;
/** How many entries of the APIs a question names are candidates. */
const NAMED_ENTRIES = 5;
const FUSION_K = 10;
/** How many more pieces of a section found are read, at most: a long section is cut in several. */
const PIECES = 3;
/** Of how many of the best-ranked candidates the other pieces are read. */
const PIECES_OF = 40;

interface Query {
  text: string;
  weight: number;
  /** How many hits to take; default PER_QUERY. */
  limit?: number;
}

/** Questions of up to this many content words are also asked once without each of them. */
const MAX_LEAVE_ONE_OUT = 7;
/** How much "difference", "compare" and "better" weigh in a question comparing things ("… the difference between X and Y"), against its other words. */
const COMPARING_WEIGHT = 0.3;
/** Of a longer question told in several clauses, at most this many are asked on their own. */
const MAX_CLAUSES = 3;
/** Of a question of five content words or more, its rarest this many are also asked three at a time. */
const RAREST_WORDS = 5;

/** The passages an answer is grounded on, and the question as the pages spell it: what the answer engine answers. */
export interface Retrieval {
  sections: RetrievedSection[];
  question: string;
}

export async function retrieveSections(db: Queryable, given: RetrievalInput): Promise<Retrieval> {
  const input = { ...given, question: questionAsked(given.question, given.subject) };
  const limit = input.limit ?? 4;
  const lastQuestion = input.previousQuestions.at(-1);
  const candidates = new Map<string, { hit: SectionHit; fused: number }>();
  const asked = new Set<string>();
  const searchFor = (query: Query) => ({
    organisationId: input.organisationId,
    sources: input.sources,
    // A space at the end, within what the search reads: the question is complete, its last word is not a prefix being typed.
    query: `${query.text.slice(0, MAX_QUERY_CHARS - 1)} `,
    limit: query.limit ?? PER_QUERY,
    language: input.language,
    snippets: input.snippets ?? false,
    releaseNotesLower: false,
    namesFirst: false,
  });
  /** Fuses the hits of a query not asked yet: `found` when they were searched for already. */
  const ask = async (query: Query, found?: SectionHit[]): Promise<void> => {
    const key = query.text.trim().toLowerCase();
    if (!key || asked.has(key)) return;
    asked.add(key);
    fuse(found ?? (await searchSections(db, searchFor(query))), query.weight);
  };
  const fuse = (hits: SectionHit[], weight: number) =>
    hits.forEach((hit, rank) => {
      const entry = candidates.get(hit.id) ?? { hit, fused: 0 };
      entry.fused += weight / (FUSION_K + rank + 1);
      candidates.set(hit.id, entry);
    });

  // What a question only tells ("What is a ledger? I tried the docs but got lost.") is not searched for, and
  // weighs like the conversation below: its words would fill the candidates with pages about them.
  const read = (question: string) => {
    const { asking, asked, told } = askedAndTold(question);
    // A question of question words only ("what is it?") is asked as typed.
    return { asked, told, content: contentQuery(asking ?? question) || question };
  };
  let { asked: askedTerms, told, content } = read(input.question);
  // A word the pages never use ("decorater") is read as the search reads it, by what follows as well: no passage says it.
  // Only among words they use: words with no spelling of the pages ("Who painted the Mona Lisa?"), or alone ("What is love?"), are another subject.
  const whole = { text: content, weight: 1, limit: PER_QUERY * 2 };
  const first = await searchSectionsSpelled(db, searchFor(whole));
  const spelled = first.known.length > 0 ? spelledAsPages(given.question, first) : undefined;
  const question = spelled ?? given.question;
  if (spelled !== undefined) {
    input.question = questionAsked(spelled, given.subject);
    ({ asked: askedTerms, told, content } = read(input.question));
    await ask({ ...whole, text: content });
  } else await ask(whole, first.hits);
  // "What does zip() do?": the entry of what it names, which ranking by words may bury under pages named after it (`zipfile`).
  const named = namedApis(input.question);
  // As the visitor writes them: of entries named alike, the one in their letter case comes first (`breakpoint()`, not `bdb.Breakpoint`).
  const namedAsTyped = named.map((name) => nameAsTyped(name, input.question));
  const entriesNamed = named.length > 0 ? await searchHeadings(db, { organisationId: input.organisationId, sources: input.sources, names: namedAsTyped, limit: NAMED_ENTRIES }) : [];
  fuse(entriesNamed, 1);
  // "staticmethod vs classmethod", "pg_dump vs pg_dumpall": each thing compared has its own entry, which says what it is.
  const compared = comparedNames(input.question);
  if (compared.length > 0) {
    const headed = await searchHeadingWords(db, { organisationId: input.organisationId, sources: input.sources, texts: [...new Set(compared.flatMap((name) => [name, withoutKind(name)]))], limit: COMPARED_CANDIDATES });
    fuse(headed.filter((hit) => compared.some((name) => headedBy(name, entryHeadingOf(hit)))), 1);
  }
  // "What is WAL?": a page that defines an abbreviation ("Write-Ahead Logging (WAL)") may use the long form where it answers.
  const abbreviations = abbreviationsIn(input.question, [...candidates.values()].map(({ hit }) => hit));
  for (const long of abbreviations.values()) await ask({ text: long, weight: 1, limit: PER_QUERY });
  // A pasted error message is looked up as written: the page that explains it quotes it.
  const error = errorMessageIn(input.question);
  if (error) {
    await ask({ text: error, weight: 1, limit: PER_QUERY });
    // Its halves too: a name the visitor's message holds unquoted ("drop table customers") is another in the page's.
    for (const half of errorStretches(error).slice(1)) await ask({ text: half, weight: 0.5, limit: PER_QUERY });
  }
  // A visitor's own verbs ("raise", "stop", "turn") are often not the page's: the question is
  // asked again without each of its words, so a section holding all but one is still a candidate.
  const contentWords = content.split(/\s+/).filter(Boolean);
  if (contentWords.length >= 3 && contentWords.length <= MAX_LEAVE_ONE_OUT) {
    for (const left of contentWords) await ask({ text: contentWords.filter((word) => word !== left).join(' '), weight: 0.5, limit: PER_QUERY });
    // Two neighbouring words ("add column") name a topic a heading may hold without the question's other words.
    // The engine ranks first the sections whose headings hold every word, so "add column table" alone can miss "Adding a Column".
    for (let index = 0; index + 1 < contentWords.length; index++) await ask({ text: `${contentWords[index]} ${contentWords[index + 1]}`, weight: 0.3, limit: PER_QUERY / 2 });
  }
  // A passage may hold three of a long question's words and none of the rest ("Sets the base maximum amount of memory to be
  // used by a query operation (such as a sort or hash table) before writing to temporary disk files" for "which setting
  // controls how much memory a sort or hash can use before it spills to temp files on disk?"): its rarest words are asked
  // three at a time, in the question's order (of four words, they are the questions without one of them, asked above).
  const vocabulary = vocabularyOf(db, input);
  if (contentWords.length > 4) for (const three of threesOf(await rarestWords(vocabulary, contentWords, RAREST_WORDS))) await ask({ text: three.join(' '), weight: 0.15, limit: PER_QUERY / 2 });
  // A long question told in several clauses ("my worker prints show up late in the docker logs when there is no
  // terminal. how do I make the output unbuffered?") is also asked clause by clause: the whole may find only what
  // the circumstances told first are about.
  if (contentWords.length > MAX_LEAVE_ONE_OUT) for (const clause of questionClauses(input.question, MAX_CLAUSES)) await ask({ text: clause, weight: 0.5, limit: PER_QUERY });
  // A question whose words are found together nowhere is asked word by word.
  if (candidates.size < PER_QUERY) for (const word of keywords(input.question, 5)) await ask({ text: word, weight: 0.3, limit: PER_QUERY / 2 });
  // The page may say "directory" where the visitor says "folder".
  for (const word of contentWords.slice(0, MAX_LEAVE_ONE_OUT))
    for (const synonym of synonymsOf(word).slice(0, 2))
      await ask({ text: contentWords.map((other) => (other === word ? synonym : other)).join(' '), weight: 0.5, limit: PER_QUERY });
  // And in the pages' words where the visitor's differ: "line by line" is to "loop over" the lines.
  const pagesWords = inPagesWords(input.question);
  if (pagesWords) await ask({ text: contentQuery(pagesWords) || pagesWords, weight: 0.5, limit: PER_QUERY });
  if (lastQuestion) await ask({ text: contentQuery(lastQuestion) || lastQuestion, weight: 0.3 });
  if (input.context?.title) await ask({ text: input.context.title, weight: 0.15 });

  // "How do I install an extension?": a reference page that says in its opening line what it is for ("CREATE EXTENSION —
  // install an extension") in the question's words is what does it, though ranking by words puts a section headed
  // "Installing Extensions Using Update Scripts" before it, and finds the page by its examples if at all.
  const purposes = new Map<string, string>();
  if (HOW_TO_ASKED.test(input.question)) {
    const pages = [...candidates.values()].sort((a, b) => b.fused - a.fused).slice(0, PIECES_OF).map(({ hit }) => hit.pageId);
    const doers = (await pageOpenings(db, { organisationId: input.organisationId, pageIds: pages }))
      .map((hit) => ({ hit, purpose: purposeOfOpening(hit) }))
      .filter(({ purpose }) => purpose !== undefined && saysEvery(purpose, askedTerms))
      .slice(0, PURPOSE_PAGES);
    fuse(doers.map(({ hit }) => hit), 1);
    for (const { hit, purpose } of doers) purposes.set(hit.id, purpose!);
  }
  // A section is read whole: a search that found one piece of it (the "See also" that goes on after the entries under
  // it, or one part of a long section) leaves out others, such as the opening that says what its heading names.
  const address = (hit: SectionHit) => `${hit.pageId} ${hit.url} ${hit.section ?? ''}`;
  const bestAt = new Map<string, number>();
  for (const { hit, fused } of candidates.values()) bestAt.set(address(hit), Math.max(fused, bestAt.get(address(hit)) ?? 0));
  // Of the best-ranked candidates only: reading the pages of every candidate would take longer than the searches.
  const best = [...candidates.values()].sort((a, b) => b.fused - a.fused).slice(0, PIECES_OF).map(({ hit }) => hit);
  for (const piece of await sectionPieces(db, { organisationId: input.organisationId, sections: best, limit: PIECES }))
    if (!candidates.has(piece.id)) candidates.set(piece.id, { hit: piece, fused: bestAt.get(address(piece))! });
  const questionTerms = new Set(askedTerms);
  const spelledOut = abbreviating(abbreviations, questionTerms);
  const conversationTerms = new Set([...input.previousQuestions.slice(-2).flatMap((question) => terms(question)), ...told]);
  const askedAbout = new Set([...questionTerms, ...conversationTerms, ...terms(input.context?.title ?? '')]);
  const contextPage = normaliseUrl(input.context?.url);
  const markdown = await readSectionMarkdown(db, [...candidates.keys()]);
  // "How do I …?" is answered by a passage that shows how: a code example or numbered steps.
  const asksHow = HOW_ASKED.test(input.question);
  // "What is a dataclass?" asks about a topic; an API entry that mentions it answers a narrower question,
  // unless the question names an identifier itself ("What does itertools.groupby do?").
  const asksDefinition = DEFINITION_ASKED.test(input.question);
  const namesIdentifier = named.length > 0;
  // A call ("What does zip() do?") names its entry more surely than a bare identifier in passing ("a dump made with pg_dump").
  const namesCall = named.some((name) => name.endsWith('()'));
  // Release notes tell what changed, not how things work: unless the question asks about versions, they rank lower, and
  // after every passage that covers the question ("How do I change the prefix?" is not answered by "The prefix can now be changed").
  const asksAboutChanges = CHANGES_ASKED.test(input.question);
  // "Which setting controls …?" is answered by a setting's entry (`work_mem (integer)`, `PYTHONOPTIMIZE`, `--schema-only`).
  const settingAsked = SETTING_ASKED.test(input.question);
  // "What is a domain?" is not answered by the page of a view named after it, unless a view is asked about.
  const viewAsked = VIEW_ASKED.test(input.question);
  // A table row headed by a name the question names, called: its first cell starts with the name and its parameters,
  // "`refund_age(month)`", or "`unnest` ( `anyarray` ) → …" with what it returns; not an option's "`timeout` (integer)".
  const rowsNamed = named.map((name) => new RegExp(`^\\|\\s*\`?${escapeRegExp(name.replace(/\(\)$/, ''))}(?:\`?\\(|\`?\\s*\\([^|\\n]*\\)\\s*(?:→|->))`, 'im'));
  // "What is a generator?" asks about the language, not the C API's `PyObject *PyGen_New(PyFrameObject *frame)`: a page of
  // C declarations answers a C programmer, so unless the question speaks of C its sections rank lower (an entry the
  // question names, "What does PyDict_Merge() do?", still comes first: no other section holds its name).
  const cPages = speaksOfC(input.question) ? new Set<string>() : await cApiPages(db, input.organisationId, [...candidates.values()].map(({ hit }) => hit.pageId));
  // "the nonlocal keyword" is named by the heading "The nonlocal statement": a kind of thing a heading names stands for the one asked.
  const asKinds = kindsAsNamed(input.question);
  // A pasted error message is explained where a page quotes it whole ("ValueError: I/O operation on closed file." in the
  // tutorial's example): of four words or more, as fewer ("does not exist") are quoted by many pages about other things.
  const wholeError = (error ? [errorStretch(error)] : []).filter((stretch) => stretch.split(' ').length >= MIN_QUOTED_ERROR_WORDS);
  const entries = [...candidates.values()].map((entry) => {
    // Each sentence is read once: the section's terms are its sentences' (a keyword in capitals as its sentence writes it).
    const sentences = entry.hit.text.split(/(?<=[.!?:])\s+|\n+/).map((sentence) => pageTerms(sentence));
    return {
      ...entry,
      markdown: markdown.get(entry.hit.id) ?? '',
      titleTerms: spelledOut(new Set(pageTerms(entry.hit.title))),
      // A page's opening section is headed by the page title.
      // The opening of a page that says in its first line what it does ("CREATE EXTENSION — install an extension") is headed by that too.
      headingTerms: asKinds(spelledOut(headingTerms(`${ownHeading(entry.hit.section) || entry.hit.title}${purposes.has(entry.hit.id) ? ` ${purposes.get(entry.hit.id)}` : ''}`))),
      bodyTerms: spelledOut(new Set(sentences.flat())),
      // "Exporting payments › Options": the headings above a section name what it is about too.
      parentTerms: spelledOut(headingTerms(parentHeadings(entry.hit.section))),
      sentenceTerms: sentences.map((sentence) => spelledOut(new Set(sentence))),
    };
  });
  // A term most candidates hold tells them apart less than one few hold.
  const holds = (entry: (typeof entries)[number]) => (term: string) => entry.titleTerms.has(term) || entry.headingTerms.has(term) || entry.bodyTerms.has(term);
  const rarity = new Map<string, number>();
  for (const term of questionTerms) {
    const holders = entries.filter((entry) => holds(entry)(term)).length;
    rarity.set(term, Math.log(1 + (entries.length + 1) / (holders + 1)));
  }
  // "What's the difference between a function and a procedure?": the word frames the comparison. A passage that says it of
  // other things ("The difference between a call handler and an ordinary function is …") is not about the two compared.
  if (compared.length > 0 && [...questionTerms].filter((term) => !COMPARING.has(term)).length >= 2)
    for (const term of questionTerms) if (COMPARING.has(term)) rarity.set(term, rarity.get(term)! * COMPARING_WEIGHT);
  const shareOf = (wanted: readonly string[], have: (term: string) => boolean) => {
    const total = wanted.reduce((sum, term) => sum + rarity.get(term)!, 0);
    return total === 0 ? 0 : wanted.reduce((sum, term) => sum + (have(term) ? rarity.get(term)! : 0), 0) / total;
  };
  const weightedShare = (have: (term: string) => boolean) => shareOf([...questionTerms], have);
  const bestFused = Math.max(0, ...entries.map((entry) => entry.fused));
  const covered = entries.map((entry) => ({
    ...entry,
    coverage: weightedShare(holds(entry)),
  }));
  // A page that several candidates come from, each holding half the question or more, is about what it asks: the tutorial's
  // sections on reading files, not the one parser option that mentions reading lines from a file.
  // In the visitor's own words: that the page would say "loop over" the lines read "line by line" tells nothing of what else it is about.
  const typed = pagesWords ? new Set(terms(input.question)) : undefined;
  const typedTerms = typed && [...questionTerms].filter((term) => typed.has(term));
  const sectionsAbout = new Map<string, number>();
  for (const entry of covered) if ((typedTerms ? shareOf(typedTerms, holds(entry)) : entry.coverage) >= 0.5) sectionsAbout.set(entry.hit.pageId, (sectionsAbout.get(entry.hit.pageId) ?? 0) + 1);
  const scored = covered
    .map(({ hit, markdown, fused, coverage, titleTerms, headingTerms, bodyTerms, sentenceTerms, parentTerms }) => {
      const parentCoverage = weightedShare((term) => parentTerms.has(term));
      // 0 for a page's only such section, up to 1 from four.
      const pageAbout = Math.min(1, Math.log2(sectionsAbout.get(hit.pageId) ?? 1) / 2);
      // The section's own heading naming the question counts most; the page title, shared by all its sections, less.
      const headingCoverage = weightedShare((term) => headingTerms.has(term));
      const titleCoverage = weightedShare((term) => titleTerms.has(term));
      // A passage that answers says it in one sentence, not in words scattered over an option list.
      const sentenceCoverage = Math.max(0, ...sentenceTerms.map((sentence) => weightedShare((term) => sentence.has(term))));
      const followUp = share(conversationTerms, new Set([...titleTerms, ...headingTerms, ...bodyTerms]));
      const onThisPage = contextPage !== undefined && normaliseUrl(hit.url) === contextPage;
      const settingEntry = settingAsked && isSettingEntry(hit.section, hit.title);
      // A page's opening section is headed by its title: "CREATE MATERIALIZED VIEW" names more than "create a view".
      // "Which setting …?" asks for a name the visitor cannot know: the setting's name heading its entry is not off the question.
      // For "What is …?", a section's number ("31.1. Publication") does not make it narrower than the command that drops one.
      const offTopic = settingEntry ? 0 : unaskedHeadingShare(hit.section || hit.title, askedAbout, { numbersAside: asksDefinition });
      const showsHow = asksHow && SHOWS.test(markdown);
      const changes = !asksAboutChanges && isReleaseNotes(hit);
      const ownHeadingText = entryHeadingOf(hit);
      // A page of a view named by the word asked about ("37.23. domains"), or of a command that changes or drops the thing,
      // is not what it is, unless the question asks about a view or that command ("What does DROP OWNED do?").
      const namedByTitle =
        asksDefinition &&
        !hit.section &&
        ((NAME_TITLE.test(hit.title) && !viewAsked) || (CHANGING_COMMAND.test(hit.title) && unaskedHeadingShare(hit.title, questionTerms) > 0));
      const narrowEntry = asksDefinition && !namesIdentifier && (isApiHeading(ownHeadingText) || namedByTitle);
      // A heading that is itself a question asked as the visitor asks ("Why must dictionary keys be immutable?" for "Why
      // can't I use a list as a dictionary key?") is an entry of questions and answers: holding their words, it answers them.
      // One that opens with the question's own words ("Why does Python use indentation for grouping of statements?" for "why
      // does python use indentation instead of curly braces") is its entry, whatever else either says.
      const answersQuestion = headingOpensAs(ownHeadingText, input.question) ? 1 : headingAsksAs(ownHeadingText, input.question) ? headingCoverage : 0;
      const defines = asksDefinition && !namedByTitle && headingCoverage > 0.99 ? headingExactness(headingTerms, questionTerms) : 0;
      // The entry of the API the question names is what it asks about; the first of them most. A reference table's
      // row that the name heads ("| `unnest` ( `anyarray` ) → …") is its entry too, as a heading found by name is.
      const namedIndex = entriesNamed.findIndex((entry) => entry.id === hit.id);
      const namedEntry = namedIndex === -1 ? (rowsNamed.some((row) => row.test(markdown)) ? 0.5 : 0) : namedIndex > 0 ? 0.2 : namesCall ? 1.2 : 0.5;
      const quotesError = wholeError.length > 0 && showsErrorStretch(hit.text, wholeError);
      const score =
        coverage +
        0.6 * headingCoverage +
        0.7 * titleCoverage +
        0.6 * parentCoverage +
        sentenceCoverage +
        (0.6 * fused) / bestFused +
        0.3 * followUp +
        (onThisPage ? 0.25 : 0) +
        (showsHow ? 0.2 : 0) +
        0.8 * defines +
        0.5 * answersQuestion +
        namedEntry +
        0.1 * pageAbout -
        0.3 * offTopic -
        (narrowEntry ? 0.4 : 0) -
        (changes ? 0.5 : 0) -
        (cPages.has(hit.pageId) ? 0.6 : 0) +
        (settingEntry ? 0.6 : 0) +
        (quotesError ? 0.6 : 0);
      return { hit: { ...hit, markdown }, score, changes, covers: !changes && coverage >= 0.5, relevant: (coverage > 0 || followUp > 0) && !isNavigation(markdown, hit.text) };
    })
    .filter((entry) => entry.relevant)
    .sort((a, b) => b.score - a.score);
  // Release notes come after every other passage that holds half the question or more, ahead of the rest.
  const covering = scored.slice(0, scored.map((entry) => entry.covers).lastIndexOf(true) + 1);
  let ranked = [...covering.filter((entry) => !entry.changes), ...covering.filter((entry) => entry.changes), ...scored.slice(covering.length)].map((entry): RetrievedSection => entry.hit);
  // The things compared are each told by their entry, first and in the question's order.
  const comparedEntries = await entriesCompared(db, input.organisationId, compared, ranked, input.question);
  if (comparedEntries.length >= 2) {
    // A reference page's opening gives its place to its description (entriesCompared), which says what the opening only names.
    const shownInstead = new Set(comparedEntries.flatMap((entry) => [entry.id, ...(entry.opening ? [entry.opening] : [])]));
    ranked = [...comparedEntries.map(({ opening: _opening, ...entry }) => entry), ...ranked.filter((hit) => !shownInstead.has(hit.id))];
  }
  // A glossary entry that only sends the reader on ("GIL: See global interpreter lock.") gives its place to where it sends them.
  for (let index = 0; index < Math.min(limit, ranked.length); index++) {
    const hit = ranked[index]!;
    const target = CROSS_REFERENCE.exec(plainInline(hit.markdown).trim())?.[1];
    if (!target) continue;
    const entry = await sectionHeaded(db, { organisationId: input.organisationId, pageId: hit.pageId, heading: target });
    if (!entry || entry.id === hit.id) continue;
    const later = ranked.findIndex((other) => other.id === entry.id);
    if (later !== -1 && later < index) ranked.splice(index--, 1);
    else {
      if (later !== -1) ranked.splice(later, 1);
      ranked[index] = (await withMarkdown(db, [entry]))[0]!;
    }
  }
  // "What does VACUUM do?": a reference page opens with a line that names it and says what for ("VACUUM — garbage-collect
  // and optionally analyze a database"); its description, the first passage of prose after it, says what it does.
  // Both are quoted, so the line is looked for where its description fits after it.
  const purposeAt = ranked.slice(0, limit - 1).findIndex((hit) => !hit.section && onlyNamesPurpose(plainInline(hit.markdown || hit.text)));
  const description = purposeAt === -1 ? undefined : await descriptionAfter(db, input.organisationId, ranked[purposeAt]!);
  if (description) {
    const at = ranked.findIndex((other) => other.id === description.id);
    if (at !== -1) ranked.splice(at, 1);
    ranked.splice(at !== -1 && at < purposeAt ? purposeAt : purposeAt + 1, 0, { ...description, describesOpening: true });
  }
  // "How do I fix a leaking faucet?": a word the pages never use, and not a likely typo of one they do, is what the
  // question is about, so only a passage that holds it answers it; none does, so nothing of the pages is quoted.
  const unused = await wordsNeverUsed(db, input, { text: input.question, words: contentWords, misspelt: first.misspelt, vocabulary });
  const chosen = unused.length > 0 ? firstHolding(ranked, unused, limit) : ranked.slice(0, limit);
  // "How do I write a unit test?" may be answered by a passage that shows nothing, a page's opening: the page's example
  // ("Basic example") shows how, and follows it, one passage more. Not among search hits (`snippets`): nobody searched for it.
  const sections = HOW_TO_ASKED.test(input.question) && !input.snippets ? await withExample(db, input.organisationId, chosen) : chosen;
  return { sections, question: await asWrittenIn(vocabulary, question, contentWords, sections[0]) };
}

/** The most pages put forward for saying in their opening line what the question asks to do. */
const PURPOSE_PAGES = 3;

/** What a page's opening says the page is for: in its first line ("CREATE EXTENSION — install an extension"), or in its title ("json — JSON encoder and decoder"). */
function purposeOfOpening(opening: SectionHit): string | undefined {
  return purposeNamed(opening.text.split('\n', 1)[0]!) ?? purposeNamed(opening.title);
}

/** Whether a purpose says every one of the question's terms, two at least. */
function saysEvery(purpose: string, asked: string[]): boolean {
  const wanted = new Set(asked);
  const said = new Set(terms(purpose));
  return wanted.size >= 2 && [...wanted].every((term) => said.has(term));
}

/** Markdown that shows code or numbered steps. */
const SHOWS = /^\s*(?:`{3,}|~{3,}|\d+[.)]\s)/m;

/**
 * The sections with the example of the first one's page right after it (its description's, when it is a reference page's
 * opening line), when it shows neither code nor steps: the first section headed by examples that belongs with it and shows
 * code (examplesAfter), marked as showing it: under it, beside a description, or after an API entry and calling it in its
 * code.
 */
async function withExample(db: Queryable, organisationId: string, sections: RetrievedSection[]): Promise<RetrievedSection[]> {
  const at = sections[1]?.describesOpening ? 1 : 0;
  const shown = sections[at];
  if (!shown || SHOWS.test(shown.markdown)) return sections;
  // Beside it when its heading says which part of the page it is ("Description"), not what it is about; anywhere after an
  // API entry (`tempfile.TemporaryDirectory(…)`), when they call it.
  const called = calledEntry(shown.section);
  const belonging = called ? 'page' : namesNoTopic(ownHeading(shown.section)) ? 'beside' : 'under';
  const examples = await withMarkdown(db, await examplesAfter(db, { organisationId, section: shown, belonging }));
  const example = examples.find((section) => {
    const code = fencedBlocks(section.markdown);
    return code.length > 0 && (!called || code.some((block) => calls(block, called)));
  });
  if (!example) return sections;
  const others = sections.filter((section) => section.id !== example.id);
  return [...others.slice(0, at + 1), { ...example, showsExample: true }, ...others.slice(at + 1)];
}

/** How many pages use each of some words (those some page uses): `vocabularyPages`, each word read once however often asked. */
type Vocabulary = (words: string[]) => Promise<Map<string, number>>;

/** The vocabulary of one question's words, for its retrieval. */
function vocabularyOf(db: Queryable, searched: PagesSearched): Vocabulary {
  const read = new Map<string, number | undefined>();
  return async (words) => {
    const unread = [...new Set(words)].filter((word) => !read.has(word));
    if (unread.length > 0) {
      const pages = await vocabularyPages(db, searched, unread);
      for (const word of unread) read.set(word, pages.get(word));
    }
    return new Map(
      words.flatMap((word) => {
        const pages = read.get(word);
        return pages === undefined ? [] : [[word, pages] as const];
      }),
    );
  };
}

/** Up to `count` of the words that the fewest pages use, content words only (a keyword in capitals, `HAVING`, is one), as given and in their order. */
async function rarestWords(vocabulary: Vocabulary, given: string[], count: number): Promise<string[]> {
  const words = [...new Set(given)].filter((word) => terms(word).length > 0);
  const pages = await vocabulary(words.map((word) => word.toLowerCase()));
  const used = (word: string) => pages.get(word.toLowerCase());
  const rarest = new Set(words.filter((word) => used(word) !== undefined).sort((a, b) => used(a)! - used(b)!).slice(0, count));
  return words.filter((word) => rarest.has(word));
}

/** Every three of the words, each in the order given. */
function threesOf(words: string[]): string[][] {
  const threes: string[][] = [];
  for (let a = 0; a < words.length; a++) for (let b = a + 1; b < words.length; b++) for (let c = b + 1; c < words.length; c++) threes.push([words[a]!, words[b]!, words[c]!]);
  return threes;
}

/**
 * The misspelt words the search read as a word of the pages that are typos of it: not one a
 * letter away from a question word ("bake", "make"), which is another word, unless it is that
 * word with its letters swapped ("wihch", "bewteen"), as question words are typed fast; nor a
 * short word with one letter of the pages' word changed in its place for one not next to it on
 * the keyboard ("tire", "time"), which is as likely another word ("How do I change a flat
 * tire?" is not about the time), while "fike" is "file" typed with a finger slipped; nor a
 * word with a letter more at its start ("await" for "wait"), nor one with its first letter
 * dropped that is short ("sync" for "async") or starts with a prefix ("recompute" for
 * "precompute"), though a first letter dropped off any other word is a typo ("nstall").
 */
function typos(misspelt: Map<string, string>): Map<string, string> {
  const letters = (word: string) => [...word].sort().join('');
  return new Map(
    [...misspelt].filter(([typed, spelled]) => {
      if (letters(typed) === letters(spelled)) return true;
      // A letter more at the start makes another word ("await", "wait"), and so does one less from a short word ("sync",
      // "async") or before a prefix ("recompute", "precompute"); a first letter dropped off anything else is a typo ("nstall").
      if (typed.length !== spelled.length && typed[0] !== spelled[0] && (typed.length > spelled.length || typed.length < MIN_TYPO_LETTERS || PREFIXED.test(typed))) return false;
      const changed = typed.length < MIN_TYPO_LETTERS && typed.length === spelled.length ? [...typed].findIndex((letter, index) => letter !== spelled[index]) : -1;
      return terms(spelled).length > 0 && (changed === -1 || neighbouringKeys(typed[changed]!, spelled[changed]!));
    }),
  );
}

/** The rows of a QWERTY keyboard, each with how far it is set to the right of the top one, in keys. */
const KEY_ROWS: [string, number][] = [
  ['qwertyuiop', 0],
  ['asdfghjkl', 0.25],
  ['zxcvbnm', 0.75],
];

/** Whether two letters are keys next to each other on a QWERTY keyboard ("l" and "k", "e" and "d"). */
function neighbouringKeys(a: string, b: string): boolean {
  const place = (key: string) => {
    const row = KEY_ROWS.findIndex(([keys]) => keys.includes(key));
    return row === -1 ? undefined : { row, column: KEY_ROWS[row]![0].indexOf(key) + KEY_ROWS[row]![1] };
  };
  const [from, to] = [place(a), place(b)];
  return from !== undefined && to !== undefined && a !== b && Math.abs(from.row - to.row) <= 1 && Math.abs(from.column - to.column) <= 1;
}

/** A word that starts with an English prefix ("recompute", "unlink", "preload"): with a letter before it, it is often another word. */
const PREFIXED = /^(?:re|un|in|im|de|dis|en|em|ex|pre|pro|non|sub|over|out|up|mis|co|inter|trans|auto|anti|multi)\p{L}{4,}/u;

/** A typo this long or longer is surely one; a shorter word may be another a letter away ("rice", "price"), unless it is a question word's. */
const MIN_TYPO_LETTERS = 5;

/**
 * Pages the sources searched need before a word missing from all of them says
 * something: a small site may never say "often" or "added", documentation of hundreds of
 * pages uses every everyday word, but not "faucet".
 */
const PAGES_FOR_ABSENCE = 200;

/** Words written with a capital after the start of a sentence ("my Shopify store"), lowercased. */
function namesIn(text: string): Set<string> {
  return new Set([...text.matchAll(/(?<=[\p{L}\p{N},;:)]\s+)\p{Lu}[\p{L}\p{N}]*/gu)].map(([name]) => name.toLowerCase()));
}

/**
 * The terms of the words (`words`, of `text`) of a question that no page of the widget's
 * sources uses in any form, when the rest of it is in their words: not likely typos of words they use
 * (`misspelt`), nor a name in `text` ("my Shopify store", the visitor's own tools), nor most of
 * the question (one asked in another language), nor the word still being typed (`typing`) when
 * it is the start of one they use. `vocabulary`: the question's, when some of its words were read already.
 */
async function wordsNeverUsed(
  db: Queryable,
  input: PagesSearched,
  { text, words, misspelt, typing, vocabulary = vocabularyOf(db, input) }: { text: string; words: string[]; misspelt: Map<string, string>; typing?: string; vocabulary?: Vocabulary },
): Promise<Unused[]> {
  const typo = typos(misspelt);
  const surelyTypo = (word: string) => typo.has(word) && (word.length >= MIN_TYPO_LETTERS || terms(typo.get(word)!).length === 0);
  const names = namesIn(text);
  const plain = [...new Set(words.filter((word) => !names.has(word) && isVocabularyWord(word) && terms(word).length > 0 && !surelyTypo(word)))];
  if (plain.length < 2) return [];
  const [stats] = await db.query<{ pages: number }>('SELECT coalesce(sum(pages), 0) AS pages FROM search_stats WHERE organisation_id = $1 AND source_id = ANY($2::text[])', [input.organisationId, input.sources]);
  if (Number(stats?.pages ?? 0) < PAGES_FOR_ABSENCE) return [];
  const known = await vocabulary(plain);
  // A word the pages use in another form ("sit" where they write "sits" or "sitting") is one they use.
  const unknown = plain.filter((word) => !known.has(word));
  const inAnotherForm = await usedInAnotherForm(db, input, unknown);
  const unused = unknown.filter((word) => !inAnotherForm.has(word));
  if (unused.length >= known.size) return [];
  const complete = typing === undefined || !unused.includes(typing) || !(await completesWord(db, input, typing));
  return unused.filter((word) => complete || word !== typing).map((word) => ({ term: terms(word)[0]!, letters: lettersOf(word) }));
}

/** A word of a question the pages never use: its term, and its letters, which the pages may write as two words or hyphenated. */
interface Unused {
  term: string;
  letters: string;
}

/** The most words starting like a word that are compared with it for another form of it. */
const FORMS_LOOKED_AT = 50;

/** Those of some words the pages use in another form (one stemmed alike: "sits", "sitting" for "sit"). */
async function usedInAnotherForm(db: Queryable, searched: PagesSearched, words: string[]): Promise<Set<string>> {
  if (words.length === 0) return new Set();
  const asked = words.map((word) => {
    const stemmed = stem(word);
    // Forms start with the stem, but for a stem ending in a changed letter ("query", "queries").
    return { word, stemmed, prefix: stemmed.slice(0, Math.max(3, stemmed.length - 1)) };
  });
  const forms = await wordsStartingWith(db, searched, asked.map(({ prefix }) => prefix), FORMS_LOOKED_AT);
  return new Set(asked.filter(({ word, stemmed, prefix }) => forms.get(prefix)!.some((form) => form !== word && stem(form) === stemmed)).map(({ word }) => word));
}

/** A word's letters as compared with a text's (writtenApart): lowercased, in their usual form. */
const lettersOf = (word: string) => word.normalize('NFKC').toLowerCase();

/**
 * What a section holds: the fields that say so, each read on its own (its page's title, its heading and its text),
 * and their terms.
 */
function heldBy(hit: SectionHit): { fields: string[]; held: Set<string> } {
  const fields = [hit.title, hit.section ?? '', hit.text];
  return { fields, held: new Set(fields.flatMap((field) => pageTerms(field))) };
}

/** How one of a section's fields writes a word otherwise (writtenApart), if one does. */
function writtenInOne(fields: string[], letters: string): string | undefined {
  for (const field of fields) {
    const written = writtenApart(field, letters);
    if (written !== undefined) return written;
  }
  return undefined;
}

function holdsAll(hit: SectionHit, wanted: Unused[]): boolean {
  if (wanted.length === 0) return true;
  const { fields, held } = heldBy(hit);
  return wanted.every(({ term, letters }) => held.has(term) || writtenInOne(fields, letters) !== undefined);
}

/** The first `limit` sections that hold every word the pages never use (holdsAll), in their order. */
function firstHolding(ranked: RetrievedSection[], wanted: Unused[], limit: number): RetrievedSection[] {
  const holding: RetrievedSection[] = [];
  for (const hit of ranked) {
    if (holding.length === limit) break;
    if (holdsAll(hit, wanted)) holding.push(hit);
  }
  return holding;
}

/**
 * The question with each word the pages never use as the first section writes it apart
 * ("change the colour scheme" for "change the colourscheme"), as the search found it: the
 * answer is read from that section in its words. Not a name, nor a word in code, quotes or a
 * pasted error message (respelled).
 */
async function asWrittenIn(vocabulary: Vocabulary, question: string, words: string[], first: SectionHit | undefined): Promise<string> {
  if (!first) return question;
  const { fields, held } = heldBy(first);
  const apart = new Map<string, string>();
  for (const word of words) {
    const [term] = terms(word);
    if (term === undefined || held.has(term)) continue;
    const letters = lettersOf(word);
    const written = writtenInOne(fields, letters);
    if (written !== undefined) apart.set(letters, written);
  }
  if (apart.size === 0) return question;
  const used = await vocabulary([...apart.keys()]);
  return [...apart].reduce((asked, [typed, written]) => (used.has(typed) ? asked : (respelled(asked, typed, written) ?? asked)), question);
}

/** Whether a word is another's plural: "schemes" of "scheme", "boxes" of "box". */
const pluralOf = (word: string, of: string) => word === `${of}s` || word === `${of}es`;

/** Two words side by side, or a word with hyphens between its letters. */
const APART = /(?<![\p{L}\p{M}\p{N}_-])(?:([\p{L}\p{M}]{3,})\s+(?=([\p{L}\p{M}]{3,})(?![\p{L}\p{M}\p{N}_-]))|[\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)+(?![\p{L}\p{M}\p{N}_-]))/gu;

/**
 * How a text writes a word (its letters, lowercased), if it does, as the search finds it
 * written otherwise: as two words side by side, neither a stop word ("colour scheme" for
 * "colourscheme"), or with hyphens ("check-in" for "checkin", "read-only" for "readonly");
 * in the singular or plural of the word's.
 */
function writtenApart(text: string, letters: string): string | undefined {
  const singular = letters.replace(/e?s$/, '');
  const normal = text.normalize('NFKC');
  // Most texts do not hold the letters in any form: a look over them once, before reading them pair by pair.
  if (!normal.toLowerCase().replace(/[\s-]+/g, '').includes(singular)) return undefined;
  for (const match of normal.matchAll(APART)) {
    const [whole, first, second] = match;
    if (first !== undefined && (isStopWord(first.toLowerCase()) || isStopWord(second!.toLowerCase()))) continue;
    const joined = (first !== undefined ? first + second : whole.replace(/-/g, '')).toLowerCase();
    if (joined === letters || pluralOf(joined, letters) || pluralOf(letters, joined)) return first !== undefined ? `${first} ${second}` : whole;
  }
  return undefined;
}

/** Of the words the pages never use, at most this many are read as typos in one question ("how to chek if a key exists in a dictonary"). */
const MAX_MISSPELT = 2;

/**
 * The question with its misspelt words as the pages spell them, when every word of it the
 * pages never use is a typo of one they do (typos), and there are at most MAX_MISSPELT: a word
 * that is none ("Who painted the Mona Lisa?", "painted" one letter from "printed"; "How do I
 * bake bread?") says the question is about another subject. Undefined otherwise, or when a
 * word is written as typed on purpose (respelled).
 */
function spelledAsPages(question: string, found: { unknown: string[]; misspelt: Map<string, string> }): string | undefined {
  const misspelt = [...typos(found.misspelt)];
  if (misspelt.length === 0 || misspelt.length > MAX_MISSPELT || new Set(found.unknown).size !== misspelt.length) return undefined;
  let text: string | undefined = question;
  for (const [typed, spelled] of misspelt) text = text && respelled(text, typed, spelled);
  return text;
}

/**
 * The question with a misspelt word (lowercased, as the search reads it) written as the pages
 * spell it, a capital kept at the start of the question; undefined when the word is a name
 * (written with a capital further on: "Nuxt", "Deno", or in capitals), or where it is written
 * as typed on purpose: in code, in quotes, in a pasted error message, or in a file name.
 */
export function respelled(question: string, typed: string, spelled: string): string | undefined {
  const text = question.normalize('NFC');
  const word = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_./\\\\-])${escapeRegExp(typed)}(?![\\p{L}\\p{M}\\p{N}_]|[./\\\\-][\\p{L}\\p{N}])`, 'giu');
  const written = [...text.matchAll(word)];
  if (written.length === 0) return undefined;
  const error = errorMessageIn(text);
  for (const match of written) {
    const at = match.index!;
    const before = text.slice(0, at);
    const named = /\p{Lu}/u.test(match[0].slice(1)) || (/^\p{Lu}/u.test(match[0]) && /\p{L}/u.test(before) && !/[.!?]\s*$/.test(before));
    const quoted = (before.match(/`/g)?.length ?? 0) % 2 === 1 || /(?:["“‘]|(?<![\p{L}\p{N}])')[^"”’'\n]*$/u.test(before) || (error !== undefined && error.toLowerCase().includes(typed));
    if (named || quoted) return undefined;
  }
  return text.replace(word, (match) => (/^\p{Lu}/u.test(match) ? spelled[0]!.toUpperCase() + spelled.slice(1) : spelled));
}

/** A section that only refers to another by its heading (its markdown read as plain text): "See global interpreter lock.", "See also: method resolution order." */
const CROSS_REFERENCE = /^See\s+(?:also\s*:?\s+)?([^\n.:]{2,80}?)\.?$/i;

/** How many sections after a page's opening are looked at for its description (a synopsis may come first). */
const DESCRIPTION_WITHIN = 3;

/** The first section after a page's opening that opens with prose saying something: a sentence, not a synopsis or a list. */
async function descriptionAfter(db: Queryable, organisationId: string, opening: SectionHit): Promise<RetrievedSection | undefined> {
  const following = await withMarkdown(db, await sectionsAfterOpening(db, { organisationId, pageId: opening.pageId, limit: DESCRIPTION_WITHIN }));
  return following.find((section) => {
    const first = (section.markdown || section.text).trimStart().split(/\n\s*\n/)[0] ?? '';
    return !/^(?:`{3}|~{3}|[-*+]\s|\d+[.)]\s|\||#|>)/.test(first) && /[.!?](?:\s|$)/.test(plainInline(first));
  });
}

/**
 * The entry of each thing compared ("staticmethod vs classmethod") among ranked sections, marked:
 * of the sections headed by its name, the one whose headings and page title hold most of the
 * question's other words, then the one headed by the name as written ("DELETE", not "Delete"),
 * then one that opens by naming it ("Tuples are immutable …"), then the better ranked; a reference
 * page's opening that only names it and says what for ("TRUNCATE — empty a table or set of
 * tables") gives way to its description, which says what it does. Empty unless two or more have
 * one, or when the question says something of them (an identifier aside) that none of their
 * headings names ("append vs extend on a list" is not compared by a deque's and an XML element's).
 */
async function entriesCompared(
  db: Queryable,
  organisationId: string,
  compared: string[],
  ranked: RetrievedSection[],
  question: string,
): Promise<(RetrievedSection & { opening?: string })[]> {
  if (compared.length === 0) return [];
  const named = new Set(compared.flatMap((name) => terms(name)));
  // What the question says of the things besides comparing them; an identifier it names is a detail of a part ("and do I still need `__init__.py`?").
  const others = [...new Set(terms(question.replace(/\S*\w[._]\w\S*/g, ' ')))].filter((term) => !named.has(term) && !COMPARING.has(term));
  const entries: (RetrievedSection & { opening?: string })[] = [];
  const context = (hit: RetrievedSection) => {
    const held = new Set([...pageTerms(hit.title), ...headingTerms(hit.section ?? '')]);
    return others.filter((term) => held.has(term)).length;
  };
  const headed = compared.map((name) => ranked.filter((hit) => headedBy(name, entryHeadingOf(hit))));
  for (const [index, name] of compared.entries()) {
    const nameTerms = terms(name);
    // A section that opens by naming it ("Tuples are immutable sequences …"), not a later part under the same heading.
    const opensWith = (hit: RetrievedSection) => {
      const opening = pageTerms(hit.text.split(/\s+/).slice(0, OPENING_NAME_WORDS).join(' '));
      return nameTerms.every((term) => opening.includes(term));
    };
    // A name written as a keyword or an identifier ("DELETE", "pg_dump") is the entry headed so, not "Delete" in a list of messages.
    const asWritten = /[\p{Lu}_.]/u.test(name) ? new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(name)}(?![\\p{L}\\p{N}_])`, 'u') : undefined;
    const written = (hit: RetrievedSection) => (asWritten?.test(entryHeadingOf(hit)) ? 1 : 0);
    // Each candidate's preferences, read once: the first that differs decides, and of those alike the better ranked stays.
    const preferred = headed[index]!.map((hit) => ({ hit, preference: [context(hit), written(hit), opensWith(hit) ? 1 : 0] }));
    const better = (a: number[], b: number[]) => {
      const differing = a.findIndex((value, at) => value !== b[at]);
      return differing !== -1 && a[differing]! > b[differing]!;
    };
    const entry = preferred.reduce<(typeof preferred)[number] | undefined>((best, candidate) => (best === undefined || better(candidate.preference, best.preference) ? candidate : best), undefined)?.hit;
    if (!entry || entries.some((other) => other.id === entry.id)) continue;
    const described = !entry.section && onlyNamesPurpose(plainInline(entry.markdown || entry.text)) ? await descriptionAfter(db, organisationId, entry) : undefined;
    entries.push(described ? { ...described, compares: true, opening: entry.id } : { ...entry, compares: true });
  }
  // "append vs extend on a list": entries headed by the names in another setting (a deque's, an XML element's) compare something else.
  if (others.length > 0 && !entries.some((entry) => context(entry) > 0)) return [];
  return entries.length >= 2 ? entries : [];
}

/** Within how many words of its start a compared thing's entry names it, when it opens by saying what it is. */
const OPENING_NAME_WORDS = 4;

/** A question about a view or a system catalog, which such a page is. */
const VIEW_ASKED = /\b(?:views?|catalogs?)\b/i;

/** The reference page of a command that changes or removes a thing ("DROP SEQUENCE"), which tells what that does, not what the thing is. */
const CHANGING_COMMAND = /^\s*(?:DROP|ALTER)\s+[A-Z]/;

/** Hits with the markdown of their sections, for quoting. */
async function withMarkdown(db: Queryable, hits: SectionHit[]): Promise<RetrievedSection[]> {
  const markdown = await readSectionMarkdown(db, hits.map((hit) => hit.id));
  return hits.map((hit) => ({ ...hit, markdown: markdown.get(hit.id) ?? '' }));
}

/**
 * A C function's declaration as a heading: `int PyDict_Check(PyObject *p)`, `PyObject *PyGen_New(PyFrameObject *frame)`,
 * `void Py_Initialize()`; not a method's `class dict(**kwargs)` nor a topic's "Enum Members (aka instances)".
 */
const C_DECLARATION = /^(?:(?:const|unsigned|signed|struct|static|extern)\s+)*[A-Za-z_]\w*(?:\s*\*+\s*[A-Za-z_]\w*\((?:…|[^()]*)|\s+[A-Za-z_]\w*\((?:void|(?:const\s+)?[A-Za-z_]\w*(?:\s*\*+\s*|\s+)[A-Za-z_]\w*(?:\[\])?(?:,.*)?)?)\)$/;

/** Of a page's headings, at least this share declaring C functions (and two) makes it a page of a C API. */
const C_API_SHARE = 0.15;

/**
 * A question that speaks of C or C++: "in a C extension", "the c api", "from c code"; not Ctrl+C, a drive's "C:\",
 * an option's "-C" nor "°C".
 */
function speaksOfC(question: string): boolean {
  return /(?<![\w.+\-=°^:\\/])C(?:\+\+)?(?![\w#:\\])/.test(question) || /\bc(?:\+\+)?[\s-](?:api|extensions?|code|functions?|library|libraries|programs?|structs?|types?)\b/i.test(question);
}

/**
 * Of some pages, those of a C API: enough of their sections are headed by a C function's declaration, some of them
 * with a pointer (`PyObject *`), which a Java or Go reference's `boolean equals(Object obj)` has not.
 */
async function cApiPages(db: Queryable, organisationId: string, pageIds: string[]): Promise<Set<string>> {
  const headings = await pageHeadings(db, { organisationId, pageIds: [...new Set(pageIds)] });
  const pages = new Set<string>();
  for (const [pageId, { count, withParentheses }] of headings) {
    const declarations = withParentheses.filter((heading) => C_DECLARATION.test(heading));
    if (declarations.length >= Math.max(2, count * C_API_SHARE) && declarations.some((heading) => heading.includes('*'))) pages.add(pageId);
  }
  return pages;
}

/** Retrieved sections numbered in order ([1] is the first), each with its own address. */
export function groundingOf(sections: RetrievedSection[]): GroundingSection[] {
  return sections.map((hit, index) => ({
    citation: index + 1,
    url: hit.url,
    title: hit.title,
    pageId: hit.pageId,
    section: hit.section,
    text: hit.text,
    markdown: hit.markdown,
    ...(hit.describesOpening && { describesOpening: true }),
    ...(hit.compares && { compares: true }),
    ...(hit.showsExample && { showsExample: true }),
  }));
}

/** The sources of cited sections, in the order of their numbers: `sources[n - 1]` is `[n]`. */
export function sourcesOf(sections: GroundingSection[]): Source[] {
  return [...sections].sort((a, b) => a.citation - b.citation).map(({ url, title, pageId, section }) => ({ url, title, pageId, ...(section && { section }) }));
}

/** How many of the search results a summary is built from: the first ones, which the visitor reads first. */
const SUMMARY_SECTIONS = 4;

/**
 * The passages of a search summary: the first of the hits the search widget shows for the
 * same query over the same sources, in the same order (the search route's own call), so a
 * summary never disagrees with the results under it; and the query as that search read it,
 * a misspelt word ("instlal") as the pages spell it, since the hits are about that word.
 */
export async function summarySections(
  db: Queryable,
  input: PagesSearched & { query: string; language?: string; hits: number },
): Promise<Retrieval> {
  const found = await searchSectionsSpelled(db, { organisationId: input.organisationId, sources: input.sources, query: input.query, limit: input.hits, language: input.language });
  // "fix leaking faucet": as for a question, a word the pages never use is what the query is about; a hit that lacks it
  // ("leaking" memory) is on screen, but a summary of it would answer another question.
  const words = contentQuery(input.query).split(/\s+/).filter(Boolean);
  const vocabulary = vocabularyOf(db, input);
  const unused = await wordsNeverUsed(db, input, { text: input.query, words, misspelt: found.misspelt, typing: found.typing, vocabulary });
  const shown = found.hits.slice(0, SUMMARY_SECTIONS).filter((hit) => holdsAll(hit, unused));
  // A query of one word ("instlal") is read as the search read it: its hits are what the summary sits above.
  const question = await asWrittenIn(vocabulary, spelledAsPages(input.query, found) ?? input.query, words, shown[0]);
  return { sections: await withMarkdown(db, shown), question };
}

/** Search hits for a message over a widget's sources (the 402 fallback): as search answers it, else as retrieval finds it. */
export async function fallbackHits(db: Queryable, input: Omit<RetrievalInput, 'previousQuestions'>): Promise<Hit[]> {
  let hits: SectionHit[] = await searchSections(db, { organisationId: input.organisationId, sources: input.sources, query: input.question, limit: 10 });
  if (hits.length === 0) hits = (await retrieveSections(db, { ...input, previousQuestions: [], limit: 10, snippets: true })).sections.map(({ markdown: _markdown, ...hit }) => hit);
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
