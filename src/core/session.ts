import { safeStorage } from './storage.js';

/**
 * The sessionStorage key of the tab's analytics session. Shared with the analytics beacon
 * (`assist-analytics.js`), so clicks it reports join the same session as the SDK's searches.
 */
export const SESSION_STORAGE_KEY = 'assist:session';

const storage = safeStorage('session');

function isUsableSessionId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 128 && /^[\w-]+$/.test(value);
}

/** A fresh id in the form `s_` + 32 hex digits; works on plain-http pages where `randomUUID` is missing. */
export function newSessionId(): string {
  const bytes = new Uint8Array(16);
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return `s_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** The tab's session id if one exists, without creating one. */
export function peekSessionId(): string | null {
  const stored = storage.get(SESSION_STORAGE_KEY);
  return isUsableSessionId(stored) ? stored : null;
}

/** The tab's session id, created on first use and reused for the life of the tab. */
export function getSessionId(): string {
  const existing = peekSessionId();
  if (existing) return existing;
  const created = newSessionId();
  storage.set(SESSION_STORAGE_KEY, created);
  return created;
}

/** Takes over the id the server answered with, so later requests and the beacon use it. */
export function adoptSessionId(sessionId: unknown): void {
  if (isUsableSessionId(sessionId) && sessionId !== peekSessionId()) storage.set(SESSION_STORAGE_KEY, sessionId);
}
