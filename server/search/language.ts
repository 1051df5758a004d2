/**
 * Which PostgreSQL text-search configuration stems a page's words, and how text in scripts
 * written without spaces is made searchable at all.
 */

/**
 * Built-in configurations (present in PostgreSQL 15 and later) by primary language
 * subtag. Chinese, Japanese, Korean and Thai have no stemmer in PostgreSQL: they use
 * `simple`, with their characters indexed one by one (see `spaceUnspacedScripts`).
 * Languages with no configuration also use `simple`: no stemming and no stop words beats
 * English rules applied to another language.
 */
const CONFIGS: Record<string, string> = {
  en: 'english',
  nl: 'dutch',
  de: 'german',
  fr: 'french',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  da: 'danish',
  fi: 'finnish',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  ga: 'irish',
  lt: 'lithuanian',
  ne: 'nepali',
  no: 'norwegian',
  nb: 'norwegian',
  nn: 'norwegian',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

/** Pages without a language are English, the product's default. */
export const DEFAULT_CONFIG = 'english';

/** The text-search configuration for a page language such as `de`, `pt-BR` or `zh-Hant`. */
export function textSearchConfig(language: string | null | undefined): string {
  if (!language) return DEFAULT_CONFIG;
  const primary = language.split('-')[0]!.toLowerCase();
  return CONFIGS[primary] ?? 'simple';
}

/** Every configuration name this module can hand out; only these ever reach SQL. */
export const KNOWN_CONFIGS = new Set([DEFAULT_CONFIG, 'simple', ...Object.values(CONFIGS)]);

/** Han, kana, Hangul and Thai characters, each with the combining marks that follow it. */
const UNSPACED_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]\p{M}*/gu;
const HAS_UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

export function hasUnspacedScript(text: string): boolean {
  return HAS_UNSPACED.test(text);
}

/**
 * PostgreSQL's parser takes a run of Chinese or Thai characters for one word, so a word
 * inside a sentence could never be found. Indexing each character as its own token, and
 * querying a run of them as a phrase (`数 <-> 据 <-> 库`), finds any substring instead:
 * what a search box in these languages is expected to do, without a dictionary.
 */
