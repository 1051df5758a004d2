/**
 * Rate limits of the public widget routes that store or cost something: chat and summarize
 * (`--rate-limit`), search (`--search-rate-limit`) and events (`--events-rate-limit`), each
 * counted per widget and client address in fixed one-minute windows. The counts live in the
 * database (one upsert per request), so every server process on one PostgreSQL shares them:
 * N instances behind a load balancer allow a client the limit, not N times it. Over the
 * limit: 429 `rate_limited` with `Retry-After`, the seconds until the window ends.
 *
 * The client address is the socket's, or, behind `--trust-proxy N` proxies, the address the
 * outermost trusted proxy saw: the Nth entry of `X-Forwarded-For` counted from the right,
 * the socket's address being the last. Entries further left are whatever the client wrote.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { AppContext } from '../context.js';
import type { Queryable } from '../store/db.js';
import { RateLimiter } from '../store/rate-limits.js';
import { HttpError } from './errors.js';

/** What a limit counts: answers (chat and summarize share one count), searches, events requests. */
export type RateLimitedRoute = 'answer' | 'search' | 'events';


function limitOf(app: AppContext, route: RateLimitedRoute): number {
  if (route === 'answer') return app.rateLimit;
  return route === 'search' ? app.limits.searchRateLimit : app.limits.eventsRateLimit;
}

/**
 * Throws 429 `rate_limited` with `Retry-After` when this widget and client address are over
 * the route's limit. `db`: where the count is taken (answers count in their own lane).
 */
export async function enforceRateLimit(
  app: AppContext,
  req: IncomingMessage,
  widget: { organisationId: string; id: string },
  route: RateLimitedRoute = 'answer',
  db: Queryable = app.db,
): Promise<void> {
  const limit = limitOf(app, route);
  if (!limit || limit <= 0) return;
  app.services.rateLimiter ??= new RateLimiter(app.db);
  const wait = await app.services.rateLimiter.take(`${route} ${widget.organisationId}/${widget.id} ${clientAddress(req, app.limits.trustProxy)}`, limit, db);
  if (wait > 0) {
    throw new HttpError('rate_limited', `Too many requests from this address; try again in ${wait} s.`, { 'Retry-After': String(wait) });
  }
}

/** `::ffff:192.0.2.1` (IPv4 on an IPv6 socket) is 192.0.2.1, so one client has one address however it connects. */
function normaliseAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return (mapped ? mapped[1]! : address).toLowerCase();
}

/**
 * The address of the client a request comes from (see the top of this file). A trusted
 * entry that is not an IP address is a proxy's mistake; the proxy's own address is used then.
 */
export function clientAddress(req: IncomingMessage, trustProxy: number): string {
  const socketAddress = normaliseAddress(req.socket.remoteAddress ?? 'unknown');
  if (trustProxy <= 0) return socketAddress;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const chain = [...forwarded, socketAddress];
  let index = Math.max(0, chain.length - 1 - trustProxy);
  // A proxy may write `[v6]:port` or `v4:port`; the port is not part of who the client is.
  const candidate = chain[index]!.replace(/^\[([^\]]+)\](?::\d+)?$/, '$1').replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1');
  if (isIP(candidate) === 0) index = chain.length - 1;
  return index === chain.length - 1 ? socketAddress : normaliseAddress(candidate);
}
