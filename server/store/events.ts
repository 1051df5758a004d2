/**
 * Analytics events sent by the SDK and the beacon. A `click`, with `props`
 * `{ url, rank?, source? }`, is tied to its session and, when given, to the search (`queryId`)
 * it came from, which is what the search → click funnel is computed from. A `feedback`, with
 * `props` `{ answerId, value, comment? }`, rates an answer: one in a signed visitor's
 * conversation is rated by that visitor (the body's verified `user`, from any session), any
 * other one by the session that received it; one rating per answer, a later one replaces it. Bodies are validated strictly: anything unknown
 * or ill-typed is refused (400) rather than stored.
 */
import { badRequest } from '../errors.js';
import type { ClickEvent, FeedbackEvent, RecordedEvent } from '../schema/widget-requests.js';
import type { Queryable } from './db.js';
import { ownerKey, type WidgetScope } from './conversations.js';

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
