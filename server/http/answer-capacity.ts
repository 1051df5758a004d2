/** Runs answers within the server's capacity (http/answer-slots.ts says what that is). */
import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context.js';
import { ANSWER_DB_CONCURRENCY, AnswerSlots, Gate, gatedDb } from './answer-slots.js';
import { clientAddress } from './rate-limit.js';

/**
 * Runs one answer in a slot, with a context whose database is the answer lane; the slot is
 * given back when `work` settles (for a stream, when it has ended).
 */
export async function withAnswerCapacity<T>(app: AppContext, req: IncomingMessage, work: (answerApp: AppContext) => Promise<T>): Promise<T> {
  const slots = (app.services.answerSlots ??= new AnswerSlots(app.limits.maxStreams, app.limits.maxStreamsPerClient));
  const lane = (app.services.answerLane ??= gatedDb(app.db, new Gate(ANSWER_DB_CONCURRENCY[app.db.kind])));
  const release = slots.take(clientAddress(req, app.limits.trustProxy));
  try {
    return await work({ ...app, db: lane });
  } finally {
    release();
  }
}
