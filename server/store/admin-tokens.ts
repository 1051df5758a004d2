/**
 * Admin tokens the server makes itself. On the first start of the demo without a configured
 * admin token (--admin-token-file, ASSIST_ADMIN_TOKEN) the server creates one, stores only
 * its hash and prints it once, so an operator can set up their own organisation through the
 * admin API without a restart. It stays valid across restarts; a lost one is not recovered
 * (configure a token of your own instead).
 */
import type { Queryable } from './db.js';
import { generateSecret, hashSecret } from './secrets.js';

/** Creates the one-time admin token when none was ever made; resolves to it, or undefined when one exists. */
export async function createFirstAdminToken(db: Queryable): Promise<string | undefined> {
  const existing = await db.query('SELECT 1 FROM admin_tokens LIMIT 1');
  if (existing.length > 0) return undefined;
  const token = generateSecret('adm_');
  await db.query('INSERT INTO admin_tokens (token_hash) VALUES ($1)', [hashSecret(token)]);
  return token;
}

export async function hasStoredAdminToken(db: Queryable): Promise<boolean> {
  return (await db.query('SELECT 1 FROM admin_tokens LIMIT 1')).length > 0;
}

/** Whether `token` is one the server made (looked up by its hash, so no secret is compared). */
export async function storedAdminTokenMatches(db: Queryable, token: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM admin_tokens WHERE token_hash = $1', [hashSecret(token)])).length > 0;
}
