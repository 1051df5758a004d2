/**
 * Languages for assistive technology (WCAG 3.1.1, 3.1.2): the widget's root speaks the UI
 * language, and a message in another language says so, so a screen reader switches voice.
 */
import type { Locale } from '../../../wire/contract.js';

/** Sets the UI language on the host, so every part of the widget (launcher and box included) inherits it. */
export function applyLanguage(host: HTMLElement, locale: Locale): void {
  host.lang = locale;
}

/** Scripts that name their language on their own. Han alone is left out: Chinese and Japanese share it. */
const SCRIPTS: [RegExp, string][] = [
  [/[\u0e00-\u0e7f]/gu, 'th'],
  [/[\u1100-\u11ff\uac00-\ud7af]/gu, 'ko'],
  [/[\u3040-\u30ff]/gu, 'ja'],
];

/**
 * Frequent short words of the Latin-script UI languages, each in one list only: a few of them
 * in a text tell its language apart reliably, where a single word could be a name.
 */
const COMMON_WORDS: Record<string, string[]> = {
  en: ['the', 'and', 'are', 'you', 'to', 'of', 'with', 'this', 'that', 'for', 'your', 'it', 'can', 'on', 'be', 'from', 'or', 'not', 'will', 'if'],
  de: ['der', 'die', 'das', 'und', 'ist', 'sie', 'nicht', 'mit', 'ein', 'eine', 'zu', 'den', 'von', 'auf', 'für', 'ihr', 'ihre', 'auch', 'oder', 'wird', 'dem', 'sich'],
  fr: ['le', 'les', 'et', 'est', 'vous', 'des', 'une', 'pour', 'dans', 'pas', 'sur', 'avec', 'votre', 'au', 'ce', 'sont', 'peut'],
  es: ['el', 'los', 'las', 'y', 'usted', 'puede', 'hay', 'pero', 'muy', 'también', 'cuando'],
  it: ['il', 'gli', 'è', 'di', 'che', 'per', 'non', 'della', 'sono', 'nel', 'alla', 'questo', 'anche', 'può'],
  nl: ['het', 'een', 'en', 'u', 'je', 'niet', 'van', 'voor', 'op', 'dat', 'zijn', 'uw', 'wordt', 'naar', 'kunt'],
  pt: ['o', 'os', 'uma', 'você', 'não', 'com', 'em', 'seu', 'sua', 'são', 'também', 'pode', 'ao'],
};
const WORD_LANGUAGE = new Map<string, string>(Object.entries(COMMON_WORDS).flatMap(([language, words]) => words.map((word) => [word, language] as [string, string])));

/** Fewest common words, and least lead over the runner-up, for a Latin-script guess to count as known. */
const MIN_WORDS = 3;
const MIN_LEAD = 2;

/**
 * The language of `text` (a primary BCP 47 subtag) when its script or its common words make it
 * unmistakable, else null: a text too short or too mixed to tell gets no language rather than a wrong one.
 *
 * @example detectLanguage('Open the settings and choose a new password.'); // 'en'
 */
export function detectLanguage(text: string): string | null {
  for (const [pattern, language] of SCRIPTS) if ((text.match(pattern)?.length ?? 0) >= 2) return language;
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    const language = WORD_LANGUAGE.get(word);
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const [first, second] = [...counts].sort((a, b) => b[1] - a[1]);
  if (!first || first[1] < MIN_WORDS || first[1] < (second?.[1] ?? 0) * MIN_LEAD) return null;
  return first[0];
}

/**
 * The `lang` a message needs inside a widget speaking `locale`: its own language when that is
 * known and differs from the UI's, else undefined (the message inherits the UI language).
 *
 * @example html`<div lang=${ifDefined(messageLanguage(text, t.locale))}>…</div>`
 */
export function messageLanguage(text: string, locale: Locale): string | undefined {
  const language = detectLanguage(text);
  return language && language !== locale.split('-')[0] ? language : undefined;
}
