import type { IncomingMessage, ServerResponse } from 'node:http';
import { ID_PATTERN } from '../../wire/contract.js';
import type * as z from 'zod';
import type { AppContext } from '../context.js';
import { parseInput } from '../schema/parse.js';
import { readJson } from './body.js';
import { HttpError } from './errors.js';

/**
 * Who may call a route; decides CORS and which credentials are looked at. `files` are the
 * static files (widget scripts, demo pages): their handler answers every method itself,
 * preflights included, and they are not part of the API document.
 */
export type RouteKind = 'management' | 'widget' | 'admin' | 'public' | 'files';

export interface RouteContext<Body = unknown, Query = unknown> {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  app: AppContext;
  /** Aborted when the client goes away before the response has finished. */
  signal: AbortSignal;
  /**
   * Reads the JSON body and checks it against the route's `schema.body`: the typed value, or
   * 400 naming the field. A handler calls it once it has authorised the request, so the
   * contract's order of checks holds (400 comes last).
   */
  body(): Promise<Body>;
  /** The query parameters checked against the route's `schema.query`, or 400 naming the parameter. */
  query(): Query;
}

/** What a route reads, as schemas: from them come its checks and its part of the OpenAPI document. */
export interface RouteSchema<Body, Query> {
  body?: {
    schema: z.ZodType<Body>;
    /** The most bytes the body may have (413 beyond). */
    limit: number;
    /** Also take `text/plain` holding JSON: what `navigator.sendBeacon` sends without a preflight. */
    textPlain?: boolean;
    /** The body may be left out altogether (a DELETE with its fields as query parameters): it then reads as `{}`. */
    optional?: boolean;
  };
  query?: z.ZodType<Query>;
}

/** What a handler returns; `undefined` means it wrote the response itself (streams, files). */
export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler<Body = unknown, Query = unknown> = (context: RouteContext<Body, Query>) => Promise<Reply | void> | Reply | void;

// `any` by default so routes of every input type fit one list; defineRoute keeps each handler typed.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Route<Body = any, Query = any> {
  /** An HTTP method, or `*` for a handler that answers every method itself. */
  method: string;
  /**
   * OpenAPI-style template, e.g. `/api/v1/{organisation}/sources/{source}/pages`. A last
   * `{name*}` takes the rest of the path, slashes included, as it was sent (still encoded).
   */
  path: string;
  kind: RouteKind;
  schema?: RouteSchema<Body, Query>;
  handler: Handler<Body, Query>;
}

/** A route whose handler gets its body and query typed by its schema. */
export function defineRoute<Body = never, Query = never>(route: Route<Body, Query>): Route {
  return route;
}

/** The context a route's handler gets: the request as it came, and its input read through the route's schema. */
export function routeContext(route: Route, request: Omit<RouteContext, 'body' | 'query'>): RouteContext {
  let body: Promise<unknown> | undefined;
  return {
    ...request,
    body() {
      const declared = route.schema?.body;
      if (!declared) throw new Error(`${route.method} ${route.path} reads a body but declares no schema for it`);
      body ??= (async () => {
        const { req } = request;
        const sent = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
        const value = declared.optional && !sent ? {} : await readJson(req, declared.limit, declared.textPlain);
        return parseInput(declared.schema, value);
      })();
      return body;
    },
    query() {
      const declared = route.schema?.query;
      if (!declared) throw new Error(`${route.method} ${route.path} reads its query but declares no schema for it`);
      // A parameter given twice counts by its first value, as URLSearchParams.get reads it.
      const parameters: Record<string, string> = {};
      for (const [name, value] of request.url.searchParams) parameters[name] ??= value;
      return parseInput(declared, parameters);
    },
  };
}

interface CompiledRoute extends Route {
  pattern: RegExp;
  names: string[];
  /** Whether the last name is a `{name*}` rest of the path. */
  rest: boolean;
}

/** Paths whose parameters are opaque ids; anything else in such a segment is simply not found. */
export class Router {
  private readonly compiled: CompiledRoute[] = [];

  constructor(readonly routes: Route[]) {
    for (const route of routes) {
      const names: string[] = [];
      const rest = /\{\w+\*\}$/.test(route.path);
      const source = route.path.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)(\*?)\}/g, (_, name: string, star: string) => {
        names.push(name);
        return star ? '(.*)' : '([^/]+)';
      });
      this.compiled.push({ ...route, names, rest, pattern: new RegExp(`^${source}$`) });
    }
  }

  /** Finds the route for a method and path; throws 404 or 405 (with `Allow`) when there is none. */
  match(method: string, pathname: string): { route: Route; params: Record<string, string> } {
    const allowed = new Set<string>();
    let pathMatched = false;
    for (const route of this.compiled) {
      const found = route.pattern.exec(pathname);
      if (!found) continue;
      const params: Record<string, string> = {};
      let valid = true;
      route.names.forEach((name, index) => {
        if (route.rest && index === route.names.length - 1) {
          params[name] = found[index + 1]!;
          return;
        }
        let value: string;
        try {
          value = decodeURIComponent(found[index + 1]!);
        } catch {
          value = '';
        }
        if (!ID_PATTERN.test(value)) valid = false;
        params[name] = value;
      });
      if (!valid) continue;
      pathMatched = true;
      if (route.method === method || route.method === '*' || (method === 'HEAD' && route.method === 'GET')) return { route, params };
      allowed.add(route.method);
    }
    if (pathMatched && allowed.size > 0) {
      if (allowed.has('GET')) allowed.add('HEAD');
      const allow = [...allowed, 'OPTIONS'].join(', ');
      throw new HttpError('method_not_allowed', `Use one of: ${allow}.`, { Allow: allow });
    }
    throw new HttpError('not_found', 'No such route.');
  }

  /** Methods served at a path, for preflight answers. */
  methodsFor(pathname: string): string[] {
    return this.compiled.filter((route) => route.pattern.test(pathname)).map((route) => route.method);
  }

  kindOf(pathname: string): RouteKind | undefined {
    return this.compiled.find((route) => route.pattern.test(pathname))?.kind;
  }
}
