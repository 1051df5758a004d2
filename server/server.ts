/**
 * The reference server: `node:http`, a small router, one file per resource under routes/.
 * Handlers get a parsed, authorised request and return data or throw an HttpError, which
 * becomes the contract's error body. Nothing a client sends can make it answer 500 or crash.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ServerServices, type AppContext, type AppOptions } from './context.js';
import { applyCors, answerPreflight } from './http/cors.js';
import { HttpError, errorBody, sendError } from './http/errors.js';
import { Router, routeContext, type Reply, type Route } from './http/router.js';
import { routes } from './routes/index.js';
import type { ServerLimits } from './options.js';

export function createApp(options: AppOptions, extraRoutes: Route[] = []): { server: Server; context: AppContext } {
  const router = new Router([...routes, ...extraRoutes]);
  const context: AppContext = { ...options, services: new ServerServices() };
  const server = createServer({ connectionsCheckingInterval: checkingInterval(options.limits) }, (req, res) => {
    handle(context, router, req, res).catch((error) => {
      context.log(`unexpected error: ${(error as Error)?.stack ?? error}`);
      sendError(res, error);
    });
  });
  applyConnectionLimits(server, options.limits, (line) => context.log(line));
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket));
  return { server, context };
}

/** How often Node checks for requests over `headersTimeout` and `requestTimeout` (its own default, 30 s, would add up to that much to both). */
const checkingInterval = (limits: ServerLimits) => Math.max(50, Math.min(5_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 3)));

/**
 * Nobody can hold a connection without using it: the headers must arrive within
 * `headersTimeoutMs`, the whole request within `requestTimeoutMs`, an idle keep-alive
 * connection ends after `keepAliveTimeoutMs`, and any connection that sends and receives
 * nothing for `idleTimeoutMs` (one that never sends a byte, or stops after one) is closed.
 * Open streams stay alive by their heartbeat comments. Beyond `maxConnections` open
 * connections, new ones are closed as they arrive, and the log says so once a minute.
 */
function applyConnectionLimits(server: Server, limits: ServerLimits, log: (line: string) => void): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.timeout = limits.idleTimeoutMs;
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  let dropped = 0;
  let lastReport = 0;
  server.on('drop', () => {
    dropped++;
    const now = Date.now();
    if (now - lastReport < 60_000) return;
    log(
      `connection limit reached: ${limits.maxConnections} connections are open, so new ones are closed as they arrive ` +
        `(${dropped} so far; raise --max-connections if this is real traffic)`,
    );
    lastReport = now;
  });
}

/**
 * Requests Node's parser refuses (not HTTP, an unknown method, headers over the limit, too
 * slow) never reach a handler; they still get the contract's error body, then the connection
 * closes. Nothing is written when an earlier response on the connection has begun (the same
 * check Node's default handler makes), since that would corrupt it.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'The request headers are too large.'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'The request took too long to arrive.'
        : 'The request is not valid HTTP/1.1.';
  const payload = JSON.stringify(errorBody('invalid_request', message));
  socket.end(
    'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n' +
      `Content-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
  );
}

async function handle(context: AppContext, router: Router, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
    const kind = router.kindOf(url.pathname);
    if (method === 'OPTIONS' && kind !== 'files') {
      const methods = router.methodsFor(url.pathname);
      if (methods.length === 0) throw new HttpError('not_found', 'No such route.');
      return answerPreflight(req, res, methods, kind === 'widget');
    }
    if (kind === 'widget') applyCors(req, res);
    const { route, params } = router.match(method, url.pathname);
    const reply = await route.handler(routeContext(route, { req, res, url, params, app: context, signal: controller.signal }));
    if (reply) sendReply(res, reply);
  } catch (error) {
    if (!(error instanceof HttpError)) context.log(`unexpected error on ${method} ${url.pathname}: ${(error as Error)?.stack ?? error}`);
    if (error instanceof HttpError && error.headers.Connection === 'close') closeAfterAnswer(req, res);
    sendError(res, error);
  }
}

/** How long a connection refused mid-body goes on reading what the client still sends, so it can read the answer. */
const LINGER_MS = 2_000;

/**
 * A refusal sent while the request body is still arriving (413, 415) must reach the client.
 * Closing a socket that holds unread bytes resets the connection, and a client still sending
 * can then lose the answer already on its way (RFC 9112, section 9.6): it sees a reset or a
 * broken pipe instead of the error body. So once the answer is out, only the sending half is
 * closed; what the client goes on sending is read and dropped until it closes its half, or
 * LINGER_MS pass.
 */
function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const socket = res.socket;
  if (!socket) return;
  // Node closes a `Connection: close` response's socket with destroySoon(), which destroys it as soon as the answer is written.
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
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
