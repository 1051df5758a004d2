/**
 * Who is calling: organisation API keys for the management API; the widget credentials of
 * spec 5.2 (website origin, widget secret, API key, preview token) for widget routes; the
 * server's admin token for the admin API. Checks run in the contract's order.
 */
import type { IncomingMessage } from 'node:http';
import type { Permission, WidgetType } from '../../wire/contract.js';
import type { Queryable } from '../store/db.js';
import {
  findApiKeyByHash,
  findOrganisation,
  findPreviewToken,
  findWidget,
  findWidgetBySecretHash,
  sourceExists,
  type ApiKeyRecord,
  type OrganisationRecord,
  type WidgetRecord,
} from '../store/records.js';
import { hasStoredAdminToken, storedAdminTokenMatches } from '../store/admin-tokens.js';
import { constantTimeEqual, hashSecret } from '../store/secrets.js';
import { HttpError } from './errors.js';
import { originAllowed, requestOrigin } from './origin.js';

const unauthenticated = (message: string) => new HttpError('unauthenticated', message);

/** The bearer token of a request; a malformed Authorization header is 401. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer +([\x21-\x7e]+) *$/i.exec(header);
  if (!match) throw unauthenticated('The Authorization header must be "Bearer <token>".');
  return match[1];
}

export async function authenticateApiKey(db: Queryable, req: IncomingMessage): Promise<ApiKeyRecord> {
  const token = bearerToken(req);
  if (!token) throw unauthenticated('Send an API key as "Authorization: Bearer <API_KEY>".');
  const key = token.startsWith('ak_') ? await findApiKeyByHash(db, hashSecret(token)) : undefined;
  if (!key) throw unauthenticated('This API key is unknown, revoked or expired.');
  return key;
}

export interface ManagementAccess {
  key: ApiKeyRecord;
  organisation: OrganisationRecord;
}

/**
 * 401 (no valid key) → 404 (unknown organisation) → 403 wrong_organisation →
 * 403 permission_denied → 404 (unknown source) → 403 source_forbidden.
 */
export async function authoriseManagement(
  db: Queryable,
  req: IncomingMessage,
  target: { organisation: string; permission: Permission; source?: string },
): Promise<ManagementAccess> {
  const key = await authenticateApiKey(db, req);
  const organisation = await findOrganisation(db, target.organisation);
  if (!organisation) throw new HttpError('not_found', `No organisation "${target.organisation}".`);
  if (key.organisationId !== organisation.id) throw new HttpError('wrong_organisation', 'This key belongs to another organisation.');
  if (!key.permissions.includes(target.permission)) {
    throw new HttpError('permission_denied', `This key lacks the ${target.permission} permission.`);
  }
  if (target.source !== undefined) {
    if (!(await sourceExists(db, organisation.id, target.source))) throw new HttpError('not_found', `No source "${target.source}".`);
    if (key.sources && !key.sources.includes(target.source)) {
      throw new HttpError('source_forbidden', `This key is limited to other sources than "${target.source}".`);
    }
  }
  return { key, organisation };
}

export type WidgetCredential = 'origin' | 'secret' | 'api_key' | 'preview';

export interface WidgetAccess {
  organisation: OrganisationRecord;
  widget: WidgetRecord;
  via: WidgetCredential;
}

/** `any` accepts a key holding search, chat or summarize (config and events). */
export type WidgetPermission = 'search' | 'chat' | 'summarize' | 'any';

export async function authoriseWidget(
  db: Queryable,
  req: IncomingMessage,
  target: { organisation: string; widget: string; permission: WidgetPermission; type?: WidgetType },
): Promise<WidgetAccess> {
  const token = bearerToken(req);
  let credential: { via: 'api_key'; key: ApiKeyRecord } | { via: 'secret' | 'preview'; organisationId: string; widgetId: string } | undefined;
  if (token !== undefined) {
    const hash = hashSecret(token);
    if (token.startsWith('ak_')) {
      const key = await findApiKeyByHash(db, hash);
      if (key) credential = { via: 'api_key', key };
    } else if (token.startsWith('ws_')) {
      const owner = await findWidgetBySecretHash(db, hash);
      if (owner) credential = { via: 'secret', organisationId: owner.organisationId, widgetId: owner.id };
    } else if (token.startsWith('pt_')) {
      const preview = await findPreviewToken(db, hash);
      if (preview) credential = { via: 'preview', ...preview };
    }
    if (!credential) throw unauthenticated('This token is unknown, revoked or expired.');
  }

  const organisation = await findOrganisation(db, target.organisation);
  if (!organisation) throw new HttpError('not_found', `No organisation "${target.organisation}".`);
  const widget = await findWidget(db, organisation.id, target.widget);
  if (!widget) throw new HttpError('not_found', `No widget "${target.widget}".`);

  let via: WidgetCredential;
  if (credential?.via === 'api_key') {
    const { key } = credential;
    if (key.organisationId !== organisation.id) throw new HttpError('wrong_organisation', 'This key belongs to another organisation.');
    const needed: Permission[] = target.permission === 'any' ? ['search', 'chat', 'summarize'] : [target.permission];
    if (!needed.some((permission) => key.permissions.includes(permission))) {
      throw new HttpError('permission_denied', `This key lacks the ${needed.join(' or ')} permission.`);
    }
    const unreachable = key.sources ? widget.sources.filter((source) => !key.sources!.includes(source)) : [];
    if (unreachable.length > 0) {
      throw new HttpError('source_forbidden', `This key cannot reach the widget's source "${unreachable[0]}".`);
    }
    via = 'api_key';
  } else if (credential) {
    // Widget secrets and preview tokens are each for one widget only.
    const matches =
      constantTimeEqual(credential.organisationId, organisation.id) && constantTimeEqual(credential.widgetId, widget.id);
    if (!matches) throw unauthenticated(`This ${credential.via === 'secret' ? 'widget secret' : 'preview token'} is for another widget.`);
    via = credential.via;
  } else {
    const origin = requestOrigin(req);
    if (origin === undefined) {
      throw unauthenticated('Send a widget secret or an API key, or call from a website on the widget\'s list.');
    }
    if (!originAllowed(origin, widget.websites)) {
      throw new HttpError('origin_not_allowed', `The origin ${origin} is not on this widget's website list.`);
    }
    via = 'origin';
  }

  if (target.type && widget.type !== target.type) {
    throw new HttpError(
      'wrong_widget_type',
      target.type === 'chatbot' ? 'This is a search widget; chat needs a chat widget.' : 'This is a chat widget; this route needs a search widget.',
    );
  }
  return { organisation, widget, via };
}

/**
 * The admin API answers only to the server's admin token (configured, or made by the server
 * on the demo's first start); without either it does not exist.
 */
export async function authoriseAdmin(db: Queryable, req: IncomingMessage, adminToken: string | undefined): Promise<void> {
  if (!adminToken && !(await hasStoredAdminToken(db))) {
    throw new HttpError('not_found', 'The admin API is off; start the server with --admin-token-file FILE or ASSIST_ADMIN_TOKEN.');
  }
  const token = bearerToken(req);
  const valid = token !== undefined && ((adminToken !== undefined && constantTimeEqual(token, adminToken)) || (await storedAdminTokenMatches(db, token)));
  if (!valid) throw unauthenticated('Send the admin token as "Authorization: Bearer <token>".');
}

