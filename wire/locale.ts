/** Matching language tags to the built-in locales: shared by the widgets (browser languages) and the server (Accept-Language). */
import { LOCALES, type Locale } from './contract.js';

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

/**
 * The language tags of an `Accept-Language` header, most preferred first (`q=0` dropped).
 *
 * @example
 * acceptedLanguages('fr-CH, de;q=0.9, en;q=0.8'); // ['fr-CH', 'de', 'en']
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const quality = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/i.exec(parameter)?.[1]).find(Boolean);
      return { tag: tag.trim(), quality: quality === undefined ? 1 : Number(quality), order };
    })
    .filter((entry) => entry.tag && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.order - b.order)
    .map((entry) => entry.tag);
}
