import type {
  ChatReply,
  ClickProps,
  Conversation,
  ConversationSummary,
  FeedbackValue,
  Locale,
  SearchResponse,
  Source,
  StreamStatus,
  SummarizeResult,
  VisitorIdentity,
  WidgetConfig,
} from '../../wire/contract.js';
import type { AssistError } from '../core/errors.js';
import type { LocalConversation } from '../core/history.js';
import type { VisitorInput } from '../core/identity.js';
import type { ClientStatus } from '../core/status.js';
import type { RetryPolicy } from '../core/transport.js';

/** Page context sent with chat to improve the answer. */
export interface PageContext {
  url?: string;
  title?: string;
  [field: string]: unknown;
}

/** Options of {@link createClient}, `Assist.headless()` and the widgets. */
export interface ClientOptions {
  /** The visitor. With a `hash` (signed on your server) they get conversation history. */
  user?: VisitorInput | null;
  /**
   * Sent with chat. Default: the page's URL and title, read at send time. An object is merged
   * over that default; `false` sends no context.
   */
  context?: PageContext | false;
  /** Preview bearer token, for the in-app preview only; never on a public site. */
  token?: string;
  /**
   * API origin, e.g. `https://assist.example.com`. Default: the origin `assist.js` was loaded
   * from in the script-tag build, else the page's origin.
   */
  baseUrl?: string;
  /** Retries of idempotent reads (config, conversations). Tests shorten the delays. */
  retry?: Partial<RetryPolicy>;
}

/** Every call accepts a signal; aborting rejects the call with an `aborted` AssistError. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface SearchOptions extends CallOptions {
  /** Most hits to return. */
  limit?: number;
}

/** Callbacks of a streamed answer. Passing any of them makes the answer stream. */
export interface StreamCallbacks {
  /** Each piece of the answer as it arrives, and the text so far. */
  onToken?: (delta: string, text: string) => void;
  /** The server's progress: `searching`, then `generating`. */
  onStatus?: (status: StreamStatus) => void;
  /** The cited sources, once retrieval is done (before the text). */
  onSources?: (sources: Source[]) => void;
  /** Force streaming on or off; default: on when a callback is given. */
  stream?: boolean;
}

export interface ChatOptions extends CallOptions, StreamCallbacks {
  /** Continue this conversation; without it a new one starts. */
  conversationId?: string;
}

export interface SummarizeOptions extends CallOptions, StreamCallbacks {}

export interface TrackEventOptions {
  /** The search the click belongs to. Default: the latest search of this client; `null` sends none. */
  queryId?: string | null;
}

/** What the client is doing; `operation` names the call that caused the change. */
export type AnswerOperation = 'chat' | 'summarize';
export type ClientOperation = 'search' | AnswerOperation | 'config' | 'conversations';

/** The events of {@link AssistClient.on}. */
export interface ClientEvents {
  /** The answer status changed, or the server's stage within it (`searching`, `generating`). */
  status: { status: ClientStatus; previous: ClientStatus; stage: StreamStatus | null; operation: AnswerOperation };
  /** A piece of a streamed answer, and the text so far. */
  token: { operation: AnswerOperation; delta: string; text: string };
  /** A complete answer. */
  reply: { operation: 'chat'; reply: ChatReply } | { operation: 'summarize'; reply: SummarizeResult };
  /** A call failed (aborts are not reported here; the call's promise still rejects). */
  error: { operation: ClientOperation; error: AssistError };
  /** The presentation config was loaded. */
  config: { config: WidgetConfig };
  /** `identify()` changed the visitor. */
  identity: { user: VisitorIdentity | null; previous: VisitorIdentity | null };
}

/** The widget's conversation kept in this browser (see {@link AssistClient.history}). */
export interface LocalHistoryAccess {
  load(): LocalConversation | null;
  save(conversation: LocalConversation): void;
  clear(): void;
}

/**
 * The headless client: every function of the widget API, without UI. Made by
 * {@link createClient} or `Assist.headless()`.
 */
export interface AssistClient {
  /** `{organisation}/{widget}` */
  readonly widgetKey: string;
  /** The tab's analytics session, created on first use and reused; shared with the beacon. */
  readonly sessionId: string;
  /** Made with a preview `token` (the in-app preview): the widgets then show why they could not load. */
  readonly preview: boolean;
  /** The answer status of the latest chat or summarize call. */
  readonly status: ClientStatus;
  /** The current visitor, or null when anonymous. */
  readonly user: VisitorIdentity | null;
  /**
   * The current conversation kept in localStorage for this widget and visitor. `chat()`
   * records each completed exchange; a UI restores it on load and clears it for "new conversation".
   */
  readonly history: LocalHistoryAccess;

