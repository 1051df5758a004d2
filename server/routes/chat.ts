import { LIMITS } from '../../wire/contract.js';
import { acceptedLanguages, resolveLocale } from '../../wire/locale.js';
import type { IncomingMessage } from 'node:http';
import { respondWithAnswer } from '../answer/respond.js';
import type { PageContext } from '../answer/types.js';
import { authoriseWidget } from '../http/auth.js';
import { readJson } from '../http/body.js';
import { badRequest } from '../http/errors.js';
import { verifyBodyVisitor } from '../http/identity.js';
import { authoriseAnswer, withAnswerCapacity } from '../http/answer-capacity.js';
import { enforceRateLimit } from '../http/rate-limit.js';
import type { Route } from '../http/router.js';
import { wantsEventStream } from '../http/sse.js';
import { requireId, requireString, type Body } from '../http/validate.js';
import type { WidgetRecord } from '../store/records.js';
import { sessionIdFrom } from '../store/sessions.js';

/** Longest chat message or summarize query, in characters. */
export const MAX_QUESTION = 4000;

export const chatRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/v1/{organisation}/widgets/{widget}/chat',
    kind: 'widget',
    async handler({ req, res, app, params, signal }) {
      const { organisation, widget } = await authoriseAnswer(app, req, {
        organisation: params.organisation!,
        widget: params.widget!,
        permission: 'chat',
        type: 'chatbot',
      });
      const body = await readJson(req, LIMITS.body);
      const message = questionField(body, 'message');
      const conversationId = body.conversationId === undefined || body.conversationId === null ? undefined : requireId(body.conversationId, 'conversationId');
      const visitorId = verifyBodyVisitor(widget, body.user);
      return withAnswerCapacity(app, req, (answerApp) =>
        respondWithAnswer({
          app: answerApp,
          res,
          signal,
          organisation,
          widget,
          sessionId: sessionIdFrom(body),
          stream: wantsEventStream(req.headers.accept),
          question: message,
          language: visitorLanguage(req, widget),
          chat: { conversationId, visitorId, context: pageContext(body.context) },
        }),
      );
    },
  },
];

/** A chat message or summarize query: a non-empty string of at most 4000 characters. */
export function questionField(body: Body, field: string): string {
  return requireString(body, field, { max: MAX_QUESTION });
}

/** `context` as the SDK sends it: `{ url, title, ... }`; members other than url and title are ignored. */
export function pageContext(value: unknown): PageContext | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('`context` must be an object such as { "url": "…", "title": "…" }.');
  const context = value as Body;
  const read = (field: 'url' | 'title', max: number) => {
    const member = context[field];
    if (member === undefined || member === null) return undefined;
    if (typeof member !== 'string' || member.length > max) throw badRequest(`\`context.${field}\` must be a string of at most ${max} characters.`);
    return member;
  };
  return { url: read('url', 2048), title: read('title', 500) };
}

/**
 * The language the visitor reads, as the widgets choose it (spec section 8): the first of
 * the browser's languages (its `Accept-Language`, which every SDK request carries) that a
 * built-in locale serves, else the widget's `default_language`, else English.
 */
export function visitorLanguage(req: IncomingMessage, widget: WidgetRecord): string {
  const header = req.headers['accept-language'];
  return resolveLocale(acceptedLanguages(Array.isArray(header) ? header.join(',') : header), widget.config.default_language);
}
