/**
 * Organisations and their sources, as the command line, the admin API and fixture files
 * create and change them, and the admin API's overview of everything that exists.
 */
import { PLANS, type Plan } from '../../wire/contract.js';
import { HttpError, badRequest, notFound } from '../http/errors.js';
import { optionalInteger, optionalString, requireId, requireOneOf, type Body } from '../http/validate.js';
import type { Queryable } from './db.js';
import { findOrganisation, sourceExists } from './records.js';

/** Path segments the API itself uses right after `/api/v1/`; an organisation by that id could not be reached. */
const RESERVED_ORGANISATION_IDS = ['admin'];

/** An organisation id: an opaque id, and not one of the reserved ones (compared case-insensitively, to avoid look-alikes). */
export function requireOrganisationId(value: unknown, field: string): string {
  const id = requireId(value, field);
  if (RESERVED_ORGANISATION_IDS.includes(id.toLowerCase())) {
    throw badRequest(`\`${field}\` "${id}" is reserved: /api/v1/${id.toLowerCase()}/ is the server's own path.`);
  }
  return id;
}

/** Analytics events an organisation may store per day (UTC) unless it says otherwise; beyond it they are dropped and counted. */
export const DEFAULT_EVENTS_PER_DAY = 100_000;
export const MAX_EVENTS_PER_DAY = 1_000_000_000;

export const eventsPerDayField = (input: Body) => optionalInteger(input, 'eventsPerDay', 0, MAX_EVENTS_PER_DAY);

/** `defaultEventsPerDay`: the cap of an organisation created without its own (the server's --events-per-day). */
export async function createOrganisation(db: Queryable, input: Body, defaultEventsPerDay = DEFAULT_EVENTS_PER_DAY) {
  const id = requireOrganisationId(input.id, 'id');
  const name = optionalString(input, 'name', { max: 200 }) ?? id;
  const plan = requireOneOf<Plan>(input, 'plan', PLANS, 'free');
  const credits = optionalInteger(input, 'credits', 0, 1_000_000_000) ?? 0;
  const eventsPerDay = eventsPerDayField(input) ?? defaultEventsPerDay;
  const rows = await db.query(
    'INSERT INTO organisations (id, name, plan, credits, events_per_day) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING RETURNING id',
    [id, name, plan, credits, eventsPerDay],
  );
  if (rows.length === 0) throw new HttpError('conflict', `The organisation "${id}" exists already.`);
  return { id, name, plan, credits, eventsPerDay };
}

/** Changes an organisation's name, plan, credits or events cap; only what is given changes. */
export async function updateOrganisation(db: Queryable, organisationId: string, input: Body) {
  const organisation = await requireOrganisation(db, organisationId);
  const name = optionalString(input, 'name', { max: 200 }) ?? organisation.name;
  const plan = input.plan === undefined ? organisation.plan : requireOneOf<Plan>(input, 'plan', PLANS);
  const credits = optionalInteger(input, 'credits', 0, 1_000_000_000) ?? organisation.credits;
  const [current] = await db.query<{ events_per_day: number }>('SELECT events_per_day FROM organisations WHERE id = $1', [organisationId]);
  const eventsPerDay = eventsPerDayField(input) ?? current!.events_per_day;
  await db.query('UPDATE organisations SET name = $2, plan = $3, credits = $4, events_per_day = $5 WHERE id = $1', [
    organisationId,
    name,
    plan,
    credits,
    eventsPerDay,
  ]);
  return { id: organisationId, name, plan, credits, eventsPerDay };
}

export async function createSource(db: Queryable, organisationId: string, input: Body) {
  await requireOrganisation(db, organisationId);
  const id = requireId(input.id, 'id');
  const name = optionalString(input, 'name', { max: 200 }) ?? id;
  const rows = await db.query(
    'INSERT INTO sources (organisation_id, id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING id',
    [organisationId, id, name],
  );
  if (rows.length === 0) throw new HttpError('conflict', `The source "${id}" exists already.`);
  return { id, name };
}

/** The distinct `sources` a widget or key names, each a source of the organisation, or 400. */
export async function validateSources(db: Queryable, organisationId: string, sources: string[]): Promise<string[]> {
  for (const source of sources) {
    requireId(source, 'sources');
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
