/**
 * Widgets as the command line, the admin API and fixture files create and change them: their
 * settings, secrets (stored as hashes only) and preview tokens.
 */
import { VARIANTS, type WidgetType } from '../../wire/contract.js';
import { badRequest, conflict, notFound } from '../errors.js';
import type { WidgetCreate, WidgetSettings, WidgetUpdate } from '../schema/admin-requests.js';
import type { CreatedWidget } from '../schema/admin-responses.js';
import type { Queryable } from './db.js';
import { requireOrganisation, validateSources } from './organisations.js';
import { findWidget } from './records.js';
import { generateSecret, hashSecret } from './secrets.js';

export const PREVIEW_TOKEN_TTL_MS = 60 * 60 * 1000;

/**
 * A widget's settings as the schema checked them, once its `variant` is known to fit its type
 * (the type of a widget being changed is in the database, so this cannot be in the schema).
 */
function settingsFor(type: WidgetType, settings: WidgetSettings): WidgetSettings {
  if (settings.variant !== undefined && !VARIANTS[type].includes(settings.variant)) {
    throw badRequest(`\`config.variant\` must be one of: ${VARIANTS[type].join(', ')}.`);
  }
  return settings;
}

/** Creates a widget; `secret` and `signingSecret` are given only by fixture files, else the server makes them. */
export async function createWidget(db: Queryable, organisationId: string, input: WidgetCreate): Promise<CreatedWidget> {
  await requireOrganisation(db, organisationId);
  const { id, type, websites } = input;
  const name = input.name ?? id;
  const config = settingsFor(type, input.config);
  const sources = await validateSources(db, organisationId, input.sources);
  const secret = input.secret ?? generateSecret('ws_');
  const signingSecret = input.signingSecret ?? generateSecret('sig_');
  const rows = await db.query(
    `INSERT INTO widgets (organisation_id, id, type, name, sources, websites, secret_hash, signing_secret, config)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (organisation_id, id) DO NOTHING RETURNING id`,
    [organisationId, id, type, name, sources, websites, hashSecret(secret), signingSecret, JSON.stringify(config)],
  );
  if (rows.length === 0) throw conflict(`The widget "${id}" exists already.`);
  return { organisation: organisationId, id, key: `${organisationId}/${id}`, type, name, sources, websites, config, secret, signingSecret };
}

/** Changes a widget's name, sources, website list or config; only what is given changes. */
export async function updateWidget(db: Queryable, organisationId: string, widgetId: string, input: WidgetUpdate) {
  const widget = await requireWidget(db, organisationId, widgetId);
  const name = input.name ?? widget.name;
  const config = input.config === undefined ? widget.config : settingsFor(widget.type, input.config);
  const sources = input.sources === undefined ? widget.sources : await validateSources(db, organisationId, input.sources);
  const websites = input.websites ?? widget.websites;
  // A change that changes nothing (e.g. a fixture applied again) leaves the row, and its updated_at, alone.
  await db.query(
    `UPDATE widgets SET name = $3, sources = $4, websites = $5, config = $6, updated_at = now()
      WHERE organisation_id = $1 AND id = $2
        AND (name, sources, websites, config) IS DISTINCT FROM ($3::text, $4::text[], $5::text[], $6::jsonb)`,
    [organisationId, widgetId, name, sources, websites, JSON.stringify(config)],
  );
  return { organisation: organisationId, id: widgetId, key: `${organisationId}/${widgetId}`, type: widget.type, name, sources, websites, config };
}

/** A new widget secret; the old one stops working at once. */
export async function rotateWidgetSecret(db: Queryable, organisationId: string, widgetId: string) {
  await requireWidget(db, organisationId, widgetId);
  const secret = generateSecret('ws_');
  await db.query('UPDATE widgets SET secret_hash = $3, updated_at = now() WHERE organisation_id = $1 AND id = $2', [
    organisationId,
    widgetId,
    hashSecret(secret),
  ]);
  return { widget: `${organisationId}/${widgetId}`, secret };
}

/** How long visitor hashes made with the previous signing secret stay valid after a rotation. */
export const SIGNING_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/** A new identity signing secret; the previous one stays valid for a grace period so signed-in visitors are not cut off. */
export async function rotateSigningSecret(db: Queryable, organisationId: string, widgetId: string, graceMs = SIGNING_SECRET_GRACE_MS) {
  await requireWidget(db, organisationId, widgetId);
  const signingSecret = generateSecret('sig_');
  const until = new Date(Date.now() + graceMs);
  await db.query(
    `UPDATE widgets SET previous_signing_secret = signing_secret, previous_signing_secret_until = $4,
            signing_secret = $3, updated_at = now() WHERE organisation_id = $1 AND id = $2`,
    [organisationId, widgetId, signingSecret, until],
  );
  return { widget: `${organisationId}/${widgetId}`, signingSecret, previousValidUntil: until.toISOString() };
}

export async function mintPreviewToken(db: Queryable, organisationId: string, widgetId: string) {
  await requireWidget(db, organisationId, widgetId);
  const token = generateSecret('pt_');
  const expiresAt = new Date(Date.now() + PREVIEW_TOKEN_TTL_MS);
  await db.query('INSERT INTO preview_tokens (token_hash, organisation_id, widget_id, expires_at) VALUES ($1, $2, $3, $4)', [
    hashSecret(token),
    organisationId,
    widgetId,
    expiresAt,
  ]);
  // Expired tokens are of no use to anyone; drop them while we are here.
  await db.query('DELETE FROM preview_tokens WHERE expires_at < now()');
  return { widget: `${organisationId}/${widgetId}`, token, expiresAt: expiresAt.toISOString() };
}

export async function requireWidget(db: Queryable, organisationId: string, widgetId: string) {
  await requireOrganisation(db, organisationId);
  const widget = await findWidget(db, organisationId, widgetId);
  if (!widget) throw notFound(`widget "${widgetId}"`);
  return widget;
}
