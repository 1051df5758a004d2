/**
 * The contract's errors as values: a code of the contract's table (with its status), a
 * message for people, and what else the body or headers carry. Any layer may throw one (the
 * store raises not found and conflict, schema checks raise invalid_request); http/errors.ts
 * turns it into the contract's error response.
 */
import { ERROR_STATUS, type ErrorCode } from '../wire/contract.js';

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
export const conflict = (message: string, extra: Record<string, unknown> = {}) => new HttpError('conflict', message, {}, extra);
