/**
 * The widgets' strings in the visitor's language (spec 8). Every locale is typed against the
 * English reference, so a missing key is a type error; at run time a missing string falls
 * back along zh-HK → zh-Hant → en rather than showing a key.
 */
import type { Locale } from '../../../wire/contract.js';
import { createTranslator, LOCALE_FALLBACK } from '../../i18n/index.js';
import { en, type Translation, type TranslationKey } from '../../i18n/translations/en.js';
import { warnOnce } from '../../core/warn.js';

/**
 * Every other locale is a file of its own, imported when a widget first needs it: a visitor
 * downloads the strings of their language only. English is built in, as the fallback.
 */
const LOADERS: Record<Exclude<Locale, 'en'>, () => Promise<Translation>> = {
  nl: () => import('../../i18n/translations/nl.js').then((module) => module.nl),
  de: () => import('../../i18n/translations/de.js').then((module) => module.de),
  fr: () => import('../../i18n/translations/fr.js').then((module) => module.fr),
  es: () => import('../../i18n/translations/es.js').then((module) => module.es),
  it: () => import('../../i18n/translations/it.js').then((module) => module.it),
  'pt-BR': () => import('../../i18n/translations/pt-BR.js').then((module) => module.ptBR),
  'zh-Hans': () => import('../../i18n/translations/zh-Hans.js').then((module) => module.zhHans),
  'zh-Hant': () => import('../../i18n/translations/zh-Hant.js').then((module) => module.zhHant),
  'zh-HK': () => import('../../i18n/translations/zh-HK.js').then((module) => module.zhHK),
  ja: () => import('../../i18n/translations/ja.js').then((module) => module.ja),
  ko: () => import('../../i18n/translations/ko.js').then((module) => module.ko),
  th: () => import('../../i18n/translations/th.js').then((module) => module.th),
};

const catalogs: { en: typeof en } & Partial<Record<Locale, Translation>> = { en };

/** Keys with `_one`/`_other` forms, named without the suffix. */
type PluralKey = TranslationKey extends infer Key ? (Key extends `${infer Base}_other` ? Base : never) : never;

export interface Strings {
  readonly locale: Locale;
  /** The string for `key`, with `{name}` placeholders filled from `params`. */
  (key: TranslationKey, params?: Record<string, string | number>): string;
  /** The plural form for `count` (Intl.PluralRules; `other` when a locale has no form of its own). */
  plural(key: PluralKey, count: number, params?: Record<string, string | number>): string;
}

const cache = new Map<Locale, Strings>();

/**
 * The strings of `locale`, once {@link loadStrings} has loaded it (English always is); a locale
 * not loaded yet reads as English.
 */
export function stringsFor(locale: Locale): Strings {
  const cached = cache.get(locale);
  if (cached) return cached;
  const translate = createTranslator<typeof en>(catalogs, locale);
  const rules = new Intl.PluralRules(locale);
  const strings = Object.assign((key: TranslationKey, params?: Record<string, string | number>) => translate(key, params), {
    locale,
    plural(key: PluralKey, count: number, params: Record<string, string | number> = {}) {
      const form = `${key}_${rules.select(count)}`;
      const chosen = (form in en ? form : `${key}_other`) as TranslationKey;
      return translate(chosen, { count: count.toLocaleString(locale), ...params });
    },
  });
  if (catalogs[locale]) cache.set(locale, strings);
  return strings;
}

/**
 * Loads the strings of `locale` (and of the locale it falls back to, zh-HK → zh-Hant) and
 * returns them. When a file cannot be loaded the widget speaks English rather than failing.
 *
 * @example this.strings = await loadStrings(client.resolveLocale(config));
 */
export async function loadStrings(locale: Locale): Promise<Strings> {
  try {
    for (let current: Locale | undefined = locale; current && current !== 'en'; current = LOCALE_FALLBACK[current]) {
      catalogs[current] ??= await LOADERS[current]();
    }
  } catch (error) {
    warnOnce(`The ${locale} strings could not be loaded; the widget is shown in English.`, error);
  }
  return stringsFor(locale);
}


/**
 * A shortcut as the visitor's keyboard labels it: `⌘K` on Apple devices, else the Control key
 * in the UI language and the key (`Ctrl K`, German `Strg K`).
 *
 * @example keyCombo(strings, '↵'); // 'Strg ↵' in German
 */
export function keyCombo(strings: Strings, key: string): string {
  return /Mac|iPhone|iPad/.test(navigator.platform) ? `⌘${key}` : `${strings('keyControl')} ${key}`;
}
