/**
 * Words for answer retrieval and the embedded engine: lowercased, split on anything that is
 * not a letter or digit (but for a letter and a hyphen before a word, "f-strings"), stop
 * words dropped, crudely stemmed so "installing", "installed" and "installs" meet at
 * "install". Scripts written without spaces (Chinese, Japanese, Thai) become overlapping
 * character pairs, which is how they can be compared at all without a dictionary.
 */
import { escapeRegExp } from '../search/snippet.js';
import { entryHeading } from '../search/search.js';
import { PATH_SEPARATOR } from '../search/sections.js';
import { ASKING_AFTER_WHERE, keywordsIn, KEYWORDS_ALONE, markStopWordCalls, operatorsIn, stopWordCalls, typedInCapitals, writtenMostlyInCapitals } from '../search/language.js';
import { CHANGES_ASKED } from '../search/release-notes.js';

const STOP_WORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by
  can could did do does doing down during each few for from further had has have having he her here hers herself him
  himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other
  our ours ourselves out over own same she should so some such than that the their theirs them themselves then there
  these they this those through to too under until up very was we were what when where which while who whom why will
  with would you your yours yourself yourselves also get got may might must shall us let lets i'm im ive dont doesnt
  cant cannot wont isnt arent wasnt werent didnt hasnt havent hadnt shouldnt wouldnt couldnt mustnt neednt aint shant
  please tell explain know want need use using used way ways thing things something anything one
  able like make made hi hello thanks thank happen happens happened happening work works mean means possible
  exactly actually really still anyone someone somebody question vs versus
  ok okay easiest easy best simplest correct proper properly recommended good useful purpose pick prefer
  another others ones many much every better stand stands pls plz thx whats hows wheres whys
  inside within via onto upon toward towards among across
  sometimes sometime occasionally
  makes making wants wanted wanting needs needed needing getting goes going
  stuff kinda sorta basically literally lol btw guys folks anyway anyways definitely definately
  honestly clearly roughly totally seriously obviously apparently`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Question and function words of the other built-in locales written with spaces (German,
 * Dutch, French, Spanish, Italian, Portuguese): a visitor asking in their language asks
 * with them too ("Wie backe ich einen …?"), and they are no more content than "how do I".
 * Words that are also names in documentation (`os`, `io`, `del`, `bin`, `sin`, `man`) are not among them.
 */
const OTHER_STOP_WORDS = `aber als am an auch auf aus bei bis das dass dem der des doch ein eine einem einen einer
  eines er für gibt habe haben ich ihr im in ist kann kannst mich mir nach nicht noch nur ob oder sich sie sind so
  und uns von vor was welche welcher welches wenn wer werden wie wir wird wo zu zum zur
  aan al bij daar dan dat de deze dit doen een en er geen het hier hoe ik in is je kan kun kunnen maar met mijn naar
  niet of om ook over uit van voor waar wat welke wie wij wil zijn zo
  au aux avec ce ces comment dans des elle en est et il je la le les leur lui mais me mes moi mon nous on ou par pas
  pour qu que quel quelle quelles quels qui se ses sont sur ta tu un une vos votre vous faire fait peut peux puis
  al algo como cual cuál cuando de el ella en esta este hay la las los me no o para pero por puedo que qué se
  si sus tu un una uno y yo
  che chi come cosa dei della di dove e gli ha i il la le nel non più posso quale quando se si
  sono tu un una uno
  ao aos com como das do dos ela ele eu isso nas no nos numa ou para pelo pela por posso qual quando se sem seu
  sua uma voce você`
  .split(/\s+/)
  .filter(Boolean);
for (const word of OTHER_STOP_WORDS) STOP_WORDS.add(word);

const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * Lowercased words of a text, in order, stop words included. An identifier joined by `_`
 * (`shared_buffers`, `__enter__`) is one word: `arg_line` is not the word "line". A Latin
 * letter joined by a hyphen to a word ("f-strings") is one word with it, "fstrings"; with
 * `joinedAlone`, as a page's text is read, the word alone follows it ("strings"), so a page
 * about the x-axis is about an axis, while a question about the x-axis is not about the y-axis.
 */
export function words(text: string, options: { joinedAlone?: boolean } = {}): string[] {
  // NFKC leaves ASCII as it is, and most texts are ASCII: only others are normalised.
  const lower = text.toLowerCase();
  const normal = NOT_ASCII.test(lower) ? lower.normalize('NFKC') : lower;
  return (/[-\u2010\u2011]/.test(normal) ? normal.replace(LETTER_JOINED, options.joinedAlone ? '$1$2 $2' : '$1$2') : normal).match(/_*[\p{L}\p{N}]+(?:_+[\p{L}\p{N}]+)*_*(?:['’][\p{L}]+)?/gu) ?? [];
}

/** A Latin letter joined by a hyphen to a word, "f-string", "e-mail", "B-tree", "x-axis"; not "3.x-compatible", "don't-care". */
const LETTER_JOINED = /(?<![\p{L}\p{N}_.'’\u2010\u2011-])(\p{Script=Latin})[-\u2010\u2011](\p{L}{2,})(?![\p{L}\p{N}_])/gu;

/**
 * Crude suffix stripping: enough to make inflections of one word meet, never a dictionary. A noun meets its verb too
 * ("occurrence" and "occurs", "replication" and "replicate"), unless `plain` (SYNONYMS are compared so: "terminal" is
 * not "terminate", which means to stop).
 */
export function stem(word: string, { plain = false }: { plain?: boolean } = {}): string {
  let w = word.replace(/['’]s$/, '').replace(/['’]/g, '');
  if (w.length <= 3 || UNSPACED_SCRIPT.test(w) || /[\d_]/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const inflected = w;
  for (const suffix of SUFFIXES) {
    // Not the "-ly" of a verb: "apply", "reply", "supply".
    if (w.endsWith(suffix) && w.length - suffix.length >= 3 && (plain || !(suffix === 'ly' && VERB_IN_LY.test(w)))) {
      // "creation" is "create"'s noun: after a vowel, "-ation" leaves the "at" that "create" and "associate" keep (below).
      w = w.slice(0, !plain && suffix === 'ation' && /[aeiou]ation$/.test(w) ? -3 : -suffix.length);
      if (plain) break;
      // "specified", "busier", "emptiness" are "specify", "busy", "empty": as "specifies" is; "specification",
      // "notification" are "specify", "notify".
      if (/^(?:ed|er|ly|ness)$/.test(suffix) && w.endsWith('i')) w = `${w.slice(0, -1)}y`;
      else if (suffix === 'ation' && w.endsWith('ific')) w = `${w.slice(0, -2)}y`;
      break;
    }
  }
  if (!plain) {
    // "generate", "generated", "generating" meet "generation" ("gener"), "replicate" meets "replication": a verb in "-ate"
    // loses it after a consonant, as its noun loses "-ation"; not "repeat" nor "create", whose "at" follows a vowel.
    if (/(?:ate|ated|ating)$/.test(inflected) && /[^aeiou]at$/.test(w) && w.length - 2 >= 3) w = w.slice(0, -2);
    // "occurrence" → "occurr", "existence" → "exist", "dependence" → "depend": the noun of a verb meets the verb ("occurs",
    // "exists"); not a short stem ("instance", "sentence" are no "inst", "sent"), nor one that would be another word
    // ("importance" is not "import", "experience" no "experiment", "performance" not the verb "perform").
    else if (/(?:en|an)c$/.test(w) && w.length - 3 >= 5 && NOUN_OF_VERB.test(w.slice(0, -3))) w = w.slice(0, -3);
  }
  // "stopped" → "stopp" → "stop", so it meets "stop"; but "adding" → "add" stays "add", as "add" does.
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** Verbs that end in "-ly": "apply", "reply", "supply", "multiply", "comply", "imply"; not "deeply". */
const VERB_IN_LY = /(?:^|ap|re|sup|multi|com|im)ply$/;
/** The ends of a verb whose noun ends in "-ence" or "-ance": "exist", "occurr", "depend", "accept", "inherit", "appear", "differ", "allow". */
const NOUN_OF_VERB = /(?:st|rr|nd|pt|it|ar|er|ow)$/;
const PLAIN = { plain: true };

const SUFFIXES = ['ational', 'ization', 'ation', 'ment', 'ness', 'ingly', 'edly', 'ing', 'ed', 'ly', 'er', 'able', 'ible', 'al', 'e'];

/**
 * Words that documentation and its readers use for the same thing: a visitor asks for a
 * "folder" where the page says "directory", to "stop" what the page says to "cancel". Each
 * group compares as its first word. Only English, only unambiguous in software docs.
 */
const SYNONYMS = `directory folder dir
  dictionary dict
  delete remove erase
  stop cancel abort terminate kill
  enable activate
  disable deactivate
  increase raise
  decrease lower reduce
  setting parameter
  show display
  error exception failure
  start launch
  download fetch
  save store
  permission privilege
  duplicate copy
  fast quick speed
  parallel concurrent concurrently simultaneous
  environment env
  maximum max
  minimum min
  memory mem
  temporary temp tmp
  database db
  configuration config conf
  authentication auth
  transaction xact
  sequential seq
  change alter modify
  run execute
  identifier id
  digest checksum`
  .split('\n')
  .map((group) => group.trim().split(/\s+/));
const SYNONYM_OF = new Map<string, string>();
for (const group of SYNONYMS) for (const word of group) SYNONYM_OF.set(stem(word, PLAIN), stem(group[0]!, PLAIN));

/** The other words of a word's synonym group, as written: what else to search for. */
export function synonymsOf(word: string): string[] {
  const typed = stem(word.toLowerCase(), PLAIN);
  const canonical = SYNONYM_OF.get(typed);
  if (!canonical) return [];
  return SYNONYMS.find((group) => stem(group[0]!, PLAIN) === canonical)!.filter((other) => stem(other, PLAIN) !== typed && !other.includes('_'));
}

/** A stop word, also when contracted: "what's", "there's", "don't". */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word) || STOP_WORDS.has(word.replace(/['’](?:s|re|ll|d|ve)$/, '')) || STOP_WORDS.has(word.replace(/['’]/g, ''));
}

/** Verbs of two words that say what one word says in documentation: "turn on" is "enable". */
const PHRASES: [RegExp, string][] = [
  [/\b(?:turn|switch)(?:s|ed|ing)? on\b/gi, 'enable'],
  [/\b(?:turn|switch)(?:s|ed|ing)? off\b/gi, 'disable'],
  [/\b(?:turn|switch)(?:s|ed|ing)? (\S+) on\b/gi, 'enable $1'],
  [/\b(?:turn|switch)(?:s|ed|ing)? (\S+) off\b/gi, 'disable $1'],
  // "What's the point of a package without `__init__.py`?" asks what it is for: "point" is not what it is about ("floating point").
  // Not "the point in time" nor "the point of intersection": the purpose of a thing, a use or doing something.
  // "What's even the point of …" asks the same.
  [/\b(what(?:['’]s|\s+is|s))(?:\s+(?:even|actually|really))?\s+the\s+point\s+(of|in)\b(?=\s+(?:an?|the|this|that|these|those|my|your|our|having|using|\p{L}+ing\b|[`_]))/giu, '$1 the purpose $2'],
];

