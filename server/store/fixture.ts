/**
 * Fixture files declare a whole setup in one go (contract: "Setting up organisations,
 * widgets and keys"). Applying one is idempotent: what exists is brought in line with the
 * file, what is missing is created, and applying it twice changes nothing. Credits are set
 * when an organisation is created, so restarting a server does not refill spent credits.
 * Secrets written in a fixture are taken as given.
 */
import { readFileSync } from 'node:fs';
import { PLANS, type Plan } from '../../wire/contract.js';
import { badRequest } from '../http/errors.js';
import { optionalInteger, optionalString, requireId, requireOneOf, type Body } from '../http/validate.js';
import type { Db } from './db.js';
import { upsertPageByUrl } from './pages.js';
import { findWidget } from './records.js';
import { hashSecret } from './secrets.js';
import { createApiKey, createOrganisation, createSource, createWidget, requireOrganisationId, updateWidget } from './setup.js';

export interface FixtureSummary {
  organisations: number;
  pagesChanged: number;
}

export function readFixtureFile(path: string): Body {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read the fixture file ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as Body;
  } catch (error) {
    throw new Error(`The fixture file ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

const list = (value: unknown, field: string): Body[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((entry) => entry === null || typeof entry !== 'object')) {
    throw badRequest(`\`${field}\` must be an array of objects.`);
  }
  return value as Body[];
};

export async function applyFixture(db: Db, fixture: Body): Promise<FixtureSummary> {
  const summary: FixtureSummary = { organisations: 0, pagesChanged: 0 };
  for (const organisation of list(fixture.organisations, 'organisations')) {
    const id = requireOrganisationId(organisation.id, 'organisations[].id');
    const name = optionalString(organisation, 'name', { max: 200 }) ?? id;
    const plan = requireOneOf<Plan>(organisation, 'plan', PLANS, 'free');
    const existing = await db.query('SELECT 1 FROM organisations WHERE id = $1', [id]);
    if (existing.length === 0) await createOrganisation(db, organisation);
    else {
      optionalInteger(organisation, 'credits', 0, 1_000_000_000);
      await db.query('UPDATE organisations SET name = $2, plan = $3 WHERE id = $1', [id, name, plan]);
    }
    summary.organisations++;

    for (const source of list(organisation.sources, `organisations[${id}].sources`)) {
      const sourceId = requireId(source.id, 'sources[].id');
      const known = await db.query<{ name: string }>('SELECT name FROM sources WHERE organisation_id = $1 AND id = $2', [id, sourceId]);
      if (known.length === 0) await createSource(db, id, source);
      else if (typeof source.name === 'string' && known[0]!.name !== source.name) {
        await db.query('UPDATE sources SET name = $3 WHERE organisation_id = $1 AND id = $2', [id, sourceId, source.name]);
      }
      for (const page of list(source.pages, `sources[${sourceId}].pages`)) {
        if ((await upsertPageByUrl(db, id, sourceId, page)).changed) summary.pagesChanged++;
      }
    }

    for (const key of list(organisation.apiKeys, `organisations[${id}].apiKeys`)) {
      if (typeof key.key !== 'string') throw badRequest('Fixture API keys need their `key`.');
      const known = await db.query('SELECT 1 FROM api_keys WHERE key_hash = $1', [hashSecret(key.key)]);
      if (known.length === 0) await createApiKey(db, id, key);
    }

    for (const widget of list(organisation.widgets, `organisations[${id}].widgets`)) {
      const widgetId = requireId(widget.id, 'widgets[].id');
      const current = await findWidget(db, id, widgetId);
      if (!current) {
        await createWidget(db, id, widget);
        continue;
      }
      await updateWidget(db, id, widgetId, { name: widget.name, sources: widget.sources, websites: widget.websites ?? [], config: widget.config ?? {} });
      if (typeof widget.secret === 'string') {
        await db.query('UPDATE widgets SET secret_hash = $3 WHERE organisation_id = $1 AND id = $2', [id, widgetId, hashSecret(widget.secret)]);
      }
      if (typeof widget.signingSecret === 'string') {
        await db.query('UPDATE widgets SET signing_secret = $3 WHERE organisation_id = $1 AND id = $2', [id, widgetId, widget.signingSecret]);
      }
    }
  }
  return summary;
}
