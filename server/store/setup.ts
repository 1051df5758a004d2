/**
 * The dashboard's jobs, by what they administer: store/organisations.ts (organisations and
 * sources), store/widgets.ts (widgets, their secrets and preview tokens), store/api-keys.ts.
 * Import from those; this module only gathers them for callers that still import it.
 */
export * from './api-keys.js';
export * from './organisations.js';
export * from './widgets.js';
