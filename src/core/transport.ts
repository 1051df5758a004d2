import type { Hit } from '../../wire/contract.js';
import { AssistError, abortedError, codeForStatus, isContractErrorCode, parseRetryAfter } from './errors.js';
import { readServerSentEvents, type ServerSentEvent } from './sse.js';

/** How idempotent reads are retried after a network error, a 5xx or a 429. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** Delay before the first retry; doubles each time, with jitter. */
  baseDelayMs: number;
  /** No single wait is longer; a 429 asking for more is not retried but reported. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 300, maxDelayMs: 5000 };

export interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the transport's endpoint, e.g. `/config`. */
  path: string;
  query?: Record<string, string | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  accept?: string;
  signal?: AbortSignal | undefined;
  cache?: RequestCache;
  keepalive?: boolean;
  /** Statuses besides 2xx handed back as responses rather than errors, e.g. 304. */
  passStatuses?: readonly number[];
}

export interface TransportConfig {
  /** `{baseUrl}/api/v1/{organisation}/widgets/{widget}` */
  endpoint: string;
  /** Headers added to every request, read at send time (the preview token). */
  headers?: () => Record<string, string>;
  retry?: RetryPolicy;
}

/**
 * fetch for the widget API: the contract's error bodies become {@link AssistError}s,
 * idempotent GETs retry with backoff, and every wait honours the caller's `AbortSignal`.
 * No cookies are ever sent.
 */
export class Transport {
  readonly endpoint: string;
  private readonly extraHeaders: () => Record<string, string>;
  private readonly retry: RetryPolicy;

  constructor(config: TransportConfig) {
    this.endpoint = config.endpoint;
    this.extraHeaders = config.headers ?? (() => ({}));
    this.retry = config.retry ?? DEFAULT_RETRY;
  }

  url(path: string, query?: Record<string, string | undefined>): string {
    const url = new URL(this.endpoint + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    return url.href;
  }

  /** Sends a request and returns a 2xx (or a `passStatuses`) response; anything else throws an AssistError. */
  async send(spec: RequestSpec): Promise<Response> {
    const { signal } = spec;
    const retries = spec.method === 'GET' ? this.retry.retries : 0;
    const headers: Record<string, string> = { Accept: spec.accept ?? 'application/json', ...this.extraHeaders(), ...spec.headers };
    if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
    const init: RequestInit = {
      method: spec.method,
      headers,
      credentials: 'omit',
      ...(spec.body !== undefined && { body: JSON.stringify(spec.body) }),
      ...(signal && { signal }),
      ...(spec.cache && { cache: spec.cache }),
      ...(spec.keepalive && { keepalive: true }),
    };
    const url = this.url(spec.path, spec.query);
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw abortReason(signal);
      let response: Response;
      try {
        response = await fetch(url, init);
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        const failure = new AssistError('network', 'Could not reach the Assist API; check the connection and that this site is on the widget’s website list.', { cause: error });
        const delay = attempt < retries ? this.backoff(attempt) : null;
        if (delay === null) throw failure;
        await sleep(delay, signal);
        continue;
      }
      if (response.ok || spec.passStatuses?.includes(response.status)) return response;
      const failure = await errorFromResponse(response);
      const retryable = response.status >= 500 || response.status === 429;
      const delay = retryable && attempt < retries ? this.backoff(attempt, failure.retryAfter) : null;
      if (delay === null) throw failure;
      await sleep(delay, signal);
    }
  }

  /** Sends a request and returns its JSON body checked by `parse` (null from `parse` means the wrong shape). */
  async json<T>(spec: RequestSpec, parse: (body: unknown) => T | null): Promise<T> {
    const response = await this.send(spec);
    return parseJsonResponse(response, parse, spec.signal);
  }

