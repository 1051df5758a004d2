import type { Source } from '../../wire/contract.js';
import { safeStorage } from './storage.js';
import { isRecord } from './transport.js';

/** One message of the conversation kept in the browser. */
export interface LocalMessage {
  role: 'user' | 'assistant';
  text: string;
  answerId?: string;
  sources?: Source[];
  createdAt: string;
}

/** The widget's current conversation, as kept in the browser between page loads. */
export interface LocalConversation {
  conversationId: string | null;
  messages: LocalMessage[];
}

interface StoredConversation extends LocalConversation {
  version: 1;
  /** {@link visitorFingerprint} of the visitor it belongs to; never the id or hash itself. */
  owner: string;
}

/** Older messages are dropped beyond this, so one long chat cannot fill the storage quota. */
export const MAX_LOCAL_MESSAGES = 200;

export function historyStorageKey(organisation: string, widget: string): string {
  return `assist:conversation:${organisation}/${widget}`;
}

/**
 * The current conversation of one widget in localStorage, so it survives a reload. It belongs
 * to one visitor: stored under another visitor's fingerprint it is discarded, never shown.
 * Only the conversation id and message texts are kept; no identity hash, no token.
 */
export class LocalHistory {
  private readonly storage = safeStorage('local');

  constructor(
    private readonly storageKey: string,
    private readonly owner: () => string,
  ) {}

  load(): LocalConversation | null {
    const raw = this.storage.get(this.storageKey);
    if (raw === null) return null;
    let stored: unknown;
    try {
      stored = JSON.parse(raw);
    } catch {
      stored = null;
    }
    if (!isStoredConversation(stored) || stored.owner !== this.owner()) {
      this.clear();
      return null;
    }
    return { conversationId: stored.conversationId, messages: stored.messages.map(copyMessage) };
  }

  save(conversation: LocalConversation): void {
    const stored: StoredConversation = {
      version: 1,
      owner: this.owner(),
      conversationId: conversation.conversationId,
      messages: conversation.messages.slice(-MAX_LOCAL_MESSAGES).map(copyMessage),
    };
    this.storage.set(this.storageKey, JSON.stringify(stored));
  }

  /** Adds messages to the stored conversation when it is `conversationId`, else starts over with them. */
  append(conversationId: string, messages: LocalMessage[]): LocalConversation {
    const current = this.load();
    const conversation: LocalConversation =
      current && current.conversationId === conversationId
        ? { conversationId, messages: [...current.messages, ...messages] }
        : { conversationId, messages };
    this.save(conversation);
    return conversation;
  }

  clear(): void {
    this.storage.remove(this.storageKey);
  }
}

/** Copies only the known fields, so nothing else a caller put on a message reaches storage. */
function copyMessage(message: LocalMessage): LocalMessage {
  return {
    role: message.role,
    text: message.text,
    ...(message.answerId !== undefined && { answerId: message.answerId }),
    ...(message.sources !== undefined && {
      sources: message.sources.map(({ url, title, pageId, section }) => ({ url, title, pageId, ...(section !== undefined && { section }) })),
    }),
    createdAt: message.createdAt,
  };
}

function isStoredConversation(value: unknown): value is StoredConversation {
  return (
    isRecord(value) &&
    value.version === 1 &&
    typeof value.owner === 'string' &&
    (value.conversationId === null || typeof value.conversationId === 'string') &&
    Array.isArray(value.messages) &&
    value.messages.every(isLocalMessage)
  );
}

function isLocalMessage(value: unknown): value is LocalMessage {
  return (
    isRecord(value) &&
    (value.role === 'user' || value.role === 'assistant') &&
    typeof value.text === 'string' &&
    typeof value.createdAt === 'string' &&
    (value.answerId === undefined || typeof value.answerId === 'string') &&
    (value.sources === undefined || (Array.isArray(value.sources) && value.sources.every(isSource)))
  );
}

export function isSource(value: unknown): value is Source {
  return (
    isRecord(value) &&
    typeof value.url === 'string' &&
    typeof value.title === 'string' &&
    typeof value.pageId === 'string' &&
    (value.section === undefined || typeof value.section === 'string')
  );
}
