import { LIMITS } from '../../wire/contract.js';
import { authoriseWidget } from '../http/auth.js';
import { verifyBodyVisitor } from '../http/identity.js';
import { enforceRateLimit } from '../http/rate-limit.js';
import { defineRoute, type Route } from '../http/router.js';
import { EventsBody } from '../schema/widget-requests.js';
import { recordEvents } from '../store/events.js';

export const eventRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/{organisation}/widgets/{widget}/events',
    kind: 'widget',
    // `text/plain` too: what navigator.sendBeacon sends without a preflight.
    schema: { body: { schema: EventsBody, limit: LIMITS.events, textPlain: true } },
    async handler({ req, app, params, body }) {
      const { widget } = await authoriseWidget(app.db, req, { organisation: params.organisation!, widget: params.widget!, permission: 'any' });
      await enforceRateLimit(app, req, widget, 'events');
      const { sessionId, events, user } = await body();
      const visitorId = verifyBodyVisitor(widget, user);
      const { firstDrop } = await recordEvents(app.db, { organisationId: widget.organisationId, widgetId: widget.id }, { sessionId, visitorId }, events);
      if (firstDrop) app.log(`organisation ${widget.organisationId} reached its events_per_day cap; further events today are dropped and counted`);
      return { status: 202 };
    },
  }),
];
