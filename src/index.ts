/**
 * The npm entry: ES modules with types, for bundlers. Everything is a named export and free of
 * side effects, so an app that only uses the headless client does not ship the markdown
 * renderer or any UI.
 *
 * @example
 * import { createClient, AssistError } from 'assist-widgets';
 *
 * const client = createClient('acme/help', { baseUrl: 'https://assist.example.com' });
 */

// The headless client
export { createClient } from './client/client.js';
export type {
  AnswerOperation,
  AssistClient,
  CallOptions,
  ChatOptions,
  ClientEvents,
  ClientOperation,
  ClientOptions,
  LocalHistoryAccess,
  PageContext,
  SearchOptions,
  StreamCallbacks,
  SummarizeOptions,
  TrackEventOptions,
} from './client/types.js';
export type { ClientStatus } from './core/status.js';
export type { RetryPolicy } from './core/transport.js';
export type { VisitorInput } from './core/identity.js';
export type { LocalConversation, LocalMessage } from './core/history.js';

// Headless sessions: the widgets' behaviour, for custom UIs
export { ChatSession } from './client/chat-session.js';
export type { ChatMessage, ChatSessionEvents, ChatSessionState } from './client/chat-session.js';
export { SearchSession, navigationReducer } from './client/search-session.js';
export type {
  NavigationAction,
  NavigationState,
  PageGroup,
  QueryOption,
  ResultOption,
  SearchKey,
  SearchOption,
  SearchPhase,
  SearchSessionEvents,
  SearchSessionOptions,
  SearchSessionState,
  SearchSummary,
  SummaryPhase,
} from './client/search-session.js';

// Errors
export { AssistError, isAssistError } from './core/errors.js';
export type { AssistErrorCode, ClientErrorCode } from './core/errors.js';

// Markdown
export { renderMarkdown, StreamingMarkdown } from './components/shared/markdown.js';
export type { StreamingMarkdownOptions } from './components/shared/markdown.js';

// Languages
export { matchLocale, resolveLocale } from './core/locale.js';

// Building blocks for custom UIs
export { Emitter } from './core/emitter.js';
export { createWidgetHandle } from './core/widget-handle.js';
export type { WidgetController, WidgetHandle, WidgetHandleState, WidgetMountOptions } from './core/widget-handle.js';

// Widgets
export { AssistChat } from './components/assist-chat/assist-chat.js';
export type { AssistChatEventMap, AssistErrorDetail, AssistMessageDetail } from './components/assist-chat/assist-chat.js';
export { AssistSearch } from './components/assist-search/assist-search.js';
export type { AssistSearchDetail, AssistSearchEventMap, AssistSelectDetail } from './components/assist-search/assist-search.js';

// Wire types (the HTTP contract)
export { LOCALES } from '../wire/contract.js';
export type {
  ChatReply,
  ClickProps,
  Conversation,
  ConversationMessage,
  ConversationSummary,
  ErrorBody,
  ErrorCode,
  Hit,
  Locale,
  SearchResponse,
  Source,
  StreamStatus,
  SummarizeResult,
  VisitorIdentity,
  WidgetConfig,
} from '../wire/contract.js';
