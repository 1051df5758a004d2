import type { Locale } from '../../wire/contract.js';

/*
 * Locale resolution and message lookup for the widgets. The translations live in
 * `translations/<locale>.ts`: `en.ts` is the reference, and every other locale is typed as
 * `Messages<typeof en>`, so a missing key is a type error.
 *
 *   // translations/en.ts
 *   export default { send: 'Send', results: ({ count }) => `${count} results` } satisfies MessageCatalog;
 *   // translations/de.ts
 *   import type en from './en.js';
 *   export default { send: 'Senden', results: ({ count }) => `${count} Ergebnisse` } satisfies Messages<typeof en>;
 */

export { browserLanguages, matchLocale, resolveLocale } from '../core/locale.js';

export type MessageParams = Record<string, string | number>;

/** Plain text with `{name}` placeholders, or a function where grammar needs one (plurals). */
export type Message = string | ((params: MessageParams) => string);

export type MessageCatalog = Record<string, Message>;

/** The shape a translation must have: every key of the reference catalog. */
export type Messages<Reference extends MessageCatalog> = { [Key in keyof Reference]: Message };

/** English is required (the fallback of every lookup); other locales may be added one by one. */
export type Catalogs<Reference extends MessageCatalog> = { en: Reference } & Partial<Record<Locale, Messages<Reference>>>;

export type Translate<Reference extends MessageCatalog> = (key: keyof Reference & string, params?: MessageParams) => string;

/** Where a locale without its own catalog borrows from before English: Hong Kong reads Traditional Chinese. */
export const LOCALE_FALLBACK: Partial<Record<Locale, Locale>> = { 'zh-HK': 'zh-Hant' };

/**
 * A lookup function for one locale. A key missing at run time (say, a catalog loaded from
 * an older build) falls back to English rather than showing the key.
 *
 * @example
 * const t = createTranslator({ en, de }, client.resolveLocale(config));
 * button.textContent = t('send');
 * status.textContent = t('results', { count: hits.length });
 */
export function createTranslator<Reference extends MessageCatalog>(catalogs: Catalogs<Reference>, locale: Locale): Translate<Reference> {
  const chain: MessageCatalog[] = [];
  for (let current: Locale | undefined = locale; current; current = LOCALE_FALLBACK[current]) {
    const catalog = catalogs[current];
    if (catalog) chain.push(catalog);
  }
  chain.push(catalogs.en);
  return (key, params = {}) => {
    for (const catalog of chain) {
      const message = catalog[key];
      if (message !== undefined) return typeof message === 'function' ? message(params) : formatMessage(message, params);
    }
    return key;
  };
}

/** Fills `{name}` placeholders; an unknown placeholder stays as written, so the gap is visible. */
export function formatMessage(template: string, params: MessageParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => (name in params ? String(params[name]) : placeholder));
}
