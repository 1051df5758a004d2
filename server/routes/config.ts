import { createHash } from 'node:crypto';
import { LIMITS } from '../../wire/contract.js';
import { authoriseWidget } from '../http/auth.js';
import type { Route } from '../http/router.js';
import { effectiveConfig } from '../store/records.js';

export const configRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/v1/{organisation}/widgets/{widget}/config',
    kind: 'widget',
    async handler({ req, app, params }) {
      const { widget, organisation } = await authoriseWidget(app.db, req, {
        organisation: params.organisation!,
        widget: params.widget!,
        permission: 'any',
      });
      const config = effectiveConfig(widget, organisation);
      const etag = `"${createHash('sha256').update(JSON.stringify(config)).digest('base64url').slice(0, 27)}"`;
      const headers = { 'Cache-Control': `public, max-age=${LIMITS.configMaxAgeSeconds}`, ETag: etag };
      const ifNoneMatch = req.headers['if-none-match'];
      if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')) {
        return { status: 304, headers };
      }
      return { body: config, headers };
    },
  },
];
