/**
 * Analytics events sent by the SDK and the beacon. A `click`, with `props`
 * `{ url, rank?, source? }`, is tied to its session and, when given, to the search (`queryId`)
 * it came from, which is what the search → click funnel is computed from. A `feedback`, with
 * `props` `{ answerId, value, comment? }`, rates an answer: one in a signed visitor's
 * conversation is rated by that visitor (the body's verified `user`, from any session), any
 * other one by the session that received it; one rating per answer, a later one replaces it. Bodies are validated strictly: anything unknown
 * or ill-typed is refused (400) rather than stored.
 */
import { FEEDBACK_VALUES, LIMITS, type FeedbackValue } from '../../wire/contract.js';
import { badRequest } from '../http/errors.js';
import { storableTime } from '../http/validate.js';
import type { Queryable } from './db.js';
import { SESSION_ID_PATTERN } from './sessions.js';
import { ownerKey, type WidgetScope } from './conversations.js';

export interface ClickEvent {
  name: 'click';
  url: string;
  rank: number | null;
  source: string | null;
  queryId: string | null;
  clientTime: string | null;
}

export interface FeedbackEvent {
  name: 'feedback';
  answerId: string;
  value: FeedbackValue;
  comment: string | null;
}

export type RecordedEvent = ClickEvent | FeedbackEvent;

/** The most events one request may carry (the body is also capped at 64 KiB). */
export const MAX_EVENTS = 100;
const EVENT_FIELDS = new Set(['name', 'props', 'queryId', 'ts']);
const PROP_FIELDS = new Set(['url', 'rank', 'source']);
const FEEDBACK_FIELDS = new Set(['answerId', 'value', 'comment']);
const QUERY_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const ANSWER_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Checks an events body; throws 400 naming the first field that is wrong. */
export function parseEventsBody(body: Record<string, unknown>): { sessionId: string; events: RecordedEvent[] } {
  // `user` ({ id, hash }, as in chat) is verified by the route, which holds the signing secret.
  const sessionId = body.sessionId;
  if (typeof sessionId !== 'string' || !SESSION_ID_PATTERN.test(sessionId)) {
    throw badRequest("`sessionId` is required: 1–128 letters, digits, '_' or '-'.");
  }
  for (const key of Object.keys(body)) if (key !== 'sessionId' && key !== 'events' && key !== 'user') throw badRequest(`\`${key}\` is not a field of an events body.`);
  const list = body.events;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_EVENTS) throw badRequest(`\`events\` must be an array of 1 to ${MAX_EVENTS} events.`);
  const events = list.map((event, index): RecordedEvent => {
    const at = `events[${index}]`;
    if (!isObject(event)) throw badRequest(`\`${at}\` must be an object.`);
    for (const key of Object.keys(event)) if (!EVENT_FIELDS.has(key)) throw badRequest(`\`${at}.${key}\` is not a field of an event.`);
    if (event.name === 'feedback') return parseFeedback(event, at);
    if (event.name !== 'click') throw badRequest(`\`${at}.name\` must be "click" or "feedback".`);
    const props = event.props;
    if (!isObject(props)) throw badRequest(`\`${at}.props\` must be an object with \`url\`.`);
    for (const key of Object.keys(props)) if (!PROP_FIELDS.has(key)) throw badRequest(`\`${at}.props.${key}\` is not a property of a click.`);
    if (typeof props.url !== 'string' || props.url.trim() === '' || props.url.length > 2048) {
      throw badRequest(`\`${at}.props.url\` must be a non-empty string of at most 2048 characters.`);
    }
    const rank = props.rank ?? null;
    if (rank !== null && (typeof rank !== 'number' || !Number.isInteger(rank) || rank < 0 || rank > 10_000)) {
      throw badRequest(`\`${at}.props.rank\` must be a whole number from 0 to 10000.`);
    }
    const source = props.source ?? null;
    if (source !== null && (typeof source !== 'string' || source.length > 64)) throw badRequest(`\`${at}.props.source\` must be a string of at most 64 characters.`);
    const queryId = event.queryId ?? null;
    if (queryId !== null && (typeof queryId !== 'string' || !QUERY_ID_PATTERN.test(queryId))) {
      throw badRequest(`\`${at}.queryId\` must be a query id from a search response.`);
    }
    const ts = event.ts ?? null;
    if (ts !== null && (typeof ts !== 'string' || ts.length > 64 || !storableTime(Date.parse(ts)))) {
      throw badRequest(`\`${at}.ts\` must be an ISO 8601 time from the year 1 to 9999.`);
    }
    return { name: 'click', url: props.url, rank: rank as number | null, source: source as string | null, queryId: queryId as string | null, clientTime: ts ? new Date(ts).toISOString() : null };
  });
  return { sessionId, events };
}

