import type { Hit, Source } from '../../wire/contract.js';
import { Emitter } from '../core/emitter.js';
import { isAssistError, toAssistError, type AssistError } from '../core/errors.js';
import { RecentSearches } from './recent-searches.js';
import type { AssistClient } from './types.js';

/** What the result area shows, a closed set. */
export type SearchPhase = 'idle' | 'loading' | 'results' | 'empty' | 'error';
/** The AI summary above the results: `hidden` when the widget has none, or the server made none. */
export type SummaryPhase = 'hidden' | 'loading' | 'streaming' | 'done';

/**
 * One option of the listbox: "Ask AI" (first, when there is a chat to ask), a result; with an
 * empty field, a recent search or a suggested question.
 */
export type SearchOption =
  | { kind: 'ask' | 'recent' | 'suggestion'; id: string; query: string }
  | { kind: 'result'; id: string; hit: Hit; rank: number };
export type QueryOption = Exclude<SearchOption, { kind: 'result' }>;
export type ResultOption = Extract<SearchOption, { kind: 'result' }>;

/** The results of one page, under its title. */
export interface PageGroup {
  id: string;
  title: string;
  options: ResultOption[];
}

export interface SearchSummary {
  phase: SummaryPhase;
  /** The markdown, growing while it streams. */
  text: string;
  sources: Source[];
  /** What `sendFeedback` rates, once done. */
  answerId?: string;
}

/** Which option is active and whether the options show: what the keys change. */
export interface NavigationState {
  /** Index into `options`; -1 for none. */
  activeIndex: number;
  isOpen: boolean;
}

export type NavigationAction =
  | { type: 'input' }
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'move'; step: 1 | -1; count: number }
  | { type: 'activate'; index: number };

/**
 * The active option after an action, as a pure function. Typing shows the options with none
 * active; the arrows move through them and wrap around (from none, Down goes to the first and
 * Up to the last); closing leaves none active.
 */
export function navigationReducer(state: NavigationState, action: NavigationAction): NavigationState {
  switch (action.type) {
    case 'input':
      return { activeIndex: -1, isOpen: true };
    case 'open':
      return { ...state, isOpen: true };
    case 'close':
      return { activeIndex: -1, isOpen: false };
    case 'move': {
      const { step, count } = action;
      if (count === 0) return state;
      const activeIndex = state.activeIndex < 0 ? (step > 0 ? 0 : count - 1) : (state.activeIndex + step + count) % count;
      return { activeIndex, isOpen: true };
    }
    case 'activate':
      return { ...state, activeIndex: action.index };
  }
}

/** What a search UI shows; a new object after every change, so it can be compared by identity. */
export interface SearchSessionState extends NavigationState {
  /** What the field holds. */
  readonly query: string;
  readonly phase: SearchPhase;
  readonly hits: readonly Hit[];
  /** The query the results are for (the field may hold a newer one). */
  readonly searchedQuery: string;
  readonly queryId: string | null;
  readonly error: AssistError | null;
  readonly summary: Readonly<SearchSummary>;
  /** The results grouped by page, in the order the pages first appear. */
  readonly groups: readonly PageGroup[];
  /** Every option in listbox order: "Ask AI" and the results, or with an empty field the recent searches and suggestions. */
  readonly options: readonly SearchOption[];
  readonly activeOption: SearchOption | null;
}

export interface SearchSessionEvents {
  /** The state changed (not for every token of the summary: see `token`). */
  change: SearchSessionState;
  /** A piece of the summary arrived; the state's `summary.text` holds the text so far. */
  token: { delta: string; text: string };
  /** A search started. */
  search: { query: string };
  /** Results arrived for the newest query. */
  results: { query: string; hits: Hit[]; queryId: string };
  /** The newest search failed. */
  failure: { error: AssistError };
  /** The summary of the newest query is complete. */
  summary: Readonly<SearchSummary>;
  /** The field was emptied: back to recent searches and suggestions. */
  reset: Record<string, never>;
}

