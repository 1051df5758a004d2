/**
 * Rate limits for chat and summarize: `app.rateLimit` requests per minute per widget and
 * client address (0: off). The count is an approximate sliding window: the current
 * minute's requests plus the previous minute's, weighted by how much of that minute still
 * overlaps the last 60 seconds. Constant memory per key; keys idle for two minutes are
 * swept. It lives in memory, so several server instances each count on their own (a
 * visitor may get up to N × the limit across N instances). The client address is the
 * socket's; `X-Forwarded-For` is not trusted.
 */
import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../app.js';
import { HttpError } from './errors.js';

const WINDOW_MS = 60_000;

interface Counter {
  windowStart: number;
  previous: number;
  current: number;
}

export class RateLimiter {
  private readonly counters = new Map<string, Counter>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), WINDOW_MS);
    this.sweeper.unref();
  }

  /** Counts one request for `key`; returns 0 when it may go ahead, else the seconds to wait. */
  take(key: string): number {
    const now = this.now();
    let counter = this.counters.get(key);
    if (!counter) {
      counter = { windowStart: now, previous: 0, current: 0 };
      this.counters.set(key, counter);
    }
    const elapsedWindows = Math.floor((now - counter.windowStart) / WINDOW_MS);
    if (elapsedWindows > 0) {
      counter.previous = elapsedWindows === 1 ? counter.current : 0;
      counter.current = 0;
      counter.windowStart += elapsedWindows * WINDOW_MS;
    }
    const elapsed = now - counter.windowStart;
    const estimate = (counter.previous * (WINDOW_MS - elapsed)) / WINDOW_MS + counter.current;
    if (estimate + 1 <= this.limit) {
      counter.current++;
      return 0;
    }
    return Math.max(1, Math.ceil(this.waitMs(counter, elapsed) / 1000));
  }

  /** How long until one more request fits under the limit. */
  private waitMs(counter: Counter, elapsed: number): number {
    const room = this.limit - 1;
    if (counter.current <= room) {
      // Only the previous minute's share is in the way: wait until enough of it slides out.
      const needed = WINDOW_MS * (1 - (room - counter.current) / counter.previous);
      return needed - elapsed;
    }
    // This minute is full: wait for the next one, and then for enough of this one to slide out.
    const intoNext = counter.current > 0 ? WINDOW_MS * Math.max(0, 1 - room / counter.current) : 0;
    return WINDOW_MS - elapsed + intoNext;
  }

  private sweep(): void {
    const cutoff = this.now() - 2 * WINDOW_MS;
    for (const [key, counter] of this.counters) if (counter.windowStart < cutoff) this.counters.delete(key);
  }

  close(): void {
    clearInterval(this.sweeper);
    this.counters.clear();
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
