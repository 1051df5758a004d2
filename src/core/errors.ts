import { ERROR_STATUS, type ErrorCode, type Hit } from '../../wire/contract.js';

/**
 * Codes the client produces itself, when no server answered with one of the contract's codes:
 *
 * - `network`: the request never got an HTTP answer (offline, DNS, CORS refusal).
 * - `aborted`: cancelled through an `AbortSignal`, replaced by a newer search, or the client was disposed.
 * - `stream_interrupted`: a streamed answer ended before its `done` or `error` event.
 * - `invalid_response`: the server answered 2xx with a body that is not the contract's shape.
 * - `invalid_key`: the widget key is not `{organisation}/{widget}`.
 * - `http_error`: a non-2xx status the contract does not list, without an error body.
 */
export const CLIENT_ERROR_CODES = ['network', 'aborted', 'stream_interrupted', 'invalid_response', 'invalid_key', 'http_error'] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** Every code an {@link AssistError} can carry: the contract's codes plus the client's own. */
export type AssistErrorCode = ErrorCode | ClientErrorCode;

export interface AssistErrorInit {
  status?: number;
  retryAfter?: number;
  hits?: Hit[];
  cause?: unknown;
}

/**
 * The one error type of the SDK, from the wire to the UI. `status` is the HTTP status, or
 * 0 when no server answered (network failure, abort, a check made before sending).
 *
 * @example
 * try {
 *   await client.chat('How do I reset my password?');
 * } catch (error) {
 *   if (error instanceof AssistError && error.code === 'credits_exhausted') showLinks(error.hits);
 * }
 */
export class AssistError extends Error {
  readonly status: number;
  readonly code: AssistErrorCode;
  /** Seconds to wait before trying again, from a 429's `Retry-After`. */
  readonly retryAfter?: number;
  /** On a 402 from chat: search results for the message, so a UI can fall back to them. */
  readonly hits?: Hit[];

  constructor(code: AssistErrorCode, message: string, init: AssistErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'AssistError';
    this.code = code;
    this.status = init.status ?? 0;
    if (init.retryAfter !== undefined) this.retryAfter = init.retryAfter;
    if (init.hits !== undefined) this.hits = init.hits;
  }
}

/** True for an {@link AssistError}, also one made by another copy of the SDK on the page. */
export function isAssistError(value: unknown): value is AssistError {
  return value instanceof AssistError || (value instanceof Error && value.name === 'AssistError' && 'code' in value && 'status' in value);
}

/** What a failure that is not an {@link AssistError} becomes, by where it was caught. */
export type UnexpectedFailureCode = Extract<AssistErrorCode, 'network' | 'internal'>;

const UNEXPECTED_FAILURE_MESSAGES: Record<UnexpectedFailureCode, string> = {
  network: 'The request failed.',
  internal: 'Something went wrong.',
};

/**
 * Any failure as an {@link AssistError}: one already (from any copy of the SDK) as it is,
 * anything else with `code` and the original as `cause`. The client passes `network`, since
 * what its requests throw that it did not make itself comes from `fetch` (offline, DNS, CORS);
 * the elements keep the default, `internal`, since there it can only be a fault in the page
 * or the SDK.
 */
export function toAssistError(error: unknown, code: UnexpectedFailureCode = 'internal'): AssistError {
  if (isAssistError(error)) return error;
  const message = error instanceof Error ? error.message : typeof error === 'string' && error !== '' ? error : UNEXPECTED_FAILURE_MESSAGES[code];
  return new AssistError(code, message, { cause: error });
}

export function abortedError(reason = 'The request was cancelled.', cause?: unknown): AssistError {
  return new AssistError('aborted', reason, { cause });
}

const KNOWN_CODES = new Set<string>(Object.keys(ERROR_STATUS));

export function isContractErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && KNOWN_CODES.has(code);
}

/**
 * The code to report for a status whose body carried no usable code: the contract's code for
 * that status (the first listed, for 403), `internal` for any 5xx, else `http_error`.
 */
export function codeForStatus(status: number): AssistErrorCode {
  for (const [code, codeStatus] of Object.entries(ERROR_STATUS)) {
    if (codeStatus === status) return code as ErrorCode;
  }
  return status >= 500 ? 'internal' : 'http_error';
}

/**
 * Seconds from a `Retry-After` header: either delta-seconds or an HTTP date.
 * Undefined when absent or unreadable (cross-origin, it is only visible when the server
 * lists it in `Access-Control-Expose-Headers`).
 */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // An HTTP date always names its weekday and month; Date.parse would also take "-3" as a year.
  const date = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
