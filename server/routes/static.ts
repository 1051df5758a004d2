/** The built widget scripts under /widget/v1/ and the demo pages under /demo/, with ETags. */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import type { Route } from '../http/router.js';
import { serveDemo } from './demo.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

const cache = new Map<string, { mtimeMs: number; body: Buffer; etag: string }>();

export const staticRoutes: Route[] = [
  {
    method: '*',
    path: '/widget/v1/{file*}',
    kind: 'files',
    handler: ({ app, req, res, params }) => serveFile(app, req, res, app.widgetDir, params.file!),
  },
  {
    method: '*',
    path: '/demo',
    kind: 'files',
    handler: ({ res }) => {
      res.writeHead(308, { Location: '/demo/' });
      res.end();
    },
  },
  {
    method: '*',
    path: '/demo/{file*}',
    kind: 'files',
    handler: async ({ app, req, res, url, params }) => {
      if (await serveDemo(app, req, res, url.pathname)) return;
      let relative = params.file! || 'index.html';
      if (relative.endsWith('/')) relative += 'index.html';
      await serveFile(app, req, res, app.demoDir, relative);
    },
  },
];

/** Answers with the file at `relative` (as sent, still encoded) under `root`, or 404. */
async function serveFile(context: AppContext, req: IncomingMessage, res: ServerResponse, root: string, relative: string): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new HttpError('method_not_allowed', 'Use one of: GET, HEAD.', { Allow: 'GET, HEAD' });
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    throw new HttpError('not_found', 'No such file.');
  }
  const file = normalize(join(root, decoded));
  if (!file.startsWith(normalize(root) + sep) || decoded.includes('\0')) throw new HttpError('not_found', 'No such file.');
  const entry = await load(file);
  if (!entry) throw new HttpError('not_found', 'No such file.');
  const headers: Record<string, string | number> = {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    ETag: entry.etag,
    'Cache-Control': root === context.widgetDir ? 'public, max-age=300' : 'no-cache',
    'Access-Control-Allow-Origin': '*',
    'X-Content-Type-Options': 'nosniff',
  };
  if (req.headers['if-none-match'] === entry.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers['Content-Length'] = entry.body.length;
  res.writeHead(200, headers);
  res.end(entry.body);
}

async function load(file: string) {
  let info;
  try {
    info = await stat(file);
  } catch {
    return undefined;
  }
  if (!info.isFile()) return undefined;
  const cached = cache.get(file);
  if (cached && cached.mtimeMs === info.mtimeMs) return cached;
  const body = await readFile(file);
  const entry = { mtimeMs: info.mtimeMs, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  cache.set(file, entry);
  return entry;
}
