/** The built widget scripts under /widget/v1/ and the demo pages under /demo/, with ETags. */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
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

/** Answers /widget/v1/* and /demo/*; returns false for every other path. */
export async function serveStatic(context: AppContext, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
  let root: string;
  let relative: string;
  if (pathname.startsWith('/widget/v1/')) {
    root = context.widgetDir;
    relative = pathname.slice('/widget/v1/'.length);
  } else if (pathname === '/demo') {
    res.writeHead(308, { Location: '/demo/' });
    res.end();
    return true;
  } else if (pathname.startsWith('/demo/')) {
    if (await serveDemo(context, req, res, pathname)) return true;
    root = context.demoDir;
    relative = pathname.slice('/demo/'.length) || 'index.html';
    if (relative.endsWith('/')) relative += 'index.html';
  } else {
    return false;
  }
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
    return true;
  }
  headers['Content-Length'] = entry.body.length;
  res.writeHead(200, headers);
  res.end(entry.body);
  return true;
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
