/**
 * Conversations of a chat widget and their messages. A conversation belongs to one signed
 * visitor, or to nobody (anonymous: continued by its id, never listed or read back). Its
 * owner is fixed when it starts: only the same visitor (or, for an anonymous one, another
 * anonymous request) can continue it; anyone else gets 404, as if it did not exist.
 * Conversations not kept expire 30 days after their last message: every read filters them
 * out, and `purgeExpiredConversations` deletes them for good.
 *
 * The owner is stored as the SHA-256 of the visitor id, not the id itself: any string the
 * integrator signs is a valid id (PostgreSQL text cannot hold NUL, for one), and the
 * database does not need to know who the visitor is, only that it is the same one.
 */
import { LIMITS, type ConversationMessage, type ConversationSummary, type Conversation, type Source } from '../../wire/contract.js';
import { notFound } from '../errors.js';
import type { Queryable } from './db.js';
import { hashSecret } from './secrets.js';

export const CONVERSATION_TTL_MS = LIMITS.conversationTtlDays * 24 * 60 * 60 * 1000;

/** SQL condition: the conversation `c` has not expired. */
const LIVE = `(c.kept OR c.last_message_at > now() - make_interval(days => ${LIMITS.conversationTtlDays}))`;

export interface WidgetScope {
  organisationId: string;
  widgetId: string;
}

/** The stored form of a conversation's owner. */
export function ownerKey(visitorId: string | null): string | null {
  return visitorId === null ? null : hashSecret(visitorId);
}

interface SummaryRow {
  id: string;
  title: string;
  kept: boolean;
  createdAt: Date | string;
  lastMessageAt: Date | string;
  messageCount: number;
}

const SUMMARY_COLUMNS = `c.id, c.title, c.kept, c.created_at AS "createdAt", c.last_message_at AS "lastMessageAt",
  (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id)::int AS "messageCount"`;

function toSummary(row: SummaryRow): ConversationSummary {
  const lastMessageAt = new Date(row.lastMessageAt);
  return {
    id: row.id,
    title: row.title,
    kept: row.kept,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: lastMessageAt.toISOString(),
    expiresAt: row.kept ? null : new Date(lastMessageAt.getTime() + CONVERSATION_TTL_MS).toISOString(),
    messageCount: row.messageCount,
  };
}

/** A signed visitor's live conversations in one widget, newest first. */
export async function listConversations(db: Queryable, scope: WidgetScope, visitorId: string): Promise<ConversationSummary[]> {
  const rows = await db.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM conversations c
      WHERE c.organisation_id = $1 AND c.widget_id = $2 AND c.visitor_key = $3 AND ${LIVE}
      ORDER BY c.last_message_at DESC, c.id`,
    [scope.organisationId, scope.widgetId, ownerKey(visitorId)],
  );
  return rows.map(toSummary);
}

async function findOwned(db: Queryable, scope: WidgetScope, conversationId: string, visitorId: string | null): Promise<SummaryRow | undefined> {
  const [row] = await db.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM conversations c
      WHERE c.id = $1 AND c.organisation_id = $2 AND c.widget_id = $3 AND c.visitor_key IS NOT DISTINCT FROM $4 AND ${LIVE}`,
    [conversationId, scope.organisationId, scope.widgetId, ownerKey(visitorId)],
  );
  return row;
}

/** One conversation of a signed visitor with all its messages; 404 when it is not theirs or has expired. */
export async function getConversation(db: Queryable, scope: WidgetScope, conversationId: string, visitorId: string): Promise<Conversation> {
  const row = await findOwned(db, scope, conversationId, visitorId);
  if (!row) throw notFound('conversation');
  const messages = await db.query<{ role: 'user' | 'assistant'; text: string; answerId: string | null; sources: Source[] | null; complete: boolean; createdAt: Date | string }>(
    `SELECT role, text, answer_id AS "answerId", sources, complete, created_at AS "createdAt"
       FROM messages WHERE conversation_id = $1 ORDER BY id`,
    [conversationId],
  );
  return {
    ...toSummary(row),
    messages: messages.map((message): ConversationMessage => ({
      role: message.role,
      text: message.text,
      ...(message.role === 'assistant' && { answerId: message.answerId ?? undefined, sources: message.sources ?? [], complete: message.complete }),
      createdAt: new Date(message.createdAt).toISOString(),
    })),
  };
}

