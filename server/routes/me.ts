import type { Me } from '../../wire/contract.js';
import { authenticateApiKey } from '../http/auth.js';
import type { Route } from '../http/router.js';
import { findOrganisation } from '../store/records.js';

export const meRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/v1/me',
    kind: 'management',
    async handler({ req, app }) {
      const key = await authenticateApiKey(app.db, req);
      const organisation = (await findOrganisation(app.db, key.organisationId))!;
      const sources = await app.db.query<{ id: string; name: string; pages: number }>(
        `SELECT s.id, s.name, (SELECT count(*) FROM pages p WHERE p.organisation_id = s.organisation_id AND p.source_id = s.id)::int AS pages
           FROM sources s WHERE s.organisation_id = $1 AND ($2::text[] IS NULL OR s.id = ANY($2::text[])) ORDER BY s.id`,
        [organisation.id, key.sources],
      );
      const body: Me = {
        organisation: { id: organisation.id, name: organisation.name },
        key: { id: key.id, name: key.name, permissions: key.permissions, sources: key.sources },
        sources,
      };
      return { body };
    },
  },
];
