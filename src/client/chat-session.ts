import type { ConversationMessage, ConversationSummary, Source } from '../../wire/contract.js';
import { Emitter } from '../core/emitter.js';
import { toAssistError, type AssistError } from '../core/errors.js';
import type { LocalMessage } from '../core/history.js';
import { isBusy } from '../core/status.js';
import type { AssistClient } from './types.js';

/** One message of the conversation, as a chat UI shows it. The session updates it in place while it streams. */
export interface ChatMessage {
  readonly role: 'user' | 'assistant';
  /** The question, or (for an answer) the question it answers, which `retry` asks again. */
  readonly question: string;
  /** Answers: the markdown, growing while it streams. */
  readonly text: string;
  readonly sources?: Source[];
  /** `stopped`: the visitor stopped it, or an answer kept from an earlier visit ended unfinished. */
  readonly state: 'streaming' | 'done' | 'stopped' | 'failed';
  readonly error?: AssistError;
  /** Answers the server named: what `sendFeedback` rates. */
  readonly answerId?: string;
}

/** What a chat UI shows; a new object after every change, so it can be compared by identity. */
export interface ChatSessionState {
  readonly messages: readonly ChatMessage[];
  /** The conversation, once the server named it. */
  readonly conversationId: string | null;
  /** The signed visitor's past conversations: null until `loadConversations()` brought them. */
  readonly conversations: readonly ConversationSummary[] | null;
  /** Why the last history action failed (a wrong identity hash, say). */
  readonly historyError: AssistError | null;
  /** The answer whose text was just copied (for two seconds). */
  readonly copied: ChatMessage | null;
}

export interface ChatSessionEvents {
  /** The state changed (not for every token: see `token`). */
  change: ChatSessionState;
  /** A piece of the answer being written arrived; `message.text` holds the text so far. */
  token: { message: ChatMessage; delta: string };
  /** The visitor sent a question, or an answer completed; `conversationId` once the server named it. */
  message: { message: ChatMessage; conversationId: string | null };
  /** An answer ended without completing: stopped by the visitor, or failed. */
  interrupted: { message: ChatMessage };
  /** The messages were replaced: restored, another conversation opened, or started over. */
  restore: { messages: readonly ChatMessage[] };
  /** An answer or a history action failed. */
  error: { error: AssistError };
}

/** How long a copied answer stays marked as copied. */
const COPIED_MS = 2000;

type MutableMessage = { -readonly [Key in keyof ChatMessage]: ChatMessage[Key] };

/**
 * A conversation with a chat widget's assistant, without any UI: the messages, the
 * conversation id, sending, stopping, retrying, the conversation kept in this browser, and a
 * signed visitor's history. `<assist-chat>` is this session with templates; a custom chat UI
 * subscribes to it the same way.
 *
 * The conversation in this browser is restored at once; when the visitor changes
 * (`client.identify()` with another id, or logging out) it starts over, so the next visitor
 * never sees the previous one's messages.
 *
 * @example
 * import { createClient, ChatSession } from 'assist-widgets';
 *
 * const chat = new ChatSession(createClient('acme/help'));
 * chat.subscribe((state) => render(state.messages));
 * chat.on('token', ({ message }) => renderAnswer(message.text));
 * chat.send('How do I reset my password?');
 */
export class ChatSession {
  private readonly events = new Emitter<ChatSessionEvents>();
  private messages: MutableMessage[] = [];
  private conversationId: string | null = null;
  private conversations: ConversationSummary[] | null = null;
  private historyError: AssistError | null = null;
  private copied: ChatMessage | null = null;
  private snapshot: ChatSessionState | null = null;
  private readonly stopListening: () => void;

  constructor(readonly client: AssistClient) {
    const saved = client.history.load();
    this.restore(saved?.messages ?? [], saved?.conversationId ?? null);
    this.stopListening = client.on('identity', ({ user, previous }) => {
      // Another visitor must never see this one's conversation.
      if (user?.id !== previous?.id) this.startOver();
    });
  }

  get state(): ChatSessionState {
    return (this.snapshot ??= {
      messages: [...this.messages],
      conversationId: this.conversationId,
      conversations: this.conversations,
      historyError: this.historyError,
      copied: this.copied,
    });
  }

  /** Whether an answer is being written (then `send` waits and `stop` stops it). */
  get busy(): boolean {
    return isBusy(this.client.status);
  }

  /** Calls `listener` with the state after every change; returns a function that unsubscribes. */
  subscribe(listener: (state: ChatSessionState) => void): () => void {
    return this.events.on('change', listener);
  }

  on<Name extends keyof ChatSessionEvents>(name: Name, handler: (payload: ChatSessionEvents[Name]) => void): () => void {
    return this.events.on(name, handler);
  }

  /**
   * Sends the visitor's question and streams the answer. Returns false, sending nothing, for
   * an empty question or while an answer is still being written.
   */
  send(text: string): boolean {
    const question = text.trim();
    if (!question || this.busy) return false;
    const message: MutableMessage = { role: 'user', question, text: question, state: 'done' };
    this.messages.push(message);
    this.changed();
    this.events.emit('message', { message, conversationId: this.conversationId });
    void this.ask(question);
    return true;
  }

