/** Locale matching lives in wire/ so the server resolves a visitor's language the same way. */
export { matchLocale, resolveLocale } from '../../wire/locale.js';

/** The visitor's languages in order of preference, as the browser reports them. */
export function browserLanguages(): readonly string[] {
  const nav = globalThis.navigator as Navigator | undefined;
  if (!nav) return [];
  if (nav.languages?.length) return nav.languages;
  return nav.language ? [nav.language] : [];
}
