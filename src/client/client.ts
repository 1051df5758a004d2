import {
  API_PREFIX,
  ERROR_STATUS,
  FEEDBACK_VALUES,
  LIMITS,
  parseWidgetKey,
  type AnalyticsEvent,
  type ChatReply,
  type EventsBody,
  type Locale,
  type StreamStatus,
  type SummarizeResult,
  type WidgetConfig,
} from '../../wire/contract.js';
import { fetchConfigCached } from '../core/config-cache.js';
import { Emitter } from '../core/emitter.js';
import { AssistError, abortedError, isContractErrorCode, toAssistError } from '../core/errors.js';
import { LocalHistory, historyStorageKey, isSource } from '../core/history.js';
import { normalizeVisitor, sameVisitor, signedVisitor, visitorFingerprint, type SignedVisitor } from '../core/identity.js';
import { browserLanguages, resolveLocale } from '../core/locale.js';
import { adoptSessionId, getSessionId } from '../core/session.js';
import { nextStatus, type ClientStatus, type StatusTransition } from '../core/status.js';
import { DEFAULT_RETRY, Transport, abortReason, anySignal, invalidResponse, isRecord, parseJsonResponse, readEventStream } from '../core/transport.js';
import { explainFailure, reportCallbackError } from '../core/warn.js';
import type { ServerSentEvent } from '../core/sse.js';
import { parseChatReply, parseConversation, parseConversationList, parseConversationSummary, parseSearchResponse, parseSummarizeResult } from './parse.js';
import type { AnswerOperation, AssistClient, CallOptions, ClientEvents, ClientOperation, ClientOptions, PageContext, StreamCallbacks, TrackEventOptions } from './types.js';

/**
 * Creates the headless client for one widget. Checks its input at once: a key that is not
 * `{organisation}/{widget}` throws an `invalid_key` AssistError here, not on the first request.
 *
 * @example
 * import { createClient } from 'assist-widgets';
 *
 * const client = createClient('acme/help', { user: { id: 'user-42', hash } });
 * const reply = await client.chat('How do I reset my password?', {
 *   onToken: (delta, text) => render(text),
 * });
 */
