import { LIMITS } from '../../wire/contract.js';
import { authoriseWidget } from '../http/auth.js';
import { readJson } from '../http/body.js';
import { verifyBodyVisitor } from '../http/identity.js';
import { enforceRateLimit } from '../http/rate-limit.js';
import type { Route } from '../http/router.js';
import { parseEventsBody, recordEvents } from '../store/events.js';

export const eventRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/v1/{organisation}/widgets/{widget}/events',
    kind: 'widget',
    async handler({ req, app, params }) {
      const { widget } = await authoriseWidget(app.db, req, { organisation: params.organisation!, widget: params.widget!, permission: 'any' });
      await enforceRateLimit(app, req, widget, 'events');
      // `text/plain` too: what navigator.sendBeacon sends without a preflight.
      const body = await readJson(req, LIMITS.events, true);
      const { sessionId, events } = parseEventsBody(body);
      const visitorId = verifyBodyVisitor(widget, body.user);
      const { firstDrop } = await recordEvents(app.db, { organisationId: widget.organisationId, widgetId: widget.id }, { sessionId, visitorId }, events);
      if (firstDrop) app.log(`organisation ${widget.organisationId} reached its events_per_day cap; further events today are dropped and counted`);
      return { status: 202 };
    },
  },
];
