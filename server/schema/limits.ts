/**
 * Every limit of a request field, once: the schemas check them, the OpenAPI document shows
 * them (as maxLength, maximum, maxItems), and the routes use them. Limits the browser needs
 * too (body sizes, suggestions, feedback comments, page listing) are wire/contract.ts's LIMITS.
 */
export const FIELD_LIMITS = {
  /** Display names of organisations, sources, widgets and API keys, in characters. */
  name: 200,
  /** A chat message or a search or summarize query, in characters. */
  question: 4000,
  /** Search hits when the request names no `limit`, and the most it may ask for. */
  searchLimitDefault: 10,
  searchLimitMax: 50,
  url: 2048,
  pageTitle: 1000,
  languageTag: 35,
  /** The page `context` of a chat message. */
  contextTitle: 500,
  /** Widget placeholder and greeting texts. */
  widgetText: 2000,
  debounceMs: 10_000,
  widgetSources: 100,
  websites: 200,
  /** Answer credits and the daily events cap of an organisation. */
  count: 1_000_000_000,
  /** Analytics events an organisation may store per day (UTC) unless it says otherwise. */
  eventsPerDayDefault: 100_000,
  /** The most events one request may carry (the body is also capped at 64 KiB). */
  events: 100,
  clickRank: 10_000,
  clickSource: 64,
  /** A visitor id chosen by the integrator. */
  visitorId: 512,
  /** `from` and `to` of an analytics period, in characters. */
  periodBound: 64,
} as const;
