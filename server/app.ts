/**
 * The reference server: `node:http`, a small router, one file per resource under routes/.
 * Handlers get a parsed, authorised request and return data or throw an HttpError, which
 * becomes the contract's error body. Nothing a client sends can make it answer 500 or crash.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Db } from './store/db.js';
import { applyCors, answerPreflight } from './http/cors.js';
import { HttpError, sendError } from './http/errors.js';
import { Router, type Reply, type Route } from './http/router.js';
import { routes } from './routes/index.js';
import { serveStatic } from './routes/static.js';

export interface AppOptions {
  db: Db;
  /** Bearer token of the admin API; without it the admin API is off. */
  adminToken?: string;
  /** Chat and summarize requests per minute per widget and client address; 0 is no limit. */
  rateLimit: number;
  /** Where the built widget scripts are (`dist/widget/v1`). */
  widgetDir: string;
  /** Where the demo pages are. */
  demoDir: string;
  log: (line: string) => void;
}

export interface AppContext extends AppOptions {
  router: Router;
  /** Resources that live as long as the server: rate limiters, answer engines, timers. */
  services: Map<string, unknown>;
}

export function createApp(options: AppOptions, extraRoutes: Route[] = []): { server: Server; context: AppContext } {
  const router = new Router([...routes, ...extraRoutes]);
  const context: AppContext = { ...options, router, services: new Map() };
  const server = createServer((req, res) => {
    handle(context, req, res).catch((error) => {
      context.log(`unexpected error: ${(error as Error)?.stack ?? error}`);
      sendError(res, error);
    });
  });
  // Slow clients cannot hold a connection open forever: headers within 15 s, the whole request within 60 s.
  server.headersTimeout = 15_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  return { server, context };
}

async function handle(context: AppContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://assist.invalid');
  } catch {
    return sendError(res, new HttpError('invalid_request', 'The request target is not a valid URL.'));
  }
  const method = req.method ?? 'GET';
  try {
    if (await serveStatic(context, req, res, url.pathname)) return;
    if (method === 'OPTIONS') {
      const methods = context.router.methodsFor(url.pathname);
      if (methods.length === 0) throw new HttpError('not_found', 'No such route.');
      return answerPreflight(req, res, methods, context.router.kindOf(url.pathname) === 'widget');
    }
    if (context.router.kindOf(url.pathname) === 'widget') applyCors(req, res);
    const { route, params } = context.router.match(method, url.pathname);
    const reply = await route.handler({ req, res, url, params, app: context, signal: controller.signal });
    if (reply) sendReply(res, reply);
  } catch (error) {
    if (!(error instanceof HttpError)) context.log(`unexpected error on ${method} ${url.pathname}: ${(error as Error)?.stack ?? error}`);
    if (error instanceof HttpError && error.headers.Connection === 'close') req.resume();
    sendError(res, error);
  }
}

function sendReply(res: ServerResponse, reply: Reply): void {
  const status = reply.status ?? 200;
  const headers: Record<string, string | number> = { 'Cache-Control': 'no-store', ...reply.headers };
  if (reply.body === undefined || status === 204 || status === 304) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const payload = JSON.stringify(reply.body);
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = Buffer.byteLength(payload);
  res.writeHead(status, headers);
  res.end(payload);
}
