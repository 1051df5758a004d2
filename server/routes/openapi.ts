import type { Route } from '../http/router.js';
import { openapiDocument, type OpenApiDocument } from '../openapi.js';

/** The document of `served()`, the routes the router serves, made on the first request. */
export function openapiRoutes(served: () => Route[]): Route[] {
  let document: OpenApiDocument | undefined;
  return [
    {
      method: 'GET',
      path: '/api/v1/openapi.json',
      kind: 'public',
      handler: () => ({ body: (document ??= openapiDocument(served())), headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' } }),
    },
  ];
}
