import { LIMITS, type SearchResponse } from '../../wire/contract.js';
import { authoriseWidget } from '../http/auth.js';
import { readJson } from '../http/body.js';
import { enforceRateLimit } from '../http/rate-limit.js';
import type { Route } from '../http/router.js';
import { optionalInteger, requireString } from '../http/validate.js';
import { publicHits, searchSections } from '../search/search.js';
import { recordSearchQuery } from '../store/search-queries.js';
import { sessionIdFrom } from '../store/sessions.js';
import { MAX_QUESTION } from './chat.js';

/** Hits when the request names no `limit`, and the most it may ask for. */
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;

export const searchRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/v1/{organisation}/widgets/{widget}/search',
    kind: 'widget',
    async handler({ app, req, params }) {
      const { widget } = await authoriseWidget(app.db, req, {
        organisation: params.organisation!,
        widget: params.widget!,
        permission: 'search',
        type: 'search',
      });
      await enforceRateLimit(app, req, widget, 'search');
      const body = await readJson(req, LIMITS.body);
      const query = requireString(body, 'query', { max: MAX_QUESTION });
      const limit = optionalInteger(body, 'limit', 1, MAX_SEARCH_LIMIT) ?? DEFAULT_SEARCH_LIMIT;
      const sessionId = sessionIdFrom(body);
      const started = performance.now();
      const sections = await searchSections(app.db, {
        organisationId: widget.organisationId,
        sources: widget.sources,
        query,
        limit,
        language: widget.config.default_language,
      });
      const hits = publicHits(sections);
      // The search's own time, for browsers' developer tools and the benchmark (bench/docs-quality.ts).
      const searchTime = `search;dur=${(performance.now() - started).toFixed(2)}`;
      const queryId = await recordSearchQuery(app.db, {
        organisationId: widget.organisationId,
        widgetId: widget.id,
        sessionId,
        query,
        hitCount: hits.length,
      });
      const response: SearchResponse = { sessionId, queryId, hits };
      return { body: response, headers: { 'Server-Timing': searchTime } };
    },
  },
];
