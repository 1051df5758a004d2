/**
 * The demo site's server side, under /demo/. It plays the part of an integrator's own web
 * server: it serves the pages (with a strict Content-Security-Policy, so the demo shows the
 * widgets need no `unsafe-inline`), renders a search result list on the server and reports
 * its clicks through the beacon, signs the visitor id of a "logged-in" visitor, and serves
 * this project's docs, which are the demo fixture's content, so cited sources open.
 *
 * Everything here is for the demo organisation only. A real site does the same on its own
 * server, with its own secrets in its own configuration.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { splitSections } from '../search/sections.js';
import { escapeHtml } from '../search/snippet.js';
import { markdownTitle } from '../content/markdown.js';
import { readFixtureFile } from '../store/fixture.js';
import { findWidget } from '../store/records.js';
import { signVisitorId } from '../store/secrets.js';
import { SESSION_ID_PATTERN } from '../schema/fields.js';

/** The demo fixture's organisation and widgets (demo/fixture.json). */
export const DEMO_ORGANISATION = 'demo';
const CHAT_WIDGET = 'help';
const SEARCH_WIDGET = 'search';

const VISITOR_COOKIE = 'assist_demo_visitor';
const VISITOR_ID = /^visitor-[a-f0-9]{16}$/;

/**
 * Answers the demo's pages and server-side routes; returns false for a path that is a plain
 * file (CSS, JS, the fixture), which the static files route serves.
 */
export async function serveDemo(context: AppContext, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
  const relative = pathname.slice('/demo/'.length);
  if (relative === 'results') return reply(req, res, await resultsPage(context, req));
  if (relative === 'visitor.json') return reply(req, res, await signedVisitor(context, req));
  if (relative.startsWith('docs/')) return reply(req, res, await docsResponse(context, req, relative.slice('docs/'.length)));
  if (relative === '' || relative.endsWith('.html')) return reply(req, res, await pageResponse(context, req, relative || 'index.html'));
  return false;
}

interface DemoResponse {
  status?: number;
  type: 'html' | 'json' | 'markdown';
  body: string;
  headers?: Record<string, string>;
}

const CONTENT_TYPES = { html: 'text/html; charset=utf-8', json: 'application/json; charset=utf-8', markdown: 'text/markdown; charset=utf-8' };

