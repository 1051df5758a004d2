import { LIMITS } from '../../wire/contract.js';
import { respondWithAnswer } from '../answer/respond.js';
import { authoriseWidget } from '../http/auth.js';
import { readJson } from '../http/body.js';
import { authoriseAnswer, withAnswerCapacity } from '../http/answer-capacity.js';
import { enforceRateLimit } from '../http/rate-limit.js';
import type { Route } from '../http/router.js';
import { wantsEventStream } from '../http/sse.js';
import { sessionIdFrom } from '../store/sessions.js';
import { questionField, visitorLanguage } from './chat.js';
import { DEFAULT_SEARCH_LIMIT } from './search.js';

export const summarizeRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/v1/{organisation}/widgets/{widget}/summarize',
    kind: 'widget',
    async handler({ req, res, app, params, signal }) {
      const { organisation, widget } = await authoriseAnswer(app, req, {
        organisation: params.organisation!,
        widget: params.widget!,
        permission: 'summarize',
        type: 'search',
      });
      const body = await readJson(req, LIMITS.body);
      return withAnswerCapacity(app, req, (answerApp) =>
        respondWithAnswer({
          app: answerApp,
          res,
          signal,
          organisation,
          widget,
          sessionId: sessionIdFrom(body),
          stream: wantsEventStream(req.headers.accept),
          question: questionField(body, 'query'),
          language: visitorLanguage(req, widget),
          // The search widget asks for the default number of hits; the summary is built from the first of those.
          summary: { hits: DEFAULT_SEARCH_LIMIT },
        }),
      );
    },
  },
];