export function createClient(widgetKey: string, options: ClientOptions = {}): AssistClient {
  const key = parseWidgetKey(widgetKey);
  if (!key) {
    throw new AssistError('invalid_key', `The widget key must be "{organisation}/{widget}": two public ids joined by one slash, like "acme/help" (got ${JSON.stringify(widgetKey)}).`);
  }
  const normalizedKey = `${key.organisation}/${key.widget}`;
  const baseUrl = resolveBaseUrl(options.baseUrl);
  let user = normalizeVisitor(options.user);
  const context = options.context;
  if (context !== undefined && context !== false && !isRecord(context)) {
    throw new AssistError('invalid_request', 'The context option must be an object or false.');
  }
  const { token } = options;
  const transport = new Transport({
    endpoint: `${baseUrl}${API_PREFIX}/${encodeURIComponent(key.organisation)}/widgets/${encodeURIComponent(key.widget)}`,
    headers: (): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {}),
    retry: { ...DEFAULT_RETRY, ...options.retry },
  });
  const events = new Emitter<ClientEvents>();
  const localHistory = new LocalHistory(historyStorageKey(key.organisation, key.widget), () => visitorFingerprint(user));
  /** Aborted by dispose(); every request listens to it. */
  const lifetime = new AbortController();
  const runningAnswers = new Set<AbortController>();
  let latestSearch: AbortController | null = null;
  let latestSummary: AbortController | null = null;
  let lastQueryId: string | null = null;
  let lastConfig: WidgetConfig | null = null;
  const resolvedLocales = new Map<string, Locale>();

  // Answer status: only the latest chat/summarize call moves it; an older one finishing late
  // must not flip a newer answer's status.
  let status: ClientStatus = 'idle';
  let stage: StreamStatus | null = null;
  let statusOwner = 0;

  function transition(owner: number, operation: AnswerOperation, change: StatusTransition, nextStage: StreamStatus | null = null): void {
    if (owner !== statusOwner) return;
    const next = nextStatus(status, change);
    if (next === null) return;
    const stageAfter = change === 'receive' ? (nextStage ?? stage) : null;
    if (next === status && stageAfter === stage) return;
    const previous = status;
    status = next;
    stage = stageAfter;
    events.emit('status', { status, previous, stage, operation });
  }

  function fail(operation: ClientOperation, error: unknown): AssistError {
    const failure = toAssistError(error, 'network');
    if (failure.code !== 'aborted') events.emit('error', { operation, error: failure });
    explainFailure(failure, normalizedKey, baseUrl);
    return failure;
  }

  function requireSigned(): SignedVisitor {
    const signed = signedVisitor(user);
    if (!signed) {
      throw new AssistError('invalid_identity', 'Conversation history needs a signed visitor: pass user: { id, hash } (hash made on your server) to the client or identify().');
    }
    return signed;
  }

  function pageContext(): PageContext | undefined {
    if (context === false) return undefined;
    const defaults: PageContext = typeof location !== 'undefined' ? { url: location.href, title: typeof document !== 'undefined' ? document.title : '' } : {};
    return { ...defaults, ...context };
  }

  /** Runs a call with the caller's signal and the client's lifetime, rejecting with an AssistError. */
  async function guarded<T>(operation: ClientOperation, signal: AbortSignal | undefined, body: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const linked = anySignal([signal, lifetime.signal]);
    try {
      return await body(linked.signal);
    } catch (error) {
      throw fail(operation, error);
    } finally {
      linked.release();
    }
  }

  async function answer<Result>(
    operation: AnswerOperation,
    path: string,
    requestBody: Record<string, unknown>,
    options: StreamCallbacks & CallOptions,
    parse: (body: unknown) => Result | null,
    supersede?: AbortController | null,
  ): Promise<Result> {
    const owner = ++statusOwner;
    const controller = new AbortController();
    runningAnswers.add(controller);
    supersede?.abort(abortedError(`A newer ${operation} call replaced this one.`));
    if (operation === 'summarize') latestSummary = controller;
    transition(owner, operation, 'submit');
    const linked = anySignal([options.signal, controller.signal, lifetime.signal]);
    const { signal } = linked;
    const stream = options.stream ?? Boolean(options.onToken || options.onStatus || options.onSources);
    try {
      const response = await transport.send({ method: 'POST', path, body: requestBody, signal, accept: stream ? 'text/event-stream' : 'application/json' });
      let result: Result | null = null;
      if (response.headers.get('Content-Type')?.includes('text/event-stream')) {
        let text = '';
        // A summary's `done` lacks its id, which only `meta` carries; feedback needs it.
        let metaAnswerId: string | undefined;
        await readEventStream(
          response,
          (event) => {
            const data = eventData(event, response.status);
            switch (event.event) {
              case 'meta':
                adoptSessionId(data.sessionId);
                if (typeof data.answerId === 'string') metaAnswerId = data.answerId;
                transition(owner, operation, 'receive');
                return false;
              case 'status':
                if (typeof data.status !== 'string') throw invalidResponse(response.status, 'A status event without a status.');
                transition(owner, operation, 'receive', data.status as StreamStatus);
                callSafely(options.onStatus, data.status as StreamStatus);
                return false;
              case 'sources':
                if (!Array.isArray(data.sources) || !data.sources.every(isSource)) throw invalidResponse(response.status, 'A sources event with malformed sources.');
                transition(owner, operation, 'receive');
                callSafely(options.onSources, data.sources);
                return false;
              case 'token':
                if (typeof data.delta !== 'string') throw invalidResponse(response.status, 'A token event without a delta.');
                text += data.delta;
                transition(owner, operation, 'receive');
                callSafely(options.onToken, data.delta, text);
                if (owner === statusOwner) events.emit('token', { operation, delta: data.delta, text });
                return false;
              case 'done':
                result = parse(metaAnswerId ? { answerId: metaAnswerId, ...data } : data);
                if (result === null) throw invalidResponse(response.status, 'The done event does not hold a complete answer.');
                return true;
              case 'error':
                throw streamError(data);
              default:
                // Events this version does not know are skipped, so the server can add some.
                return false;
            }
          },
          signal,
        );
      } else {
        result = await parseJsonResponse(response, parse, signal);
      }
      // An answer that arrives after its call was cancelled is dropped, not delivered late.
      if (signal.aborted) throw abortReason(signal);
      transition(owner, operation, 'finish');
      return result!;
    } catch (error) {
      const failure = toAssistError(error, 'network');
      transition(owner, operation, failure.code === 'aborted' ? 'stop' : 'fail');
      throw fail(operation, failure);
    } finally {
      linked.release();
      runningAnswers.delete(controller);
      if (latestSummary === controller) latestSummary = null;
    }
  }

  const client: AssistClient = {
    widgetKey: normalizedKey,
    preview: Boolean(token),

    get sessionId() {
      return getSessionId();
    },
    get status() {
      return status;
    },
    get user() {
      return user ? { ...user } : null;
    },

    history: {
      load: () => localHistory.load(),
      save: (conversation) => localHistory.save(conversation),
      clear: () => localHistory.clear(),
    },

    async search(query, { limit, signal } = {}) {
      const controller = new AbortController();
      latestSearch?.abort(abortedError('A newer search replaced this one.'));
      latestSearch = controller;
      try {
        return await guarded('search', signal, async (callSignal) => {
          if (typeof query !== 'string' || !query.trim()) throw new AssistError('invalid_request', 'search() needs a non-empty query.');
          const linked = anySignal([callSignal, controller.signal]);
          try {
            const result = await transport.json(
              { method: 'POST', path: '/search', body: { query, ...(limit !== undefined && { limit }), sessionId: getSessionId() }, signal: linked.signal },
              parseSearchResponse,
            );
            if (linked.signal.aborted) throw abortReason(linked.signal);
            adoptSessionId(result.sessionId);
            lastQueryId = result.queryId;
            return result;
          } finally {
            linked.release();
          }
        });
      } finally {
        if (latestSearch === controller) latestSearch = null;
      }
    },

    async chat(message, options = {}) {
      if (typeof message !== 'string' || !message.trim()) throw fail('chat', new AssistError('invalid_request', 'chat() needs a non-empty message.'));
      const asker = user;
      const signed = signedVisitor(user);
      const pageInfo = pageContext();
      const sentAt = new Date().toISOString();
      const reply = await answer<ChatReply>(
        'chat',
        '/chat',
        {
          message,
          ...(options.conversationId && { conversationId: options.conversationId }),
          ...(signed && { user: signed }),
          ...(pageInfo && { context: pageInfo }),
          sessionId: getSessionId(),
        },
        options,
        (body) => {
          if (isRecord(body)) adoptSessionId(body.sessionId);
          return parseChatReply(body);
        },
      );
      // A visitor who logged out (or in as someone else) while the answer was on its way: the
      // history now belongs to the next visitor and must not receive the previous one's chat.
      if (sameVisitor(asker, user)) {
        localHistory.append(reply.conversationId, [
          { role: 'user', text: message, createdAt: sentAt },
          { role: 'assistant', text: reply.text, answerId: reply.answerId, sources: reply.sources, createdAt: new Date().toISOString() },
        ]);
      }
      events.emit('reply', { operation: 'chat', reply });
      return reply;
    },

    async summarize(query, options = {}) {
      if (typeof query !== 'string' || !query.trim()) throw fail('summarize', new AssistError('invalid_request', 'summarize() needs a non-empty query.'));
      const result = await answer<SummarizeResult>('summarize', '/summarize', { query, sessionId: getSessionId() }, options, parseSummarizeResult, latestSummary);
      events.emit('reply', { operation: 'summarize', reply: result });
      return result;
    },

    trackEvent(name, props, options = {}) {
      try {
        if (lifetime.signal.aborted) return;
        sendEvent(transport, token, { name, props, ...queryIdOf(options, lastQueryId), ts: new Date().toISOString() });
      } catch {
        // Analytics must never break the page.
      }
    },

    sendFeedback(answerId, value, comment) {
      if (typeof answerId !== 'string' || !answerId) throw new AssistError('invalid_request', 'sendFeedback() needs the answerId of a chat reply or summary.');
      if (!FEEDBACK_VALUES.includes(value)) throw new AssistError('invalid_request', 'sendFeedback() takes "helpful" or "unhelpful".');
      if (comment !== undefined && (typeof comment !== 'string' || comment.length > LIMITS.feedbackComment)) {
        throw new AssistError('invalid_request', `A feedback comment is a string of at most ${LIMITS.feedbackComment} characters.`);
      }
      if (lifetime.signal.aborted) return;
      const trimmed = comment?.trim();
      // The signed visitor goes too: an answer in their conversation is theirs to rate, not the session's.
      sendEvent(transport, token, { name: 'feedback', props: { answerId, value, ...(trimmed && { comment: trimmed }) }, ts: new Date().toISOString() }, signedVisitor(user));
    },

    identify(nextUser) {
      const next = normalizeVisitor(nextUser);
      const previous = user;
      if (sameVisitor(previous, next) && previous?.hash === next?.hash) return;
      if (!sameVisitor(previous, next)) localHistory.clear();
      user = next;
      events.emit('identity', { user: next ? { ...next } : null, previous });
    },

    fetchConfig({ signal } = {}) {
      return guarded('config', signal, async (callSignal) => {
        const config = await fetchConfigCached(transport, callSignal);
        lastConfig = config;
        events.emit('config', { config });
        return config;
      });
    },

    listConversations({ signal } = {}) {
      return guarded('conversations', signal, (callSignal) =>
        transport.json({ method: 'GET', path: '/conversations', query: identityQuery(requireSigned()), signal: callSignal }, parseConversationList),
      );
    },

    getConversation(conversationId, { signal } = {}) {
      return guarded('conversations', signal, (callSignal) =>
        transport.json({ method: 'GET', path: conversationPath(conversationId), query: identityQuery(requireSigned()), signal: callSignal }, parseConversation),
      );
    },

    keepConversation(conversationId, kept = true, { signal } = {}) {
      return guarded('conversations', signal, (callSignal) => {
        const signed = requireSigned();
        return transport.json(
          { method: 'POST', path: `${conversationPath(conversationId)}/keep`, body: { user: signed.id, hash: signed.hash, kept }, signal: callSignal },
          parseConversationSummary,
        );
      });
    },

    deleteConversation(conversationId, { signal } = {}) {
      return guarded('conversations', signal, async (callSignal) => {
        await transport.send({ method: 'DELETE', path: conversationPath(conversationId), query: identityQuery(requireSigned()), signal: callSignal });
        if (localHistory.load()?.conversationId === conversationId) localHistory.clear();
      });
    },

    deleteConversations({ signal } = {}) {
      return guarded('conversations', signal, async (callSignal) => {
        await transport.send({ method: 'DELETE', path: '/conversations', query: identityQuery(requireSigned()), signal: callSignal });
        localHistory.clear();
      });
    },

    resolveLocale(config) {
      const fallback = (config === undefined ? lastConfig : config)?.default_language ?? '';
      let locale = resolvedLocales.get(fallback);
      if (!locale) {
        locale = resolveLocale(browserLanguages(), fallback);
        resolvedLocales.set(fallback, locale);
      }
      return locale;
    },

    stop() {
      for (const controller of runningAnswers) controller.abort(abortedError('Stopped.'));
    },

    on: (name, handler) => events.on(name, handler),
    off: (name, handler) => events.off(name, handler),

    dispose() {
      if (lifetime.signal.aborted) return;
      events.clear();
      lifetime.abort(abortedError('The client was disposed.'));
    },
  };
  return client;
}

