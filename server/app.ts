/**
 * The context's types under their old path, for the modules that still import them from
 * here. The server itself is built in server.ts and the context is defined in context.ts;
 * import those instead, so nothing that handlers use depends on the list of routes.
 */
export type { AppContext, AppOptions } from './context.js';
