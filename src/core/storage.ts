/**
 * Web Storage that never throws. Storage access throws in sandboxed iframes, with cookies
 * blocked, and when the quota is full; the SDK then keeps the value in memory for the life of
 * the page, which is the best it can do, instead of breaking the widget.
 */
export interface SafeStorage {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

/** Values whose write to real storage failed; they shadow storage until a write succeeds. */
const memoryFallback = { local: new Map<string, string>(), session: new Map<string, string>() };

export function safeStorage(kind: 'local' | 'session'): SafeStorage {
  const memory = memoryFallback[kind];
  const storage = (): Storage => (kind === 'local' ? globalThis.localStorage : globalThis.sessionStorage);
  return {
    get(key) {
      if (memory.has(key)) return memory.get(key)!;
      try {
        return storage().getItem(key);
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        storage().setItem(key, value);
        memory.delete(key);
      } catch {
        memory.set(key, value);
      }
    },
    remove(key) {
      memory.delete(key);
      try {
        storage().removeItem(key);
      } catch {
        // nothing more to clean
      }
    },
  };
}
