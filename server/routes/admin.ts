/** The dashboard's jobs over HTTP, behind the server's admin token; the same operations as the command line. */
import * as z from 'zod';
import { LIMITS } from '../../wire/contract.js';
import { authoriseAdmin } from '../http/auth.js';
import { defineRoute, type Route, type RouteContext } from '../http/router.js';
import { AnalyticsQuery, ApiKeyCreate, OrganisationCreate, OrganisationUpdate, SourceCreate, WidgetCreate, WidgetUpdate } from '../schema/admin-requests.js';
import { createApiKey, revokeApiKey } from '../store/api-keys.js';
import { createOrganisation, createSource, listEverything, updateOrganisation } from '../store/organisations.js';
import { createWidget, mintPreviewToken, requireWidget, rotateSigningSecret, rotateWidgetSecret, updateWidget } from '../store/widgets.js';
import { widgetAnalytics } from '../store/analytics.js';

const ORG = '/api/v1/admin/organisations/{organisation}';
const WIDGET = `${ORG}/widgets/{widget}`;

/** Checks the admin token first, then runs the operation (which reads the body, when it has one). */
function admin(method: string, path: string, operation: (context: RouteContext<never, never>) => Promise<unknown>, status = 200): Route {
  return defineRoute({
    method,
    path,
    kind: 'admin',
    async handler(context) {
      await authoriseAdmin(context.app.db, context.req, context.app.adminToken);
      return { status, body: await operation(context) };
    },
  });
}

/** An admin write: the admin token, then the body checked against `schema`, then the operation. */
function adminWrite<Schema extends z.ZodType>(
  method: string,
  path: string,
  schema: Schema,
  operation: (context: RouteContext<z.output<Schema>, never>, body: z.output<Schema>) => Promise<unknown>,
  status = 200,
): Route {
  return defineRoute<z.output<Schema>>({
    method,
    path,
    kind: 'admin',
    schema: { body: { schema: schema as z.ZodType<z.output<Schema>>, limit: LIMITS.body } },
    async handler(context) {
      await authoriseAdmin(context.app.db, context.req, context.app.adminToken);
      return { status, body: await operation(context, await context.body()) };
    },
  });
}

/** A POST that takes no input still reads its body, so a body that is not a JSON object is refused as on every write. */
const NoInput = z.object({});

export const adminRoutes: Route[] = [
  admin('GET', '/api/v1/admin/organisations', ({ app }) => listEverything(app.db)),
  adminWrite('POST', '/api/v1/admin/organisations', OrganisationCreate, ({ app }, body) => createOrganisation(app.db, body, app.limits.eventsPerDay), 201),
  admin('GET', ORG, async ({ app, params }) => (await listEverything(app.db, params.organisation)).organisations[0]),
  adminWrite('PATCH', ORG, OrganisationUpdate, ({ app, params }, body) => updateOrganisation(app.db, params.organisation!, body)),
  adminWrite('POST', `${ORG}/sources`, SourceCreate, ({ app, params }, body) => createSource(app.db, params.organisation!, body), 201),
  adminWrite('POST', `${ORG}/widgets`, WidgetCreate, ({ app, params }, body) => createWidget(app.db, params.organisation!, body), 201),
  adminWrite('PATCH', WIDGET, WidgetUpdate, ({ app, params }, body) => updateWidget(app.db, params.organisation!, params.widget!, body)),
  adminWrite('POST', `${WIDGET}/secret`, NoInput, ({ app, params }) => rotateWidgetSecret(app.db, params.organisation!, params.widget!)),
  adminWrite('POST', `${WIDGET}/signing-secret`, NoInput, ({ app, params }) => rotateSigningSecret(app.db, params.organisation!, params.widget!)),
  adminWrite('POST', `${WIDGET}/preview-tokens`, NoInput, ({ app, params }) => mintPreviewToken(app.db, params.organisation!, params.widget!), 201),
  adminWrite('POST', `${ORG}/api-keys`, ApiKeyCreate, ({ app, params }, body) => createApiKey(app.db, params.organisation!, body), 201),
  admin('DELETE', `${ORG}/api-keys/{key}`, ({ app, params }) => revokeApiKey(app.db, params.organisation!, params.key!)),
  defineRoute({
    method: 'GET',
    path: `${WIDGET}/analytics`,
    kind: 'admin',
    schema: { query: AnalyticsQuery },
    async handler({ app, req, params, query }) {
      await authoriseAdmin(app.db, req, app.adminToken);
      await requireWidget(app.db, params.organisation!, params.widget!);
      return { body: await widgetAnalytics(app.db, { organisationId: params.organisation!, widgetId: params.widget! }, query()) };
    },
  }),
];
