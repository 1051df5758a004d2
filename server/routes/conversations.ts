import { LIMITS } from '../../wire/contract.js';
import { authoriseWidget } from '../http/auth.js';
import { verifyVisitor } from '../http/identity.js';
import { defineRoute, type Route, type RouteContext } from '../http/router.js';
import { KeepRequest, VisitorProof, VisitorQuery } from '../schema/widget-requests.js';
import {
  deleteAllConversations,
  deleteConversation,
  getConversation,
  keepConversation,
  listConversations,
  type WidgetScope,
} from '../store/conversations.js';

const COLLECTION = '/api/v1/{organisation}/widgets/{widget}/conversations';
const ITEM = `${COLLECTION}/{conversation}`;

type VisitorBody = { user?: unknown; hash?: unknown };
type VisitorParameters = { user?: string; hash?: string };

/**
 * Every conversation route: a chat widget, the `chat` permission for API keys, and a signed
 * visitor, whose `user` (the id) and `hash` come as query parameters or body fields.
 */
async function signedVisitor<Body extends VisitorBody>(context: RouteContext<Body, VisitorParameters>): Promise<{ scope: WidgetScope; visitorId: string; body: Body }> {
  const { req, app, params } = context;
  const { widget } = await authoriseWidget(app.db, req, { organisation: params.organisation!, widget: params.widget!, permission: 'chat', type: 'chatbot' });
  const body = await context.body();
  const query = context.query();
  const visitorId = verifyVisitor(widget, query.user ?? body.user, query.hash ?? body.hash, { required: true })!;
  return { scope: { organisationId: widget.organisationId, widgetId: widget.id }, visitorId, body };
}

/** Every conversation route reads the visitor from the query, or from an optional body. */
const visitorInput = { body: { schema: VisitorProof, limit: LIMITS.body, optional: true }, query: VisitorQuery };

export const conversationRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: COLLECTION,
    kind: 'widget',
    schema: visitorInput,
    async handler(context) {
      const { scope, visitorId } = await signedVisitor(context);
      return { body: { conversations: await listConversations(context.app.db, scope, visitorId) } };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: COLLECTION,
    kind: 'widget',
    schema: visitorInput,
    async handler(context) {
      const { scope, visitorId } = await signedVisitor(context);
      await deleteAllConversations(context.app.db, scope, visitorId);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'GET',
    path: ITEM,
    kind: 'widget',
    schema: visitorInput,
    async handler(context) {
      const { scope, visitorId } = await signedVisitor(context);
      return { body: await getConversation(context.app.db, scope, context.params.conversation!, visitorId) };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: ITEM,
    kind: 'widget',
    schema: visitorInput,
    async handler(context) {
      const { scope, visitorId } = await signedVisitor(context);
      await deleteConversation(context.app.db, scope, context.params.conversation!, visitorId);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'POST',
    path: `${ITEM}/keep`,
    kind: 'widget',
    schema: { ...visitorInput, body: { ...visitorInput.body, schema: KeepRequest } },
    async handler(context) {
      const { scope, visitorId, body } = await signedVisitor(context);
      return { body: await keepConversation(context.app.db, scope, context.params.conversation!, visitorId, body.kept) };
    },
  }),
];