  /** Stops the answer being written; it stays as far as it got, marked `stopped`. */
  stop(): void {
    this.client.stop();
  }

  /** Asks a failed answer's question again, in its place. */
  retry(message: ChatMessage): void {
    this.messages = this.messages.filter((other) => other !== message);
    void this.ask(message.question);
  }

  /** A new conversation: the visible one is dropped here and in this browser (the server keeps it). */
  startOver(): void {
    this.client.stop();
    this.client.history.clear();
    this.restore([], null);
  }

  /** Shows `messages` as the conversation `conversationId` (null: a new one). */
  restore(messages: readonly (LocalMessage | ConversationMessage)[], conversationId: string | null): void {
    this.conversationId = conversationId;
    let question = '';
    this.messages = messages.map((message): MutableMessage => {
      if (message.role === 'user') {
        question = message.text;
        return { role: 'user', question, text: question, state: 'done' };
      }
      const complete = (message as ConversationMessage).complete !== false;
      return {
        role: 'assistant',
        question,
        text: message.text,
        sources: message.sources,
        state: complete ? 'done' : 'stopped',
        ...(message.answerId && { answerId: message.answerId }),
      };
    });
    this.changed();
    this.events.emit('restore', { messages: this.state.messages });
  }

  /** Copies an answer's text to the clipboard, marking it copied for a moment; false when the browser refused. */
  async copy(message: ChatMessage): Promise<boolean> {
    if (!(await this.copyText(message.text))) return false;
    this.copied = message;
    this.changed();
    setTimeout(() => {
      if (this.copied !== message) return;
      this.copied = null;
      this.changed();
    }, COPIED_MS);
    return true;
  }

  /** Copies any text (a code block of an answer, say); false when the browser refused. */
  async copyText(text: string): Promise<boolean> {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      return false;
    }
  }

  /** Loads the signed visitor's past conversations into `conversations`. */
  loadConversations(): Promise<boolean> {
    this.conversations = null;
    return this.run(async (client) => (this.conversations = await client.listConversations()));
  }

  /** Shows a past conversation and continues it. */
  openConversation(id: string): Promise<boolean> {
    return this.run(async (client) => {
      const conversation = await client.getConversation(id);
      client.stop();
      client.history.save({ conversationId: id, messages: conversation.messages });
      this.restore(conversation.messages, id);
    });
  }

  /** Keeps a conversation past the retention period, or lets it expire again. */
  keepConversation(summary: ConversationSummary): Promise<boolean> {
    return this.run(async (client) => {
      const updated = await client.keepConversation(summary.id, !summary.kept);
      this.conversations = this.conversations?.map((item) => (item.id === updated.id ? updated : item)) ?? null;
    });
  }

  /** Deletes one conversation, or (`null`) all of them; the visible one starts over when it goes. */
  deleteConversations(id: string | null): Promise<boolean> {
    return this.run(async (client) => {
      if (id === null) await client.deleteConversations();
      else await client.deleteConversation(id);
      this.conversations = id === null ? [] : (this.conversations?.filter((item) => item.id !== id) ?? null);
      if (id === null || id === this.conversationId) this.restore([], null);
    });
  }

  /** Stops listening to the client (its answers in progress go on; `client.dispose()` ends those). */
  dispose(): void {
    this.stopListening();
    this.events.clear();
  }

  private changed(): void {
    this.snapshot = null;
    this.events.emit('change', this.state);
  }

  private async ask(question: string): Promise<void> {
    const message: MutableMessage = { role: 'assistant', question, text: '', state: 'streaming' };
    this.messages.push(message);
    this.changed();
    try {
      const reply = await this.client.chat(question, {
        ...(this.conversationId && { conversationId: this.conversationId }),
        // Shown by the render the client's token event schedules (a few times a second, not per token).
        onToken: (delta, text) => {
          message.text = text;
          this.snapshot = null;
          this.events.emit('token', { message, delta });
        },
        onSources: (sources) => (message.sources = sources),
      });
      if (!this.messages.includes(message)) return;
      message.text = reply.text;
      message.sources = reply.sources;
      message.answerId = reply.answerId;
      message.state = 'done';
      this.conversationId = reply.conversationId;
      this.changed();
      this.events.emit('message', { message, conversationId: reply.conversationId });
    } catch (caught) {
      if (!this.messages.includes(message)) return;
      const error = toAssistError(caught);
      if (error.code === 'aborted') message.state = 'stopped';
      else {
        message.state = 'failed';
        message.error = error;
      }
      this.changed();
      this.events.emit('interrupted', { message });
      if (error.code !== 'aborted') this.events.emit('error', { error });
    }
  }

  /** Runs a history action; true when it succeeded, else the failure is in `historyError`. */
  private async run(action: (client: AssistClient) => Promise<unknown>): Promise<boolean> {
    let failure: AssistError | null = null;
    this.historyError = null;
    this.changed();
    try {
      await action(this.client);
    } catch (error) {
      failure = toAssistError(error);
    }
    this.historyError = failure;
    this.changed();
    if (failure) this.events.emit('error', { error: failure });
    return !failure;
  }
}
