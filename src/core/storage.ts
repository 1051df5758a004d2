/**
 * Web Storage that never throws. Storage access throws in sandboxed iframes, with cookies
 * blocked, and when the quota is full; the SDK then keeps its values in memory for the life of
 * the page, which is the best it can do, instead of breaking the widget.
 */
export interface SafeStorage {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

const memoryFallback = { local: new Map<string, string>(), session: new Map<string, string>() };

export function safeStorage(kind: 'local' | 'session'): SafeStorage {
  const memory = memoryFallback[kind];
  const storage = (): Storage | null => {
    try {
      return kind === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
    } catch {
      return null;
    }
  };
  return {
    get(key) {
      try {
        const value = storage()?.getItem(key);
        if (value !== null && value !== undefined) return value;
      } catch {
        // fall through to memory
      }
      return memory.get(key) ?? null;
    },
    set(key, value) {
      memory.set(key, value);
      try {
        storage()?.setItem(key, value);
      } catch {
        // memory already holds it
      }
    },
    remove(key) {
      memory.delete(key);
      try {
        storage()?.removeItem(key);
      } catch {
        // nothing else to clean
      }
    },
  };
}
