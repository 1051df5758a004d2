/**
 * The counts behind the per-widget, per-address rate limits (http/rate-limit.ts says which
 * routes have one): fixed one-minute windows in the database, so every server process on
 * one PostgreSQL shares them.
 */
import type { Queryable } from './db.js';

const WINDOW_MS = 60_000;

export class RateLimiter {
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => number = Date.now,
  ) {
    // Windows older than the previous minute are of no use to anyone; any process may drop them.
    this.sweeper = setInterval(() => void this.sweep().catch(() => {}), WINDOW_MS);
    this.sweeper.unref();
  }

  /** Counts one request for `bucket` (through `db`, by default the limiter's); resolves to 0 when it may go ahead, else the whole seconds to wait. */
  async take(bucket: string, limit: number, db: Queryable = this.db): Promise<number> {
    const now = this.now();
    const window = Math.floor(now / WINDOW_MS);
    const rows = await db.query<{ hits: number }>(
      `INSERT INTO rate_limit_windows (bucket, window_index, hits) VALUES ($1, $2, 1)
       ON CONFLICT (bucket, window_index) DO UPDATE SET hits = rate_limit_windows.hits + 1
       RETURNING hits`,
      [bucket, window],
    );
    if (rows[0]!.hits <= limit) return 0;
    return Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
  }

  async sweep(): Promise<void> {
    await this.db.query('DELETE FROM rate_limit_windows WHERE window_index < $1', [Math.floor(this.now() / WINDOW_MS) - 1]);
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
