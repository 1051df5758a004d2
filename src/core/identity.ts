import type { VisitorIdentity } from '../../wire/contract.js';
import { AssistError } from './errors.js';

/** What integrators may pass as `user`: a numeric id is accepted and sent as a string. */
export interface VisitorInput {
  id: string | number;
  /** Lowercase hex HMAC-SHA256 of the id, made on the integrator's server. */
  hash?: string | null;
}

/** A visitor whose hash is present: the only kind that may use conversation history. */
export interface SignedVisitor {
  id: string;
  hash: string;
}

/**
 * Checks and normalises a `user` option. `null`/`undefined` mean anonymous. A malformed value
 * throws at once: it is a programming error, and sending it would only fail later on the server.
 */
export function normalizeVisitor(user: unknown): VisitorIdentity | null {
  if (user === null || user === undefined) return null;
  if (typeof user !== 'object') throw invalidVisitor('user must be an object like { id, hash }.');
  const { id, hash } = user as { id?: unknown; hash?: unknown };
  const visitorId = typeof id === 'number' && Number.isFinite(id) ? String(id) : id;
  if (typeof visitorId !== 'string' || visitorId.length === 0) throw invalidVisitor('user.id must be a non-empty string.');
  if (hash === undefined || hash === null || hash === '') return { id: visitorId };
  if (typeof hash !== 'string') throw invalidVisitor('user.hash must be a string (the hex HMAC-SHA256 of user.id).');
  return { id: visitorId, hash };
}

export function signedVisitor(user: VisitorIdentity | null): SignedVisitor | null {
  return user?.hash ? { id: user.id, hash: user.hash } : null;
}

/** Same person: the hash only proves the id, so a new hash for the same id is not a new visitor. */
export function sameVisitor(a: VisitorIdentity | null, b: VisitorIdentity | null): boolean {
  return (a?.id ?? null) === (b?.id ?? null);
}

/**
 * A short, non-reversible tag of the visitor id for local storage, so stored history can be
 * matched to its owner without writing the id (often an e-mail) or the hash to disk.
 * cyrb53: 53 bits make an accidental match between two visitors of one browser negligible.
 */
export function visitorFingerprint(user: VisitorIdentity | null): string {
  if (!user) return 'anonymous';
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < user.id.length; i++) {
    const char = user.id.charCodeAt(i);
    h1 = Math.imul(h1 ^ char, 2654435761);
    h2 = Math.imul(h2 ^ char, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `v_${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
}

function invalidVisitor(message: string): AssistError {
  return new AssistError('invalid_identity', message);
}
