/**
 * What every handler is given: the server's options and the services that live as long as
 * the server. Each service has its own typed field, created on first use by the code that
 * needs it; this module imports no route, so `http/`, `answer/` and `store/` can depend on
 * it without depending on each other.
 */
import type { AnswerEngine } from './answer/types.js';
import type { AnswerSlots } from './http/answer-slots.js';
import type { ServerLimits } from './options.js';
import type { Db } from './store/db.js';
import type { RateLimiter } from './store/rate-limits.js';

export interface AppOptions {
  db: Db;
  /** Bearer token of the admin API; without it (and without one the server made, see store/admin-tokens.ts) the admin API is off. */
  adminToken?: string;
  /** Chat and summarize requests per minute per widget and client address; 0 is no limit. */
  rateLimit: number;
  /** Every other limit and timeout (options.ts says what each is). */
  limits: ServerLimits;
  /** Where the built widget scripts are (`dist/widget/v1`). */
  widgetDir: string;
  /** Where the demo pages are. */
  demoDir: string;
  log: (line: string) => void;
}

/** Resources that live as long as the server; `close` stops their timers. */
export class ServerServices {
  /** Counts requests of the rate-limited routes (http/rate-limit.ts). */
  rateLimiter?: RateLimiter;
  /** Turns questions and sections into answers; tests put their own here. */
  answerEngine?: AnswerEngine;
  /** Answers in progress, per server and per client address (http/answer-capacity.ts). */
  answerSlots?: AnswerSlots;
  /** The database as answers see it: a narrow lane, so answers cannot crowd out other requests. */
  answerLane?: Db;
  /** The timer that deletes expired conversations (store/conversations.ts). */
  conversationPurge?: { close(): void };
  /** Indexing again the pages an earlier indexer indexed (store/pages.ts); `done` once it stopped. */
  reindex?: { close(): void; done: Promise<number> };

  close(): void {
    this.rateLimiter?.close();
    this.conversationPurge?.close();
    this.reindex?.close();
  }
}

export interface AppContext extends AppOptions {
  services: ServerServices;
}
