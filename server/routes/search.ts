import { LIMITS, type SearchResponse } from '../../wire/contract.js';
import { authoriseWidget } from '../http/auth.js';
import { enforceRateLimit } from '../http/rate-limit.js';
import { defineRoute, type Route } from '../http/router.js';
import { SearchRequest } from '../schema/widget-requests.js';
import { publicHits, searchSections } from '../search/search.js';
import { recordSearchQuery } from '../store/search-queries.js';
import { sessionIdFrom } from '../store/sessions.js';

export const searchRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/{organisation}/widgets/{widget}/search',
    kind: 'widget',
    schema: { body: { schema: SearchRequest, limit: LIMITS.body } },
    async handler({ app, req, params, body: readBody }) {
      const { widget } = await authoriseWidget(app.db, req, {
        organisation: params.organisation!,
        widget: params.widget!,
        permission: 'search',
        type: 'search',
      });
      await enforceRateLimit(app, req, widget, 'search');
      const body = await readBody();
      const { query, limit } = body;
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
  }),
];
