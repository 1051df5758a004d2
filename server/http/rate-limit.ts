/**
 * Rate limits for chat and summarize: `app.rateLimit` requests per minute per widget and
 * client address (0: off), as a sliding window: a request is allowed when fewer than the
 * limit were allowed in the 60 seconds before it, and `Retry-After` says when the oldest of
 * those leaves the window. Memory is one timestamp per allowed request of the last minute;
 * idle keys are swept. It lives in memory, so several server instances each count on their
 * own (a visitor may get up to N × the limit across N instances). The client address is
 * the socket's; `X-Forwarded-For` is not trusted.
 */
import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../app.js';
import { HttpError } from './errors.js';

const WINDOW_MS = 60_000;

/** Times of the allowed requests of one key, oldest first, from `head` on. */
interface Window {
  times: number[];
  head: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), WINDOW_MS);
    this.sweeper.unref();
  }

  /** Counts one request for `key`; returns 0 when it may go ahead, else the whole seconds to wait. */
  take(key: string): number {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window) {
      window = { times: [], head: 0 };
      this.windows.set(key, window);
    }
    while (window.head < window.times.length && window.times[window.head]! <= now - WINDOW_MS) window.head++;
    if (window.head > 64 && window.head * 2 > window.times.length) {
      window.times = window.times.slice(window.head);
      window.head = 0;
    }
    if (window.times.length - window.head < this.limit) {
      window.times.push(now);
      return 0;
    }
    return Math.max(1, Math.ceil((window.times[window.head]! + WINDOW_MS - now) / 1000));
  }

  private sweep(): void {
    const cutoff = this.now() - WINDOW_MS;
    for (const [key, window] of this.windows) if ((window.times.at(-1) ?? 0) <= cutoff) this.windows.delete(key);
  }

  close(): void {
    clearInterval(this.sweeper);
    this.windows.clear();
  }
}

const SERVICE = 'rate-limiter';

/** Throws 429 `rate_limited` with `Retry-After` when this widget and client address are over the limit. */
export function enforceRateLimit(app: AppContext, req: IncomingMessage, widget: { organisationId: string; id: string }): void {
  if (!app.rateLimit || app.rateLimit <= 0) return;
  let limiter = app.services.get(SERVICE) as RateLimiter | undefined;
  if (!limiter || limiter.limit !== app.rateLimit) {
    limiter?.close();
    limiter = new RateLimiter(app.rateLimit);
    app.services.set(SERVICE, limiter);
  }
  const address = req.socket.remoteAddress ?? 'unknown';
  const wait = limiter.take(`${widget.organisationId}/${widget.id}\u0000${address}`);
  if (wait > 0) {
    throw new HttpError('rate_limited', `Too many requests from this address; try again in ${wait} s.`, { 'Retry-After': String(wait) });
  }
}