/** Keeps a conversation (exempt from expiry) or releases it; 404 when it is not the visitor's. */
export async function keepConversation(db: Queryable, scope: WidgetScope, conversationId: string, visitorId: string, kept: boolean): Promise<ConversationSummary> {
  const updated = await db.query(
    `UPDATE conversations c SET kept = $5
      WHERE c.id = $1 AND c.organisation_id = $2 AND c.widget_id = $3 AND c.visitor_key = $4 AND ${LIVE} RETURNING c.id`,
    [conversationId, scope.organisationId, scope.widgetId, ownerKey(visitorId), kept],
  );
  if (updated.length === 0) throw notFound('conversation');
  // Released long after its last message, it has expired at once: that is what releasing means.
  const row = await db.query<SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM conversations c WHERE c.id = $1`, [conversationId]);
  return toSummary(row[0]!);
}

export async function deleteConversation(db: Queryable, scope: WidgetScope, conversationId: string, visitorId: string): Promise<void> {
  const deleted = await db.query(
    `DELETE FROM conversations c WHERE c.id = $1 AND c.organisation_id = $2 AND c.widget_id = $3 AND c.visitor_key = $4 AND ${LIVE} RETURNING c.id`,
    [conversationId, scope.organisationId, scope.widgetId, ownerKey(visitorId)],
  );
  if (deleted.length === 0) throw notFound('conversation');
}

/** Deletes every conversation of a visitor in one widget (kept ones too). */
export async function deleteAllConversations(db: Queryable, scope: WidgetScope, visitorId: string): Promise<number> {
  const deleted = await db.query('DELETE FROM conversations WHERE organisation_id = $1 AND widget_id = $2 AND visitor_key = $3 RETURNING id', [
    scope.organisationId,
    scope.widgetId,
    ownerKey(visitorId),
  ]);
  return deleted.length;
}

/** Deletes conversations whose 30 days are over; returns how many. */
export async function purgeExpiredConversations(db: Queryable): Promise<number> {
  const deleted = await db.query(
    `DELETE FROM conversations c WHERE NOT c.kept AND c.last_message_at <= now() - make_interval(days => ${LIMITS.conversationTtlDays}) RETURNING c.id`,
  );
  return deleted.length;
}

/**
 * Where a new chat message goes: the conversation it continues (checked: same widget, same
 * owner, not expired; 404 otherwise) or a new one titled by its first question. Returns the
 * conversation's earlier messages, oldest first, for the answer to build on.
 */
export async function openConversation(
  tx: Queryable,
  scope: WidgetScope,
  input: { conversationId?: string; newId: string; visitorId: string | null; question: string },
): Promise<{ conversationId: string; history: { role: 'user' | 'assistant'; text: string; complete: boolean }[] }> {
  if (input.conversationId) {
    const owned = await findOwned(tx, scope, input.conversationId, input.visitorId);
    if (!owned) throw notFound('conversation');
    const history = await tx.query<{ role: 'user' | 'assistant'; text: string; complete: boolean }>(
      'SELECT role, text, complete FROM messages WHERE conversation_id = $1 ORDER BY id',
      [input.conversationId],
    );
    return { conversationId: input.conversationId, history };
  }
  await tx.query('INSERT INTO conversations (id, organisation_id, widget_id, visitor_key, title) VALUES ($1, $2, $3, $4, $5)', [
    input.newId,
    scope.organisationId,
    scope.widgetId,
    ownerKey(input.visitorId),
    titleOf(input.question),
  ]);
  return { conversationId: input.newId, history: [] };
}

/** Adds the visitor's question and the (still incomplete, empty) assistant message of the answer. */
export async function appendExchange(tx: Queryable, conversationId: string, question: string, answerId: string): Promise<void> {
  await tx.query(
    `INSERT INTO messages (conversation_id, role, text, complete) VALUES ($1, 'user', $2, true)`,
    [conversationId, question],
  );
  await tx.query(`INSERT INTO messages (conversation_id, role, text, answer_id, sources, complete) VALUES ($1, 'assistant', '', $2, '[]', false)`, [
    conversationId,
    answerId,
  ]);
  await tx.query('UPDATE conversations SET last_message_at = now() WHERE id = $1', [conversationId]);
}

/**
 * Writes the answer's text into its message: `complete` only when the whole answer was
 * generated. An answer that produced nothing before it failed or was abandoned is removed,
 * so the transcript never shows an empty reply.
 */
export async function settleAnswerMessage(db: Queryable, answerId: string, text: string, sources: Source[], complete: boolean): Promise<void> {
  if (!complete && text === '') {
    await db.query(`DELETE FROM messages WHERE answer_id = $1 AND role = 'assistant'`, [answerId]);
    return;
  }
  const rows = await db.query<{ conversationId: string }>(
    `UPDATE messages SET text = $2, sources = $3::jsonb, complete = $4, created_at = now()
      WHERE answer_id = $1 AND role = 'assistant' RETURNING conversation_id AS "conversationId"`,
    [answerId, text, JSON.stringify(sources), complete],
  );
  if (rows[0]) await db.query('UPDATE conversations SET last_message_at = now() WHERE id = $1', [rows[0].conversationId]);
}

/** A conversation's title: its first question, on one line, at most 100 characters. */
function titleOf(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** How often expired conversations are deleted while the server runs. */
export const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes expired conversations now and then every hour, on a timer that does not keep the
 * process alive; `close` on what it returns stops it (the server keeps that among its
 * services). Reads never depend on it: they filter expired conversations out themselves.
 */
export async function startConversationPurge(app: { db: Queryable; log: (line: string) => void }): Promise<{ close(): void }> {
  const purge = () =>
    purgeExpiredConversations(app.db).then(
      (count) => {
        if (count > 0) app.log(`purged ${count} expired conversation${count === 1 ? '' : 's'}`);
      },
      (error) => app.log(`purging expired conversations failed: ${(error as Error)?.message ?? error}`),
    );
  await purge();
  const timer = setInterval(purge, PURGE_INTERVAL_MS);
  timer.unref();
  return { close: () => clearInterval(timer) };
}
