/**
 * The routes that answer (chat, summarize): authorised and rate-limited in the answer lane,
 * their body read through their schema, then answered in a slot of the answer capacity, in
 * the visitor's language, as a stream or as one JSON object.
 */
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { LIMITS, type WidgetType } from '../../wire/contract.js';
import { acceptedLanguages, resolveLocale } from '../../wire/locale.js';
import { respondWithAnswer, type AnswerRequest } from '../answer/respond.js';
import { authoriseAnswer, withAnswerCapacity } from '../http/answer-capacity.js';
import type { WidgetPermission } from '../http/auth.js';
import { defineRoute, type Route } from '../http/router.js';
import { wantsEventStream } from '../http/sse.js';
import type { WidgetRecord } from '../store/records.js';
import { sessionIdFrom } from '../store/sessions.js';

export function answerRoute<Body extends { sessionId?: string | null }>(options: {
  path: string;
  permission: WidgetPermission;
  type: WidgetType;
  schema: z.ZodType<Body>;
  /** What is asked, read from the checked body: the question, and the conversation or the summary. */
  asked: (body: Body, widget: WidgetRecord) => Pick<AnswerRequest, 'question' | 'chat' | 'summary'>;
}): Route {
  return defineRoute<Body>({
    method: 'POST',
    path: options.path,
    kind: 'widget',
    schema: { body: { schema: options.schema, limit: LIMITS.body } },
    async handler({ req, res, app, params, signal, body: readBody }) {
      const { organisation, widget } = await authoriseAnswer(app, req, {
        organisation: params.organisation!,
        widget: params.widget!,
        permission: options.permission,
        type: options.type,
      });
      const body = await readBody();
      const asked = options.asked(body, widget);
      return withAnswerCapacity(app, req, (answerApp) =>
        respondWithAnswer({
          app: answerApp,
          res,
          signal,
          organisation,
          widget,
          sessionId: sessionIdFrom(body),
          stream: wantsEventStream(req.headers.accept),
          language: visitorLanguage(req, widget),
          ...asked,
        }),
      );
    },
  });
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