export function spaceUnspacedScripts(text: string): string {
  return hasUnspacedScript(text) ? text.replace(UNSPACED_CHARACTER, ' $& ') : text;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * The words that typos are corrected to: lowercased runs of letters (as PostgreSQL's
 * parser splits them, so `pg_dump` gives `dump` and `re-index` gives `index`), 3 to 32
 * characters, without digits, and not in scripts written without spaces, where an edit
 * distance means nothing.
 */
export function vocabularyWords(text: string, into: Set<string> = new Set()): Set<string> {
  for (const [word] of text.toLowerCase().matchAll(WORD)) {
    if (word.length < 3 || word.length > 32 || /\p{N}/u.test(word) || HAS_UNSPACED.test(word)) continue;
    into.add(word);
  }
  return into;
}

/** Whether a word (lowercased) is one the vocabulary could hold: not "a", "v2" or `pg_dump`. */
export function isVocabularyWord(word: string): boolean {
  return vocabularyWords(word).has(word);
}

/**
 * Keywords of query languages that text search drops as English stop words: `WHERE`,
 * `HAVING`, `NOT IN`, `IS NULL`, `UNION ALL`, `ON CONFLICT`, `OVER`. Written in capitals,
 * as documentation and its readers write SQL, each is indexed and searched as an identifier
 * (`~having`), so "HAVING" finds the HAVING clause; in lower case they stay stop words.
 */
const CAPITAL_KEYWORDS = new Set('all and any as at between both by do each for from having if in into is no not of off on only or over some than then to until when where while with'.split(' '));

/**
 * Of them, those no writer uses for emphasis or beside an acronym: alone in capitals ("the
 * HAVING clause", "WHERE x = NULL") each is the keyword. "NOT" or "ONLY" alone may be
 * shouted, "AS" or "ON" stand beside acronyms ("export AS CSV", "run ON AWS"); beside a word
 * of SQL in capitals ("NOT IN", "UNION ALL", "ON CONFLICT") they are keywords.
 */
export const KEYWORDS_ALONE = new Set('where having between over until while into'.split(' '));

/**
 * Words that, in lower case after "WHERE" in capitals, make it the question word: "WHERE do I
 * find my key?", "WHERE is the log written?". No query language writes them after the keyword.
 */
export const ASKING_AFTER_WHERE = ['do', 'does', 'did', 'is', 'are', 'was', 'were', 'am', 'can', 'could', 'should', 'would', 'will', 'has', 'have'];

/** The word a token writes in capitals, with any punctuation around it (`WHERE`, `(HAVING`, `NULL,`), lowercased. */
function inCapitals(token: string): string | undefined {
  return /^[^\p{L}\p{N}_]*([A-Z]{2,})[^\p{L}\p{N}_]*$/u.exec(token)?.[1]?.toLowerCase();
}

/**
 * Words of SQL that, in capitals beside a keyword, make it one ("IS NULL", "ON CONFLICT",
 * "GROUP BY", "UNION ALL"); an acronym beside it ("export AS CSV", "run ON AWS") does not.
 */
const SQL_WORDS = new Set(
  `select from where group order by having union intersect except all distinct join left right inner outer full cross natural
  lateral on using insert into values update set delete returning conflict nothing null not is in exists like ilike similar
  between and or case when then else end as with recursive limit offset fetch first next rows row only for share no key nowait
  skip locked create table index view materialized drop alter add column constraint primary foreign references unique check
  default cascade restrict truncate grant revoke to begin commit rollback savepoint over partition window filter within any
  some array true false if replace function procedure returns language trigger each before after instead of execute do
  declare loop while exit continue raise exception perform copy analyze vacuum explain concurrently identity always
  generated sequence schema database role user temporary temp unlogged tablespace owner at time zone interval`.split(/\s+/),
);

/** The keyword each of a text's tokens writes in capitals, lowercased: alone (KEYWORDS_ALONE), or beside a word of SQL in capitals (SQL_WORDS). */
export function keywordsIn(tokens: string[]): (string | undefined)[] {
  const words = tokens.map(inCapitals);
  const sql = words.map((word) => word !== undefined && SQL_WORDS.has(word));
  const asksWhere = (index: number) => words[index] === 'where' && ASKING_AFTER_WHERE.includes(tokens[index + 1] ?? '');
  return words.map((word, index) =>
    word !== undefined && CAPITAL_KEYWORDS.has(word) && ((KEYWORDS_ALONE.has(word) && !asksWhere(index)) || sql[index - 1] || sql[index + 1]) ? word : undefined,
  );
}

/** Whether a word is a keyword (CAPITAL_KEYWORDS), as a complete query of nothing else means it in any case ("having ", "is not "). */
export function isKeyword(word: string): boolean {
  return CAPITAL_KEYWORDS.has(word);
}

/**
 * A query or question typed in capitals throughout, with words of English that no query
 * language uses (caps lock on: "HOW DO I USE WHERE"): its capitals name no keyword. SQL in
 * capitals ("ON CONFLICT DO NOTHING") is not one.
 */
export function typedInCapitals(text: string): boolean {
  return !/\p{Ll}/u.test(text) && /\b(?:HOW|WHAT|WHY|WHICH|WHO|I|MY|ME|YOU|YOUR|CAN|COULD|SHOULD|WOULD|DOES|THE|A|AN|IT|THIS|THAT|PLEASE|HELP)\b/.test(text);
}

/**
 * A text written mostly in capitals (a licence's "PROVIDED AS IS", a heading typed in capitals):
 * its capitals are not keywords.
 */
export function writtenMostlyInCapitals(text: string): boolean {
  return (text.match(/\b[A-Z]{2,}\b/g)?.length ?? 0) > (text.match(/\b[A-Za-z]*[a-z][A-Za-z]*\b/g)?.length ?? 0);
}

/** The keywords a text writes in capitals, lowercased, counted into `into`; its tokens end at spaces and at the punctuation of code (`OVER(`, `IN (1, 2)`, `` `WHERE`/`HAVING` ``). */
function capitalKeywords(text: string, into: Map<string, number>): Map<string, number> {
  if (!/[A-Z]{2}/.test(text) || writtenMostlyInCapitals(text)) return into;
  for (const keyword of keywordsIn(text.split(/[\s()[\]{},;/|`]+/))) if (keyword) into.set(keyword, (into.get(keyword) ?? 0) + 1);
  return into;
}

/**
 * English stop words that are also names of functions (`all()`, `any()`, `now()`, `some()`,
 * `once()`): text search drops the word, so a call of one, written with its parenthesis
 * (`now()`, `any(iterable)`, a function table's `` `now` ( ) ``; not prose's "all (see below)"), is
 * indexed and searched as an identifier (`~now()`); the word alone stays a stop word.
 */
const STOP_WORD_FUNCTIONS = new Set('all any each now off once some'.split(' '));
// Only these names: trying every run of letters of a long text as a call was a large share of reading it.
const STOP_WORD_CALL = new RegExp(`(?<![\\p{L}\\p{N}_.$])(${[...STOP_WORD_FUNCTIONS].join('|')})\`?(?:\\(| \\( ?\\))`, 'gu');

/** The calls of functions named by a stop word that a text writes (`now()` for "now ( )"), in order. */
export function stopWordCalls(text: string): string[] {
  return [...text.matchAll(STOP_WORD_CALL)].map(([, name]) => `${name}()`);
}

/** The text with the name of each call of a function named by a stop word marked as a name, not the stop word: `now_()`, `now_ ( )`. */
export function markStopWordCalls(text: string): string {
  return text.replace(STOP_WORD_CALL, (call, name: string) => `${name}_${call.slice(name.length)}`);
}

/** Longest identifier kept whole; longer runs are left to the parser's words. */
export const MAX_IDENTIFIER_CHARS = 64;
/** Positions given to an identifier per part of a section: how often it occurs counts, up to this. */
const MAX_IDENTIFIER_OCCURRENCES = 8;

/** A run of word characters joined by `_`, `.` or `-`, as code and configuration names are written. */
const IDENTIFIER_RUN = /[\p{L}\p{M}\p{N}_.-]+/gu;
const IDENTIFIER_JOINER = /[_.-]/;
const HAS_LETTER = /\p{L}/u;
const WORD_OF_TWO = /[\p{L}\p{M}\p{N}]{2}/u;

/**
 * Identifiers as written, lowercased: `pg_hba.conf`, `shared_buffers`, `__init__`,
 * `os.path.join`, `--max-connections`, `built-in`. PostgreSQL's parser cuts most of them
 * into words (`shared`, `buffers`; `__init__` becomes `init`) or keeps some whole (the
 * host name `os.path.join`), so a search for one would match pages that merely hold its
 * parts. Each is indexed whole besides the parser's words, with what it ends in, so
 * `object.__init__` is also found as `__init__` and `os.path.join` as `path.join`, and an
 * option without its dashes. Runs at a sentence's end lose the full stop; `e.g.` and
 * version numbers are not identifiers.
 */
export function identifierWords(text: string, into: Map<string, number> = new Map()): Map<string, number> {
  // A page repeats its identifiers: each distinct run is looked at once.
  const seen = new Map<string, string[]>();
  for (const [run] of text.toLowerCase().matchAll(IDENTIFIER_RUN)) {
    let identifiers = seen.get(run);
    if (!identifiers) {
      identifiers = identifiersOfRun(run);
      seen.set(run, identifiers);
    }
    for (const identifier of identifiers) into.set(identifier, (into.get(identifier) ?? 0) + 1);
  }
  return into;
}

/** The identifier a run stands for, what it ends in after each full stop, and an option without its dashes. */
function identifiersOfRun(run: string): string[] {
  const identifier = asIdentifier(run);
  if (!identifier) return [];
  const identifiers = [identifier];
  const parts = identifier.split('.');
  for (let index = 1; index < parts.length; index++) {
    const rest = asIdentifier(parts.slice(index).join('.'));
    if (rest) identifiers.push(rest);
  }
  const bare = identifier.replace(/^-+/, '');
  if (bare !== identifier && asIdentifier(bare) === bare) identifiers.push(bare);
  return identifiers;
}

/**
 * The identifier a run of word characters and joiners stands for, or undefined: without a
 * full stop or dash at its end, at most two dashes in front (an option), with a letter,
 * a joiner inside or an underscore at either end, and a part of two word characters.
 */
export function asIdentifier(run: string): string | undefined {
  // Most runs are plain words. Longer runs are no identifier whatever their ends (and trimming them would cost more).
  if (!IDENTIFIER_JOINER.test(run) || run.length > 2 * MAX_IDENTIFIER_CHARS) return undefined;
  let identifier = run.replace(/[.-]+$/, '').replace(/^\.+/, '');
  if (/^-{3,}/.test(identifier)) identifier = identifier.replace(/^-+/, '');
  if (identifier.length < 3 || identifier.length > MAX_IDENTIFIER_CHARS) return undefined;
  if (!IDENTIFIER_JOINER.test(identifier.replace(/^-+/, '').slice(0, -1).slice(1)) && !/^(?:--?|_)|_$/.test(identifier)) return undefined;
  if (!HAS_LETTER.test(identifier) || !WORD_OF_TWO.test(identifier)) return undefined;
  return identifier;
}

/** The identifier a typed word is, without the punctuation around it (`(os.path.join)`, `pg_hba.conf,`). */
export function identifierIn(piece: string): string | undefined {
  const runs = piece.match(IDENTIFIER_RUN);
  return runs?.length === 1 ? asIdentifier(runs[0]!) : undefined;
}

/**
 * What marks an identifier's lexeme (`~pg_hba.conf`), so that words being typed (`tab:*`)
 * do not match identifiers (`table_name`): `search_identifier` in 005_search_words.sql.
 */
export const IDENTIFIER_MARK = '~';

/** A run of the signs operators are written with. */
const SIGNS = /[-+*/%<>=!~@#^&|?:]+/g;
const TWO_SIGNS = /[-+*/%<>=!~@#^&|?:]{2}/;
/**
 * Operators of two signs or more, as the query languages and programming languages that
 * documentation describes write them: SQL's and PostgreSQL's (`->>`, `@>`, `||`, `::`,
 * `<->`, `~*`), Python's (`//`, `**`, `:=`, `==`, `+=`), and the arrows and comparisons
 * of most others. A single sign ("-", "?", "*") is punctuation as often as an operator.
 */
const OPERATORS = new Set(
  `-> ->> #> #>> #- @> <@ @? @@ @@@ ?| ?& ?# ?- ?-| ?|| || :: := // ** == != <> <= >= << >> <<= >>= && &< &> <<| |>> &<| |&> <^ >^ -|-
  <-> <<-> <->> ## @-@ ~~ ~~* !~~ !~~* ~* !~ !~* += -= *= /= //= **= %= &= |= ^= @= => === !==`.split(/\s+/),
);

/**
 * The operators written in a text (`jsonb @> jsonb`, "-22 // 10", `data->>'name'`, `**kwargs`): each run of signs
 * standing between words, spaces, quotes or brackets that is an operator, or is one before the question mark, colon
 * or exclamation mark that ends a sentence ("what does ->>?"). "https://" and "--" are none.
 */
export function operatorsIn(text: string): string[] {
  if (!TWO_SIGNS.test(text)) return [];
  const found: string[] = [];
  for (const [run] of text.matchAll(SIGNS)) {
    const operator = OPERATORS.has(run) ? run : run.replace(/[?:!]+$/, '');
    if (OPERATORS.has(operator)) found.push(operator);
  }
  return found;
}

/**
 * The identifiers of a text, the keywords it writes in capitals (keywordsIn), the calls
 * of functions named by a stop word (stopWordCalls) and its operators (operatorsIn), as tsvector input (`'~pg_hba.conf':1,2 '~work_mem':1 '~having':1`), one
 * position per occurrence up to a few: they carry their part's weight and count like
 * words in ranking. Identifiers hold no quote or backslash, so they need no escaping.
 */
export function identifierVector(text: string): string {
  const identifiers = capitalKeywords(text, identifierWords(text));
  for (const name of [...stopWordCalls(text), ...operatorsIn(text)]) identifiers.set(name, (identifiers.get(name) ?? 0) + 1);
  return [...identifiers]
    .map(([word, count]) => `'${IDENTIFIER_MARK}${word}':${Array.from({ length: Math.min(count, MAX_IDENTIFIER_OCCURRENCES) }, (_, index) => index + 1).join(',')}`)
    .join(' ');
}
