import { verifyBodyVisitor } from '../http/identity.js';
import type { Route } from '../http/router.js';
import { ChatRequest } from '../schema/widget-requests.js';
import { answerRoute } from './answer-route.js';

export const chatRoutes: Route[] = [
  answerRoute({
    path: '/api/v1/{organisation}/widgets/{widget}/chat',
    permission: 'chat',
    type: 'chatbot',
    schema: ChatRequest,
    asked: (body, widget) => ({
      question: body.message,
      chat: { conversationId: body.conversationId ?? undefined, visitorId: verifyBodyVisitor(widget, body.user), context: body.context || undefined },
    }),
  }),
];
