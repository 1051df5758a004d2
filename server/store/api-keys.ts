/** Organisation API keys as the command line, the admin API and fixture files create and revoke them (stored as hashes only). */
import { PERMISSIONS, type Permission } from '../../wire/contract.js';
import { HttpError, badRequest, notFound } from '../http/errors.js';
import { optionalStringArray, requireString, requireStringArray, type Body } from '../http/validate.js';
import type { Queryable } from './db.js';
import { requireOrganisation, validateSources } from './organisations.js';
import { generateSecret, hashSecret, optionalSecret } from './secrets.js';

export async function createApiKey(db: Queryable, organisationId: string, input: Body) {
  await requireOrganisation(db, organisationId);
  const name = requireString(input, 'name', { max: 200 });
  const permissions = [
    ...new Set(
      requireStringArray(input, 'permissions', {
        min: 1,
        max: PERMISSIONS.length,
        item: (permission) => {
          if (!(PERMISSIONS as readonly string[]).includes(permission)) {
            throw badRequest(`\`permissions\` entry "${permission}" is not one of ${PERMISSIONS.join(', ')}.`);
          }
          return permission as Permission;
        },
      }),
    ),
  ];
  const sourceList = optionalStringArray(input, 'sources', { min: 1, max: 100 });
  const sources = sourceList ? await validateSources(db, organisationId, sourceList) : null;
  const key = optionalSecret(input, 'key', 'ak_') ?? generateSecret('ak_');
  const keyHash = hashSecret(key);
  const id = `key_${keyHash.slice(0, 16)}`;
  const rows = await db.query(
    `INSERT INTO api_keys (id, organisation_id, name, key_hash, permissions, sources) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT DO NOTHING RETURNING id`,
    [id, organisationId, name, keyHash, permissions, sources],
  );
  if (rows.length === 0) throw new HttpError('conflict', 'That API key exists already.');
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
