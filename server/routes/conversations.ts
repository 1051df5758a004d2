import { LIMITS } from '../../wire/contract.js';
import { authoriseWidget } from '../http/auth.js';
import { readJson } from '../http/body.js';
import { verifyVisitor } from '../http/identity.js';
import type { Route, RouteContext } from '../http/router.js';
import { optionalBoolean, type Body } from '../http/validate.js';
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

/**
 * Every conversation route: a chat widget, the `chat` permission for API keys, and a signed
 * visitor, whose `user` (the id) and `hash` come as query parameters or body fields.
 */
async function signedVisitor(context: RouteContext): Promise<{ scope: WidgetScope; visitorId: string; body: Body }> {
  const { req, app, params, url } = context;
  const { widget } = await authoriseWidget(app.db, req, { organisation: params.organisation!, widget: params.widget!, permission: 'chat', type: 'chatbot' });
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  const body = hasBody ? await readJson(req, LIMITS.body) : {};
  const query = url.searchParams;
  const visitorId = verifyVisitor(widget, query.get('user') ?? body.user, query.get('hash') ?? body.hash, { required: true })!;
  return { scope: { organisationId: widget.organisationId, widgetId: widget.id }, visitorId, body };
}

export const conversationRoutes: Route[] = [
  {
    method: 'GET',
    path: COLLECTION,
    kind: 'widget',
    async handler(context) {
      const { scope, visitorId } = await signedVisitor(context);
      return { body: { conversations: await listConversations(context.app.db, scope, visitorId) } };
    },
  },
  {
    method: 'DELETE',
    path: COLLECTION,
    kind: 'widget',
    async handler(context) {
      const { scope, visitorId } = await signedVisitor(context);
      await deleteAllConversations(context.app.db, scope, visitorId);
      return { status: 204 };
    },
  },
  {
    method: 'GET',
    path: ITEM,
    kind: 'widget',
    async handler(context) {
      const { scope, visitorId } = await signedVisitor(context);
      return { body: await getConversation(context.app.db, scope, context.params.conversation!, visitorId) };
    },
  },
  {
    method: 'DELETE',
    path: ITEM,
    kind: 'widget',
    async handler(context) {
      const { scope, visitorId } = await signedVisitor(context);
      await deleteConversation(context.app.db, scope, context.params.conversation!, visitorId);
      return { status: 204 };
    },
  },
  {
    method: 'POST',
    path: `${ITEM}/keep`,
    kind: 'widget',
    async handler(context) {
      const { scope, visitorId, body } = await signedVisitor(context);
      const kept = optionalBoolean(body, 'kept') ?? true;
      return { body: await keepConversation(context.app.db, scope, context.params.conversation!, visitorId, kept) };
    },
  },
];
