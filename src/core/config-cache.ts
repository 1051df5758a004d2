import { LIMITS, THEMES, VARIANTS, WIDGET_TYPES, defaultConfig, type WidgetConfig, type WidgetType } from '../../wire/contract.js';
import { abortReason, invalidResponse, isRecord, parseJsonResponse, type Transport } from './transport.js';

/** The contract lets clients keep a config for up to five minutes. */
export const CONFIG_MAX_AGE_MS = LIMITS.configMaxAgeSeconds * 1000;

interface CachedConfig {
  config: WidgetConfig;
  etag: string | null;
  storedAt: number;
  maxAgeMs: number;
}

/** Per endpoint (one widget key on one API origin), shared by every client on the page. */
const cache = new Map<string, CachedConfig>();
const inFlight = new Map<string, Promise<WidgetConfig>>();

/** Forgets every cached config; for tests and for a preview that just changed the settings. */
export function clearConfigCache(): void {
  cache.clear();
  inFlight.clear();
}

/**
 * The widget's presentation config: from memory while fresh, else from the server, revalidated
 * with the stored ETag so an unchanged config costs a 304. Concurrent callers share one request.
 *
 * Same-origin, the ETag is sent as `If-None-Match`. Cross-origin it is not: that header is
 * not CORS-safelisted, and the contract's preflight does not allow it, so it would break the
 * request. There the browser's HTTP cache revalidates instead (`cache: 'no-cache'`), which
 * adds the condition itself without a preflight.
 */
export async function fetchConfigCached(transport: Transport, signal?: AbortSignal, now: () => number = Date.now): Promise<WidgetConfig> {
  if (signal?.aborted) throw abortReason(signal);
  const key = transport.endpoint;
  const cached = cache.get(key);
  if (cached && now() - cached.storedAt < cached.maxAgeMs) return cached.config;
  let request = inFlight.get(key);
  if (!request) {
    request = loadConfig(transport, cached, now).finally(() => inFlight.delete(key));
    inFlight.set(key, request);
  }
  return signal ? raceAbort(request, signal) : request;
}

async function loadConfig(transport: Transport, cached: CachedConfig | undefined, now: () => number): Promise<WidgetConfig> {
  const sameOrigin = new URL(transport.endpoint).origin === globalThis.location?.origin;
  const conditional = cached?.etag && sameOrigin ? { 'If-None-Match': cached.etag } : undefined;
  const response = await transport.send({
    method: 'GET',
    path: '/config',
    ...(conditional && { headers: conditional }),
    ...(cached && !sameOrigin && { cache: 'no-cache' as const }),
    passStatuses: [304],
  });
  if (response.status === 304) {
    if (!cached) throw invalidResponse(304, 'The server answered 304 to a request that had nothing to revalidate.');
    const refreshed = { ...cached, storedAt: now(), maxAgeMs: maxAge(response) };
    cache.set(transport.endpoint, refreshed);
    return refreshed.config;
  }
  const config = await parseJsonResponse(response, parseWidgetConfig);
  cache.set(transport.endpoint, { config, etag: response.headers.get('ETag'), storedAt: now(), maxAgeMs: maxAge(response) });
  return config;
}

/** The server's `max-age`, never longer than the contract's five minutes. */
function maxAge(response: Response): number {
  const match = /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(response.headers.get('Cache-Control') ?? '');
  if (/no-store|no-cache/i.test(response.headers.get('Cache-Control') ?? '')) return 0;
  return match ? Math.min(Number(match[1]) * 1000, CONFIG_MAX_AGE_MS) : CONFIG_MAX_AGE_MS;
}

/** One caller giving up must not cancel the request others share, so each races its own signal. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A config body checked field by field: a field of the wrong type or missing takes its
 * default, so a server a version ahead or behind still yields a usable widget. Null when
 * it is not a config at all (no object, unknown widget type).
 */
export function parseWidgetConfig(body: unknown): WidgetConfig | null {
  if (!isRecord(body) || !WIDGET_TYPES.includes(body.type as WidgetType)) return null;
  const type = body.type as WidgetType;
  const defaults = defaultConfig(type, typeof body.name === 'string' ? body.name : '');
  const config: WidgetConfig = { ...defaults };
  const writable = config as unknown as Record<string, unknown>;
  for (const [field, fallback] of Object.entries(defaults)) {
    const value = body[field];
    if (field === 'avatar') writable[field] = typeof value === 'string' && value ? value : null;
    else if (field === 'suggestions') writable[field] = Array.isArray(value) ? value.filter((question): question is string => typeof question === 'string' && question.trim() !== '').slice(0, LIMITS.suggestions) : [];
    else if (typeof value === typeof fallback && (typeof value !== 'number' || Number.isFinite(value))) writable[field] = value;
  }
  if (!VARIANTS[type].includes(config.variant)) config.variant = defaults.variant;
  if (!THEMES.includes(config.theme)) config.theme = defaults.theme;
  if (config.debounce < 0) config.debounce = defaults.debounce;
  return config;
}
