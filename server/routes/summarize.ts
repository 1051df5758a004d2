import { LIMITS } from '../../wire/contract.js';
import { respondWithAnswer } from '../answer/respond.js';
import { authoriseAnswer, withAnswerCapacity } from '../http/answer-capacity.js';
import { defineRoute, type Route } from '../http/router.js';
import { wantsEventStream } from '../http/sse.js';
import { FIELD_LIMITS } from '../schema/limits.js';
import { SummarizeRequest } from '../schema/widget-requests.js';
import { sessionIdFrom } from '../store/sessions.js';
import { visitorLanguage } from './chat.js';

export const summarizeRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/{organisation}/widgets/{widget}/summarize',
    kind: 'widget',
    schema: { body: { schema: SummarizeRequest, limit: LIMITS.body } },
    async handler({ req, res, app, params, signal, body: readBody }) {
      const { organisation, widget } = await authoriseAnswer(app, req, {
        organisation: params.organisation!,
        widget: params.widget!,
        permission: 'summarize',
        type: 'search',
      });
      const body = await readBody();
      return withAnswerCapacity(app, req, (answerApp) =>
        respondWithAnswer({
          app: answerApp,
          res,
          signal,
          organisation,
          widget,
          sessionId: sessionIdFrom(body),
          stream: wantsEventStream(req.headers.accept),
          question: body.query,
          language: visitorLanguage(req, widget),
          // The search widget asks for the default number of hits; the summary is built from the first of those.
          summary: { hits: FIELD_LIMITS.searchLimitDefault },
        }),
      );
    },
  }),
];
