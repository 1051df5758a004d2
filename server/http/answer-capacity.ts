/** Runs answers within the server's capacity (http/answer-slots.ts says what that is). */
import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context.js';
import type { Db } from '../store/db.js';
import { ANSWER_DB_CONCURRENCY, AnswerSlots, Gate, gatedDb } from './answer-slots.js';
import { authoriseWidget, type WidgetAccess, type WidgetPermission } from './auth.js';
import { clientAddress, enforceRateLimit } from './rate-limit.js';
import type { WidgetType } from '../../wire/contract.js';

/** The database as answers see it: every answer's queries, and those of its authorisation, wait their turn in one narrow lane. */
function answerLane(app: AppContext): Db {
  return (app.services.answerLane ??= gatedDb(app.db, new Gate(ANSWER_DB_CONCURRENCY[app.db.kind])));
}

/**
 * Authorises a chat or summarize request and counts it against the rate limit, with their
 * queries in the answer lane: a burst of answers arriving at once (hundreds of clients) is a
 * burst of credential, widget and rate-limit queries too, and in the lane they wait behind
 * each other rather than ahead of `/healthz` and every other request. Checks and their order
 * are authoriseWidget's, then the rate limit's.
 */
export async function authoriseAnswer(
  app: AppContext,
  req: IncomingMessage,
  target: { organisation: string; widget: string; permission: WidgetPermission; type: WidgetType },
): Promise<WidgetAccess> {
  const lane = answerLane(app);
  const access = await authoriseWidget(lane, req, target);
  await enforceRateLimit(app, req, access.widget, 'answer', lane);
  return access;
}

/**
 * Runs one answer in a slot, with a context whose database is the answer lane; the slot is
 * given back when `work` settles (for a stream, when it has ended).
 */
export async function withAnswerCapacity<T>(app: AppContext, req: IncomingMessage, work: (answerApp: AppContext) => Promise<T>): Promise<T> {
  const slots = (app.services.answerSlots ??= new AnswerSlots(app.limits.maxStreams, app.limits.maxStreamsPerClient));
  const release = slots.take(clientAddress(req, app.limits.trustProxy));
  try {
    return await work({ ...app, db: answerLane(app) });
  } finally {
    release();
  }
}
