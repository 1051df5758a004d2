import type { Route } from '../http/router.js';
import { openapiDocument } from '../openapi.js';

export const openapiRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/v1/openapi.json',
    kind: 'public',
    handler: () => ({ body: openapiDocument, headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' } }),
  },
];
