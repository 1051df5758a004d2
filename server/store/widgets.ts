/**
 * Widgets as the command line, the admin API and fixture files create and change them: their
 * settings, secrets (stored as hashes only) and preview tokens.
 */
import {
  LIMITS,
  LOCALES,
  THEMES,
  VARIANTS,
  WIDGET_TYPES,
  type WidgetConfig,
  type WidgetType,
} from '../../wire/contract.js';
import { HttpError, badRequest, notFound } from '../http/errors.js';
import { parseEntry } from '../http/origin.js';
import {
  optionalBoolean,
  optionalInteger,
  optionalString,
  optionalStringArray,
  requireId,
  requireOneOf,
  requireString,
  requireStringArray,
  type Body,
} from '../http/validate.js';
import type { Queryable } from './db.js';
import { requireOrganisation, validateSources } from './organisations.js';
import { findWidget } from './records.js';
import { generateSecret, hashSecret, optionalSecret } from './secrets.js';

export const PREVIEW_TOKEN_TTL_MS = 60 * 60 * 1000;

const CONFIG_FIELDS = [
  'variant', 'accent_light', 'accent_dark', 'theme', 'branding', 'summary', 'speech_input',
  'placeholder', 'greeting', 'avatar', 'debounce', 'default_language', 'suggestions',
] as const;

/** Checks a widget's `config` object: only spec 2.4's settable fields, each of its type. */
export function validateWidgetConfig(type: WidgetType, value: unknown): Partial<WidgetConfig> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest('`config` must be an object.');
  const settings = value as Body;
  for (const field of Object.keys(settings)) {
    if (!(CONFIG_FIELDS as readonly string[]).includes(field)) {
      throw badRequest(`\`config.${field}\` is not a setting; use ${CONFIG_FIELDS.join(', ')}.`);
    }
  }
  // Read under `config.`-prefixed names, so every 400 names the field the way the caller wrote it.
  const input: Body = Object.fromEntries(Object.entries(settings).map(([field, setting]) => [`config.${field}`, setting]));
  const config: Partial<WidgetConfig> = {};
  const hex = (field: 'accent_light' | 'accent_dark') => {
    const colour = optionalString(input, `config.${field}`, { max: 9 });
    if (colour === undefined) return;
    if (!/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(colour)) throw badRequest(`\`config.${field}\` must be a hex colour like #2557d6.`);
    config[field] = colour;
  };
  if (settings.variant !== undefined) config.variant = requireOneOf(input, 'config.variant', VARIANTS[type]);
  hex('accent_light');
  hex('accent_dark');
  if (settings.theme !== undefined) config.theme = requireOneOf(input, 'config.theme', THEMES);
  for (const field of ['branding', 'summary', 'speech_input'] as const) {
    const flag = optionalBoolean(input, `config.${field}`);
    if (flag !== undefined) config[field] = flag;
  }
  for (const field of ['placeholder', 'greeting'] as const) {
    const text = optionalString(input, `config.${field}`, { max: 2000 });
    if (text !== undefined) config[field] = text;
  }
  if (settings.avatar !== undefined) {
    if (settings.avatar === null) config.avatar = null;
    else {
      config.avatar = requireAvatar(requireString(input, 'config.avatar', { max: 2048 }));
    }
  }
  const debounce = optionalInteger(input, 'config.debounce', 0, 10_000);
  if (debounce !== undefined) config.debounce = debounce;
  if (settings.default_language !== undefined) config.default_language = requireOneOf(input, 'config.default_language', LOCALES);
  const suggestions = optionalStringArray(input, 'config.suggestions', {
    max: LIMITS.suggestions,
    item: (question) => {
      const trimmed = question.trim();
      if (!trimmed || trimmed.length > LIMITS.suggestionLength) throw badRequest(`\`config.suggestions\` entries must be questions of 1 to ${LIMITS.suggestionLength} characters.`);
      return trimmed;
    },
  });
  if (suggestions !== undefined) config.suggestions = suggestions;
  return config;
}

/**
 * An avatar loads in the visitor's page: an absolute https URL, or a path on the page's own
 * site beginning with one `/`. `//host/…` (and `/\\host/…`, which browsers read alike) is
 * another host, and plain http would be mixed content on an https page.
 */
function requireAvatar(avatar: string): string {
  let absolute: URL | undefined;
  try {
    absolute = new URL(avatar);
  } catch {
    absolute = undefined;
  }
  const ownPath = /^\/(?![\/\\])/.test(avatar) && !absolute;
  if (ownPath || (absolute?.protocol === 'https:' && absolute.hostname !== '' && /^https:\/\//i.test(avatar))) return avatar;
  throw badRequest('`config.avatar` must be an absolute https URL, a path beginning with a single "/", or null.');
}

function validateWebsites(input: Body): string[] {
  return (
    optionalStringArray(input, 'websites', {
      max: 200,
      item: (entry) => {
        const normalised = entry.trim().toLowerCase();
        if (!parseEntry(normalised)) throw badRequest(`\`websites\` entry "${entry}" is not a host like example.com, localhost:8787 or *.example.com.`);
        return normalised;
      },
    }) ?? []
  );
}

export interface CreatedWidget {
  organisation: string;
  id: string;
  key: string;
  type: WidgetType;
  name: string;
  sources: string[];
  websites: string[];
  config: Partial<WidgetConfig>;
  /** Shown once. */
  secret: string;
  /** Kept on the server; shown to the owner so their server can sign visitor ids. */
  signingSecret: string;
}

export async function createWidget(db: Queryable, organisationId: string, input: Body): Promise<CreatedWidget> {
  await requireOrganisation(db, organisationId);
  const id = requireId(input.id, 'id');
  const type = requireOneOf<WidgetType>(input, 'type', WIDGET_TYPES);
  const name = optionalString(input, 'name', { max: 200 }) ?? id;
  const sources = await validateSources(db, organisationId, requireStringArray(input, 'sources', { min: 1, max: 100 }));
  const websites = validateWebsites(input);
  const config = validateWidgetConfig(type, input.config);
  const secret = optionalSecret(input, 'secret', 'ws_') ?? generateSecret('ws_');
  const signingSecret = optionalString(input, 'signingSecret', { max: 200 }) ?? generateSecret('sig_');
  const rows = await db.query(
    `INSERT INTO widgets (organisation_id, id, type, name, sources, websites, secret_hash, signing_secret, config)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (organisation_id, id) DO NOTHING RETURNING id`,
    [organisationId, id, type, name, sources, websites, hashSecret(secret), signingSecret, JSON.stringify(config)],
  );
  if (rows.length === 0) throw new HttpError('conflict', `The widget "${id}" exists already.`);
  return { organisation: organisationId, id, key: `${organisationId}/${id}`, type, name, sources, websites, config, secret, signingSecret };
}

/** Changes a widget's name, sources, website list or config; only what is given changes. */
export async function updateWidget(db: Queryable, organisationId: string, widgetId: string, input: Body) {
  const widget = await requireWidget(db, organisationId, widgetId);
  const name = optionalString(input, 'name', { max: 200 }) ?? widget.name;
  const sources = input.sources === undefined ? widget.sources : await validateSources(db, organisationId, requireStringArray(input, 'sources', { min: 1, max: 100 }));
  const websites = input.websites === undefined ? widget.websites : validateWebsites(input);
  const config = input.config === undefined ? widget.config : validateWidgetConfig(widget.type, input.config);
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