function resolveBaseUrl(baseUrl: string | undefined): string {
  const fallback = typeof location !== 'undefined' ? location.origin : undefined;
  const raw = baseUrl ?? fallback;
  let url: URL | null = null;
  try {
    url = raw ? new URL(raw) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new AssistError('invalid_request', `baseUrl must be an absolute http(s) URL like "https://assist.example.com" (got ${JSON.stringify(baseUrl)}).`);
  }
  return url.href.replace(/\/+$/, '');
}

function conversationPath(conversationId: string): string {
  if (typeof conversationId !== 'string' || !conversationId) throw new AssistError('invalid_request', 'A conversation id is required.');
  return `/conversations/${encodeURIComponent(conversationId)}`;
}

function identityQuery(visitor: SignedVisitor): Record<string, string> {
  return { user: visitor.id, hash: visitor.hash };
}

function queryIdOf(options: TrackEventOptions, lastQueryId: string | null): { queryId?: string } {
  const queryId = options.queryId === undefined ? lastQueryId : options.queryId;
  return queryId ? { queryId } : {};
}

/**
 * `sendBeacon` with a `text/plain` body: no preflight, and it outlives the page when the click
 * navigates away. With a preview token (a header beacons cannot carry), or when the browser
 * refuses the beacon, `fetch` with `keepalive` does the same job.
 */
