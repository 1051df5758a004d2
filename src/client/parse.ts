import type { ChatReply, Conversation, ConversationMessage, ConversationSummary, SearchResponse, SummarizeResult } from '../../wire/contract.js';
import { isSource } from '../core/history.js';
import { isHit, isRecord } from '../core/transport.js';

/*
 * Checks of server answers against the contract. Each returns the typed value, or null when
 * the shape is wrong, which the transport turns into an `invalid_response` AssistError, so a
 * UI never renders half-understood data.
 */

export function parseSearchResponse(body: unknown): SearchResponse | null {
  if (!isRecord(body) || typeof body.sessionId !== 'string' || typeof body.queryId !== 'string') return null;
  if (!Array.isArray(body.hits) || !body.hits.every(isHit)) return null;
  return { sessionId: body.sessionId, queryId: body.queryId, hits: body.hits };
}

export function parseChatReply(body: unknown): ChatReply | null {
  if (!isRecord(body) || typeof body.text !== 'string' || typeof body.conversationId !== 'string' || typeof body.answerId !== 'string') return null;
  const sources = body.sources ?? [];
  if (!Array.isArray(sources) || !sources.every(isSource)) return null;
  return { text: body.text, conversationId: body.conversationId, answerId: body.answerId, sources };
}

export function parseSummarizeResult(body: unknown): SummarizeResult | null {
  if (!isRecord(body) || typeof body.summarized !== 'boolean' || typeof body.text !== 'string') return null;
  const sources = body.sources ?? [];
  if (!Array.isArray(sources) || !sources.every(isSource)) return null;
  return { summarized: body.summarized, text: body.text, sources, ...(typeof body.answerId === 'string' && body.answerId && { answerId: body.answerId }) };
}

export function parseConversationSummary(body: unknown): ConversationSummary | null {
  if (!isRecord(body)) return null;
  const { id, title, kept, createdAt, updatedAt, expiresAt, messageCount } = body;
  if (typeof id !== 'string' || typeof title !== 'string' || typeof kept !== 'boolean') return null;
  if (typeof createdAt !== 'string' || typeof updatedAt !== 'string') return null;
  if (expiresAt !== undefined && expiresAt !== null && typeof expiresAt !== 'string') return null;
  if (messageCount !== undefined && typeof messageCount !== 'number') return null;
  return { id, title, kept, createdAt, updatedAt, expiresAt: expiresAt ?? null, messageCount: messageCount ?? 0 };
}

export function parseConversationList(body: unknown): ConversationSummary[] | null {
  if (!isRecord(body) || !Array.isArray(body.conversations)) return null;
  const summaries = body.conversations.map(parseConversationSummary);
  return summaries.every((summary) => summary !== null) ? (summaries as ConversationSummary[]) : null;
}

export function parseConversation(body: unknown): Conversation | null {
  const summary = parseConversationSummary(body);
  if (!summary || !isRecord(body) || !Array.isArray(body.messages)) return null;
  const messages = body.messages.map(parseConversationMessage);
  if (!messages.every((message) => message !== null)) return null;
  return { ...summary, messageCount: typeof body.messageCount === 'number' ? summary.messageCount : messages.length, messages: messages as ConversationMessage[] };
}

function parseConversationMessage(body: unknown): ConversationMessage | null {
  if (!isRecord(body) || (body.role !== 'user' && body.role !== 'assistant') || typeof body.text !== 'string' || typeof body.createdAt !== 'string') return null;
  const { answerId, sources, complete } = body;
  if (answerId !== undefined && typeof answerId !== 'string') return null;
  if (sources !== undefined && (!Array.isArray(sources) || !sources.every(isSource))) return null;
  if (complete !== undefined && typeof complete !== 'boolean') return null;
  return {
    role: body.role,
    text: body.text,
    createdAt: body.createdAt,
    ...(answerId !== undefined && { answerId }),
    ...(sources !== undefined && { sources }),
    ...(complete !== undefined && { complete }),
  };
}