/**
 * A stop word named as a keyword of a language ("the with statement", "the is operator", "a
 * for loop", "the WHERE clause") is content: it names the construct. It is compared as one
 * term with its kind (`with_statement`).
 */
const KEYWORD_NAMED = /\b(as|async|await|break|continue|do|for|from|if|import|in|is|not|or|and|return|try|while|with|yield|where|having|when|then|into|on)\s+(statements?|keywords?|clauses?|operators?|loops?|blocks?)\b/gi;

/** What a visitor keeps from happening: "it", "this", "the error". */
const HAPPENING = String.raw`(?:it|this|that|them|these|those|(?:this|that|the)\s+(?:error|problem|issue|warning))`;

/**
 * What a visitor says that pages say in other words ("line by line" for "loop over" the lines): what a question asks is
 * read in the pages' words (askedAndTold), and it is searched both ways (retrieval), since a page may say it the visitor's way.
 */
const ALSO_SAID: [RegExp, string][] = [
  // "line by line", "row by row": one after another ("For reading lines from a file, you can loop over the file object").
  [/\b(line|row|word|char|character|byte|file|item|element|record|chunk|block|page|column|field|key|token|statement|command|table|object|node|frame|message|event|packet|commit|test) by \1\b/gi, '$1s loop over'],
  // "regardless of upper/lower case", "ignoring case", not "ignoring the case where …": case-insensitive.
  [
    /\b(?:regardless of|ignoring|ignore|ignores|irrespective of|without regard to)\s+(?:(?:(?:the|their|its)\s+)?(?:upper|lower)-?(?:\s*(?:\/|or|and)\s*(?:upper|lower))?[\s-]?case|case(?!\s+(?:where|when|that|of|in|which)\b)|capitali[sz]ation|letter case)\b/gi,
    'case-insensitive',
  ],
  // "longer than a second", "over 30 seconds", "over half an hour": a limit the pages set as "the specified amount of time";
  // not a second of something else ("more than a second time", "at least a second standby").
  [
    /\b(?:(?:longer|more|slower|greater)\s+than|over|above|at\s+least)\s+(?:(?:a|an|one|half\s+an?)\s+|\d+(?:\.\d+)?\s*)(?:milli)?(?:seconds?|minutes?|hours?|ms|secs?|mins?)\b(?=\s*(?:[?.!,;:)]|$)|\s+(?:and|or|but|to|in|on|for|before|after|when|while|then|so|is|are|was|will|would|should|without)\b)/gi,
    'more than the specified amount of time',
  ],
  // "how do we stop it happening?", "prevent this from happening again", "keep it from coming back": what pages say to
  // avoid, not to stop or cancel what already runs ("stop a query that is running"); not to "keep it happening".
  [
    new RegExp(
      String.raw`\b(?:stop|prevent|keep(?=\s+${HAPPENING}\s+from\s))\s+(${HAPPENING})\s+(?:from\s+)?(?:happening|occurring|recurring|coming\s+back)(?:\s+again)?\b`,
      'gi',
    ),
    'avoid $1',
  ],
];

/** A question in the pages' words where the visitor's differ (ALSO_SAID), or undefined. */
export function inPagesWords(question: string): string | undefined {
  const said = rewritten(question, ALSO_SAID);
  return said === question ? undefined : said;
}

function phrasesAsWords(text: string): string {
  return rewritten(text, PHRASES);
}

/** A text with each rule's pattern replaced, in order. */
function rewritten(text: string, rules: readonly [RegExp, string][]): string {
  return rules.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
}

/**
 * A stop word written in capitals beside another word in capitals, in a text written mostly in
 * lower case ("UNION ALL", "NOT IN", "IS NULL"), is a keyword of a language, so content: it is
 * kept, marked (`all_`) apart from the plain word; so is a keyword alone in capitals that no
 * writer shouts ("the HAVING clause": KEYWORDS_ALONE).
 */
export function keywordsInCapitals(text: string): string {
  const marked = keywordsInRuns(text);
  // A keyword alone in capitals that no writer shouts ("the HAVING clause", "Why does WHERE x = NULL …?"), as the search reads it.
  if (!LONE_KEYWORD.test(marked) || typedInCapitals(text)) return marked;
  return marked.replace(LONE_KEYWORDS, '$&_');
}
// "WHERE do I …?" asks where (ASKING_AFTER_WHERE), as the search reads it.
const LONE_KEYWORD_SOURCE = String.raw`(?<![\p{L}\p{N}_-])(?:${[...KEYWORDS_ALONE]
  .map((word) => (word === 'where' ? String.raw`WHERE(?![ \t]+(?:${ASKING_AFTER_WHERE.join('|')})(?![\p{L}\p{N}_-]))` : word.toUpperCase()))
  .join('|')})(?![\p{L}\p{N}_-])`;
const LONE_KEYWORD = new RegExp(LONE_KEYWORD_SOURCE, 'u');
const LONE_KEYWORDS = new RegExp(LONE_KEYWORD_SOURCE, 'gu');

function keywordsInRuns(text: string): string {
  // Only beside another word in capitals ("NOT IN", not an emphatic "NOT"), and not in a text written mostly in capitals
  // ("HOW DO I USE json.dumps?", "HOW TO INSTALL") or joined by a hyphen ("en-US").
  // Most texts have no two words in capitals side by side, or none of them a stop word ("CREATE TABLE"): checked first, cheaply.
  if (!/[A-Z]{2}[ \t]+[A-Z]{2}/.test(text)) return text;
  const runs = text.match(CAPITALS_RUNS) ?? [];
  if (!runs.some((run) => run.split(/[ \t]+/).some((word) => STOP_WORDS.has(word.toLowerCase())))) return text;
  if (writtenMostlyInCapitals(text)) return text;
  const keywords = new Set<string>();
  const marked = text.replace(CAPITALS_RUNS, (run) =>
    run.replace(/[A-Z]+/g, (word) => {
      if (!STOP_WORDS.has(word.toLowerCase())) return word;
      keywords.add(word);
      return `${word}_`;
    }),
  );
  // Once a keyword, the same word in capitals on its own too ("… UNION ALL, and why would I use ALL?").
  return keywords.size === 0 ? marked : marked.replace(/(?<![\p{L}\p{N}_-])[A-Z]{2,}(?![\p{L}\p{N}_-])/gu, (word) => (keywords.has(word) ? `${word}_` : word));
}
const CAPITALS_RUNS = /(?<![\p{L}\p{N}_-])[A-Z]{2,}(?:[ \t]+[A-Z]{2,})+(?![\p{L}\p{N}_-])/gu;

/**
 * A name written with a slash after a short prefix in capitals, before a word in lower case or one capital: "PL/pgSQL",
 * "PL/Perl", "I/O". One name each, read as one word ("plpgsql"), so that PL/Perl's pages do not answer a question about
 * PL/pgSQL by its "PL". Alternatives stay two words: "read/write", "GET/POST", "CSV/JSON", "C/C++".
 */
