import { LIMITS } from '../../wire/contract.js';
import { authoriseManagement } from '../http/auth.js';
import { readJson } from '../http/body.js';
import type { Route, RouteContext } from '../http/router.js';
import { createPage, deletePage, getPage, listPages, updatePage } from '../store/pages.js';

const COLLECTION = '/api/v1/{organisation}/sources/{source}/pages';
const ITEM = `${COLLECTION}/{page}`;

/** Authorises in the contract's order, and only then reads the body (400 comes last). */
async function authorise({ req, app, params }: RouteContext, permission: 'pages.read' | 'pages.write') {
  await authoriseManagement(app.db, req, { organisation: params.organisation!, permission, source: params.source! });
  return { organisation: params.organisation!, source: params.source! };
}

export const pageRoutes: Route[] = [
  {
    method: 'GET',
    path: COLLECTION,
    kind: 'management',
    async handler(context) {
      const { organisation, source } = await authorise(context, 'pages.read');
      return { body: await listPages(context.app.db, organisation, source, context.url.searchParams) };
    },
  },
  {
    method: 'POST',
    path: COLLECTION,
    kind: 'management',
    async handler(context) {
      const { organisation, source } = await authorise(context, 'pages.write');
      const body = await readJson(context.req, LIMITS.pageWrite);
      const page = await createPage(context.app.db, organisation, source, body);
      const location = `/api/v1/${encodeURIComponent(organisation)}/sources/${encodeURIComponent(source)}/pages/${encodeURIComponent(page.id)}`;
      return { status: 201, body: page, headers: { Location: location } };
    },
  },
  {
    method: 'GET',
    path: ITEM,
    kind: 'management',
    async handler(context) {
      const { organisation, source } = await authorise(context, 'pages.read');
      return { body: await getPage(context.app.db, organisation, source, context.params.page!) };
    },
  },
  {
    method: 'PATCH',
    path: ITEM,
    kind: 'management',
    async handler(context) {
      const { organisation, source } = await authorise(context, 'pages.write');
      const body = await readJson(context.req, LIMITS.pageWrite);
      return { body: await updatePage(context.app.db, organisation, source, context.params.page!, body) };
    },
  },
  {
    method: 'DELETE',
    path: ITEM,
    kind: 'management',
    async handler(context) {
      const { organisation, source } = await authorise(context, 'pages.write');
      await deletePage(context.app.db, organisation, source, context.params.page!);
      return { status: 204 };
    },
  },
];