export interface SearchSessionOptions {
  /** How long typing must pause before a search starts, in ms. Default 1000 (as a widget's config). */
  debounce?: number;
  /** Stream an AI summary above the results of every search. */
  summary?: boolean;
  /** Suggested questions offered with an empty field. */
  suggestions?: readonly string[];
  /** Keep the visitor's recent searches in this browser and offer them with an empty field. Default true. */
  recentSearches?: boolean;
  /** Whether to offer "Ask AI: ‹query›" as the first option; asked every time the options are worked out. */
  canAsk?: () => boolean;
  /** Prefix of the options' ids (they are unique in the page when the prefix is). */
  idPrefix?: string;
  /** Opens a result or asks the chat: called with the option the visitor chose ("Ask AI" or a result). */
  onChoose?: (option: SearchOption, newTab: boolean) => void;
}

/** The keys a search field hands over; a `KeyboardEvent` will do. */
export interface SearchKey {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  isComposing?: boolean;
}

const HIDDEN_SUMMARY: SearchSummary = { phase: 'hidden', text: '', sources: [] };

/**
 * Search-as-you-type over a search widget's content, without any UI: debouncing, the newest
 * query's results only (an older answer arriving late never replaces them), the AI summary,
 * results grouped by page, recent searches, and the active option moved by the keys.
 * `<assist-search>` is this session with templates; a custom search box feeds it the same way.
 *
 * @example
 * import { createClient, SearchSession } from 'assist-widgets';
 *
 * const search = new SearchSession(createClient('acme/docs'), {
 *   debounce: 300,
 *   onChoose: (option) => option.kind === 'result' && location.assign(option.hit.url),
 * });
 * input.addEventListener('input', () => search.onInput(input.value));
 * input.addEventListener('keydown', (event) => search.onKeyDown(event) && event.preventDefault());
 * search.subscribe((state) => render(state.groups, state.activeOption));
 */
export class SearchSession {
  private readonly events = new Emitter<SearchSessionEvents>();
  private readonly recent: RecentSearches | null;
  private readonly idPrefix: string;
  private query = '';
  private phase: SearchPhase = 'idle';
  private hits: Hit[] = [];
  private searchedQuery = '';
  private queryId: string | null = null;
  private error: AssistError | null = null;
  private summary: SearchSummary = HIDDEN_SUMMARY;
  private recentList: string[];
  private navigation: NavigationState = { activeIndex: -1, isOpen: false };
  private debounceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Aborted when a newer search (or an empty field) makes the running one's answers stale. */
  private running: AbortController | null = null;
  private snapshot: SearchSessionState | null = null;
  private snapshotAsks = false;

  constructor(
    readonly client: AssistClient,
    private readonly options: SearchSessionOptions = {},
  ) {
    this.idPrefix = options.idPrefix ?? 'assist-search';
    this.recent = options.recentSearches === false ? null : new RecentSearches(client.widgetKey);
    this.recentList = this.recent?.list() ?? [];
  }

  get state(): SearchSessionState {
    const asks = this.options.canAsk?.() ?? false;
    if (this.snapshot && this.snapshotAsks === asks) return this.snapshot;
    this.snapshotAsks = asks;
    const query = this.query.trim();
    const groups = query && this.phase !== 'error' ? this.groupByPage(this.hits) : [];
    const ask: QueryOption[] = query && asks ? [{ kind: 'ask', id: `${this.idPrefix}-ask`, query }] : [];
    const options = query ? [...ask, ...groups.flatMap((group) => group.options)] : this.startOptions();
    if (this.navigation.activeIndex >= options.length) this.navigation = { ...this.navigation, activeIndex: -1 };
    return (this.snapshot = {
      query: this.query,
      phase: this.phase,
      hits: this.hits,
      searchedQuery: this.searchedQuery,
      queryId: this.queryId,
      error: this.error,
      summary: this.summary,
      groups,
      options,
      ...this.navigation,
      activeOption: options[this.navigation.activeIndex] ?? null,
    });
  }

  /** Calls `listener` with the state after every change; returns a function that unsubscribes. */
  subscribe(listener: (state: SearchSessionState) => void): () => void {
    return this.events.on('change', listener);
  }

