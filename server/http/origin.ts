import type { IncomingMessage } from 'node:http';
import { parseEntry, validHost } from '../schema/website-entry.js';

/**
 * Website-list matching. An entry is a host, optionally with a port (`example.com`,
 * `localhost:8787`), or `*.example.com` for any subdomain (not the bare domain). A request's
 * Origin matches when its host, and its port where the entry names one, are equal to the
 * entry's; the scheme may be http or https. `localhost:*` is local development on any port:
 * `localhost`, `127.0.0.1` and `[::1]` (what dev servers such as Vite print) with any port.
 * `Origin: null` and anything unparsable never match.
 */
export function originAllowed(origin: string | undefined, websites: readonly string[]): boolean {
  const parsed = parseOrigin(origin);
  if (!parsed) return false;
  return websites.some((entry) => entryMatches(entry.trim().toLowerCase(), parsed));
}

interface ParsedOrigin {
  host: string;
  port: string;
}

function parseOrigin(origin: string | undefined): ParsedOrigin | undefined {
  if (!origin || origin === 'null') return undefined;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // An Origin is exactly scheme://host[:port]; anything more (a trailing slash, a path, user info) is not a browser's.
  if (url.origin !== origin.toLowerCase() || url.username || url.password) return undefined;
  // No browser sends port 0, a `*` in a host or an empty label; such an origin is forged, and a
  // literal `*.example.com` must not pass for a subdomain of example.com.
  if (url.port === '0' || !validHost(url.hostname)) return undefined;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return { host: url.hostname, port };
}

/** The hosts a browser on the developer's own machine sends for `localhost:*`. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

function entryMatches(entry: string, origin: ParsedOrigin): boolean {
  const parsed = parseEntry(entry);
  if (!parsed) return false;
  if (parsed.anyLoopbackPort) return LOOPBACK_HOSTS.includes(origin.host);
  if (parsed.port !== undefined && parsed.port !== origin.port) return false;
  if (parsed.wildcard) return origin.host.endsWith(`.${parsed.host}`) && origin.host.length > parsed.host.length + 1;
  return origin.host === parsed.host;
}

/**
 * The origin of the page a browser request comes from. Browsers send `Origin` on cross-origin
 * requests and on POSTs, but not on a same-origin GET (a site that serves Assist from its own
 * origin); such a request says `Sec-Fetch-Site: same-origin`, and its page origin is then the
 * `Host` it was sent to. Neither header can be set by a page's scripts, so this is exactly as
 * trustworthy as `Origin`; the result still has to pass the website list.
 */
export function requestOrigin(req: IncomingMessage): string | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined) return origin;
  const host = req.headers.host;
  if (req.headers['sec-fetch-site'] !== 'same-origin' || !host) return undefined;
  const forwarded = req.headers['x-forwarded-proto'];
  const secure = ('encrypted' in req.socket && Boolean(req.socket.encrypted)) || forwarded === 'https';
  return `${secure ? 'https' : 'http'}://${host.toLowerCase()}`;
}
