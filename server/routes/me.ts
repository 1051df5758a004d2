import type { Me } from '../../wire/contract.js';
import { authenticateApiKey } from '../http/auth.js';
import type { Route } from '../http/router.js';
import { findOrganisation, sourcesWithPageCounts } from '../store/records.js';

export const meRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/v1/me',
    kind: 'management',
    async handler({ req, app }) {
      const key = await authenticateApiKey(app.db, req);
      const organisation = (await findOrganisation(app.db, key.organisationId))!;
      const sources = await sourcesWithPageCounts(app.db, organisation.id, key.sources);
      const body: Me = {
        organisation: { id: organisation.id, name: organisation.name },
        key: { id: key.id, name: key.name, permissions: key.permissions, sources: key.sources },
        sources,
      };
      return { body };
    },
  },
];