function parseFeedback(event: Record<string, unknown>, at: string): FeedbackEvent {
  const props = event.props;
  if (!isObject(props)) throw badRequest(`\`${at}.props\` must be an object with \`answerId\` and \`value\`.`);
  for (const key of Object.keys(props)) if (!FEEDBACK_FIELDS.has(key)) throw badRequest(`\`${at}.props.${key}\` is not a property of a feedback.`);
  if (typeof props.answerId !== 'string' || !ANSWER_ID_PATTERN.test(props.answerId)) {
    throw badRequest(`\`${at}.props.answerId\` must be the \`answerId\` of an answer.`);
  }
  if (!FEEDBACK_VALUES.includes(props.value as FeedbackValue)) throw badRequest(`\`${at}.props.value\` must be "helpful" or "unhelpful".`);
  const comment = props.comment ?? null;
  if (comment !== null && (typeof comment !== 'string' || comment.length > LIMITS.feedbackComment)) {
    throw badRequest(`\`${at}.props.comment\` must be a string of at most ${LIMITS.feedbackComment} characters.`);
  }
  return { name: 'feedback', answerId: props.answerId, value: props.value as FeedbackValue, comment: comment?.trim() || null };
}

/**
 * Stores clicks, and ratings of answers this rater received (`visitorId`: the verified
 * visitor, null when anonymous). A rating of any other answer (unknown, another widget's,
 * another visitor's or session's) refuses the whole body with a 400 before anything is
 * written, saying the same in every case so answer ids cannot be probed. Ratings are one row
 * per answer; clicks count against the organisation's daily cap (recordClicks).
 */
export async function recordEvents(
  db: Queryable,
  scope: WidgetScope,
  rater: { sessionId: string; visitorId: string | null },
  events: RecordedEvent[],
): Promise<{ stored: number; dropped: number; firstDrop: boolean }> {
  const { sessionId } = rater;
  const clicks = events.filter((event): event is ClickEvent => event.name === 'click');
  // One row per answer: within a body too, the last rating wins.
  const ratings = new Map(events.filter((event): event is FeedbackEvent => event.name === 'feedback').map((event) => [event.answerId, event]));
  if (ratings.size > 0) await requireReceivedAnswers(db, scope, rater, events);
  for (const rating of ratings.values()) {
    await db.query(
      `INSERT INTO answer_feedback (answer_id, organisation_id, widget_id, session_id, value, comment)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (answer_id) DO UPDATE SET value = excluded.value, comment = excluded.comment, updated_at = now()`,
      [rating.answerId, scope.organisationId, scope.widgetId, sessionId, rating.value, rating.comment],
    );
  }
  if (clicks.length === 0) return { stored: 0, dropped: 0, firstDrop: false };
  return recordClicks(db, scope, sessionId, clicks);
}

/**
 * An answer in a signed visitor's conversation belongs to that visitor wherever they are
 * signed in, and not to the session it was streamed to: a shared browser's next visitor, or
 * the same one signed out, cannot rate it. Any other answer (a summary, an anonymous
 * conversation's, one whose conversation was deleted) belongs to the session that received it.
 */
