/**
 * The widgets' strings in the visitor's language (spec 8). Every locale is typed against the
 * English reference, so a missing key is a type error; at run time a missing string falls
 * back along zh-HK → zh-Hant → en rather than showing a key.
 */
import type { Locale } from '../../../wire/contract.js';
import { createTranslator } from '../../i18n/index.js';
import { de } from '../../i18n/translations/de.js';
import { en, type TranslationKey } from '../../i18n/translations/en.js';
import { es } from '../../i18n/translations/es.js';
import { fr } from '../../i18n/translations/fr.js';
import { it } from '../../i18n/translations/it.js';
import { ja } from '../../i18n/translations/ja.js';
import { ko } from '../../i18n/translations/ko.js';
import { nl } from '../../i18n/translations/nl.js';
import { ptBR } from '../../i18n/translations/pt-BR.js';
import { th } from '../../i18n/translations/th.js';
import { zhHans } from '../../i18n/translations/zh-Hans.js';
import { zhHant } from '../../i18n/translations/zh-Hant.js';
import { zhHK } from '../../i18n/translations/zh-HK.js';

const CATALOGS = { en, nl, de, fr, es, it, 'pt-BR': ptBR, 'zh-Hans': zhHans, 'zh-Hant': zhHant, 'zh-HK': zhHK, ja, ko, th } as const;

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

export function stringsFor(locale: Locale): Strings {
  const cached = cache.get(locale);
  if (cached) return cached;
  const translate = createTranslator<typeof en>(CATALOGS, locale);
  const rules = new Intl.PluralRules(locale);
  const strings = Object.assign((key: TranslationKey, params?: Record<string, string | number>) => translate(key, params), {
    locale,
    plural(key: PluralKey, count: number, params: Record<string, string | number> = {}) {
      const form = `${key}_${rules.select(count)}`;
      const chosen = (form in en ? form : `${key}_other`) as TranslationKey;
      return translate(chosen, { count: count.toLocaleString(locale), ...params });
    },
  });
  cache.set(locale, strings);
  return strings;
}

