/** The OpenAPI 3.1 document of every route; a test keeps it in step with the router. */
export const openapiDocument = {
  openapi: '3.1.0',
  info: { title: 'Assist API', version: '1.0.0' },
  paths: {} as Record<string, unknown>,
};
