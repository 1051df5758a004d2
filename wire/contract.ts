/**
 * The wire format of Assist's HTTP contract (v1), shared by the browser SDK and the
 * reference server so both sides' tests check the same names and shapes.
 * Nothing here touches the DOM or Node: types and a few constant tables only.
 */

export const API_PREFIX = '/api/v1';

/** Opaque identifiers in paths: organisations, sources, widgets, pages, conversations. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export const PERMISSIONS = ['pages.read', 'pages.write', 'search', 'chat', 'summarize'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const WIDGET_TYPES = ['chatbot', 'search'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

export const PLANS = ['free', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

export const PAGE_FORMATS = ['markdown', 'html', 'text'] as const;
export type PageFormat = (typeof PAGE_FORMATS)[number];

/** The 13 built-in UI locales (spec section 8). */
export const LOCALES = ['en', 'nl', 'de', 'fr', 'es', 'it', 'pt-BR', 'zh-Hans', 'zh-Hant', 'zh-HK', 'ja', 'ko', 'th'] as const;
export type Locale = (typeof LOCALES)[number];

export const ERROR_STATUS = {
  invalid_request: 400,
  unauthenticated: 401,
  credits_exhausted: 402,
  wrong_organisation: 403,
  permission_denied: 403,
  source_forbidden: 403,
  origin_not_allowed: 403,
  invalid_identity: 403,
  wrong_widget_type: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Every non-2xx response body. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

/** Presentation config (spec 2.4); snake_case names are fixed by the spec. */
export interface WidgetConfig {
  type: WidgetType;
  name: string;
  variant: 'bubble' | 'inline' | 'modal';
  accent_light: string;
  accent_dark: string;
  theme: 'auto' | 'light' | 'dark';
  branding: boolean;
  summary: boolean;
  speech_input: boolean;
  placeholder: string;
  greeting: string;
  avatar: string | null;
  debounce: number;
  default_language: string;
  /** Example questions the empty search modal and the empty chat offer (at most 6, each at most 120 characters). */
  suggestions: string[];
}

export const THEMES = ['auto', 'light', 'dark'] as const;
export const VARIANTS: Record<WidgetType, readonly WidgetConfig['variant'][]> = {
  chatbot: ['bubble', 'inline'],
  search: ['modal', 'inline'],
};

/** Defaults of every config field a widget does not set. */
export function defaultConfig(type: WidgetType, name: string): WidgetConfig {
  return {
    type,
    name,
    variant: VARIANTS[type][0],
    accent_light: '#2557d6',
    accent_dark: '#8ab4ff',
    theme: 'auto',
    branding: true,
    summary: false,
    speech_input: false,
    placeholder: '',
    greeting: '',
    avatar: null,
    debounce: 1000,
    default_language: 'en',
    suggestions: [],
  };
}

export interface Page {
  id: string;
  source: string;
  url: string;
  title: string;
  language?: string;
  metadata?: Record<string, string | number | boolean | null>;
  createdAt: string;
  updatedAt: string;
  content?: string;
}

export interface PageList {
  pages: Page[];
  nextCursor: string | null;
}

export interface Me {
  organisation: { id: string; name: string };
  key: { id: string; name: string; permissions: Permission[]; sources: string[] | null };
  sources: { id: string; name: string; pages: number }[];
}

export interface Hit {
  id: string;
  pageId: string;
  url: string;
  title: string;
  section?: string;
  /** HTML in which only `<mark>` is markup; everything else is escaped. */
  snippet: string;
  source: string;
  score: number;
}

export interface SearchResponse {
  sessionId: string;
  queryId: string;
  hits: Hit[];
}

/** A cited source of a chat answer or summary. */
export interface Source {
  url: string;
  title: string;
  pageId: string;
  /** The heading path of the cited section, when it has one: two sections of one page are told apart by it. */
  section?: string;
}

export interface ChatReply {
  text: string;
  conversationId: string;
  answerId: string;
  sources: Source[];
}

export interface SummarizeResult {
  summarized: boolean;
  text: string;
  sources: Source[];
  /**
   * The summary's id, for feedback. The server sends it in the stream's `meta` event; the
   * client adds it to the result it resolves with (absent from a JSON reply).
   */
  answerId?: string;
}

export interface VisitorIdentity {
  id: string;
  hash?: string;
}

export interface ConversationSummary {
  id: string;
  title: string;
  kept: boolean;
  createdAt: string;
  updatedAt: string;
  expiresAt: string | null;
  messageCount: number;
}

export interface ConversationMessage {
  role: 'user' | 'assistant';
  text: string;
  answerId?: string;
  sources?: Source[];
  /** false when generation stopped before the answer was complete. */
  complete?: boolean;
  createdAt: string;
}

export interface Conversation extends ConversationSummary {
  messages: ConversationMessage[];
}

export interface ClickProps {
  url: string;
  rank?: number;
  source?: string;
}

export const FEEDBACK_VALUES = ['helpful', 'unhelpful'] as const;
export type FeedbackValue = (typeof FEEDBACK_VALUES)[number];

/** A visitor's rating of an answer (chat reply or summary) they received. */
export interface FeedbackProps {
  answerId: string;
  value: FeedbackValue;
  /** Why, usually after "unhelpful"; at most {@link LIMITS.feedbackComment} characters. */
  comment?: string;
}

export type AnalyticsEvent =
  | { name: 'click'; props: ClickProps; queryId?: string; ts?: string }
  | { name: 'feedback'; props: FeedbackProps; queryId?: string; ts?: string };

export interface EventsBody {
  sessionId: string;
  events: AnalyticsEvent[];
  /** The signed visitor, as in chat: rates the answers of their conversations from any session. */
  user?: { id: string; hash: string };
}

/** Server-Sent Events of a streamed chat or summarize answer, by event name. */
export interface StreamEvents {
  meta: { conversationId?: string; answerId: string };
  status: { status: StreamStatus };
  sources: { sources: Source[] };
  token: { delta: string };
  done: ChatReply | SummarizeResult;
  error: ErrorBody;
}
export type StreamEventName = keyof StreamEvents;
export const STREAM_STATUSES = ['searching', 'generating'] as const;
export type StreamStatus = (typeof STREAM_STATUSES)[number];

/** Body size limits in bytes. */
export const LIMITS = {
  body: 1024 * 1024,
  pageWrite: 8 * 1024 * 1024,
  events: 64 * 1024,
  feedbackComment: 1000,
  suggestions: 6,
  suggestionLength: 120,
  pageListMax: 200,
  pageListDefault: 50,
  configMaxAgeSeconds: 300,
  conversationTtlDays: 30,
} as const;

/** A widget key is two public ids joined by one slash. */
export function parseWidgetKey(key: unknown): { organisation: string; widget: string } | null {
  if (typeof key !== 'string') return null;
  const parts = key.split('/');
  if (parts.length !== 2) return null;
  const [organisation, widget] = parts as [string, string];
  return ID_PATTERN.test(organisation) && ID_PATTERN.test(widget) ? { organisation, widget } : null;
}
