import { safeStorage } from '../core/storage.js';

const MAX_RECENT = 5;
const storage = safeStorage('local');

/**
 * The visitor's recent searches for one widget, newest first, kept in this browser only
 * (localStorage, or memory where storage is blocked).
 */
export class RecentSearches {
  private readonly storageKey: string;

  constructor(widgetKey: string) {
    this.storageKey = `assist:recent-searches:${widgetKey}`;
  }

  list(): string[] {
    try {
      const stored: unknown = JSON.parse(storage.get(this.storageKey) ?? '[]');
      return Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === 'string').slice(0, MAX_RECENT) : [];
    } catch {
      return [];
    }
  }

  /** Puts `query` first; the same query typed differently (case, spaces) is kept once. */
  add(query: string): void {
    const trimmed = query.trim();
    if (!trimmed) return;
    const same = (entry: string) => entry.toLowerCase() === trimmed.toLowerCase();
    this.save([trimmed, ...this.list().filter((entry) => !same(entry))]);
  }

  remove(query: string): void {
    this.save(this.list().filter((entry) => entry !== query));
  }

  private save(entries: string[]): void {
    if (entries.length === 0) storage.remove(this.storageKey);
    else storage.set(this.storageKey, JSON.stringify(entries.slice(0, MAX_RECENT)));
  }
}
