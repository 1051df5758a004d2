import type { Route } from '../http/router.js';
import { adminRoutes } from './admin.js';
import { configRoutes } from './config.js';
import { healthRoutes } from './health.js';
import { meRoutes } from './me.js';
import { openapiRoutes } from './openapi.js';
import { pageRoutes } from './pages.js';
import { chatRoutes } from './chat.js';
import { conversationRoutes } from './conversations.js';
import { eventRoutes } from './events.js';
import { searchRoutes } from './search.js';
import { staticRoutes } from './static.js';
import { summarizeRoutes } from './summarize.js';

/**
 * Every route the server answers; the OpenAPI document is generated from this list (but for
 * the `files` routes), each route's input from its schema.
 */
export const routes: Route[] = [...healthRoutes, ...openapiRoutes(() => routes), ...meRoutes, ...pageRoutes, ...configRoutes, ...adminRoutes,
  ...searchRoutes, ...chatRoutes, ...summarizeRoutes, ...eventRoutes, ...conversationRoutes, ...staticRoutes];
