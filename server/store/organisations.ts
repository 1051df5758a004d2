/**
 * Organisations and their sources, as the command line, the admin API and fixture files
 * create and change them, and the admin API's overview of everything that exists.
 */
import { badRequest, conflict, notFound } from '../errors.js';
import type { OrganisationCreate, OrganisationUpdate, SourceCreate } from '../schema/admin-requests.js';
import type { Queryable } from './db.js';
import { FIELD_LIMITS } from '../schema/limits.js';
import { findOrganisation, sourceExists } from './records.js';

/** `defaultEventsPerDay`: the cap of an organisation created without its own (the server's `--events-per-day`). */
export async function createOrganisation(db: Queryable, input: OrganisationCreate, defaultEventsPerDay: number = FIELD_LIMITS.eventsPerDayDefault) {
  const { id, plan, credits } = input;
  const name = input.name ?? id;
  const eventsPerDay = input.eventsPerDay ?? defaultEventsPerDay;
  const rows = await db.query(
    'INSERT INTO organisations (id, name, plan, credits, events_per_day) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING RETURNING id',
    [id, name, plan, credits, eventsPerDay],
  );
  if (rows.length === 0) throw conflict(`The organisation "${id}" exists already.`);
  return { id, name, plan, credits, eventsPerDay };
}

/** Changes an organisation's name, plan, credits or events cap; only what is given changes. */
export async function updateOrganisation(db: Queryable, organisationId: string, input: OrganisationUpdate) {
  const organisation = await requireOrganisation(db, organisationId);
  const name = input.name ?? organisation.name;
  const plan = input.plan ?? organisation.plan;
  const credits = input.credits ?? organisation.credits;
  const [current] = await db.query<{ events_per_day: number }>('SELECT events_per_day FROM organisations WHERE id = $1', [organisationId]);
  const eventsPerDay = input.eventsPerDay ?? current!.events_per_day;
  await db.query('UPDATE organisations SET name = $2, plan = $3, credits = $4, events_per_day = $5 WHERE id = $1', [
    organisationId,
    name,
    plan,
    credits,
    eventsPerDay,
  ]);
  return { id: organisationId, name, plan, credits, eventsPerDay };
}

export async function createSource(db: Queryable, organisationId: string, input: SourceCreate) {
  await requireOrganisation(db, organisationId);
  const { id } = input;
  const name = input.name ?? id;
  const rows = await db.query(
    'INSERT INTO sources (organisation_id, id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING id',
    [organisationId, id, name],
  );
  if (rows.length === 0) throw conflict(`The source "${id}" exists already.`);
  return { id, name };
}

/** The distinct `sources` a widget or key names (ids, as the schema checked), each a source of the organisation, or 400. */
export async function validateSources(db: Queryable, organisationId: string, sources: string[]): Promise<string[]> {
  for (const source of sources) {
    if (!(await sourceExists(db, organisationId, source))) throw badRequest(`\`sources\` names "${source}", which is not a source of this organisation.`);
  }
  return [...new Set(sources)];
}

/** Everything that exists, without a single secret. */
export async function listEverything(db: Queryable, organisationId?: string) {
  const filter = organisationId ? 'WHERE id = $1' : '';
  const organisations = await db.query<{ id: string; name: string; plan: string; credits: number; eventsPerDay: number }>(
    `SELECT id, name, plan, credits, events_per_day AS "eventsPerDay" FROM organisations ${filter} ORDER BY id`,
    organisationId ? [organisationId] : [],
  );
  if (organisationId && organisations.length === 0) throw notFound('organisation');
  const result = [];
  for (const organisation of organisations) {
    const sources = await db.query(
      `SELECT s.id, s.name, (SELECT count(*) FROM pages p WHERE p.organisation_id = s.organisation_id AND p.source_id = s.id) AS pages
         FROM sources s WHERE s.organisation_id = $1 ORDER BY s.id`,
      [organisation.id],
    );
    const widgets = await db.query(
      `SELECT id, type, name, sources, websites, config FROM widgets WHERE organisation_id = $1 ORDER BY id`,
      [organisation.id],
    );
    const apiKeys = await db.query(
      `SELECT id, name, permissions, sources, created_at AS "createdAt", revoked_at AS "revokedAt"
         FROM api_keys WHERE organisation_id = $1 ORDER BY created_at, id`,
      [organisation.id],
    );
    // Today's (UTC) events: stored up to the cap, the rest dropped.
    const [today] = await db.query<{ stored: number | string; dropped: number | string }>(
      `SELECT stored, dropped FROM organisation_event_days WHERE organisation_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date`,
      [organisation.id],
    );
    const eventsToday = { stored: Number(today?.stored ?? 0), dropped: Number(today?.dropped ?? 0) };
    result.push({ ...organisation, eventsToday, sources, widgets, apiKeys });
  }
  return { organisations: result };
}

export async function requireOrganisation(db: Queryable, organisationId: string) {
  const organisation = await findOrganisation(db, organisationId);
  if (!organisation) throw notFound(`organisation "${organisationId}"`);
  return organisation;
}
