/** The dashboard's jobs over HTTP, behind the server's admin token; the same operations as the command line. */
import { authoriseAdmin } from '../http/auth.js';
import { readJson } from '../http/body.js';
import type { Handler, Route, RouteContext } from '../http/router.js';
import {
  createApiKey,
  createOrganisation,
  createSource,
  createWidget,
  listEverything,
  mintPreviewToken,
  requireWidget,
  revokeApiKey,
  rotateSigningSecret,
  rotateWidgetSecret,
  updateOrganisation,
  updateWidget,
} from '../store/setup.js';
import type { Body } from '../http/validate.js';
import { parsePeriod, widgetAnalytics } from '../store/analytics.js';

const ORG = '/api/v1/admin/organisations/{organisation}';
const WIDGET = `${ORG}/widgets/{widget}`;

type AdminOperation = (context: RouteContext, body: Body) => Promise<unknown>;

/** Checks the admin token first, then reads the body (for writes), then runs the operation. */
function admin(method: string, path: string, operation: AdminOperation, status = 200): Route {
  const handler: Handler = async (context) => {
    authoriseAdmin(context.req, context.app.adminToken);
    const body = method === 'GET' || method === 'DELETE' ? {} : await readJson(context.req, 1024 * 1024);
    return { status, body: await operation(context, body) };
  };
  return { method, path, kind: 'admin', handler };
}

export const adminRoutes: Route[] = [
  admin('GET', '/api/v1/admin/organisations', ({ app }) => listEverything(app.db)),
  admin('POST', '/api/v1/admin/organisations', ({ app }, body) => createOrganisation(app.db, body), 201),
  admin('GET', ORG, async ({ app, params }) => (await listEverything(app.db, params.organisation)).organisations[0]),
  admin('PATCH', ORG, ({ app, params }, body) => updateOrganisation(app.db, params.organisation!, body)),
  admin('POST', `${ORG}/sources`, ({ app, params }, body) => createSource(app.db, params.organisation!, body), 201),
  admin('POST', `${ORG}/widgets`, ({ app, params }, body) => createWidget(app.db, params.organisation!, body), 201),
  admin('PATCH', WIDGET, ({ app, params }, body) => updateWidget(app.db, params.organisation!, params.widget!, body)),
  admin('POST', `${WIDGET}/secret`, ({ app, params }) => rotateWidgetSecret(app.db, params.organisation!, params.widget!)),
  admin('POST', `${WIDGET}/signing-secret`, ({ app, params }) => rotateSigningSecret(app.db, params.organisation!, params.widget!)),
  admin('POST', `${WIDGET}/preview-tokens`, ({ app, params }) => mintPreviewToken(app.db, params.organisation!, params.widget!), 201),
  admin('POST', `${ORG}/api-keys`, ({ app, params }, body) => createApiKey(app.db, params.organisation!, body), 201),
  admin('DELETE', `${ORG}/api-keys/{key}`, ({ app, params }) => revokeApiKey(app.db, params.organisation!, params.key!)),
  admin('GET', `${WIDGET}/analytics`, async ({ app, params, url }) => {
    await requireWidget(app.db, params.organisation!, params.widget!);
    return widgetAnalytics(app.db, { organisationId: params.organisation!, widgetId: params.widget! }, parsePeriod(url.searchParams));
  }),
];