  /**
   * Searches the widget's sources. A newer search cancels an older one still running: the older
   * call rejects with an `aborted` AssistError instead of answering late.
   *
   * @example
   * const { hits, queryId } = await client.search('reset password', { limit: 5 });
   */
  search(query: string, options?: SearchOptions): Promise<SearchResponse>;

  /**
   * Asks the assistant. With `onToken` (or `onStatus`, `onSources`) the answer streams; either
   * way the promise resolves with the full reply. A 402 rejects with `code: 'credits_exhausted'`
   * and `error.hits` holding search results to fall back to.
   *
   * @example
   * const reply = await client.chat('How do I invite a colleague?', {
   *   conversationId,
   *   onToken: (delta, text) => (answer.textContent = text),
   * });
   */
  chat(message: string, options?: ChatOptions): Promise<ChatReply>;

  /**
   * An AI summary of the results for a query; `summarized: false` when none was produced (e.g.
   * no credits left). A newer summarize cancels an older one.
   *
   * @example
   * const { summarized, text } = await client.summarize('reset password');
   */
  summarize(query: string, options?: SummarizeOptions): Promise<SummarizeResult>;

  /**
   * Reports an analytics event (a `click` on a result or source). Fire-and-forget: sent with
   * `navigator.sendBeacon` so it survives navigation, never throws, returns nothing.
   *
   * @example
   * client.trackEvent('click', { url: hit.url, rank: 1, source: 'result' });
   */
  trackEvent(name: 'click', props: ClickProps, options?: TrackEventOptions): void;

  /**
   * Rates an answer this browser session received: a chat reply (`reply.answerId`) or a
   * summary (`result.answerId`). One rating per answer; sending another replaces it. The
   * comment (at most 1,000 characters) says why, usually after `'unhelpful'`. Sent like
   * `trackEvent` (a beacon, fire-and-forget); throws an `invalid_request` AssistError at once
   * on a missing answer id, another value or a longer comment.
   *
   * @example
   * const reply = await client.chat('How do I invite a colleague?');
   * client.sendFeedback(reply.answerId, 'unhelpful', 'It does not say where the invite link is.');
   */
  sendFeedback(answerId: string, value: FeedbackValue, comment?: string): void;

  /**
   * Sets the visitor (`identify()` with no argument makes them anonymous). A different visitor
   * clears the conversation kept in this browser, so the next person never sees it.
   *
   * @example
   * client.identify({ id: 'user-42', hash: signedOnYourServer });
   */
  identify(user?: VisitorInput | null): void;

  /**
   * The widget's presentation config, cached for up to five minutes and revalidated by ETag.
   *
   * @example
   * const { greeting, accent_light } = await client.fetchConfig();
   */
  fetchConfig(options?: CallOptions): Promise<WidgetConfig>;

  /**
   * The signed visitor's past conversations, newest first. Without a signed visitor (`user`
   * with `hash`) this rejects with `invalid_identity` and sends nothing.
   *
   * @example
   * const conversations = await client.listConversations();
   */
  listConversations(options?: CallOptions): Promise<ConversationSummary[]>;

  /** One conversation with its messages. @example const { messages } = await client.getConversation(id); */
  getConversation(conversationId: string, options?: CallOptions): Promise<Conversation>;

  /**
   * Keeps a conversation from expiring (`kept` true, the default) or releases it (`false`).
   *
   * @example
   * await client.keepConversation(id);        // keep
   * await client.keepConversation(id, false); // release
   */
  keepConversation(conversationId: string, kept?: boolean, options?: CallOptions): Promise<ConversationSummary>;

  /** Deletes one conversation. @example await client.deleteConversation(id); */
  deleteConversation(conversationId: string, options?: CallOptions): Promise<void>;

  /** Deletes every conversation of the signed visitor. @example await client.deleteConversations(); */
  deleteConversations(options?: CallOptions): Promise<void>;

  /**
   * The UI language: the visitor's browser languages, then the config's `default_language`,
   * then English; resolved once per default language and kept, so the UI does not switch mid-visit.
   *
   * @example
   * const locale = client.resolveLocale(await client.fetchConfig()); // 'de'
   */
  resolveLocale(config?: Pick<WidgetConfig, 'default_language'> | null): Locale;

  /** Stops the answers being generated (the stop button); their calls reject with `aborted`. */
  stop(): void;

  /**
   * Subscribes to an event; returns the unsubscribe function.
   *
   * @example
   * const unsubscribe = client.on('status', ({ status }) => render(status));
   */
  on<Name extends keyof ClientEvents>(name: Name, handler: (payload: ClientEvents[Name]) => void): () => void;
  off<Name extends keyof ClientEvents>(name: Name, handler: (payload: ClientEvents[Name]) => void): void;

  /** Cancels everything running and drops all subscriptions; later calls reject with `aborted`. */
  dispose(): void;
}
