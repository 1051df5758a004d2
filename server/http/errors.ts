import type { ServerResponse } from 'node:http';
import type { ErrorBody, ErrorCode } from '../../wire/contract.js';
import { HttpError } from '../errors.js';

/** The error class lives outside http/ so the store can raise it; this module turns it into responses. */
export { HttpError, badRequest, notFound } from '../errors.js';

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