  /** Milliseconds before the next attempt, or null when waiting is pointless. */
  private backoff(attempt: number, retryAfterSeconds?: number): number | null {
    const { baseDelayMs, maxDelayMs } = this.retry;
    if (retryAfterSeconds !== undefined) {
      const asked = retryAfterSeconds * 1000;
      return asked <= maxDelayMs ? asked : null;
    }
    const exponential = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
    // Jitter spreads the retries of many visitors hit by the same outage.
    return exponential / 2 + Math.random() * (exponential / 2);
  }
}

export async function parseJsonResponse<T>(response: Response, parse: (body: unknown) => T | null, signal?: AbortSignal): Promise<T> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    throw new AssistError('network', 'The connection broke while the answer was being read.', { status: response.status, cause: error });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw invalidResponse(response.status, 'The server answered with something that is not JSON.', error);
  }
  const parsed = parse(body);
  if (parsed === null) throw invalidResponse(response.status, 'The server’s answer does not have the expected shape.');
  return parsed;
}

export function invalidResponse(status: number, message: string, cause?: unknown): AssistError {
  return new AssistError('invalid_response', message, { status, cause });
}

/**
 * The AssistError for a non-2xx response: code and message from the contract's error body
 * when there is one, else a code derived from the status; `retryAfter` from `Retry-After`;
 * the fallback `hits` of a 402.
 */
export async function errorFromResponse(response: Response): Promise<AssistError> {
  const status = response.status;
  let body: unknown = null;
  try {
    body = JSON.parse(await response.text());
  } catch {
    // a proxy's HTML page, an empty body: the status alone has to do
  }
  const detail = isRecord(body) && isRecord(body.error) ? body.error : null;
  const code = detail && isContractErrorCode(detail.code) ? detail.code : codeForStatus(status);
  const message = detail && typeof detail.message === 'string' && detail.message ? detail.message : `The Assist API answered ${status}${response.statusText ? ` ${response.statusText}` : ''}.`;
  const retryAfter = parseRetryAfter(response.headers.get('Retry-After'));
  const hits = isRecord(body) && Array.isArray(body.hits) ? (body.hits.filter(isHit) as Hit[]) : undefined;
  return new AssistError(code, message, {
    status,
    ...(retryAfter !== undefined && { retryAfter }),
    ...(hits && { hits }),
  });
}

/**
 * Reads a streamed answer. Stops after the terminal event (`done` or `error`, whatever
 * `isTerminal` says); a stream that ends or breaks before one is `stream_interrupted`.
 */
export async function readEventStream(response: Response, onEvent: (event: ServerSentEvent) => boolean | void, signal?: AbortSignal): Promise<void> {
  if (!response.body) throw new AssistError('stream_interrupted', 'The answer stream was empty.', { status: response.status });
  try {
    for await (const event of readServerSentEvents(response.body)) {
      if (onEvent(event) === true) return;
    }
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    if (error instanceof AssistError) throw error;
    throw new AssistError('stream_interrupted', 'The connection broke while the answer was streaming.', { status: response.status, cause: error });
  }
  if (signal?.aborted) throw abortReason(signal);
  throw new AssistError('stream_interrupted', 'The answer stream ended before the answer was complete.', { status: response.status });
}

/** The error for an aborted signal: the AssistError it was aborted with, else a generic `aborted`. */
export function abortReason(signal: AbortSignal): AssistError {
  return signal.reason instanceof AssistError ? signal.reason : abortedError(undefined, signal.reason);
}

/** Resolves after `ms`, or rejects with an `aborted` AssistError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * One signal that aborts when any of `signals` does; `release` detaches the listeners once
 * the request is over, so a long-lived caller signal does not collect them.
 */
export function anySignal(signals: readonly (AbortSignal | undefined)[]): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const signal of present) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    release: () => {
      for (const signal of present) signal.removeEventListener('abort', onAbort);
    },
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isHit(value: unknown): value is Hit {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.url === 'string' &&
    typeof value.title === 'string' &&
    typeof value.snippet === 'string' &&
    typeof value.pageId === 'string' &&
    typeof value.source === 'string' &&
    typeof value.score === 'number' &&
    (value.section === undefined || typeof value.section === 'string')
  );
}
