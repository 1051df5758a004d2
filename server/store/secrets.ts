import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Secrets are kept only as SHA-256 hashes; the plaintext is shown once, when created. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new random secret with its kind's prefix: `ak_` API key, `ws_` widget secret, `pt_` preview token, `adm_` admin token. */
export function generateSecret(prefix: 'ak_' | 'ws_' | 'pt_' | 'sig_' | 'adm_'): string {
  return prefix + randomBytes(24).toString('base64url');
}

/** A public identifier such as `p_3kX9…` for pages or `key_…` for API keys. */
export function generateId(prefix: string, bytes = 12): string {
  return prefix + randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x');
}

/** Compares two strings in time that depends only on their length; never throws. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(left, right) && a.length === b.length;
}

/** Lowercase hex HMAC-SHA256 of a visitor id, keyed with the widget's signing secret. */
export function signVisitorId(id: string, signingSecret: string): string {
  return createHmac('sha256', signingSecret).update(id, 'utf8').digest('hex');
}
