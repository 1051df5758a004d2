import type { IncomingMessage, ServerResponse } from 'node:http';

export const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, If-None-Match';

/**
 * Widget routes answer browsers on any origin with that origin echoed back: the origin
 * check itself happens in authorisation, and errors must stay readable so the SDK can say
 * why (e.g. `origin_not_allowed`). No cookies are used, so no credentials mode.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Vary', 'Origin');
  const origin = req.headers.origin;
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', 'ETag, Retry-After, Location');
  }
}

export function answerPreflight(req: IncomingMessage, res: ServerResponse, methods: string[], cors: boolean): void {
  const allow = [...new Set([...methods, 'OPTIONS'])].join(', ');
  const headers: Record<string, string> = { Allow: allow };
  if (cors) {
    applyCors(req, res);
    headers['Access-Control-Allow-Methods'] = allow;
    headers['Access-Control-Allow-Headers'] = ALLOWED_HEADERS;
    headers['Access-Control-Max-Age'] = '600';
  }
  res.writeHead(204, headers);
  res.end();
}
