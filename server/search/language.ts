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
