import { HttpError } from '../http/errors.js';
import type { Route } from '../http/router.js';

export const healthRoutes: Route[] = [
  {
    method: 'GET',
    path: '/healthz',
    kind: 'public',
    async handler({ app }) {
      try {
        await app.db.query('SELECT 1');
      } catch {
        throw new HttpError('internal', 'The database does not answer.');
      }
      return { body: { status: 'ok', database: app.db.kind } };
    },
  },
];
