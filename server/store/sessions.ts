/**
 * Analytics sessions. The SDK makes one id per tab (`s_` and 32 hex digits) and sends it
 * with every search, chat, summary and click; when a request has none, the server makes
 * one and answers with it, so later requests and clicks join the same session. There is no
 * session table: the id ties rows of `search_queries`, `answers` and `analytics_events`.
 */
import { randomBytes } from 'node:crypto';
import { badRequest } from '../http/errors.js';

/** What the SDK accepts as a session id; anything else is refused rather than stored. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export function newSessionId(): string {
  return `s_${randomBytes(16).toString('hex')}`;
}

/** The request's `sessionId` field, checked, or a new one when it has none. */
export function sessionIdFrom(body: Record<string, unknown>, field = 'sessionId'): string {
  const value = body[field];
  if (value === undefined || value === null || value === '') return newSessionId();
  if (typeof value !== 'string' || !SESSION_ID_PATTERN.test(value)) {
    throw badRequest(`\`${field}\` must be 1–128 letters, digits, '_' or '-'.`);
  }
  return value;
}
