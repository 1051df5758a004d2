/**
 * What answers (chat and summarize, streamed or not) may take of the server at once.
 *
 * - Slots: at most `maxStreams` answers in progress, and `maxStreamsPerClient` per client
 *   address; beyond either, 429 `rate_limited` with `Retry-After` (a few seconds: an answer
 *   takes about that long). Counted per process, as the connections they hold are.
 * - Database lane: an answer's queries and transactions (authorising the request and counting
 *   it against the rate limit, retrieval, spending and settling credits, storing the exchange)
 *   go through a queue that lets only a few run at once. The
 *   database serves queries in arrival order, so without it a burst of answers puts
 *   thousands of queries ahead of everyone else's (`/healthz`, config, search); with it they
 *   wait in this queue and other requests wait for at most the lane's few.
 */
import type { Db } from '../store/db.js';
import { HttpError } from './errors.js';

/** Seconds a client refused for want of a slot is told to wait. */
export const ANSWER_SLOT_RETRY_SECONDS = 5;

/**
 * Answer queries running at once. PGlite runs one query at a time on this very thread, so
 * one keeps it busy and puts at most one answer query ahead of anything else. On
 * PostgreSQL two keep the database working on answers while leaving most of the pool's 10
 * connections, and the database server's processor, to other requests.
 */
export const ANSWER_DB_CONCURRENCY = { pglite: 1, postgres: 2 } as const;

/** Runs work with at most `limit` at once, in arrival order. */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    // PGlite runs queries on this thread, and one query's end starts the next within the same
    // turn of the event loop: without a turn in between, a queue of answers would keep new
    // connections and every other request waiting until the whole queue is done.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next in line; `running` stays as it is.
      if (next) next();
      else this.running--;
    }
  }
}

/** `db` with every query, script and transaction going through `gate`; queries inside a transaction run in its slot. */
export function gatedDb(db: Db, gate: Gate): Db {
  return {
    kind: db.kind,
    query: (sql, params) => gate.run(() => db.query(sql, params)),
    exec: (sql) => gate.run(() => db.exec(sql)),
    transaction: (work) => gate.run(() => db.transaction(work)),
    // The lane shares the server's database, which the server closes itself.
    close: async () => {},
  };
}

export class AnswerSlots {
  private total = 0;
  private readonly perClient = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly maxPerClient: number,
  ) {}

  /** Takes a slot for `client`, or throws 429; the returned function gives it back (once). */
  take(client: string): () => void {
    const mine = this.perClient.get(client) ?? 0;
    if (this.maxPerClient > 0 && mine >= this.maxPerClient) {
      throw refused(`This address has ${mine} answers in progress, the most it may have at once; try again in ${ANSWER_SLOT_RETRY_SECONDS} s.`);
    }
    if (this.max > 0 && this.total >= this.max) {
      throw refused(`The server is answering as many questions as it can at once; try again in ${ANSWER_SLOT_RETRY_SECONDS} s.`);
    }
    this.total++;
    this.perClient.set(client, mine + 1);
    let returned = false;
    return () => {
      if (returned) return;
      returned = true;
      this.total--;
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    };
  }
}

const refused = (message: string) => new HttpError('rate_limited', message, { 'Retry-After': String(ANSWER_SLOT_RETRY_SECONDS) });
