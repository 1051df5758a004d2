import type { ServerResponse } from 'node:http';
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '../../wire/contract.js';

/** Thrown by handlers; becomes the contract's error body with the code's status. */
export class HttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Extra top-level members of the error body, e.g. `pageId` on 409 or `hits` on 402. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string) => new HttpError('invalid_request', message);
export const notFound = (what = 'resource') => new HttpError('not_found', `No such ${what}.`);

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { error: { code, message } };
}

/** Writes an error response unless headers already went out (then the socket is closed). */
export function sendError(res: ServerResponse, error: unknown): void {
  const httpError =
    error instanceof HttpError ? error : new HttpError('internal', 'Something went wrong on our side. Please try again.');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8', ...httpError.headers };
  if (httpError.status === 401) headers['WWW-Authenticate'] ??= 'Bearer';
  const payload = JSON.stringify({ ...errorBody(httpError.code, httpError.message), ...httpError.extra });
  res.writeHead(httpError.status, { ...headers, 'Content-Length': Buffer.byteLength(payload) });
  res.end(payload);
}