const NAME_WITH_SLASH = /(?<![\p{L}\p{N}_/])([A-Z]{1,3})\/(?=\p{Lu}?\p{Ll}|\p{Lu}(?![\p{L}\p{N}+#]))/gu;

/** The comparable terms of a text: stems of its content words, or character pairs in unspaced scripts. */
export function terms(text: string, options: { joinedAlone?: boolean } = {}): string[] {
  const result: string[] = [];
  // A call of a function named by a stop word (`now()`, `any(iterable)`) names the function: `now_` is its term.
  const named = text.includes('/') ? text.replace(NAME_WITH_SLASH, '$1') : text;
  for (const word of words(keywordsInCapitals(markStopWordCalls(phrasesAsWords(named).replace(KEYWORD_NAMED, '$1_$2'))), options)) {
    let known = TERMS_OF_WORD.get(word);
    if (!known) {
      known = termsOfWord(word);
      // Not a run of a script written without spaces, a whole sentence in Thai: those seldom come again.
      if (word.length <= MAX_WORD_KEPT) {
        if (TERMS_OF_WORD.size >= MAX_WORDS_KEPT) TERMS_OF_WORD.clear();
        TERMS_OF_WORD.set(word, known);
      }
    }
    for (const term of known) result.push(term);
  }
  // An operator (`->>`, `//`, `:=`) is a term as written: "what does ->> do?" asks about it alone.
  for (const operator of operatorsIn(text)) result.push(operator);
  return result;
}

/** The terms of a page's text: as `terms`, with the word a letter is hyphenated to alone as well ("x-axis" holds "axis"). */
export function pageTerms(text: string): string[] {
  return terms(text, PAGE_TEXT);
}
const PAGE_TEXT = { joinedAlone: true };

/** The terms of one word, as `terms` reads it. */
function termsOfWord(word: string): readonly string[] {
  if (UNSPACED_SCRIPT.test(word)) {
    const characters = [...word];
    if (characters.length === 1) return [word];
    const pairs: string[] = [];
    for (let index = 0; index + 1 < characters.length; index++) pairs.push(characters[index]! + characters[index + 1]!);
    return pairs;
  }
  if (isStopWord(word) || (word.length < 2 && !/\d/.test(word))) return [];
  const stemmed = stem(word);
  // A synonym as its group's words are read (PLAIN), else as the word's verb is ("modified" as "modify").
  return [SYNONYM_OF.get(stem(word, PLAIN)) ?? SYNONYM_OF.get(stemmed) ?? stemmed];
}

/**
 * Words already read, with their terms: passages are read again for every question, and most of their words are the
 * same few thousand. Emptied when it holds MAX_WORDS_KEPT.
 */
const TERMS_OF_WORD = new Map<string, readonly string[]>();
const MAX_WORDS_KEPT = 100_000;
/** The longest word kept there. */
const MAX_WORD_KEPT = 32;

/**
 * A question without its question words ("how do I", "what is", "is there a way to"), as
 * typed and in order: what a search engine should match, since pages do not ask.
 *
 * @example
 * contentQuery('How do I read a file line by line?'); // 'read file line'
 */
export function contentQuery(question: string): string {
  const content: string[] = [];
  const tokens = phrasesAsWords(question.normalize('NFKC')).replace(LATIN_ABBREVIATIONS, ' ').split(/\s+/);
  const keywords = typedInCapitals(question) ? [] : keywordsIn(tokens);
  for (const [index, token] of tokens.entries()) {
    // An identifier (`shared_buffers`, `json.dumps`, `__enter__`) is one content word, kept as written; a file named
    // after one (`__init__.py`) too.
    const identifier = /^[^\p{L}\p{N}_]*(_*[\p{L}\p{N}][\p{L}\p{N}_]*(?:\._*[\p{L}\p{N}][\p{L}\p{N}_]*)*)[^\p{L}\p{N}_]*$/u.exec(token)?.[1];
    // A keyword in capitals ("WHERE", "HAVING") too, in capitals: the search reads it as the keyword.
    const keyword = keywords[index];
    // A call of a function named by a stop word (`now()`) too, with its parentheses: the search reads it as that function.
    const call = stopWordCalls(token)[0];
    // An operator (`->>`, `//`), as written: the search reads it as one.
    content.push(...operatorsIn(token));
    if (keyword) content.push(keyword.toUpperCase());
    else if (call) content.push(call);
    else if (identifier && /[\p{L}\p{N}][._]|_[\p{L}\p{N}]/u.test(identifier)) content.push(identifier.toLowerCase());
    else content.push(...words(token).filter((word) => !isStopWord(word) && (word.length > 1 || /\d/.test(word))));
  }
  return [...new Set(content)].join(' ');
}

/** "e.g.", "i.e.": written with dots like an identifier (`os.path`), but no name of anything. */
const LATIN_ABBREVIATIONS = /(?<![\p{L}\p{N}_.])(?:e\.g|i\.e|a\.k\.a|n\.b)\.?(?![\p{L}\p{N}_])/giu;

/** Words naming what kind of entry a bare name is ("age() function?"). */
const ENTRY_KINDS = new Set(['function', 'method', 'class', 'module', 'command', 'option', 'parameter', 'setting', 'keyword', 'statement', 'operator', 'type']);

/** A name right before its parentheses, empty or holding arguments on one line; not a plural's "(s)" ("file(s)", "index(es)"). */
const NAMED_CALL = /(?<![\p{L}\p{N}_./])([A-Za-z_][\w.]*)\((?!(?:s|es|ies)\))(?:|[^()\n]{1,60})\)/gu;

/**
 * The APIs a question names: a call (`zip()`, or `round(2.5)` as the visitor ran it), an identifier (`collections.defaultdict`,
 * `max_connections`, `__slots__`), or the one word a definition question asks about ("What
 * does enumerate do?").
 */
export function namedApis(question: string): string[] {
  const names = new Set<string>();
  for (const match of question.matchAll(NAMED_CALL)) names.add(`${match[1]!.toLowerCase()}()`);
  const content = contentQuery(question).split(' ').filter(Boolean);
  for (const word of content) if (/[\p{L}\p{N}][._]|_[\p{L}\p{N}]/u.test(word) && !names.has(`${word}()`)) names.add(word.replace(/\.$/, ''));
  // A bare name ("unnest", "age() function?") asks what it is; "And on Linux?" asks no name.
  const bare = words(question).every((word) => word === content[0] || ENTRY_KINDS.has(word));
  if (content.length === 1 && bare && /^[\p{L}_][\p{L}\p{N}_.]{2,}$/u.test(content[0]!) && !names.has(`${content[0]!}()`)) names.add(content[0]!);
  // "What does enumerate do?" asks what a callable does.
  if (/^\s*what (?:does|do)\b.*\bdo\W*$/i.test(question) && content.length === 1 && /^[\p{L}_][\p{L}\p{N}_]{2,}$/u.test(content[0]!)) names.add(`${content[0]!}()`);
  return [...names];
}

/**
 * A name `namedApis` read, in the letter case the visitor wrote it: `Breakpoint()` for "Breakpoint(x)" (the class), as
 * `breakpoint()` for "breakpoint()" (the built-in). Found in the question without its parentheses, as a call may hold
 * arguments; a name the question does not hold as written ("What does enumerate do?") is as read.
 */
export function nameAsTyped(name: string, question: string): string {
  if (name.endsWith('()')) {
    // The call namedApis read (NAMED_CALL), not the same letters elsewhere: "Which Log(s) does log(x) write to?" asks for `log()`.
    const bare = name.slice(0, -2);
    const typed = [...question.matchAll(NAMED_CALL)].find((match) => match[1]!.toLowerCase() === bare)?.[1];
    return typed === undefined ? name : `${typed}()`;
  }
  return new RegExp(`(?<![\\p{L}\\p{N}_.])${escapeRegExp(name)}(?![\\p{L}\\p{N}_])`, 'iu').exec(question)?.[0] ?? name;
}

/** The content words of a text as typed (no stems), longest first: what to hand a search engine. */
export function keywords(text: string, max: number): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const word of words(text)) {
    if (isStopWord(word) || word.length < 3 || seen.has(stem(word))) continue;
    seen.add(stem(word));
    result.push(word);
  }
  return result.sort((a, b) => b.length - a.length).slice(0, max);
}

/**
 * The terms of a heading, and of the words of the names it holds: an entry headed
 * `class csv.DictReader(…)` is about a "reader" as well, and `max_connections (integer)` is
 * about the maximum of connections.
 */