async function requireReceivedAnswers(db: Queryable, scope: WidgetScope, rater: { sessionId: string; visitorId: string | null }, events: RecordedEvent[]): Promise<void> {
  const answerIds = [...new Set(events.flatMap((event) => (event.name === 'feedback' ? [event.answerId] : [])))];
  const placeholders = answerIds.map((_, index) => `$${index + 5}`).join(', ');
  const received = await db.query<{ id: string }>(
    `SELECT a.id FROM answers a
       LEFT JOIN messages m ON m.answer_id = a.id AND m.role = 'assistant'
       LEFT JOIN conversations c ON c.id = m.conversation_id
      WHERE a.organisation_id = $1 AND a.widget_id = $2 AND a.id IN (${placeholders})
        AND CASE WHEN c.visitor_key IS NULL THEN a.session_id = $3 ELSE c.visitor_key IS NOT DISTINCT FROM $4 END`,
    [scope.organisationId, scope.widgetId, rater.sessionId, ownerKey(rater.visitorId), ...answerIds],
  );
  const known = new Set(received.map((row) => row.id));
  const index = events.findIndex((event) => event.name === 'feedback' && !known.has(event.answerId));
  if (index >= 0) throw badRequest(`\`events[${index}].props.answerId\` is not an answer this visitor or session received.`);
}

/**
 * Stores the clicks the organisation's daily cap (`events_per_day`, per UTC day) still has
 * room for and drops the rest, counting both. The day's row is updated by one upsert, which
 * serialises concurrent requests on every server process: each request reads back how many
 * of its own events fit (`last_stored`), so never more than the cap are stored, and a cap
 * raised during the day makes room at once.
 */
async function recordClicks(db: Queryable, scope: WidgetScope, sessionId: string, events: ClickEvent[]): Promise<{ stored: number; dropped: number; firstDrop: boolean }> {
  const [day] = await db.query<{ last_stored: number; dropped: number | string }>(
    `WITH organisation AS (SELECT events_per_day AS cap FROM organisations WHERE id = $1)
     INSERT INTO organisation_event_days AS d (organisation_id, day, stored, dropped, last_stored)
     SELECT $1, (now() AT TIME ZONE 'UTC')::date, LEAST($2, cap), $2 - LEAST($2, cap), LEAST($2, cap) FROM organisation
     ON CONFLICT (organisation_id, day) DO UPDATE SET
       last_stored = LEAST($2, GREATEST((SELECT cap FROM organisation) - d.stored, 0)),
       stored = d.stored + LEAST($2, GREATEST((SELECT cap FROM organisation) - d.stored, 0)),
       dropped = d.dropped + $2 - LEAST($2, GREATEST((SELECT cap FROM organisation) - d.stored, 0))
     RETURNING last_stored, dropped`,
    [scope.organisationId, events.length],
  );
  const stored = day!.last_stored;
  const dropped = events.length - stored;
  if (stored > 0) await insertEvents(db, scope, sessionId, events.slice(0, stored));
  return { stored, dropped, firstDrop: dropped > 0 && Number(day!.dropped) === dropped };
}

async function insertEvents(db: Queryable, scope: WidgetScope, sessionId: string, events: ClickEvent[]): Promise<void> {
  const values: unknown[] = [];
  const rows = events.map((event) => {
    values.push(scope.organisationId, scope.widgetId, sessionId, event.queryId, event.name, event.url, event.rank, event.source, event.clientTime);
    const base = values.length - 9;
    return `(${Array.from({ length: 9 }, (_, index) => `$${base + index + 1}`).join(', ')})`;
  });
  await db.query(
    `INSERT INTO analytics_events (organisation_id, widget_id, session_id, query_id, name, url, rank, source, client_time)
     VALUES ${rows.join(', ')}`,
    values,
  );
}
