import { LIMITS } from '../../wire/contract.js';
import { authoriseWidget } from '../http/auth.js';
import { readJson } from '../http/body.js';
import type { Route } from '../http/router.js';
import { parseEventsBody, recordEvents } from '../store/events.js';

export const eventRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/v1/{organisation}/widgets/{widget}/events',
    kind: 'widget',
    async handler({ req, app, params }) {
      const { widget } = await authoriseWidget(app.db, req, { organisation: params.organisation!, widget: params.widget!, permission: 'any' });
      // `text/plain` too: what navigator.sendBeacon sends without a preflight.
      const { sessionId, events } = parseEventsBody(await readJson(req, LIMITS.events, true));
      await recordEvents(app.db, { organisationId: widget.organisationId, widgetId: widget.id }, sessionId, events);
      return { status: 202 };
    },
  },
];