export function headingTerms(heading: string): Set<string> {
  const result = new Set(pageTerms(heading));
  const text = heading.normalize('NFKC');
  for (const identifier of text.match(/[\p{L}\p{N}]*\p{Ll}\p{Lu}[\p{L}\p{N}]*/gu) ?? [])
    for (const term of terms(identifier.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2'))) result.add(term);
  for (const identifier of text.match(/\p{L}[\p{L}\p{N}]*(?:_[\p{L}\p{N}]+)+/gu) ?? []) for (const term of terms(identifier.replace(/_/g, ' '))) result.add(term);
  return result;
}

/** A line naming something and saying what it does, a reference page's opening: "CREATE VIEW — define a new view". */
export const NAME_AND_PURPOSE = /^\S.*\s[—–]\s\S/;

/** What a line naming something says it does ("define a new view" of "CREATE VIEW — define a new view"), when it is such a line. */
export function purposeNamed(line: string): string | undefined {
  return /^\S.*?\s[—–]\s(\S.*)$/.exec(line.trim())?.[1];
}

/** Whether a text (plain, or markdown of one line) is only such a line, no sentence: what a reference page opens with before its description. */
export function onlyNamesPurpose(text: string): boolean {
  const line = text.trim();
  return !line.includes('\n') && NAME_AND_PURPOSE.test(line) && !/[.!?:]$/.test(line);
}

/** "How do I …?", "How can I …?": asks to be shown. */
export const HOW_ASKED = /^\s*how\b/i;

/** "How do I …?", "How can we …?", "How to …?": asks how to do something, not "How does … work?" nor "How many …?". */
export const HOW_TO_ASKED = /^\s*how\s+(?:to|(?:do|can|could|should|would|might)\s+(?:i|you|we|one)|do\s+i\s+get\s+to)\b/i;

/**
 * What a question asking how to do something asks to do, as a term: the word right after "How do I …" ("restore" of "how
 * to restore a dump made with pg_dump -Fc"; what follows says to what, and how it came about), past an adverb. None when
 * that word says nothing of its own ("How do I get …", "How can I make …") or is a name.
 */
export function actionAsked(question: string): string | undefined {
  const cue = HOW_TO_ASKED.exec(question);
  if (!cue) return undefined;
  // "How do I quickly restore …" restores; "How do I pg_restore …" names a tool, not a word its examples say.
  const word = words(question.slice(cue.index + cue[0].length)).find((word) => !/ly$/.test(word));
  return word && !/[\d_]/.test(word) ? terms(word)[0] : undefined;
}

/** "What is …?", "What does … do?", "What are …?" ("whats …", typed fast): asks for a definition. */
export const DEFINITION_ASKED = /^\s*(?:what(?:['’]?s| is| are| does| do)\b|define\b|meaning of\b)/i;

/**
 * The terms of what the visitor wants to do without ("… without pip installing anything",
 * "… without restarting the server"): the page that answers need not mention them, and
 * often does not.
 */
export function termsDoneWithout(question: string): Set<string> {
  // Up to where the question goes on: "without downtime in Kubernetes" does without downtime only.
  return new Set([...question.matchAll(/\bwithout\s+((?:(?!(?:and|or|but|in|on|at|for|to|with|from|into|when|while|because|so|if|how|what|why|where|which|who|can|could|do|does|should|would|is|are|i)\b)[^\s,;:?!.]+\s*)+)/gi)].flatMap((match) => terms(match[1]!)));
}

/** A question that asks which setting does something: "Which setting controls …?", "what config option …"; not "What are my options?". */
export const SETTING_ASKED = /\b(?!what\s+(?:are\s+)?(?:my|our|the)\s+options\b|what\s+options\s+(?:do|does|are)\b)(?:which|what)\s+(?:[\w-]+\s+){0,3}(?:settings?|parameters?|options?|flags?|variables?|knobs?)\b/i;

/** A heading that is a setting's entry: a name with its type (`work_mem (integer)`), or a command-line option (`-O`, `--schema-only`, `-f file, --file=file`). */
const SETTING_HEADING = /^(?:[a-z_][\w.]*\s*\((?:integer|boolean|string|enum|floating point|real|int|bool)\)|--?[\w-]+(?:[ =]\S+)?(?:,\s*--?[\w-]+(?:[ =]\S+)?)*)$/;
const ENVIRONMENT_VARIABLE = /^[A-Z][A-Z0-9_]{3,}$/;

/**
 * Whether a section (its heading path, "Memory › work_mem (integer)") is a setting's entry. A name in capitals
 * (`PYTHONOPTIMIZE`) is an environment variable's only under a heading, or on a page, about the environment:
 * `UNLOGGED` among CREATE TABLE's parameters is SQL.
 */
export function isSettingEntry(section: string | undefined, title = ''): boolean {
  const own = ownHeading(section, { withParameters: true });
  return SETTING_HEADING.test(own) || (ENVIRONMENT_VARIABLE.test(own) && /\benviron/i.test(`${parentHeadings(section)} ${title}`));
}

/** The share of a heading's words (numbers aside) that the question asks about: 1 when it names just that. */
export function headingExactness(heading: Set<string>, asked: Iterable<string>): number {
  const words = [...heading].filter((term) => !/^\d+$/.test(term));
  return words.length === 0 ? 0 : share(new Set(words), new Set(asked));
}

/**
 * A heading that is an API entry (`json.loads(s)`, `class csv.DictReader(…)`,
 * `exception dataclasses.FrozenInstanceError`, `shared_buffers (integer)`) rather than a topic.
 */
export function isApiHeading(heading: string): boolean {
  return /^\s*(?:(?:class|exception|classmethod|staticmethod|method|function|attribute)\s+)?[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)+|^\s*[\p{L}_][\p{L}\p{N}_]*(?:_[\p{L}\p{N}]+)+\b|^\s*[\p{L}_][\p{L}\p{N}_.]*\s*\(/u.test(heading);
}

/**
 * A question with the visitor's own name for an object read as the type it names, where a
 * method is called on it: "mylist.sort()" asks about `list.sort()`, "my_dict.get()" about
 * `dict.get()`. A module's name ("mysql.connect()") or a file's ("myfile.txt") is kept.
 */
export function withTypeNames(question: string): string {
  return question.replace(/(?<![\p{L}\p{N}_.])my_?([a-z]{3,})(?=\.[\p{L}_][\p{L}\p{N}_]*\()/gu, (name, type: string) => (TYPE_NAMES.has(type) ? type : name));
}

/**
 * A question as it asks: without a greeting before it ("hi, how do I …") or thanks and pleas
 * after it ("… pls help", "thanks in advance!"), which say nothing about what is asked and
 * would hide a question's opening ("how", "what is") from what reads it; a request put as
 * one as the question it is (asQuestion); with the visitor's own names for values read as
 * their types (withTypeNames); and to stop or keep something from happening read as to
 * prevent it (withPrevent).
 */
export function questionAsked(question: string, subject: readonly string[] = []): string {
  // Long runs of white space as one: each pattern below tries every place in a run.
  let asked = question.replace(/\s{16,}/g, (run) => (run.includes('\n') ? '\n' : ' ')).replace(GREETING, '');
  for (let before = ''; before !== asked; ) {
    before = asked;
    asked = asked.replace(PLEASANTRIES_AFTER, '').replace(OPEN_PLEA_AFTER, '');
  }
  asked = asQuestion(askFirst(asked));
  // A question about releases ("what changed in postgres 16?") asks about that version.
  if (!CHANGES_ASKED.test(asked)) asked = withoutSubject(asked, subject);
  return withPrevent(withTypeNames(asked.trim() ? asked : question));
}

/**
 * A plea that asks nothing of its own after what the visitor said ("… into memory. Any ideas?", "…, thoughts?", "Can anyone
 * help?"), at the end: after a sentence and a space, a line, a comma, a semicolon or a colon, or a dash between spaces; not
 * a word of a name ("editor.suggestions", "python-ideas"). What they said is the question.
 */
const OPEN_PLEA_AFTER =
  /(?:(?<=[?.!])\s+|(?<=^|\n)|\s*[,;:]\s*|\s+[—–-]+\s*)(?:(?:so\s+)?any\s+(?:ideas?|thoughts|suggestions?|tips|pointers|advice)(?:\s+(?:anyone|welcome|appreciated))?|ideas|thoughts|suggestions|(?:can|could)\s+(?:any(?:one|body)|some(?:one|body)|you)\s+help(?:\s+me)?(?:\s+(?:out|here))?|what\s+am\s+i\s+missing)\s*[?!.]*\s*$/i;

/** Words that say the visitor asks within what they tell: "I've been trying to figure out how …", "I was wondering whether …", "I don't get why …"; not "I know how …". */
const ASKED_WITHIN =
  /\b(?:(?:figure|find|work)\s+out|wondering|wonder|not\s+sure|unsure|no\s+idea|(?:don['’]?t|do\s+not|didn['’]?t|can['’]?t|cannot)\s+(?:know|understand|get|see|tell))\s+(?=(?:how|what|why|which|whether|if)\b)/i;
/** A conjunction a clause may open with, going on from what was said before it: "So how do I …?", "and what is …". */
const OPENING_CONJUNCTION = String.raw`(?:and|but|or|so|also)\s+`;
/** A clause opening with words that do not ask: "Can't connect from the host", "What I did was …", "what happens is …". */
const TELLS_THOUGH_OPENING_AS_ASKED = new RegExp(
  String.raw`^\s*(?:${OPENING_CONJUNCTION})?(?:can['’]?t|cannot|what\s+(?:i|we|happens|happened)\b|how\s+(?:i|we)\s+\w+\s+(?:is|was)\b)`,
  'i',
);
/** The conjunction opening an asking clause that goes on from what was told, left out when it is asked first. */
const CONTINUING = new RegExp(String.raw`^\s*${OPENING_CONJUNCTION}`, 'i');
/** The end of a clause: white space and punctuation from where their run starts, so that a long run elsewhere is not scanned again from each of its characters. */
const CLAUSE_TAIL = /(?<![\s?？.!,;:—–-])[\s?？.!,;:—–-]*$/;

/**
 * A question told after what led to it, asked first: "I'm new to python. What is a list comprehension?" asks "What is a
 * list comprehension? I'm new to python.", and "I've been trying for hours to figure out how I can read a file line by
 * line, my code loads the whole file." asks "how can I read a file line by line? …". So what reads how a question opens
 * ("What is …?" asks for a definition, "How …?" for steps) reads what it asks. Only an asking clause that stands on its
 * own: it opens with a question's words (or is asked within a sentence, "wondering what … is"), ends with a question mark
 * unless it is the last clause (not a clause that goes on from a comma, ", which takes hours"), names what it asks about
 * and points back to nothing ("can I store it somewhere?" asks about what was told, which askingClauses then reads whole).
 * A clause that only tells ("random module ok?") is not asked first. A pasted error message, code and a question of many
 * lines are read as they are.
 */
export function askFirst(question: string): string {
  if (errorMessageIn(question) !== undefined || pastesCodeOrLines(question)) return question;
  const clauses = splitClauses(question, { toldAfterComma: true });
  if (clauses.length < 2 && !ASKED_WITHIN.test(question)) return question;
  for (const [index, clause] of clauses.entries()) {
    const opensAsked = OPENS_QUESTION.test(clause) && !TELLS_THOUGH_OPENING_AS_ASKED.test(clause);
    // A question that opens by asking is asked first already, whatever it asks next ("What is …, and how do I …?"); so is
    // one that opens with where it asks ("In psql, how do I …?", isLeadingPhrase).
    if (opensAsked && clauses.slice(0, index).every(isLeadingPhrase)) return question;
    const within = ASKED_WITHIN.exec(clause);
    const opens = opensAsked && (ENDS_ASKING.test(clause) || index === clauses.length - 1);
    const [before, ask] = opens ? ['', clause.replace(CONTINUING, '')] : within ? [clause.slice(0, within.index).trim(), asAsked(clause.slice(within.index + within[0].length))] : ['', ''];
    if (!ask) continue;
    const named = terms(ask).length;
    if (named === 0 || (named < 2 && !DEFINITION_ASKED.test(ask)) || REFERS_BACK.test(ask.replace(CODE_SPAN, ' ')) || ASKS_WHAT_WAS_MISSED.test(ask)) return question;
    // What is left of the sentence it was asked in is told, when it says anything ("I've been trying to"; not "I was").
    const told = [...clauses.slice(0, index), ...(before && terms(before).length > 0 ? [before] : []), ...clauses.slice(index + 1)];
    return [`${ask.replace(CLAUSE_TAIL, '')}?`, ...told.map((clause) => `${clause.replace(CLAUSE_TAIL, '')}${ENDS_ASKING.test(clause) ? '?' : '.'}`)].join(' ');
  }
  return question;
}

/** A question of more lines than this is read as typed: what it pastes (a log, a listing) is not cut into clauses. */
const MAX_LINES_ASKED_FIRST = 3;

/** Whether a question pastes code in fences or more lines than MAX_LINES_ASKED_FIRST (a log, a listing): those are read as typed. */
function pastesCodeOrLines(question: string): boolean {
  return /`{3}|~{3}/.test(question) || (question.match(/\n/g)?.length ?? 0) > MAX_LINES_ASKED_FIRST;
}

/**
 * A question told within a sentence in the order of a statement, in the order it is asked: "what a ledger is" asks "what
 * is a ledger", "how I can read a file" asks "how can I read a file".
 */
function asAsked(told: string): string {
  const end = CLAUSE_TAIL.exec(told)![0];
  const words = told.slice(0, told.length - end.length);
  const what = /^(what|which|who)\s+(.+?)\s+(is|are|was|were|means?|does|do)$/i.exec(words);
  if (what) return `${what[1]} ${what[3]} ${what[2]}${end}`;
  return words.replace(/^(how|why|where|when)\s+(i|we|you|one)\s+(can|could|should|would|do|must)\b/i, '$1 $3 $2') + end;
}

/** A comma before the visitor tells about themselves or their work: ", my code keeps loading …", ", we use …". */
const TOLD_AFTER_COMMA = /,\s+(?=(?:my|our|i|we|i['’]m|i['’]ve|we['’]re|we['’]ve)\s)/i;

/** "stop two bookings from overlapping", "keep users from signing in": what pages say to prevent, not to stop or cancel ("stop copying files from staging"). */
const STOP_FROM = /\b(?:stop|keep)(?!\s+\p{L}+ing\b)(?=(?:\s+(?!from\b)[^\s.?!,;]+){1,6}\s+from\s+\p{L}+ing(?:\s+(?:in|on|at|into|over|with|when|while|after|before|the|a|an|my|our|its|their|each|one|other|another|them|it)\b|\s*(?:$|[.?!,;])))/giu;

function withPrevent(question: string): string {
  return question.replace(STOP_FROM, 'prevent');
}

/** "can you …", "please …": how a request opens. */
const PLEASE = String.raw`(?:(?:can|could|would)\s+(?:you|u)\s+|pls\s+|please\s+)*`;
/** "show me how to …", "can you tell me how I can …": how to do it. */
const SHOW_ME_HOW = new RegExp(String.raw`^\s*${PLEASE}(?:show|tell|teach)\s+me\s+how\s+(?:to|do\s+i|i\s+(?:can|could|do))\s+(?=\S)`, 'i');
/** "I'm trying to …", "I want to …", "I'd like to …": what the visitor wants to do, not what they want to know. */
const WANTS_TO = /^\s*(?:(?:i['’]?m|i\s+am)\s+trying\s+to|i\s*(?:want\s+to|need\s+to|would\s+like\s+to|['’]d\s+like\s+to|wanna))\s+(?!(?:know|understand|ask|learn|see|find\s+out|figure\s+out)\b)(?=\S)/i;
/** "what's the best way to …", "what do I use to …", "which function should I use to …": how to do it. */
const WAY_TO =
  /^\s*(?:what(?:['’]?s|\s+is)\s+(?:the|a|an)\s+(?:(?:best|easiest|simplest|quickest|fastest|right|correct|proper|recommended|preferred|cleanest|standard|usual|good|better|idiomatic|pythonic)\s+)?(?:way|method)\s+to|(?:what|which)(?:\s+(?:function|method|command|tool|module|option|setting|statement|syntax))?\s+(?:do|should|can|could|would)\s+i\s+use\s+to)\s+(?=\S)/i;
/** ", how?" after what the visitor wants to do: asks how; not the end of a word ("somehow"). Its punctuation is matched from where its run starts (as PLEASANTRIES_AFTER's). */
const HOW_AFTER = /(?<![\s,;:—–-])[\s,;:—–-]*(?:but\s+|any\s+idea\s+|no\s+idea\s+)?\bhow\s*[?？]*\s*$/i;
/**
 * "can you explain …", "explain …": what it is, or how or why when that follows. Not
 * PostgreSQL's EXPLAIN: written in capitals (asQuestion), or followed by its options or a statement.
 */
const EXPLAIN = new RegExp(String.raw`^\s*${PLEASE}explain\s+(?!(?:analy[sz]e|verbose|costs|buffers|settings|wal|timing|summary|format|select|insert|update|delete|with|execute|values|output|plan)\b|\()(?:to\s+me\s+)?(?=\S)`, 'i');

/**
 * A request put as one rather than as a question, as the question it is: "show me how to read
 * a file", "I'm trying to read a file, how?", "I want to read a file." and "what's the best way
 * to read a file?" ask "How do I read a file?"; "can you explain decorators" asks "What is
 * decorators", and "explain how imports work" asks "how imports work". So that "show" and
 * "trying" are not asked of the answer, and what reads "how …" and "what is …" reads them.
 */
export function asQuestion(question: string): string {
  if (SHOW_ME_HOW.test(question)) return question.replace(SHOW_ME_HOW, 'How do I ');
  if (WAY_TO.test(question)) return question.replace(WAY_TO, 'How do I ');
  if (WANTS_TO.test(question)) {
    return `How do I ${question.replace(WANTS_TO, '').replace(HOW_AFTER, '')}`;
  }
  if (EXPLAIN.test(question) && !/\bEXPLAIN\b/.test(question)) {
    const rest = question.replace(EXPLAIN, '');
    return /^(?:how|why|what|when|where|which|who)\b/i.test(rest) ? rest : `What is ${rest}`;
  }
  return question;
}

/**
 * A question without the name of what the documentation is about where it only says where the
 * question belongs: "What does zip() do in python?", "how to generate a uuid in postgres 15,
 * …". `subject` holds the names, the organisation's first, then each source's: a word of the
 * organisation's name or of every source's (not one that tells sources apart: "for node" when
 * one is "Node SDK" and another "Python SDK"), or the start of one ("postgres" of
 * "PostgreSQL"), after "in", "with", "using", "for" or "on" at the end of a clause. Elsewhere
 * ("stop Python from writing .pyc files") it is kept.
 */
export function withoutSubject(question: string, subject: readonly string[]): string {
  const wordsOf = (name: string) => new Set(name.toLowerCase().match(/\p{L}{3,}/gu) ?? []);
  const [organisation = '', ...sources] = subject;
  const inEverySource = sources.length === 0 ? [] : [...wordsOf(sources[0]!)].filter((word) => sources.every((source) => wordsOf(source).has(word)));
  const names = new Set([...wordsOf(organisation), ...inEverySource]);
  if (names.size === 0) return question;
  const named = (word: string) => [...names].some((name) => name === word || (word.length >= 5 && name.startsWith(word)));
  return question.replace(SUBJECT_AT_CLAUSE_END, (phrase, word: string) => (named(word.toLowerCase()) ? '' : phrase));
}

const SUBJECT_AT_CLAUSE_END = /\s*\b(?:in|with|using|for|on)\s+(?:the\s+)?(\p{L}+)(?:\s+v?\d+(?:\.\d+)*)?(?=\s*(?:[?.!,;:](?:\s|$)|$))/giu;

const GREETING =
  /^\s*(?:(?:hi|hello|hey|hiya|howdy|greetings|good\s+(?:morning|afternoon|evening)|hallo|guten\s+tag|bonjour|salut|hola|buenos\s+d[ií]as|ciao|ol[aá]|ok(?:ay)?|so|quick\s+(?:question|q|one))(?:\s+(?:there|all|everyone|folks|team))?(?:\s*[,.!:;]+\s*|\s+[—–-]+\s*|\s+(?=(?:how|what|why|which|where|when|who|can|could|should|is|are|do|does|i|my|so|ok)\b)))+/i;
/** Thanks, in the widget languages. */
const THANKS = String.raw`(?:(?:many\s+)?(?:thanks|thank\s+you)(?:\s+(?:a\s+lot|so\s+much))?(?:\s+in\s+advance)?|thx|cheers|danke(?:\s+sch[öo]n)?|merci(?:\s+beaucoup)?|gracias|grazie|obrigad[oa])`;
/**
 * Pleas and thanks at the end: thanks after a sentence, a comma or a line, or before an exclamation mark ("… does not exist thanks!", not
 * "say thank you!"). The punctuation before a plea is matched from where its run starts, not again from each of its characters: a long run
 * of commas and dashes is read once, not once per character.
 */
const PLEASANTRIES_AFTER = new RegExp(
  String.raw`(?:(?<![\s,.;:!—–-])[\s,.;:!—–-]*(?:(?:pls|plz|please)\s+help(?:\s+me)?|help\s+(?:me|pls|plz|please)|any\s+help(?:\s+(?:is\s+)?(?:much\s+)?appreciated)?|pls|plz|please)|(?<=[?.!,;]|^|\n)\s*${THANKS}|(?<!\b(?:say|said|saying|a|an|the|add|send|write|my|our|your))\s${THANKS}(?=\s*!))[\s.!,;]*$`,
  'i',
);

/** What a visitor's own name for a value says it is ("mylist", "my_dict"): a module's name ("mysql") says nothing of the kind. */
const TYPE_NAMES = new Set('list dict set tuple str string bytes array map object obj file dataframe frame queue deque counter socket connection conn session client cursor iterator generator thread process lock event task future logger parser table view index'.split(' '));

/** The severities a server's or a tool's message opens with. */
const SEVERITIES = 'ERROR|FATAL|PANIC|WARNING|error|fatal';
/** A line holding an error message: its label (an exception's name, or a severity), then the message. */
const ERROR_LINE = new RegExp(String.raw`(?:^|[\s"'(])([A-Z]\w*(?:Error|Exception|Warning)|${SEVERITIES})[ \t]*:[ \t]*(.+)$`, 'gmu');
/** A severity as a label, before a colon ("FATAL:"), not as a word of a sentence ("What does FATAL mean?"). */
const SEVERITY_LABEL = new RegExp(String.raw`(?<![\p{L}\p{N}_])(?:${SEVERITIES})(?=[ \t]*:)`, 'gu');

/**
 * A line of PostgreSQL's server log at a level that is no error ("LOG:  checkpoints are occurring too frequently"): as the
 * server writes it, at the start of a line after the line's own prefix (a time, a process id) and with two spaces after
 * the colon. "The LOG: prefix" in a sentence, or Python's "INFO:root:…", is no such line.
 */
const LOG_LINE = /^(?:[\d\-/:.T ,+]+(?:[A-Z]{2,5} +)?)?(?:\[[\d\-]+\]:? *)?(LOG|INFO|NOTICE):[ \t]{2}(.+)$/gmu;

/**
 * The last line of a question holding an error message: a traceback ends with its error, and what the visitor writes on
 * the lines after is not in it; failing one, the last line of the server's log pasted.
 */
function lastErrorLine(question: string): RegExpMatchArray | undefined {
  const trimmed = question.trim();
  return [...trimmed.matchAll(ERROR_LINE)].at(-1) ?? [...trimmed.matchAll(LOG_LINE)].at(-1);
}

/**
 * The severities a pasted error message is labelled with ("ERROR:", "FATAL:", a tool's "error:" before the server's
 * "FATAL:", a log line's "LOG:"), as terms: the kind of message, which every page showing one says, not what it is
 * about. Not a word the question also says otherwise ("What does FATAL mean?", "ERROR: syntax error at …"), nor an
 * exception's name ("TypeError").
 */
function severitiesOf(question: string): Set<string> {
  if (errorMessageIn(question) === undefined) return new Set();
  const written = [...[...question.matchAll(SEVERITY_LABEL)].map((label) => label[0]), ...[...question.matchAll(LOG_LINE)].map((line) => line[1]!)];
  const labels = written.map((label) => terms(label)[0]!);
  const said = terms(question);
  return new Set(labels.filter((term) => said.filter((other) => other === term).length === labels.filter((other) => other === term).length));
}

/**
 * The error message a visitor pasted into a question ("I get ERROR: value too long for type
 * character varying(5)", "TypeError: unhashable type: 'list'"), without its label: the words
 * a page that explains it quotes. Undefined when the question quotes none.
 */
export function errorMessageIn(question: string): string | undefined {
  // Without what the visitor says about it: "… when I …", "… -- happens every time I restart", "…  (running a long report)".
  const message = lastErrorLine(question)?.[2]
    ?.replace(/\s+(?:when|after|while|if|because)\s+I\b.*$/i, '')
    .replace(/\s+(?:-{2,}|[—–])\s.*$|\s{2,}\(.*$/, '')
    .trim();
  return message && message.length >= 8 ? message : undefined;
}

/** The word a question opens with, lowercased ("What's …" opens with "what", "Doesn't …" with "does"), after a heading's number. */
const QUESTION_OPENING = new RegExp(
  String.raw`^\s*(?:(?:\d+(?:\.\d+)*[.)]?|Q:)\s+)?(?:${OPENING_CONJUNCTION})?(how|what|why|when|where|which|who|can|could|should|is|are|do|does)(?:n['’]t|['’]s)?\b`,
  'i',
);

/**
 * Whether a heading asks what a question asks as it does (a FAQ entry's "Why must dictionary
 * keys be immutable?" for "Why can't I use a list as a dictionary key?"): it opens with the
 * same question word and ends with a question mark, a note in parentheses aside.
 */
export function headingAsksAs(heading: string, question: string): boolean {
  const word = QUESTION_OPENING.exec(question)?.[1]?.toLowerCase();
  return word !== undefined && QUESTION_OPENING.exec(heading)?.[1]?.toLowerCase() === word && /[?？]\s*(?:\((?:[^()]|\([^()]*\))*\)\s*)?$/.test(heading);
}

/**
 * Whether a heading that asks as the question does (headingAsksAs) also opens with its words, in their order, two of them
 * or more no stop words: "Why does Python use indentation for grouping of statements?" is the FAQ's own entry for "why
 * does python use indentation instead of curly braces"; "How do I make an executable …?" is not for "how do I make a
 * thread stop?".
 */
export function headingOpensAs(heading: string, question: string): boolean {
  if (!headingAsksAs(heading, question)) return false;
  const headingWords = words(heading);
  const questionWords = words(question);
  let shared = 0;
  while (shared < headingWords.length && shared < questionWords.length && headingWords[shared] === questionWords[shared]) shared++;
  // Not where the question goes on naming the same thing ("the difference between a list comprehension and map" is not
  // "… between a list and a tuple?"): what follows in the question is a word of another phrase ("instead of …"), or nothing.
  const next = questionWords[shared];
  return headingWords.slice(0, shared).filter((word) => !isStopWord(word)).length >= OPENING_CONTENT_WORDS && (next === undefined || isStopWord(next) || PHRASE_OPENING.test(next));
}
const OPENING_CONTENT_WORDS = 2;
/** Words that open a phrase of their own though not stop words: "instead of", "rather than", "unlike", "compared to". */
const PHRASE_OPENING = /^(?:instead|rather|unlike|compared|except|besides|whereas)$/;

/** A clause that opens with the words of a question: "how do I …", "can I …", "and what is …". */
const OPENS_QUESTION = new RegExp(String.raw`^\s*(?:${OPENING_CONJUNCTION})?(?:how|what|why|which|who|can|could|should|is|are|do|does)\b`, 'i');
/** A clause that ends asking: with a question mark. */
const ENDS_ASKING = /[?？]\s*$/;
/** A clause that asks rather than tells: it opens with a question's words (OPENS_QUESTION) or ends with a question mark. */
const ASKS = new RegExp(`${OPENS_QUESTION.source}|${ENDS_ASKING.source}`, 'i');
/** Where a clause ends: after a sentence (not after "e.g.") or a line, or at a comma before a question ("…, how do I …"). */
const CLAUSE_END = /(?<=(?<!\b(?:e\.g|i\.e|etc|vs|cf))[.!?？;])\s+|\n+|,\s*(?:(?:and|but|or|so)\s+)?(?=(?:how|what|why|which|who|can|could|should)\b)/i;
/** How much of a question is read for clauses: as much as a search reads. */
const CLAUSES_READ = 1000;

/**
 * The clauses of a question told in several ("my worker prints show up late in the docker logs
 * when there is no terminal. how do I make the output unbuffered?"), as the content words to look
 * up on their own: at most `max`, those that ask first. A clause that only tells needs two content
 * words. Code in backticks and a pasted error message are looked up on their own, so they are
 * neither split nor clauses.
 */
export function questionClauses(question: string, max: number): string[] {
  const clauses = clausesOf(question).filter(({ content, asks }) => (asks ? content !== '' : content.includes(' ')));
  if (clauses.length < 2) return [];
  return clauses
    .sort((a, b) => Number(b.asks) - Number(a.asks))
    .slice(0, max)
    .map(({ content }) => content);
}

/** A question's clauses, as written and as content words, with whether each asks (questionClauses). */
function clausesOf(question: string): { text: string; content: string; asks: boolean }[] {
  let text = question.slice(0, CLAUSES_READ);
  const error = errorMessageIn(text);
  if (error) text = text.replace(error, '\n');
  return splitClauses(text).map((clause) => ({ text: clause, content: contentQuery(clause.replace(CODE_SPAN, ' ')), asks: ASKS.test(clause) }));
}

/** Inline code, which clauses are not cut within and whose words are not looked up with theirs. */
const CODE_SPAN = /`[^`\n]*`/g;

/**
 * A question's clauses as written, code kept whole (codeMasked while the clauses are
 * cut); with `toldAfterComma`, also after a comma where the visitor goes on to tell about themselves (askFirst).
 */
function splitClauses(text: string, options: { toldAfterComma?: boolean } = {}): string[] {
  const { masked, restore } = codeMasked(text);
  const clauses = masked.split(CLAUSE_END);
  return (options.toldAfterComma ? clauses.flatMap((clause) => clause.split(TOLD_AFTER_COMMA)) : clauses).map((clause) => restore(clause).trim()).filter(Boolean);
}

/** A text with its code in backticks standing as \0 and its number, so that what reads the rest leaves it whole, and `restore` to put it back. */
function codeMasked(text: string): { masked: string; restore: (part: string) => string } {
  const code: string[] = [];
  const masked = text.replace(CODE_SPAN, (span) => `\0${code.push(span) - 1}\0`);
  return { masked, restore: (part) => part.replace(/\0(\d+)\0/g, (_, index: string) => code[Number(index)]!) };
}

/**
 * What a question told in clauses asks, when it also tells ("How do I read a file line by line?
 * I tried the docs but got lost."): its asking clauses. What it tells says which answer fits
 * better, but an answer need not repeat it. Undefined when every clause asks, or none does, and
 * when what it tells comes first and holds most of its words ("psql keeps asking me for a
 * password every time. can I store it somewhere?"; a question that stands on its own is asked
 * first by then, askFirst) or what asks is short and points to it
 * ("How do I fix this? …"): then that is what the question is about. A pasted error message
 * with lines written after it asks, and those lines tell.
 */
export function askingClauses(question: string): string | undefined {
  // A pasted error message with lines written after it asks what it means (clausesOf leaves it out); they tell.
  const pasted = errorMessageIn(question);
  const error = pasted !== undefined && question.slice(question.indexOf(pasted) + pasted.length).includes('\n') ? pasted : undefined;
  // Not what is left of the error's line before it ("I get ERROR:").
  const clauses = clausesOf(question).filter(({ text }) => terms(text).length > 0 && !(error && /:$/.test(text)));
  // "After an INSERT, how do I get back the new id?": a short phrase before the question says where what it asks is, not
  // what the visitor did; it asks with it.
  clauses.forEach((clause, index) => {
    if (!clause.asks && clauses[index + 1]?.asks && isLeadingPhrase(clause.text)) clause.asks = true;
  });
  const asking = [...(error ? [error] : []), ...clauses.filter(({ asks }) => asks).map((clause) => clause.text)];
  if (asking.length === 0 || asking.length === clauses.length + (error ? 1 : 0)) return undefined;
  const text = asking.join(' ');
  const askedTerms = terms(text).length;
  // A short asking clause ("How do I fix this?", "What am I doing wrong?") asks about what the question tells.
  if (askedTerms < 2 && (REFERS_BACK.test(text.replace(CODE_SPAN, ' ')) || (!error && !DEFINITION_ASKED.test(text)))) return undefined;
  // "What setting am I missing? …": what the visitor missed is in what they tell.
  if (!error && ASKS_WHAT_WAS_MISSED.test(text)) return undefined;
  return error || clauses[0]!.asks || 2 * askedTerms >= terms(question).length ? text : undefined;
}

/**
 * A phrase that opens with a preposition and has no one doing anything in it: "After an INSERT", "In psql", "On Windows";
 * not a word of the visitor's talk ("For example", "In general", "On the other hand") nor what they did ("After upgrading").
 */
const LEADING_PHRASE =
  /^(?!(?:after|before)\s+\p{L}+ing\b)(?:after|before|in|on|from|with|inside|within|during|for|using|via|without|across|between)\b(?!\s+(?:example|instance|general|short|fact|particular|practice|addition|theory|any\s+case|the\s+other\s+hand|the\s+meantime|my\s+case)\b)(?!.*\b(?:i|i'm|we|my|our|you|your|it|they|he|she)\b)/iu;
const LEADING_PHRASE_WORDS = 5;
const isLeadingPhrase = (clause: string) => LEADING_PHRASE.test(clause) && words(clause).length <= LEADING_PHRASE_WORDS;

/**
 * What a question asks and what it only tells (askingClauses), as terms: an answer must hold
 * what it asks, and what it only tells weighs as the conversation does. `asking` is the
 * clauses that ask, when the question also tells.
 */
export function askedAndTold(typed: string): { asking?: string; asked: string[]; told: string[] } {
  const question = withoutNamesOfOwn(typed);
  const clauses = askingClauses(question);
  // "… to a different timezone like Europe/Berlin": the example says which one, the pages show their own.
  const exampleAside = withoutExample(clauses ?? question) ?? clauses;
  // "What is a publication in logical replication?" asks what a publication is: where, the answer's page says by itself.
  const asking = withoutPlace(exampleAside ?? question) ?? exampleAside;
  const said = asking ?? question;
  // An aside in parentheses ("a csv export from excel (first line is the column names) …") tells what the visitor has.
  const read = withoutAsides(said);
  // Not the severities a pasted error is labelled with ("FATAL: role … does not exist" is not about fatal errors): they tell.
  const severities = severitiesOf(question);
  const asked = [...new Set(terms(inPagesWords(read) ?? read))].filter((term) => !severities.has(term));
  // The names only tell, as the rest of a question told beside what it asks: a page that shows the same message with them helps.
  const told = [...(asking || read !== said ? terms(question) : []), ...(question === typed ? [] : terms(typed)), ...severities];
  return { asking, asked, told: [...new Set(told)].filter((term) => !asked.includes(term)) };
}

/**
 * A question without its asides in parentheses (isAside: "… from excel (first line is the column names) …"), outside a
 * pasted error message; as typed when it pastes lines or code, or when nothing else names anything.
 */
function withoutAsides(question: string): string {
  // Pasted code, lines or a traceback are read as typed ("Traceback (most recent call last):").
  const message = errorMessageIn(question);
  if (pastesCodeOrLines(question) || (message !== undefined && question.includes('\n'))) return question;
  const at = message === undefined ? -1 : question.lastIndexOf(message);
  // Code in backticks is not read for asides, nor is an aside holding some ("(see `status`)").
  const without = (text: string) => {
    const { masked, restore } = codeMasked(text);
    return restore(masked.replace(ASIDE_IN_QUESTION, (aside, inner: string) => (isAside(inner) ? ' ' : aside)));
  };
  // A pasted message is kept whole: "(9 seconds apart)" is the server's.
  const rest = at === -1 ? without(question) : without(question.slice(0, at)) + message + without(question.slice(at + message!.length));
  return terms(rest).length > 0 ? rest : question;
}

/** An aside in parentheses after a space, without code in it: not a call's arguments ("f(a, b)") nor `(integer)` in backticks. */
const ASIDE_IN_QUESTION = /(?<=\s)\(([^()`=<>{}\[\];\0]*)\)/g;

/**
 * What is in parentheses, read as an aside: a phrase of three words or more, one of them a stop word ("first line is the
 * column names"), no list ("payer, payee, amount"), no SQL ("id serial primary key"), nor what the visitor wants of the
 * answer ("without any downtime", "including the column headers", "… ok?").
 */
function isAside(inner: string): boolean {
  const said = words(inner);
  return said.length >= 3 && !inner.includes(',') && !/\?\s*$/.test(inner) && said.some((word) => isStopWord(word)) && !WANTED_IN_ASIDE.test(inner);
}
const WANTED_IN_ASIDE = /^\s*(?:without|with|including|excluding|except|not|and|or|but|ideally|preferably|only|just)\b/i;

/**
 * A question without the names a pasted error message quotes in double quotes, the visitor's own (`database "test" is
 * being accessed by other users`, `relation "orders" does not exist`): no page says them, and where one does ("The first
 * test …") it is about something else. The message's words around them are what the pages explain. Only names within
 * the message, one word each; a keyword in capitals (`syntax error at or near "RETURNING"`) is what it is about.
 */
function withoutNamesOfOwn(question: string): string {
  const message = errorMessageIn(question);
  const at = message === undefined ? -1 : question.lastIndexOf(message);
  if (at === -1) return question;
  const names = message!.replace(/["“]([^"“”\s]{1,63})["”]/g, (quoted, name: string) => (/^[A-Z][A-Z_]*$/.test(name) ? quoted : ' '));
  return question.slice(0, at) + names + question.slice(at + message!.length);
}

/** An example closing what a question asks: "like Europe/Berlin", "such as pg_trgm", "e.g. `[[0] * 3] * 3`". */
const EXAMPLE_AT_END = /(?<!\b(?:would|'d|look|looks|looked|feel|feels|something|anything))(?:\s*,)?\s+(?:[Ll]ike|[Ss]uch as|e\.\s?g\.,?|[Ff]or example,?|[Ff]or instance,?)\s+(?!to\b|this\b|that\b|these\b|those\b|it\b)(?:[^,;!?()]|\([^()]*\))+[?!.]*\s*$/;

/**
 * What a question asks without the example it ends with ("convert a datetime to a different
 * timezone like Europe/Berlin" asks how to convert a datetime to another timezone), when the
 * rest still names two things; undefined when it ends with none.
 */
export function withoutExample(asking: string): string | undefined {
  const example = EXAMPLE_AT_END.exec(asking);
  if (!example) return undefined;
  const rest = asking.slice(0, example.index);
  return terms(rest).length >= 2 ? rest : undefined;
}

/**
 * A question asking what a thing is, named with its article in three words at most, then where ("What is a publication
 * in logical replication?", "what does the slash mean in a function signature"), in five words at most. Not "What is
 * stored in pg_control?" nor "What's new in PostgreSQL 16?", which name no thing, nor a relative clause ("the order in
 * which …"), a place of two things ("in Python and a tuple"), a pronoun ("in it") or a turn of phrase ("in general").
 */
const THING_IN_PLACE =
  /^(\s*what(?:['’]s|\s+is|\s+are)\s+(?:an?|the)(?:\s+[^\s,;!?]+){1,3}|\s*what\s+(?:does|do)\s+(?:an?|the)(?:\s+[^\s,;!?]+){1,3}\s+mean)\s+(?:in|within|inside)\s+(?!(?:it|them|this|that|these|those|there|here|which|whom|where|what)\b)(?!(?:the\s+)?(?:same|first|last|end|order|terms|general|short|particular|practice)\b)(?![^?!]*\b(?:and|or|vs|versus|between)\b)(?:[^\s,;!?]+\s*){1,5}[?!.]*\s*$/i;

/**
 * What a question asks without the place it ends by naming (THING_IN_PLACE: "What is a publication in logical
 * replication?" asks what a publication is); undefined when it names none.
 */
function withoutPlace(asking: string): string | undefined {
  return THING_IN_PLACE.exec(asking)?.[1];
}

/**
 * An asking clause about what the visitor told they did: "what setting am I missing?", "which step did I forget?", "what
 * have we done wrong?" ("… from my laptop I get connection refused on 5432. what setting am I missing?" asks about the
 * refused connection, not about settings and missing things).
 */
const ASKS_WHAT_WAS_MISSED = /\b(?:(?:am|are)\s+(?:i|we)\s+(?:missing|overlooking|forgetting|doing\s+wrong)|(?:did|have)\s+(?:i|we)\s+(?:miss(?:ed)?|forg[eo]t(?:ten)?|overlook(?:ed)?|done\s+wrong))\b/i;

/**
 * Words that point to something said elsewhere: an asking clause holding one asks about what the question tells. "Which
 * one", "the one", "each one", "either", "neither", "both", "the former" and "the latter" point to one of the things it
 * told ("I have Python 3.9 and 3.11 installed, how do I choose which one runs?"); not "both read and write", "either odd or
 * even", which name their own.
 */
const REFERS_BACK = /\b(?:this|that|these|those|it|its|them|they|there|former|latter|(?:which|the|each)\s+ones?|(?:either|neither|both)\b(?!\s+\S+(?:\s+\S+)?\s+(?:or|nor|and)\b))\b/i;

/**
 * The longest stretch of an error message without the names it was raised for: pages show the
 * message with their own example names (`role "joe"`), so `does not exist` is what they share.
 */
export function errorStretch(message: string): string {
  return message
    .toLowerCase()
    .split(/["'“”‘’«»][^"'“”‘’«»]*["'“”‘’«»]/)
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .reduce((longest, part) => (part.length > longest.length ? part : longest), '');
}

/** The fewest words of a half of an error message that shows it (errorStretches). */
const MIN_HALF_WORDS = 4;

/**
 * The stretches of an error message a page that shows it holds whatever names were in it:
 * the longest stretch between quoted names and, when that is long, its two halves, since a
 * name may stand unquoted in it ("cannot drop table customers because other objects depend
 * on it" is shown as "cannot drop table products because …").
 */
export function errorStretches(message: string): string[] {
  const longest = errorStretch(message);
  const parts = longest.split(' ');
  if (parts.length < 6) return [longest];
  const middle = Math.ceil(parts.length / 2);
  // A short half names what the message is about, not the message ("a read-only transaction" of "cannot execute INSERT in
  // a read-only transaction"): a page saying it may be about anything done in one. Nor is a half of stop words only.
  return [longest, ...[parts.slice(0, middle), parts.slice(middle)].filter((half) => half.length >= MIN_HALF_WORDS).map((half) => half.join(' ')).filter((half) => terms(half).length > 0)];
}

/** Whether a text shows one of an error message's stretches (errorStretches): where a page quotes the message. */
export function showsErrorStretch(text: string, stretches: readonly string[]): boolean {
  const folded = text.toLowerCase().replace(/\s+/g, ' ');
  // A message pasted with a full stop after it is shown by a page that prints it without one.
  return stretches.some((stretch) => folded.includes(stretch.replace(/[.!]+$/, '')));
}

/** The share of `wanted` found in `have` (0 when nothing is wanted). */
export function share(wanted: Set<string>, have: Set<string>): number {
  if (wanted.size === 0) return 0;
  let found = 0;
  for (const term of wanted) if (have.has(term)) found++;
  return found / wanted.size;
}

/** Heading words that name no topic ("Introduction", "Overview"): nobody asks about them, and they narrow nothing. */
const GENERIC_HEADING_TERMS = new Set(['introduction', 'overview', 'description', 'basics', 'general', 'summary', 'details', 'usage'].map((word) => terms(word)[0]!));

/** Whether code calls a name: `TemporaryDirectory(`, `tempfile.TemporaryDirectory(`. */
export function calls(code: string, name: string): boolean {
  return new RegExp(`(?<![\\w])${escapeRegExp(name)}\\(`).test(code);
}

/** The name a section's heading, an API entry's, gives what it documents, when it is called: "TemporaryDirectory" for `class tempfile.TemporaryDirectory(suffix=None, …)`. */
export function calledEntry(path: string | undefined): string | undefined {
  return calledEntryParts(path)?.name;
}

/** An API entry's heading that is called, in parts: `class `, `tempfile.` and `TemporaryDirectory` of `class tempfile.TemporaryDirectory(suffix=None, …)`. */
export function calledEntryParts(path: string | undefined): { kind: string; module: string; name: string } | undefined {
  const match = /^((?:class |exception |@)?)((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)\(/.exec(ownHeading(path, { withParameters: true }).trim());
  return match ? { kind: match[1]!, module: match[2]!, name: match[3]! } : undefined;
}

/** Whether a heading names no topic, only the part of a page it is ("Description", "Introduction", "Overview"). */
export function namesNoTopic(heading: string): boolean {
  const headingTerms = terms(heading);
  return headingTerms.length > 0 && headingTerms.every((term) => GENERIC_HEADING_TERMS.has(term));
}

/**
 * How much of a section's heading names things nobody asked about: "Windows" under
 * "Installing" answers "how do I install?" only for Windows users.
 */
export function unaskedHeadingShare(heading: string | undefined, askedAbout: Set<string>, options: { numbersAside?: boolean } = {}): number {
  // An entry's parameters (`zip(*iterables, strict=False)`) are not what it is about; nor, when asked to be set aside, its section's number.
  const headingTerms = new Set(terms((heading ?? '').replace(/\([^()]*\)/g, ' ')).filter((term) => !GENERIC_HEADING_TERMS.has(term) && !(options.numbersAside && /^\d+$/.test(term))));
  if (headingTerms.size === 0) return 0;
  return 1 - share(headingTerms, askedAbout);
}

/**
 * The last heading of a section's path ("Install › Linux" → "Linux"). An API entry's
 * parameter list is dropped unless asked for: `showwarning(message, category, filename,
 * lineno, file=None, line=None)` is about warnings, not about files or lines.
 */
export function ownHeading(path: string | undefined, options: { withParameters?: boolean } = {}): string {
  const heading = path?.split(PATH_SEPARATOR).at(-1) ?? '';
  return options.withParameters ? heading : heading.replace(/\([^()]*\)/g, ' ');
}

/** What heads a section as an entry: its own heading with its parameters, or its page's title for the page's opening. */
export function entryHeadingOf(section: { section?: string; title: string }): string {
  return ownHeading(section.section, { withParameters: true }) || section.title;
}

/** The headings above a section's own ("Install › Linux" → "Install"), joined by spaces. */
export function parentHeadings(path: string | undefined): string {
  return (path ?? '').split(PATH_SEPARATOR).slice(0, -1).join(' ');
}

/**
 * What the question's abbreviations stand for, where the texts define them: "Write-Ahead
 * Logging (WAL)", "TOAST (The Oversized-Attribute Storage Technique)", "(Multiversion
 * Concurrency Control, MVCC)", "GIN stands for Generalized Inverted Index", a list of
 * acronyms' "CTE: Common Table Expression" (or the long form as a line of its own under the
 * abbreviation). A long form counts only when the abbreviation's letters are found in it in
 * order, the first at the start of its first word (Schwartz and Hearst's test), so "the index
 * (GIN)" defines nothing. A heading whose words' initials spell the abbreviation ("method
 * resolution order") defines it too, when the question or a text writes it in capitals. The
 * first definition found is kept, by the abbreviation's term; a plural ("CTEs") is read as its
 * singular. At most `MAX_ABBREVIATIONS` of the question's words are looked up.
 */
export function abbreviationsDefined(question: string, texts: string[], headings: string[] = []): Map<string, string> {
  const found = new Map<string, string>();
  const asked = [...new Set(words(question).filter((word) => /^[a-z][a-z0-9]{1,7}$/.test(word) && terms(word).length > 0))];
  for (const word of asked.slice(0, MAX_ABBREVIATIONS)) {
    const short = abbreviationOf(word);
    const letters = short.toLowerCase();
    const term = terms(word)[0]!;
    for (const text of texts) {
      const long = spelledOutIn(text, short);
      if (long) {
        found.set(term, long);
        break;
      }
    }
    if (found.has(term) || letters.length < 3) continue;
    // A heading of as many words as the abbreviation has letters, each starting with its letter: "method resolution order".
    const capitals = new RegExp(`(?<![\\p{L}\\p{N}_])${short}s?(?![\\p{L}\\p{N}_])`, 'u');
    const spelled = headings.find((heading) => initials(heading) === letters);
    if (spelled && [question, ...texts].some((text) => capitals.test(text))) found.set(term, spelled.trim());
  }
  return found;
}

/** The long form a text spells out for an abbreviation (`short`, in capitals) itself, beside it: not a heading's initials. */
export function spelledOutIn(text: string, short: string): string | undefined {
  if (!text.includes(short)) return undefined;
  for (const { candidate, before } of definitionCandidates(text, short)) {
    const long = longForm(short.toLowerCase(), candidate.replace(/[`*_]/g, ' '), before);
    if (long) return long;
  }
  return undefined;
}

/** An abbreviation as a question may write it ("cte", "CTEs"), in capitals and singular: "CTE". */
export function abbreviationOf(word: string): string {
  return (word.length > 3 && /s$/i.test(word) ? word.slice(0, -1) : word).toUpperCase();
}

/** What the question's abbreviations stand for, where the sections (their headings and texts) define them. */
export function abbreviationsIn(question: string, sections: { title: string; section?: string; text: string }[]): Map<string, string> {
  return abbreviationsDefined(question, sections.map(definingText), sections.map(({ title, section }) => ownHeading(section) || title));
}

/** A section's title, headings and text, read for the abbreviations they define: blank lines apart, so a heading is never read over the first line of the text. */
export function definingText({ title, section, text }: { title: string; section?: string; text: string }): string {
  return `${title}\n\n${section ?? ''}\n\n${text}`;
}

/** The most words of a question looked up as abbreviations (each found one is searched for once more). */
const MAX_ABBREVIATIONS = 3;

const initials = (heading: string) => {
  const parts = heading.trim().toLowerCase().split(/[\s-]+/);
  return parts.length >= 2 && parts.every((part) => /^\p{L}/u.test(part)) ? parts.map((part) => part[0]).join('') : '';
};

/**
 * Where a text may spell out an abbreviation: the words before "(WAL)" (back to the sentence's
 * or parenthesis's start), those in "(Multiversion Concurrency Control, MVCC)", those in
 * "TOAST (…)", the line under or after "CTE:" in a list of acronyms, and what "GIN stands
 * for". Each place is found from the abbreviation itself, so a long text costs one pass.
 */
function* definitionCandidates(text: string, short: string): Generator<{ candidate: string; before: boolean }> {
  for (const match of text.matchAll(new RegExp(`\\(${short}s?\\)`, 'g'))) {
    yield { candidate: text.slice(Math.max(0, match.index - 160), match.index).split(/[.;:!?()\n]/).at(-1)!, before: true };
  }
  for (const match of text.matchAll(new RegExp(`,\\s*${short}s?\\)`, 'g'))) {
    const preceding = text.slice(Math.max(0, match.index - 120), match.index);
    const inside = preceding.slice(preceding.lastIndexOf('(') + 1);
    if (preceding.includes('(') && !/[(),\n]/.test(inside)) yield { candidate: inside, before: true };
  }
  const after = [
    new RegExp(`(?<![\\w-])${short}s? \\(([^()\\n]{3,120})\\)`, 'g'),
    new RegExp(`(?:^|\\n)[*_\`]*${short}[*_\`]*(?:[ \\t]*\\n[ \\t]*:?|[ \\t]*:)[ \\t]*([^\\n]{3,120})`, 'g'),
    new RegExp(`(?<![\\w-])${short} stands for ([^.;\\n]{3,120})`, 'g'),
  ];
  for (const pattern of after) for (const match of text.matchAll(pattern)) yield { candidate: match[1]!, before: false };
}

/**
 * The words of `candidate` an abbreviation stands for: its letters found in order, the first
 * at a word's start, in no more words than it has letters and two. When the candidate comes
 * before the abbreviation ("… Write-Ahead Logging (WAL)") the long form is the shortest end of
 * it that holds them; when it comes after ("TOAST (The Oversized-Attribute Storage Technique)")
 * it is the shortest start of its first clause that does and ends with a word starting with the
 * last letter, else that whole clause if it is short enough.
 */
function longForm(short: string, candidate: string, before: boolean): string | undefined {
  const letters = short.toLowerCase();
  const text = candidate.trim().replace(/\s+/g, ' ');
  if (before) {
    const start = lettersStart(text, letters);
    const long = start === undefined ? undefined : text.slice(start);
    return long && fits(long, letters) ? long : undefined;
  }
  const clause = text.split(/[,;:]|\s[-–—]\s/)[0]!.trim().split(' ');
  for (let count = 2; count <= Math.min(clause.length, letters.length + 2); count++) {
    const long = clause.slice(0, count).join(' ');
    if (clause[count - 1]![0]?.toLowerCase() === letters.at(-1) && lettersStart(long, letters) === 0) return fits(long, letters) ? long : undefined;
  }
  // Else the whole clause, when it is no longer than a long form can be ("Generalized Inverted Index").
  const long = clause.join(' ');
  return lettersStart(long, letters) === 0 && fits(long, letters) ? long : undefined;
}

/** Where, reading `text` backwards, the last of `letters` found in order is: the first letter at a word's start. */
function lettersStart(text: string, letters: string): number | undefined {
  const isWordCharacter = (character: string | undefined) => character !== undefined && /[\p{L}\p{N}]/u.test(character);
  let at = text.length - 1;
  for (let index = letters.length - 1; index >= 0; index--) {
    while (at >= 0 && (text[at]!.toLowerCase() !== letters[index] || (index === 0 && isWordCharacter(text[at - 1])))) at--;
    if (at < 0) return undefined;
    if (index > 0) at--;
  }
  return at;
}

/** A long form of at least two words and no more than the abbreviation's letters and two. */
function fits(long: string, letters: string): boolean {
  const count = long.split(/[\s-]+/).filter(Boolean).length;
  return count >= 2 && count <= letters.length + 2 && !long.toLowerCase().split(/\s+/).includes(letters);
}

/**
 * Term sets in which a long form the question's abbreviation stands for holds the abbreviation
 * instead ("write ahead log" → "wal"): said either way, it is the same thing, counted once.
 * Terms the question asks for itself are kept.
 */
export function abbreviating(abbreviations: Map<string, string>, asked: Iterable<string>): (have: Set<string>) => Set<string> {
  const kept = new Set(asked);
  const forms = [...abbreviations].map(([short, long]) => ({ short, long: [...new Set(terms(long))] })).filter((form) => form.long.length > 0);
  return (have) => {
    let result = have;
    for (const { short, long } of forms) {
      if (!long.every((term) => have.has(term))) continue;
      if (result === have) result = new Set(have);
      for (const term of long) if (!kept.has(term)) result.delete(term);
      result.add(short);
    }
    return result;
  };
}

/** What ends a thing compared: punctuation, or a word that starts what is said of it ("json vs jsonb in a query"). */
const COMPARED_END = /[—–:;,?!()]|\s-\s|\s(?:and|or|in|on|for|to|of|with|when|which|what|whats|what's|how|why|is|are|does|do|should|would|can|vs\.?|versus)\s/i;

/**
 * The things a question compares, as written: "staticmethod vs classmethod: …", "char vs
 * varchar vs text", "the difference between json and jsonb", "Should I use threads or
 * processes …?". Empty when it compares nothing, or fewer than two different things.
 *
 * @example
 * comparedNames('char vs varchar vs text — which is faster?'); // ['char', 'varchar', 'text']
 */
export function comparedNames(question: string): string[] {
  const text = ` ${question.normalize('NFKC').replace(/\s+/g, ' ')} `;
  const until = (from: string) => (from.split(COMPARED_END)[0] ?? '').replace(/^\s*(?:an?|the)\s+/i, '').trim();
  let names: string[] = [];
  const versus = text.split(/\s(?:vs\.?|versus)\s/i);
  if (versus.length > 1) {
    // The words right before the first "vs", back to punctuation or a question word; each later part up to where it ends.
    const before = versus[0]!.split(/[—–:;,?!()]|\s-\s/).at(-1)!.trim().split(' ');
    let start = before.length;
    while (start > 0 && !/^(?:what|what's|whats|how|why|which|is|are|should|difference|between)$/i.test(before[start - 1]!)) start--;
    names = [before.slice(start).join(' '), ...versus.slice(1).map(until)];
  } else {
    const between = /\bdiff\w*\s+between\s+(.+)/i.exec(text) ?? /\b(?:use|choose|pick|prefer)\s+(.+?\s+or\s+.+)/i.exec(text);
    if (between) {
      const [first, ...rest] = between[1]!.split(/\s(?:and|or)\s/i);
      if (rest.length > 0 && !COMPARED_END.test(` ${first!} `)) names = [until(` ${first!}`), until(` ${rest[0]!}`)];
    }
  }
  const distinct = new Map(names.filter((name) => terms(name).length > 0).map((name) => [terms(name).join(' '), name]));
  return distinct.size >= 2 ? [...distinct.values()] : [];
}

/** The terms of words that ask for a comparison ("difference", "compare", "better"), not for something of the things compared. */
export const COMPARING = new Set(terms('difference differences differ compare comparison better'));

/** Words that say what kind of thing a name is ("hash index", "the with statement"): a heading may name it without them ("Hash"). */
const KIND_WORDS = new Set(['index', 'type', 'function', 'method', 'statement', 'command', 'clause', 'operator', 'keyword', 'option', 'setting', 'parameter', 'module', 'class'].map((word) => stem(word)));

/** A name followed by the kind of thing it is: "nonlocal keyword", "zip() function", "json module". */
const NAMED_KIND = /([\p{L}\p{N}_.()]+)\s+(keywords?|statements?|functions?|methods?|commands?|clauses?|operators?|modules?)\b/giu;

/**
 * A question may name a thing as one kind and a heading name it as another: "the nonlocal keyword" is headed "The
 * nonlocal statement". Returns what a heading's terms stand for: the terms, and the kind words the question puts after
 * each name the heading holds, when the heading holds a kind word of its own.
 */
export function kindsAsNamed(question: string): (held: Set<string>) => Set<string> {
  const named = [...question.matchAll(NAMED_KIND)].map((match) => ({ name: terms(match[1]!), kind: terms(match[2]!) })).filter(({ name }) => name.length > 0);
  if (named.length === 0) return (held) => held;
  return (held) => {
    if (![...held].some((term) => KIND_WORDS.has(term))) return held;
    const kinds = named.filter(({ name }) => name.every((term) => held.has(term))).flatMap(({ kind }) => kind);
    return kinds.length === 0 ? held : new Set([...held, ...kinds]);
  };
}

/** A name without the words that say what kind of thing it is: "hash index" is "hash"; a name of only such words stays. */
export function withoutKind(name: string): string {
  const kept = name.split(/\s+/).filter((word) => !terms(word).every((term) => KIND_WORDS.has(term)));
  return kept.length > 0 ? kept.join(' ') : name;
}

/**
 * Whether a heading (a section's own, or a page's title) is the entry of a name: `@staticmethod`
 * or `staticmethod(function)` for "staticmethod", `list.append(x)` for "append", "Lists" for
 * "list", "Hash" for "hash index", "pg_dumpall" for "pg_dumpall"; not "Nested List
 * Comprehensions". Its numbering ("8.14.4.") and a kind word the name adds do not count.
 */
export function headedBy(name: string, heading: string): boolean {
  const bare = heading.replace(/^(?:[\dA-Z]{1,3}\.)+(?:\d+\.?)*\s+/, '').trim();
  if (entryHeading(name.toLowerCase()).test(bare.toLowerCase())) return true;
  const wanted = terms(name);
  const own = terms(bare.replace(/\([^()]*\)/g, ' '));
  if (own.length === 0) return false;
  const meant = wanted.filter((term) => !KIND_WORDS.has(term));
  // "Functions" heads a list of functions; "Function" (a glossary's entry) says what one is.
  if (meant.length === 0 && /s$/i.test(bare) && !/s$/i.test(name)) return false;
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((term) => b.includes(term));
  return same(own, wanted) || (meant.length > 0 && same(own, meant));
}
