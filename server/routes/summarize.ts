import type { Route } from '../http/router.js';
import { FIELD_LIMITS } from '../schema/limits.js';
import { SummarizeRequest } from '../schema/widget-requests.js';
import { answerRoute } from './answer-route.js';

export const summarizeRoutes: Route[] = [
  answerRoute({
    path: '/api/v1/{organisation}/widgets/{widget}/summarize',
    permission: 'summarize',
    type: 'search',
    schema: SummarizeRequest,
    // The search widget asks for the default number of hits; the summary is built from the first of those.
    asked: (body) => ({ question: body.query, summary: { hits: FIELD_LIMITS.searchLimitDefault } }),
  }),
];
