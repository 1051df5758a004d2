import { LIMITS } from '../../wire/contract.js';
import { authoriseManagement } from '../http/auth.js';
import { defineRoute, type Route, type RouteContext } from '../http/router.js';
import { PageListQuery, PagePatch, PageWrite } from '../schema/page-requests.js';
import { createPage, deletePage, getPage, listPages, updatePage } from '../store/pages.js';

const COLLECTION = '/api/v1/{organisation}/sources/{source}/pages';
const ITEM = `${COLLECTION}/{page}`;

/** Authorises in the contract's order, and only then reads the body (400 comes last). */
async function authorise({ req, app, params }: Pick<RouteContext, 'req' | 'app' | 'params'>, permission: 'pages.read' | 'pages.write') {
  await authoriseManagement(app.db, req, { organisation: params.organisation!, permission, source: params.source! });
  return { organisation: params.organisation!, source: params.source! };
}

export const pageRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: COLLECTION,
    kind: 'management',
    schema: { query: PageListQuery },
    async handler(context) {
      const { organisation, source } = await authorise(context, 'pages.read');
      return { body: await listPages(context.app.db, organisation, source, context.query()) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: COLLECTION,
    kind: 'management',
    schema: { body: { schema: PageWrite, limit: LIMITS.pageWrite } },
    async handler(context) {
      const { organisation, source } = await authorise(context, 'pages.write');
      const page = await createPage(context.app.db, organisation, source, await context.body());
      const location = `/api/v1/${encodeURIComponent(organisation)}/sources/${encodeURIComponent(source)}/pages/${encodeURIComponent(page.id)}`;
      return { status: 201, body: page, headers: { Location: location } };
    },
  }),
  {
    method: 'GET',
    path: ITEM,
    kind: 'management',
    async handler(context) {
      const { organisation, source } = await authorise(context, 'pages.read');
      return { body: await getPage(context.app.db, organisation, source, context.params.page!) };
    },
  },
  defineRoute({
    method: 'PATCH',
    path: ITEM,
    kind: 'management',
    schema: { body: { schema: PagePatch, limit: LIMITS.pageWrite } },
    async handler(context) {
      const { organisation, source } = await authorise(context, 'pages.write');
      return { body: await updatePage(context.app.db, organisation, source, context.params.page!, await context.body()) };
    },
  }),
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
