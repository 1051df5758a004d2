/** Typed reads of the rows that authorisation and configuration need. */
import { defaultConfig, type Permission, type Plan, type WidgetConfig, type WidgetType } from '../../wire/contract.js';
import type { Queryable } from './db.js';

export interface OrganisationRecord {
  id: string;
  name: string;
  plan: Plan;
  credits: number;
}

export interface WidgetRecord {
  organisationId: string;
  id: string;
  type: WidgetType;
  name: string;
  sources: string[];
  websites: string[];
  signingSecret: string;
  previousSigningSecret: string | null;
  previousSigningSecretUntil: Date | null;
  config: Partial<WidgetConfig>;
  updatedAt: Date;
}

export interface ApiKeyRecord {
  id: string;
  organisationId: string;
  name: string;
  permissions: Permission[];
  sources: string[] | null;
}

export async function findOrganisation(db: Queryable, id: string): Promise<OrganisationRecord | undefined> {
  const [row] = await db.query<OrganisationRecord>('SELECT id, name, plan, credits FROM organisations WHERE id = $1', [id]);
  return row;
}

const WIDGET_COLUMNS = `organisation_id AS "organisationId", id, type, name, sources, websites,
  signing_secret AS "signingSecret", previous_signing_secret AS "previousSigningSecret",
  previous_signing_secret_until AS "previousSigningSecretUntil", config, updated_at AS "updatedAt"`;

export async function findWidget(db: Queryable, organisationId: string, id: string): Promise<WidgetRecord | undefined> {
  const [row] = await db.query<WidgetRecord>(`SELECT ${WIDGET_COLUMNS} FROM widgets WHERE organisation_id = $1 AND id = $2`, [
    organisationId,
    id,
  ]);
  return row;
}

export async function findWidgetBySecretHash(db: Queryable, secretHash: string): Promise<WidgetRecord | undefined> {
  const [row] = await db.query<WidgetRecord>(`SELECT ${WIDGET_COLUMNS} FROM widgets WHERE secret_hash = $1`, [secretHash]);
  return row;
}

export async function findApiKeyByHash(db: Queryable, keyHash: string): Promise<ApiKeyRecord | undefined> {
  const [row] = await db.query<ApiKeyRecord>(
    `SELECT id, organisation_id AS "organisationId", name, permissions, sources FROM api_keys
      WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
    [keyHash],
  );
  return row;
}

export async function findPreviewToken(db: Queryable, tokenHash: string): Promise<{ organisationId: string; widgetId: string } | undefined> {
  const [row] = await db.query<{ organisationId: string; widgetId: string }>(
    `SELECT organisation_id AS "organisationId", widget_id AS "widgetId" FROM preview_tokens
      WHERE token_hash = $1 AND expires_at > now()`,
    [tokenHash],
  );
  return row;
}

export async function sourceExists(db: Queryable, organisationId: string, sourceId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM sources WHERE organisation_id = $1 AND id = $2', [organisationId, sourceId]);
  return rows.length > 0;
}

/** The names of sources, as their owners wrote them. */
export async function sourceNames(db: Queryable, organisationId: string, sourceIds: string[]): Promise<string[]> {
  const rows = await db.query<{ name: string }>('SELECT name FROM sources WHERE organisation_id = $1 AND id = ANY($2::text[]) ORDER BY id', [organisationId, sourceIds]);
  return rows.map((row) => row.name);
}

/** An organisation's sources (only `sourceIds` when given), by id, each with its page count. */
export async function sourcesWithPageCounts(
  db: Queryable,
  organisationId: string,
  sourceIds: string[] | null,
): Promise<{ id: string; name: string; pages: number }[]> {
  return db.query<{ id: string; name: string; pages: number }>(
    `SELECT s.id, s.name, (SELECT count(*) FROM pages p WHERE p.organisation_id = s.organisation_id AND p.source_id = s.id)::int AS pages
       FROM sources s WHERE s.organisation_id = $1 AND ($2::text[] IS NULL OR s.id = ANY($2::text[])) ORDER BY s.id`,
    [organisationId, sourceIds],
  );
}

/** The presentation config a visitor sees: defaults, then the widget's settings, then the plan's rule on branding. */
export function effectiveConfig(widget: WidgetRecord, organisation: OrganisationRecord): WidgetConfig {
  const config: WidgetConfig = { ...defaultConfig(widget.type, widget.name), ...widget.config, type: widget.type, name: widget.name };
  if (organisation.plan === 'free') config.branding = true;
  return config;
}