  on<Name extends keyof SearchSessionEvents>(name: Name, handler: (payload: SearchSessionEvents[Name]) => void): () => void {
    return this.events.on(name, handler);
  }

  /** The visitor typed: the options show, none active, and a search starts once typing pauses. */
  onInput(query: string): void {
    this.query = query;
    this.navigation = navigationReducer(this.navigation, { type: 'input' });
    this.cancelDebounce();
    if (!query.trim()) return this.reset();
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = undefined;
      void this.search(this.query);
    }, this.options.debounce ?? 1000);
    this.changed();
  }

  /**
   * A key pressed in the field: the arrows move the active option, Enter chooses it (or the
   * first option, or searches at once when the results of what was typed are not in yet),
   * Delete forgets an active recent search, Escape closes the options. Returns true when the
   * key was used (the caller then prevents its default).
   */
  onKeyDown(event: SearchKey): boolean {
    const { options, activeOption, isOpen } = this.state;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        if (options.length === 0) return false;
        this.dispatch({ type: 'move', step: event.key === 'ArrowDown' ? 1 : -1, count: options.length });
        return true;
      case 'Enter': {
        if (event.isComposing) return false;
        const option = activeOption ?? this.firstCurrentOption();
        if (option) this.choose(option, Boolean(event.ctrlKey || event.metaKey));
        else this.searchNow();
        return true;
      }
      case 'Delete':
        if (activeOption?.kind !== 'recent') return false;
        this.forget(activeOption.query);
        return true;
      case 'Escape':
        if (!isOpen || options.length === 0) return false;
        this.dispatch({ type: 'close' });
        return true;
      default:
        return false;
    }
  }

  /** Makes an option active (a pointer over it). */
  activate(id: string): void {
    const index = this.state.options.findIndex((option) => option.id === id);
    if (index !== this.navigation.activeIndex) this.dispatch({ type: 'activate', index });
  }

  /** Shows the options (the field got focus, the modal opened), with the recent searches as they are now. */
  open(): void {
    this.recentList = this.recent?.list() ?? [];
    this.dispatch({ type: 'open' });
  }

  /** Hides the options. */
  close(): void {
    this.dispatch({ type: 'close' });
  }

  /** Runs a recent search or a suggested question; hands "Ask AI" and results to `onChoose`. */
  choose(option: SearchOption, newTab = false): void {
    if (option.kind === 'ask' || option.kind === 'result') return this.options.onChoose?.(option, newTab);
    this.query = option.query;
    this.searchNow();
  }

  /** Sets what the field holds without searching (voice input, while the browser is still hearing it). */
  setQuery(query: string): void {
    this.query = query;
    this.changed();
  }

  /** Searches for what the field holds now, without waiting for the debounce (Enter, a recent search, speech). */
  searchNow(): void {
    this.cancelDebounce();
    const query = this.query;
    if (!query.trim()) return;
    this.addRecent(query);
    void this.search(query);
  }

  /** Empties the field and starts again from recent searches and suggestions. */
  clear(): void {
    this.cancelDebounce();
    this.query = '';
    this.reset();
  }

  /** Keeps `query` first among the recent searches. */
  addRecent(query: string): void {
    this.recent?.add(query);
  }

  /** Removes a recent search. */
  forget(query: string): void {
    this.recent?.remove(query);
    this.recentList = this.recent?.list() ?? [];
    this.changed();
  }

  /** Stops the search under way and the debounce (the options and results stay; typing searches again). */
  cancel(): void {
    this.cancelDebounce();
    this.running?.abort();
  }

  private dispatch(action: NavigationAction): void {
    this.navigation = navigationReducer(this.navigation, action);
    this.changed();
  }

  private changed(): void {
    this.snapshot = null;
    this.events.emit('change', this.state);
  }

  private cancelDebounce(): void {
    clearTimeout(this.debounceTimer);
    this.debounceTimer = undefined;
  }

  /** What Enter opens when no option is active: the first, unless it is a result of an older query. */
  private firstCurrentOption(): SearchOption | undefined {
    const first = this.state.options[0];
    if (first?.kind !== 'result') return first;
    const current = this.searchedQuery === this.query && this.phase === 'results' && this.debounceTimer === undefined;
    return current ? first : undefined;
  }

  private reset(): void {
    this.running?.abort();
    this.running = null;
    this.phase = 'idle';
    this.hits = [];
    this.summary = HIDDEN_SUMMARY;
    this.recentList = this.recent?.list() ?? [];
    this.changed();
    this.events.emit('reset', {});
  }

  /**
   * The client answers only the newest search (an older one rejects as `aborted`); the session
   * aborts its own run too when the field is emptied, so nothing stale lands afterwards.
   */
  private async search(query: string): Promise<void> {
    this.running?.abort();
    const run = (this.running = new AbortController());
    this.phase = 'loading';
    this.navigation = { ...this.navigation, activeIndex: -1 };
    if (this.options.summary) this.summary = { ...HIDDEN_SUMMARY, phase: 'loading' };
    this.changed();
    this.events.emit('search', { query });
    if (this.options.summary) void this.summarize(query, run.signal);
    try {
      const { hits, queryId } = await this.client.search(query, { signal: run.signal });
      this.hits = hits;
      this.queryId = queryId;
      this.searchedQuery = query;
      this.phase = hits.length > 0 ? 'results' : 'empty';
      this.changed();
      this.events.emit('results', { query, hits, queryId });
    } catch (error) {
      if (run.signal.aborted || (isAssistError(error) && error.code === 'aborted')) return;
      this.phase = 'error';
      this.error = toAssistError(error);
      this.changed();
      this.events.emit('failure', { error: this.error });
    }
  }

  /** Streams the AI summary; it stays hidden when the server produced none (`summarized: false`) or failed. */
  private async summarize(query: string, signal: AbortSignal): Promise<void> {
    const update = (summary: Partial<SearchSummary>) => {
      this.summary = { ...this.summary, ...summary };
      this.snapshot = null;
    };
    try {
      const result = await this.client.summarize(query, {
        signal,
        onSources: (sources) => !signal.aborted && update({ sources }),
        // Not a change: a UI renders the tokens at its own pace (a few times a second, not per token).
        onToken: (delta, text) => {
          if (signal.aborted) return;
          update({ text, phase: 'streaming' });
          this.events.emit('token', { delta, text });
        },
      });
      if (signal.aborted) return;
      if (result.summarized && result.text) {
        update({ phase: 'done', text: result.text, sources: result.sources, ...(result.answerId && { answerId: result.answerId }) });
        this.events.emit('summary', this.summary);
      } else update(HIDDEN_SUMMARY);
    } catch {
      // The results are still there; a summary that failed is simply not shown.
      if (signal.aborted) return;
      update(HIDDEN_SUMMARY);
    }
    this.changed();
  }

  /** With an empty field: recent searches, then the suggested questions not among them. */
  private startOptions(): QueryOption[] {
    const recent = this.recentList.map((query, index): QueryOption => ({ kind: 'recent', id: `${this.idPrefix}-recent-${index}`, query }));
    const suggestions = (this.options.suggestions ?? [])
      .filter((question) => !this.recentList.includes(question))
      .map((query, index): QueryOption => ({ kind: 'suggestion', id: `${this.idPrefix}-suggestion-${index}`, query }));
    return [...recent, ...suggestions];
  }

  /** Hits of one page together, in the order the pages first appear; ranks follow the order shown. */
  private groupByPage(hits: Hit[]): PageGroup[] {
    const groups = new Map<string, PageGroup>();
    for (const hit of hits) {
      const key = hit.pageId || hit.url.split('#')[0]!;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { id: `${this.idPrefix}-group-${groups.size}`, title: hit.title, options: [] }));
      group.options.push({ kind: 'result', id: '', hit, rank: 0 });
    }
    let rank = 0;
    for (const group of groups.values()) {
      for (const option of group.options) {
        option.rank = ++rank;
        option.id = `${this.idPrefix}-result-${rank}`;
      }
    }
    return [...groups.values()];
  }
}
