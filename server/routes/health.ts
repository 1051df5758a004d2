import { HttpError } from '../http/errors.js';
import type { Route } from '../http/router.js';
import { databaseAnswers } from '../store/db.js';

export const healthRoutes: Route[] = [
  {
    method: 'GET',
    path: '/healthz',
    kind: 'public',
    async handler({ app }) {
      if (!(await databaseAnswers(app.db))) throw new HttpError('internal', 'The database does not answer.');
      return { body: { status: 'ok', database: app.db.kind } };
    },
  },
];
