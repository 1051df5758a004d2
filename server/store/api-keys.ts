/** Organisation API keys as the command line, the admin API and fixture files create and revoke them (stored as hashes only). */
import { conflict, notFound } from '../errors.js';
import type { ApiKeyCreate } from '../schema/admin-requests.js';
import type { Queryable } from './db.js';
import { requireOrganisation, validateSources } from './organisations.js';
import { generateSecret, hashSecret } from './secrets.js';

/** Creates an API key; its `key` is given only by fixture files, else the server makes it. */
export async function createApiKey(db: Queryable, organisationId: string, input: ApiKeyCreate) {
  await requireOrganisation(db, organisationId);
  const { name, permissions } = input;
  const sources = input.sources ? await validateSources(db, organisationId, input.sources) : null;
  const key = input.key ?? generateSecret('ak_');
  const keyHash = hashSecret(key);
  const id = `key_${keyHash.slice(0, 16)}`;
  const rows = await db.query(
    `INSERT INTO api_keys (id, organisation_id, name, key_hash, permissions, sources) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT DO NOTHING RETURNING id`,
    [id, organisationId, name, keyHash, permissions, sources],
  );
  if (rows.length === 0) throw conflict('That API key exists already.');
  return { id, organisation: organisationId, name, permissions, sources, key };
}

export async function revokeApiKey(db: Queryable, organisationId: string, keyId: string) {
  const rows = await db.query<{ id: string }>(
    'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE organisation_id = $1 AND id = $2 RETURNING id',
    [organisationId, keyId],
  );
  if (rows.length === 0) throw notFound('API key');
  return { id: keyId, revoked: true };
}
