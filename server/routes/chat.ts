import { LIMITS } from '../../wire/contract.js';
import { acceptedLanguages, resolveLocale } from '../../wire/locale.js';
import type { IncomingMessage } from 'node:http';
import { respondWithAnswer } from '../answer/respond.js';
import { verifyBodyVisitor } from '../http/identity.js';
import { authoriseAnswer, withAnswerCapacity } from '../http/answer-capacity.js';
import { defineRoute, type Route } from '../http/router.js';
import { wantsEventStream } from '../http/sse.js';
import { ChatRequest } from '../schema/widget-requests.js';
import type { WidgetRecord } from '../store/records.js';
import { sessionIdFrom } from '../store/sessions.js';

export const chatRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/{organisation}/widgets/{widget}/chat',
    kind: 'widget',
    schema: { body: { schema: ChatRequest, limit: LIMITS.body } },
    async handler({ req, res, app, params, signal, body: readBody }) {
      const { organisation, widget } = await authoriseAnswer(app, req, {
        organisation: params.organisation!,
        widget: params.widget!,
        permission: 'chat',
        type: 'chatbot',
      });
      const body = await readBody();
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
          question: body.message,
          language: visitorLanguage(req, widget),
          chat: { conversationId: body.conversationId ?? undefined, visitorId, context: body.context || undefined },
        }),
      );
    },
  }),
];

/**
 * The language the visitor reads, as the widgets choose it (spec section 8): the first of
 * the browser's languages (its `Accept-Language`, which every SDK request carries) that a
 * built-in locale serves, else the widget's `default_language`, else English.
 */
export function visitorLanguage(req: IncomingMessage, widget: WidgetRecord): string {
  const header = req.headers['accept-language'];
  return resolveLocale(acceptedLanguages(Array.isArray(header) ? header.join(',') : header), widget.config.default_language);
}