function reply(req: IncomingMessage, res: ServerResponse, response: DemoResponse): true {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new HttpError('method_not_allowed', 'Use one of: GET, HEAD.', { Allow: 'GET, HEAD' });
  }
  const body = Buffer.from(response.body);
  const headers: Record<string, string | number> = {
    'Content-Type': CONTENT_TYPES[response.type],
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...response.headers,
  };
  if (response.type === 'html') headers['Content-Security-Policy'] = contentSecurityPolicy(assistOrigin(req));
  res.writeHead(response.status ?? 200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/**
 * The policy an integrator could ship: scripts, styles and requests only from the site
 * itself and the Assist server; no inline script or style anywhere.
 */
function contentSecurityPolicy(assist: string): string {
  const other = assist ? ` ${assist}` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${other}`,
    `connect-src 'self'${other}`,
    `img-src 'self' data:${other}`,
    "style-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * Where the pages load Assist from: the server's other loopback name (a page on
 * localhost:8787 loads it from 127.0.0.1:8787, and the reverse). Page and API are then on
 * different origins, as on a real site, and every request carries the `Origin` the widget's
 * website list is checked against; a browser leaves `Origin` off same-origin GET requests.
 * Any other host gets relative URLs. The Host header is only used when it is one of these
 * two names with a port, so it cannot put anything else into the page.
 */
export function assistOrigin(req: IncomingMessage): string {
  const match = /^(localhost|127\.0\.0\.1):(\d{1,5})$/.exec(req.headers.host ?? '');
  if (!match) return '';
  return `http://${match[1] === 'localhost' ? '127.0.0.1' : 'localhost'}:${match[2]}`;
}

/** Fills `{{name}}` with the escaped value and `{{{name}}}` with markup that is already safe. */
function fillTemplate(template: string, values: Record<string, string>, markup: Record<string, string> = {}): string {
  return template
    .replace(/\{\{\{(\w+)\}\}\}/g, (_, name: string) => markup[name] ?? '')
    .replace(/\{\{(\w+)\}\}/g, (_, name: string) => escapeHtml(values[name] ?? ''));
}

async function readDemoFile(context: AppContext, name: string): Promise<string | undefined> {
  return readInside(context.demoDir, name);
}

/** A file under `root`, or undefined when there is none or the path leaves `root`. */
async function readInside(root: string, relative: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return undefined;
  }
  const file = normalize(join(root, decoded));
  if (!file.startsWith(normalize(root) + sep) || decoded.includes('\0')) return undefined;
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

const notFoundPage = (): DemoResponse => ({ status: 404, type: 'html', body: '<!doctype html><title>Not found</title><p>No such demo page. <a href="/demo/">All demos</a></p>' });

async function pageResponse(context: AppContext, req: IncomingMessage, name: string): Promise<DemoResponse> {
  // The result list's template is only shown filled in, by /demo/results.
  if (name === 'results.html' || name === 'doc.html') return notFoundPage();
  const template = await readDemoFile(context, name);
  if (template === undefined) return notFoundPage();
  return { type: 'html', body: fillTemplate(template, { assist: assistOrigin(req) }) };
}

// ---------------------------------------------------------------------------------------
// A result list rendered on the server, its clicks reported by the beacon.

interface SearchHit {
  url: string;
  title: string;
  section?: string;
  snippet: string;
}

/**
 * The search widget's secret, as an integrator's server keeps it in its configuration; the
 * demo's configuration is its fixture. Read on each use, so an edited fixture applies at once.
 */
async function searchWidgetSecret(context: AppContext): Promise<string | undefined> {
  try {
    const fixture = readFixtureFile(join(context.demoDir, 'fixture.json')) as { organisations?: { id?: string; widgets?: { id?: string; secret?: unknown }[] }[] };
    const widget = fixture.organisations?.find((organisation) => organisation.id === DEMO_ORGANISATION)?.widgets?.find((entry) => entry.id === SEARCH_WIDGET);
    return typeof widget?.secret === 'string' ? widget.secret : undefined;
  } catch {
    return undefined;
  }
}

/** This server's own address as seen by the request, so the demo calls the API the way a separate server would. */
function selfOrigin(req: IncomingMessage): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${req.socket.localPort}`;
}

/** The server's snippet has `<mark>` as its only markup; it is rebuilt from text so nothing else can get through. */
function markOnly(snippet: string): string {
  const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
  return snippet
    .split(/(<\/?mark>)/)
    .map((part) => (part === '<mark>' || part === '</mark>' ? part : escapeHtml(part.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => entities[entity]!))))
    .join('');
}

function renderHits(hits: SearchHit[], queryId: string): string {
  return hits
    .map((hit, index) => {
      const section = hit.section ? `<span class="result-section">${escapeHtml(hit.section)}</span>` : '';
      return `<li class="result">
  <a href="${escapeHtml(hit.url)}" data-sv-click data-sv-rank="${index + 1}" data-sv-source="result" data-sv-query="${escapeHtml(queryId)}">${escapeHtml(hit.title)}</a>${section}
  <p class="result-snippet">${markOnly(hit.snippet)}</p>
</li>`;
    })
    .join('\n');
}

async function resultsPage(context: AppContext, req: IncomingMessage): Promise<DemoResponse> {
  const template = await readDemoFile(context, 'results.html');
  if (template === undefined) return notFoundPage();
  const params = new URL(req.url ?? '/', 'http://demo.invalid').searchParams;
  const query = (params.get('q') ?? '').trim().slice(0, 500);
  // The form carries the session on, so every search of this visit and its clicks form one funnel.
  const previousSession = params.get('session') ?? '';
  let session = SESSION_ID_PATTERN.test(previousSession) ? previousSession : '';
  let results = '';
  let status = 'Type a question about Assist and press Search.';
  if (query) {
    const secret = await searchWidgetSecret(context);
    let response: Response | undefined;
    if (secret) {
      response = await fetch(`${selfOrigin(req)}/api/v1/${DEMO_ORGANISATION}/widgets/${SEARCH_WIDGET}/search`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, limit: 10, ...(session && { sessionId: session }) }),
      }).catch(() => undefined);
    }
    if (response?.ok) {
      const found = (await response.json()) as { sessionId: string; queryId: string; hits: SearchHit[] };
      session = found.sessionId;
      results = renderHits(found.hits, found.queryId);
      status = found.hits.length === 0 ? `No results for “${query}”.` : `${found.hits.length} results for “${query}”.`;
    } else {
      const reason = response ? `the search answered ${response.status}` : 'the search widget is not set up (is the demo fixture loaded?)';
      context.log(`demo results: ${reason}`);
      status = `The search failed: ${reason}.`;
    }
  }
  return {
    type: 'html',
    body: fillTemplate(template, { assist: assistOrigin(req), query, session, status }, { results }),
  };
}

// ---------------------------------------------------------------------------------------
// A signed visitor.

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * The visitor as the demo's "logged-in" user: an id kept in an HttpOnly cookie (the demo's
 * stand-in for a login session), signed with the chat widget's signing secret the way an
 * integrator's server signs its user's id (HMAC-SHA256, hex). Safe here because the server
 * and the browser are the same local machine and the demo organisation's secrets are public
 * in its fixture anyway; a real site signs on its own server and never gives out the secret.
 */
async function signedVisitor(context: AppContext, req: IncomingMessage): Promise<DemoResponse> {
  const widget = await findWidget(context.db, DEMO_ORGANISATION, CHAT_WIDGET);
  if (!widget) {
    return { status: 404, type: 'json', body: JSON.stringify({ error: { code: 'not_found', message: 'The demo fixture is not loaded.' } }) };
  }
  const known = cookie(req, VISITOR_COOKIE);
  const id = known && VISITOR_ID.test(known) ? known : `visitor-${randomBytes(8).toString('hex')}`;
  const headers: Record<string, string> = {};
  if (id !== known) headers['Set-Cookie'] = `${VISITOR_COOKIE}=${id}; Path=/demo/; HttpOnly; SameSite=Lax; Max-Age=31536000`;
  return {
    type: 'json',
    headers,
    body: JSON.stringify({ widget: `${DEMO_ORGANISATION}/${CHAT_WIDGET}`, user: { id, hash: signVisitorId(id, widget.signingSecret) } }),
  };
}

// ---------------------------------------------------------------------------------------
// The docs: the demo fixture's content, so an answer's sources open.

/** Where demo/fixture.json's docs source points (`"folder": "../docs"`). */
const docsDir = (context: AppContext) => join(context.demoDir, '..', 'docs');

/**
 * `/demo/docs/NAME` is the reader page for docs/NAME.md, `/demo/docs/NAME.json` its text and
 * headings with their anchors (the ones search results link to), `/demo/docs/NAME.md` the file itself.
 */
async function docsResponse(context: AppContext, req: IncomingMessage, relative: string): Promise<DemoResponse> {
  const extension = extname(relative);
  const name = extension === '.json' || extension === '.md' ? relative.slice(0, -extension.length) : relative.replace(/\/$/, '') || 'README';
  const markdown = await readInside(docsDir(context), `${name}.md`);
  if (markdown === undefined) {
    return extension ? { status: 404, type: 'json', body: JSON.stringify({ error: { code: 'not_found', message: 'No such document.' } }) } : notFoundPage();
  }
  if (extension === '.md') return { type: 'markdown', body: markdown };
  const title = markdownTitle(markdown) ?? name;
  if (extension === '.json') {
    // The anchors search and citations link to, from the same slugger, with the heading each
    // belongs to: the reader matches headings by text, since a heading that repeats the title
    // has no anchor and would shift a match by position.
    const headings = new Map<string, { text: string; anchor: string }>();
    for (const section of splitSections(markdown, title)) {
      if (section.anchor !== null && !headings.has(section.anchor)) headings.set(section.anchor, { text: section.heading, anchor: section.anchor });
    }
    return { type: 'json', body: JSON.stringify({ title, markdown, headings: [...headings.values()] }) };
  }
  const template = await readDemoFile(context, 'doc.html');
  if (template === undefined) return notFoundPage();
  return { type: 'html', body: fillTemplate(template, { assist: assistOrigin(req), title, document: name }) };
}
