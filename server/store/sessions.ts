/**
 * Analytics sessions. The SDK makes one id per tab (`s_` and 32 hex digits) and sends it
 * with every search, chat, summary and click; when a request has none, the server makes
 * one and answers with it, so later requests and clicks join the same session. There is no
 * session table: the id ties rows of `search_queries`, `answers` and `analytics_events`.
 */
import { randomBytes } from 'node:crypto';

export function newSessionId(): string {
  return `s_${randomBytes(16).toString('hex')}`;
}

/** The request's `sessionId` (as its schema checked it), or a new one when it has none. */
export function sessionIdFrom(body: { sessionId?: string | null }): string {
  return body.sessionId || newSessionId();
}
