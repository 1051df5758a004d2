import { LOCALES, type Locale } from '../../wire/contract.js';

const BY_LOWERCASE = new Map<string, Locale>(LOCALES.map((locale) => [locale.toLowerCase(), locale]));

/**
 * The built-in locale for one BCP 47 language tag, or null when none fits.
 * Case and `_` separators are forgiven. Portuguese of any region gets `pt-BR` (the only
 * Portuguese UI); Chinese is told apart by script first, then region: Traditional for Taiwan,
 * Hong Kong's own locale for Hong Kong and Macau, Simplified otherwise.
 *
 * @example
 * matchLocale('de-AT'); // 'de'
 * matchLocale('zh-TW'); // 'zh-Hant'
 * matchLocale('sv');    // null
 */
export function matchLocale(tag: string): Locale | null {
  const normalized = tag.trim().replace(/_/g, '-').toLowerCase();
  if (!normalized || normalized === '*') return null;
  const exact = BY_LOWERCASE.get(normalized);
  if (exact) return exact;
  const [language, ...subtags] = normalized.split('-');
  if (language === 'zh' || language === 'yue') return chineseLocale(language, subtags);
  if (language === 'pt') return 'pt-BR';
  return BY_LOWERCASE.get(language!) ?? null;
}

function chineseLocale(language: string, subtags: string[]): Locale {
  const hongKong = subtags.includes('hk') || subtags.includes('mo');
  if (subtags.includes('hans')) return 'zh-Hans';
  if (language === 'yue' || hongKong) return 'zh-HK';
  if (subtags.includes('hant') || subtags.includes('tw')) return 'zh-Hant';
  return 'zh-Hans';
}

/**
 * The UI language: the first of the visitor's browser languages that a built-in locale
 * serves, else the widget's `default_language`, else English (spec section 8).
 *
 * @example
 * resolveLocale(['sv-SE', 'de-AT'], 'fr'); // 'de'
 * resolveLocale(['sv-SE'], 'fr');          // 'fr'
 */
export function resolveLocale(preferred: readonly string[], defaultLanguage?: string | null): Locale {
  for (const tag of preferred) {
    const locale = matchLocale(tag);
    if (locale) return locale;
  }
  return (defaultLanguage && matchLocale(defaultLanguage)) || 'en';
}

/** The visitor's languages in order of preference, as the browser reports them. */
export function browserLanguages(): readonly string[] {
  const nav = globalThis.navigator as Navigator | undefined;
  if (!nav) return [];
  if (nav.languages?.length) return nav.languages;
  return nav.language ? [nav.language] : [];
}