function sendEvent(transport: Transport, token: string | undefined, event: AnalyticsEvent, visitor: SignedVisitor | null = null): void {
  const body: EventsBody = { sessionId: getSessionId(), events: [event], ...(visitor && { user: visitor }) };
  const json = JSON.stringify(body);
  const url = transport.url('/events');
  if (!token && typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function') {
    try {
      if (navigator.sendBeacon(url, new Blob([json], { type: 'text/plain' }))) return;
    } catch {
      // fall back to fetch
    }
  }
  fetch(url, {
    method: 'POST',
    body: json,
    headers: { 'Content-Type': 'text/plain;charset=UTF-8', ...(token && { Authorization: `Bearer ${token}` }) },
    keepalive: true,
    credentials: 'omit',
  }).catch(() => undefined);
}

function eventData(event: ServerSentEvent, status: number): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch (error) {
    throw invalidResponse(status, `The ${event.event} event of the answer stream is not JSON.`, error);
  }
  if (!isRecord(data)) throw invalidResponse(status, `The ${event.event} event of the answer stream is not a JSON object.`);
  return data;
}

/** An `error` event: the answer failed after the stream began. Status from the code, as if answered directly. */
function streamError(data: Record<string, unknown>): AssistError {
  const detail = isRecord(data.error) ? data.error : {};
  const code = isContractErrorCode(detail.code) ? detail.code : 'internal';
  const message = typeof detail.message === 'string' && detail.message ? detail.message : 'The answer failed.';
  return new AssistError(code, message, { status: ERROR_STATUS[code] });
}

function callSafely<Args extends unknown[]>(callback: ((...args: Args) => void) | undefined, ...args: Args): void {
  if (!callback) return;
  try {
    callback(...args);
  } catch (error) {
    reportCallbackError(error);
  }
}

