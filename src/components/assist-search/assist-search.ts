import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { VARIANTS, type Hit, type Source, type WidgetConfig } from '../../../wire/contract.js';
import { createClient } from '../../client/client.js';
import type { AssistClient, ClientEvents } from '../../client/types.js';
import { AssistError, isAssistError } from '../../core/errors.js';
import { explainFailure, warnOnce } from '../../core/warn.js';
import type { WidgetMountOptions } from '../../core/widget-handle.js';
import { previewNotice, previewNoticeStyles } from '../shared/preview-notice.js';
import { ClientController } from '../shared/client-controller.js';
import { errorMessage, toAssistError } from '../shared/error-message.js';
import { AnswerFeedback, feedbackStyles } from '../shared/feedback.js';
import { isWebUrl, sourceName, webUrl } from '../shared/links.js';
import { FocusReturn, lockPageScroll, markTriggers, trapTab } from '../shared/focus.js';
import { keyCombo, loadStrings, stringsFor, type Strings } from '../shared/i18n.js';
import { applyLanguage } from '../shared/language.js';
import { icons } from '../shared/icons.js';
import { streamingMarkdownView } from '../shared/markdown-view.js';
import { StreamingMarkdown } from '../shared/markdown.js';
import { attributeOptions, findElements, mergeConfig, type AttributeOptionNames } from '../shared/mount.js';
import { SpeechInput, speechInputSupported } from '../shared/speech.js';
import { applyTheme, markdownStyles, themeStyles } from '../shared/theme.js';
import { searchStyles } from './assist-search.styles.js';
import { adoptScopedStyles } from './light-dom.js';
import { RecentSearches } from './recent-searches.js';
import { parseSnippet } from './snippet.js';
import type { AssistChat } from '../assist-chat/assist-chat.js';

/** `detail` of `assist-search`: results arrived for a query. */
export interface AssistSearchDetail {
  query: string;
  hits: Hit[];
  queryId: string;
}

/**
 * `detail` of `assist-select`: the visitor opens a result or a link of the summary. Cancelable:
 * `preventDefault()` keeps the widget from navigating (a single-page app routes itself).
 */
export interface AssistSelectDetail {
  url: string;
  /** Position in the list as shown (1 = first); for summary links, the source's position. */
  rank?: number;
  source: 'result' | 'summary';
  /** Ctrl/Cmd+Enter, or a modified click: the page opens in a new tab. */
  newTab: boolean;
  queryId: string | null;
}

/** The DOM events of `<assist-search>`; all bubble and cross shadow roots. */
export interface AssistSearchEventMap {
  'assist-ready': CustomEvent<{ config: WidgetConfig }>;
  'assist-open': CustomEvent<Record<string, never>>;
  'assist-close': CustomEvent<Record<string, never>>;
  'assist-search': CustomEvent<AssistSearchDetail>;
  'assist-select': CustomEvent<AssistSelectDetail>;
  'assist-error': CustomEvent<{ error: AssistError }>;
}

/** What the result area shows, a closed set. */
export type SearchPhase = 'idle' | 'loading' | 'results' | 'empty' | 'error';
type SummaryPhase = 'hidden' | 'loading' | 'streaming' | 'done';

/**
 * One option of the listbox: "Ask AI" (first, when there is a chat to ask), a result; with an
 * empty field, a recent search or a suggested question.
 */
type SearchOption =
  | { kind: 'ask' | 'recent' | 'suggestion'; id: string; query: string }
  | { kind: 'result'; id: string; hit: Hit; rank: number };
type QueryOption = Exclude<SearchOption, { kind: 'result' }>;
type ResultOption = Extract<SearchOption, { kind: 'result' }>;
interface PageGroup {
  id: string;
  title: string;
  options: ResultOption[];
}

/** The mount options `<assist-search>` reads from its attributes. */
const OPTION_ATTRIBUTES: AttributeOptionNames = {
  text: ['variant', 'theme', 'accent-light', 'accent-dark', 'placeholder', 'default-language', 'chat'],
  flags: ['summary', 'speech-input'],
  numbers: ['debounce'],
};

let instances = 0;

/** True when a key press belongs to something the visitor is typing in, which the shortcut must not steal. */
function isTyping(event: KeyboardEvent): boolean {
  const origin = event.composedPath()[0];
  return origin instanceof HTMLElement && (origin.isContentEditable || /^(?:INPUT|TEXTAREA|SELECT)$/.test(origin.tagName));
}

/**
 * Search over a widget's content: a Ctrl/Cmd+K overlay (`modal`), or a field with results
 * beneath (`inline`), optionally on an input the page already has. Results come grouped by
 * page with the matched words highlighted, after an AI summary when the widget has one.
 * Given a chat widget (the `chat` attribute or option, or an `<assist-chat>` on the page),
 * the first option is "Ask AI: ‹query›", which opens the chat and sends the query there.
 *
 * Use `Assist.search(key, options).mount()` from the script tag, or the element on its own:
 *
 * @example
 * <assist-search widget="acme/docs" base-url="https://assist.example.com"></assist-search>
 * <script type="module">
 *   import 'assist-widgets';
 *   document.querySelector('assist-search').addEventListener('assist-select', (event) => {
 *     event.preventDefault(); // route inside a single-page app instead of navigating
 *     router.push(event.detail.url);
 *   });
 * </script>
 *
 * @event assist-ready - The config is loaded and the widget is shown. `detail: { config }`
 * @event assist-open - The modal opened.
 * @event assist-close - The modal closed.
 * @event assist-search - Results arrived. `detail: AssistSearchDetail`
 * @event assist-select - A result or summary link is being opened; cancelable. `detail: AssistSelectDetail`
 * @event assist-error - Loading or a search failed. `detail: { error: AssistError }`
 *
 * @csspart box - The search box that opens the modal.
 * @csspart dialog - The modal's full-screen overlay.
 * @csspart panel - The modal's panel.
 * @csspart field - The row with the search input and its buttons.
 * @csspart input - The search input.
 * @csspart mic-button - The voice input button.
 * @csspart close-button - The modal's close button.
 * @csspart body - The area holding the summary and the results.
 * @csspart clear-button - Empties the field.
 * @csspart summary - The AI summary.
 * @csspart feedback - The "Helpful / Not helpful" buttons under a finished summary.
 * @csspart ask - The "Ask AI" option.
 * @csspart results - The list of results (a listbox).
 * @csspart result - One result; the active one also has `active`.
 * @csspart footer - Keyboard hints and branding.
 *
 * @cssproperty --assist-accent-light - Accent in light mode (active result, summary). Default from `accent_light`.
 * @cssproperty --assist-accent-dark - Accent in dark mode. Default from `accent_dark`.
 * @cssproperty --assist-on-accent - Text on the accent.
 * @cssproperty --assist-bg-light - Panel background (also `-dark`).
 * @cssproperty --assist-surface-light - Summary background (also `-dark`).
 * @cssproperty --assist-text-light - Text (also `-dark`).
 * @cssproperty --assist-muted-light - Secondary text (also `-dark`).
 * @cssproperty --assist-border-light - Borders (also `-dark`).
 * @cssproperty --assist-danger-light - Errors (also `-dark`).
 * @cssproperty --assist-mark-light - Highlight of matched words (also `-dark`).
 * @cssproperty --assist-radius - Panel radius.
 * @cssproperty --assist-radius-small - Box, results and buttons.
 * @cssproperty --assist-font - Font family.
 * @cssproperty --assist-font-size - Base font size.
 * @cssproperty --assist-shadow - Shadow of the panel.
 * @cssproperty --assist-z-index - Stacking of the modal.
 * @cssproperty --assist-panel-width - Width of the modal panel.
 * @cssproperty --assist-panel-height - Most height of the modal panel and of inline results.
 */
export class AssistSearch extends LitElement {
  static override styles = [themeStyles, markdownStyles, feedbackStyles, searchStyles, previewNoticeStyles];

  static override properties = {
    widget: {},
    baseUrl: { attribute: 'base-url' },
    variant: { reflect: true },
    box: { type: Boolean, reflect: true },
    open: { type: Boolean, reflect: true },
    config: { state: true },
    query: { state: true },
  };

  /** The widget key, `{organisation}/{widget}`. */
  declare widget: string;
  /** The API origin; default: the page's. */
  declare baseUrl: string;
  /** `modal` or `inline`; default from the dashboard. */
  declare variant: string;
  /** Modal only: show a search box that opens the modal (default true; `Assist.search` shows it when given a `target`). */
  declare box: boolean;
  /** Whether the modal is open. */
  declare open: boolean;
  /** The config in use (dashboard settings with the options laid over them), once loaded. */
  declare config: WidgetConfig | null;
  declare private query: string;

  /** The client to talk through; made from `widget` and `base-url` when not given. */
  client: AssistClient | null = null;
  /** Mount options laid over the dashboard's settings (attributes are read too). */
  options: WidgetMountOptions = {};
  /** Your own elements that open the modal. */
  triggers: Element[] = [];
  /**
   * Inline only: an input of the page to search from, instead of one the widget renders. Set it
   * before the element connects; results then render in the page's DOM, beside the input.
   */
  input: HTMLInputElement | null = null;

  private readonly status = new ClientController(this, (name, payload) => {
    // A failed config load is reported by load() itself.
    const failure = name === 'error' ? (payload as ClientEvents['error']) : null;
    if (failure && failure.operation !== 'config') this.emit('assist-error', { error: failure.error });
  });
  private strings: Strings = stringsFor('en');
  private readonly idPrefix = `assist-search-${++instances}`;
  private phase: SearchPhase = 'idle';
  private hits: Hit[] = [];
  private queryId: string | null = null;
  private searchedQuery = '';
  private error: AssistError | null = null;
  private groups: PageGroup[] = [];
  private items: SearchOption[] = [];
  private activeIndex = -1;
  /** Inline: whether the results are showing (the visitor is in the field). */
  private expanded = false;
  private announcement = '';
  /** Said once when a summary has arrived, apart from the number of results. */
  private summaryAnnouncement = '';
  private summaryPhase: SummaryPhase = 'hidden';
  private readonly summaryMarkdown = new StreamingMarkdown();
  private summarySources: Source[] = [];
  private summaryFeedback: AnswerFeedback | null = null;
  private chatElement: Promise<AssistChat> | null = null;
  private recent: RecentSearches | null = null;
  private recentList: string[] = [];
  private debounceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Counts searches, so an answer to an older one is never shown over a newer one's. */
  private searchRun = 0;
  private searchAbort: AbortController | null = null;
  private loading: Promise<WidgetConfig> | null = null;
  /** Why the config could not be loaded; shown in preview mode only. */
  private loadFailure: AssistError | null = null;
  private readonly focusReturn = new FocusReturn();
  private releaseScroll: (() => void) | null = null;
  private speechBase = '';
  private readonly speech = new SpeechInput({
    onText: (text, final) => {
      this.setQuery(this.speechBase + text);
      if (final) this.searchNow();
    },
    onEnd: () => this.requestUpdate(),
  });

  constructor() {
    super();
    this.box = true;
    this.open = false;
    this.config = null;
    this.query = '';
    this.status.prepareTokens = () => this.summaryMarkdown.prepare();
  }

  /**
   * Loads the config (once; later calls return the same promise) and lays the options over it.
   * Rejects when the config cannot be loaded or the widget is not a search widget.
   */
  load(): Promise<WidgetConfig> {
    return (this.loading ??= this.loadConfig());
  }

  /** Opens the modal (focuses the field of an inline search). */
  show(): void {
    if (!this.config) return;
    if (this.config.variant === 'inline') return void this.fieldInput?.focus();
    if (this.open) return;
    this.focusReturn.remember(this.renderRoot.querySelector<HTMLElement>('.box'));
    this.releaseScroll = lockPageScroll();
    this.recentList = this.recent?.list() ?? [];
    this.open = true;
    this.emit('assist-open', {});
  }

  /** Closes the modal and gives focus back to what opened it. */
  hide(): void {
    if (!this.open) return;
    this.open = false;
    // Closed now, not on the next render: focus cannot return to a page that a modal dialog makes inert.
    this.renderRoot.querySelector('dialog')?.close();
    this.releaseScroll?.();
    this.releaseScroll = null;
    this.speech.abort();
    this.focusReturn.restore(this.renderRoot.querySelector<HTMLElement>('.box') ?? (this.triggers[0] as HTMLElement | undefined));
    this.emit('assist-close', {});
  }

  /** Removes the element and stops its client. */
  destroy(): void {
    this.remove();
    this.client?.dispose();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('keydown', this.onShortcut);
    for (const trigger of this.triggers) trigger.addEventListener('click', this.onTriggerClick);
    markTriggers(this.triggers, this.open);
    const input = this.input;
    if (input) {
      adoptScopedStyles(input.getRootNode() as Document | ShadowRoot, 'assist-search', AssistSearch.elementStyles);
      input.addEventListener('input', this.onInput);
      input.addEventListener('keydown', this.onKeydown);
      input.addEventListener('focus', this.onFocus);
      input.addEventListener('blur', this.onBlur);
      input.setAttribute('role', 'combobox');
      input.setAttribute('aria-autocomplete', 'list');
      input.setAttribute('autocomplete', 'off');
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('keydown', this.onShortcut);
    for (const trigger of this.triggers) trigger.removeEventListener('click', this.onTriggerClick);
    markTriggers(this.triggers, null);
    const input = this.input;
    if (input) {
      input.removeEventListener('input', this.onInput);
      input.removeEventListener('keydown', this.onKeydown);
      input.removeEventListener('focus', this.onFocus);
      input.removeEventListener('blur', this.onBlur);
      for (const name of ['role', 'aria-autocomplete', 'autocomplete', 'aria-expanded', 'aria-controls', 'aria-activedescendant']) input.removeAttribute(name);
    }
    clearTimeout(this.debounceTimer);
    this.searchAbort?.abort();
    this.speech.abort();
    this.releaseScroll?.();
    this.releaseScroll = null;
  }

  /** An input of the page renders results into the page's DOM (see `input`); otherwise a shadow root. */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    return this.input ? this : super.createRenderRoot();
  }

  protected override willUpdate(): void {
    const query = this.query.trim();
    this.groups = query && this.phase !== 'error' ? this.groupByPage(this.hits) : [];
    this.items = query ? [...this.askOptions(query), ...this.groups.flatMap((group) => group.options)] : this.startOptions();
    if (this.activeIndex >= this.items.length) this.activeIndex = -1;
  }

  private askOptions(query: string): QueryOption[] {
    return this.hasChat() ? [{ kind: 'ask', id: `${this.idPrefix}-ask`, query }] : [];
  }

  /** With an empty field: recent searches, then the widget's suggested questions not among them. */
  private startOptions(): QueryOption[] {
    const recent = this.recentList.map((query, index): QueryOption => ({ kind: 'recent', id: `${this.idPrefix}-recent-${index}`, query }));
    const suggestions = (this.config?.suggestions ?? [])
      .filter((question) => !this.recentList.includes(question))
      .map((query, index): QueryOption => ({ kind: 'suggestion', id: `${this.idPrefix}-suggestion-${index}`, query }));
    return [...recent, ...suggestions];
  }

  /** The chat widget's key from the `chat` option or attribute, if any. */
  private get chatKey(): string {
    return this.options.chat ?? this.getAttribute('chat') ?? '';
  }

  /** Whether "Ask AI" can be offered: a chat widget was named, or one is on the page. */
  private hasChat(): boolean {
    return Boolean(this.chatKey || document.querySelector('assist-chat'));
  }

  /**
   * The chat to ask: the named one on the page, else one made for it (its code loaded only
   * now, so a search without "Ask AI" never downloads the chat); without a name, the page's.
   */
  private findChat(): Promise<AssistChat> {
    return (this.chatElement ??= (async () => {
      const key = this.chatKey;
      const onPage = [...document.querySelectorAll('assist-chat')];
      const named = key ? onPage.find((chat) => chat.widget === key || chat.client?.widgetKey === key) : onPage[0];
      if (named) return named;
      const { AssistChat } = await import('../assist-chat/assist-chat.js');
      const chat = new AssistChat();
      chat.widget = key;
      if (this.baseUrl) chat.baseUrl = this.baseUrl;
      document.body.append(chat);
      return chat;
    })());
  }

  /** Closes the search, opens the chat and sends the query there. */
  private async askAi(query: string): Promise<void> {
    this.recent?.add(query);
    if (this.config?.variant === 'modal') this.hide();
    else this.collapse();
    try {
      const chat = await this.findChat();
      await chat.sendMessage(query);
    } catch (error) {
      this.chatElement = null;
      this.emit('assist-error', { error: toAssistError(error) });
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    // In markup the widget loads itself, once its attributes are set.
    if (!this.loading && (this.widget || this.client)) {
      this.load().catch((error: unknown) => console.error(`[assist] <assist-search widget="${this.widget ?? ''}">: the widget could not be loaded.`, error));
    }
    const dialog = this.renderRoot.querySelector('dialog');
    if (changed.has('open') && dialog) {
      if (this.open && !dialog.open) {
        dialog.showModal();
        this.fieldInput?.focus();
      } else if (!this.open && dialog.open) dialog.close();
    }
    if (changed.has('open')) markTriggers(this.triggers, this.open);
    this.syncInputAria();
    this.renderRoot.querySelector(`[id="${this.activeId}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }

  private get fieldInput(): HTMLInputElement | null {
    return this.input ?? this.renderRoot.querySelector('input');
  }

  private get listboxId(): string {
    return `${this.idPrefix}-listbox`;
  }

  private get activeId(): string {
    return this.items[this.activeIndex]?.id ?? '';
  }

  /** The results popup is showing: always in the open modal, while the visitor is in the field inline. */
  private get showingResults(): boolean {
    return this.config?.variant === 'modal' ? this.open : this.expanded;
  }

  /** The combobox state lives on the input, which may be the page's (outside the shadow root). */
  private syncInputAria(): void {
    const input = this.fieldInput;
    if (!input) return;
    const expanded = this.showingResults && this.items.length > 0;
    input.setAttribute('aria-expanded', String(expanded));
    input.setAttribute('aria-controls', this.listboxId);
    if (expanded && this.activeId) input.setAttribute('aria-activedescendant', this.activeId);
    else input.removeAttribute('aria-activedescendant');
  }

  private async loadConfig(): Promise<WidgetConfig> {
    try {
      const client = (this.client ??= createClient(this.widget, { baseUrl: this.baseUrl || undefined }));
      this.status.use(client);
      const loaded = await client.fetchConfig();
      if (loaded.type !== 'search') {
        throw new AssistError('wrong_widget_type', `"${client.widgetKey}" is a ${loaded.type} widget; use Assist.chat() or <assist-chat> for it.`);
      }
      const config = mergeConfig(loaded, { ...attributeOptions(this, OPTION_ATTRIBUTES), ...this.options }, VARIANTS.search, (message) =>
        warnOnce(`<assist-search widget="${client.widgetKey}">: ${message}`),
      );
      this.strings = await loadStrings(client.resolveLocale(config));
      applyLanguage(this, this.strings.locale);
      applyTheme(this, config);
      this.variant = config.variant;
      this.recent = new RecentSearches(client.widgetKey);
      this.recentList = this.recent.list();
      const trigger = this.getAttribute('trigger');
      if (trigger && this.triggers.length === 0) {
        this.triggers = findElements(`<assist-search widget="${client.widgetKey}">`, 'trigger', trigger, this.baseUrl) ?? [];
        if (this.isConnected) for (const element of this.triggers) element.addEventListener('click', this.onTriggerClick);
        if (this.isConnected) markTriggers(this.triggers, this.open);
      }
      this.config = config;
      this.emit('assist-ready', { config });
      return config;
    } catch (error) {
      this.loadFailure = toAssistError(error);
      if (this.client) explainFailure(this.loadFailure, this.client.widgetKey, this.baseUrl);
      this.requestUpdate();
      this.emit('assist-error', { error: this.loadFailure });
      throw error;
    }
  }

  private emit<Name extends keyof AssistSearchEventMap>(name: Name, detail: AssistSearchEventMap[Name]['detail'], cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }

  /**
   * Ctrl/Cmd+K opens the modal, unless the visitor is typing elsewhere or another widget on the
   * page already took this key press (it then calls `preventDefault()`, as this one does).
   */
  private readonly onShortcut = (event: KeyboardEvent): void => {
    if (event.key.toLowerCase() !== 'k' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    if (event.defaultPrevented || this.config?.variant !== 'modal' || isTyping(event)) return;
    event.preventDefault();
    this.show();
  };

  private readonly onTriggerClick = (event: Event): void => {
    event.preventDefault();
    this.show();
  };

  private setQuery(query: string): void {
    this.query = query;
    const input = this.fieldInput;
    if (input && input.value !== query) input.value = query;
  }

  private readonly onInput = (event: Event): void => {
    this.setQuery((event.target as HTMLInputElement).value);
    this.expanded = true;
    this.activeIndex = -1;
    clearTimeout(this.debounceTimer);
    this.debounceTimer = undefined;
    if (!this.query.trim()) return this.reset();
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = undefined;
      void this.search(this.query);
    }, this.config?.debounce ?? 1000);
  };

  private readonly onFocus = (): void => {
    // The modal refreshes its recent searches when it opens.
    if (this.config?.variant === 'modal') return;
    this.recentList = this.recent?.list() ?? [];
    this.expanded = true;
    this.requestUpdate();
  };

  private readonly onBlur = (event: FocusEvent): void => {
    // Focus moving within the widget (the mic button, say) keeps the results open.
    const next = event.relatedTarget;
    if (next instanceof Node && (this.contains(next) || this.renderRoot.contains(next))) return;
    this.collapse();
  };

  /** Inline: hides the results. */
  private collapse(): void {
    this.expanded = false;
    this.activeIndex = -1;
    this.requestUpdate();
  }

  private readonly onKeydown = (event: KeyboardEvent): void => {
    const count = this.items.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (count === 0) return;
        event.preventDefault();
        this.expanded = true;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        this.activeIndex = this.activeIndex < 0 ? (step > 0 ? 0 : count - 1) : (this.activeIndex + step + count) % count;
        this.requestUpdate();
        return;
      }
      case 'Enter': {
        if (event.isComposing) return;
        event.preventDefault();
        const newTab = event.ctrlKey || event.metaKey;
        const item = this.items[this.activeIndex] ?? this.firstCurrentOption();
        if (item) return this.choose(item, newTab);
        // The results of what was typed are not in yet: Enter searches at once instead.
        this.searchNow();
        return;
      }
      case 'Delete': {
        const item = this.items[this.activeIndex];
        if (item?.kind !== 'recent') return;
        event.preventDefault();
        this.forget(item.query);
        return;
      }
      case 'Escape': {
        if (this.config?.variant === 'modal') {
          event.preventDefault();
          this.hide();
        } else if (this.expanded && count > 0) {
          event.preventDefault();
          this.collapse();
        }
        return;
      }
    }
  };

  private readonly onDialogKeydown = (event: KeyboardEvent): void => {
    const panel = this.renderRoot.querySelector('.panel');
    if (panel && this.shadowRoot) trapTab(event, panel, this.shadowRoot);
  };

  /** What Enter opens when no option is active: the first, unless it is a result of an older query. */
  private firstCurrentOption(): SearchOption | undefined {
    const first = this.items[0];
    if (first?.kind !== 'result') return first;
    const current = this.searchedQuery === this.query && this.phase === 'results' && this.debounceTimer === undefined;
    return current ? first : undefined;
  }

  /** Searches now, without waiting for the debounce (Enter, a recent search, speech). */
  private searchNow(): void {
    clearTimeout(this.debounceTimer);
    this.debounceTimer = undefined;
    if (!this.query.trim()) return;
    this.recent?.add(this.query);
    void this.search(this.query);
  }

  private reset(): void {
    this.searchRun++;
    this.searchAbort?.abort();
    this.phase = 'idle';
    this.hits = [];
    this.summaryPhase = 'hidden';
    this.announcement = '';
    this.summaryAnnouncement = '';
    this.recentList = this.recent?.list() ?? [];
    this.requestUpdate();
  }

  private async search(query: string): Promise<void> {
    const client = this.client;
    if (!client || !this.config) return;
    const run = ++this.searchRun;
    this.searchAbort?.abort();
    const abort = (this.searchAbort = new AbortController());
    this.phase = 'loading';
    this.activeIndex = -1;
    this.requestUpdate();
    if (this.config.summary) void this.summarize(client, query, run, abort.signal);
    const t = this.strings;
    try {
      const { hits, queryId } = await client.search(query, { signal: abort.signal });
      if (run !== this.searchRun) return;
      this.hits = hits;
      this.queryId = queryId;
      this.searchedQuery = query;
      this.phase = hits.length > 0 ? 'results' : 'empty';
      this.announcement = hits.length > 0 ? t.plural('searchResults', hits.length) : this.noResultsText(query);
      this.emit('assist-search', { query, hits, queryId });

    } catch (error) {
      if (run !== this.searchRun || (isAssistError(error) && error.code === 'aborted')) return;
      this.phase = 'error';
      this.error = toAssistError(error);
      this.announcement = errorMessage(t, this.error);
    }
    this.requestUpdate();
  }

  /** Streams the AI summary; it stays hidden when the server produced none (`summarized: false`) or failed. */
  private async summarize(client: AssistClient, query: string, run: number, signal: AbortSignal): Promise<void> {
    this.summaryMarkdown.reset();
    this.summarySources = [];
    this.summaryFeedback = null;
    this.summaryPhase = 'loading';
    this.summaryAnnouncement = '';
    const current = () => run === this.searchRun;
    try {
      const result = await client.summarize(query, {
        signal,
        onSources: (sources) => {
          if (current()) this.summarySources = sources;
        },
        // Shown by the render the client's token event schedules (a few times a second, not per token).
        onToken: (_delta, text) => {
          if (!current()) return;
          this.summaryMarkdown.set(text);
          this.summaryPhase = 'streaming';
        },
      });
      if (!current()) return;
      if (result.summarized && result.text) {
        this.summaryMarkdown.set(result.text);
        this.summarySources = result.sources;
        this.summaryFeedback = result.answerId ? new AnswerFeedback(result.answerId, () => this.requestUpdate()) : null;
        this.summaryPhase = 'done';
        this.summaryAnnouncement = this.strings('searchSummaryReady');
      } else this.summaryPhase = 'hidden';
    } catch {
      // The results are still there; a summary that failed is simply not shown.
      if (current()) this.summaryPhase = 'hidden';
    }
    this.requestUpdate();
  }

  private forget(query: string): void {
    this.recent?.remove(query);
    this.recentList = this.recent?.list() ?? [];
    this.requestUpdate();
    this.fieldInput?.focus();
  }

  /** Opens a result, asks the chat, or runs a recent search or a suggested question. */
  private choose(item: SearchOption, newTab: boolean): void {
    if (item.kind === 'ask') return void this.askAi(item.query);
    if (item.kind !== 'result') {
      this.setQuery(item.query);
      this.searchNow();
      return;
    }
    if (this.select(item.hit.url, item.rank, 'result', newTab)) this.navigate(item.hit.url, newTab);
  }

  /** Tracks the click and asks the page whether to navigate; true when the widget should. */
  private select(url: string, rank: number | undefined, source: 'result' | 'summary', newTab: boolean): boolean {
    this.client?.trackEvent('click', { url, ...(rank !== undefined && { rank }), source }, { queryId: this.queryId });
    this.recent?.add(this.searchedQuery);
    return this.emit('assist-select', { url, ...(rank !== undefined && { rank }), source, newTab, queryId: this.queryId }, true);
  }

  private navigate(url: string, newTab: boolean): void {
    if (!isWebUrl(url)) return;
    if (newTab) {
      window.open(url, '_blank', 'noopener');
      return;
    }
    this.hide();
    location.assign(url);
  }

  /** A pointer on a result: the browser follows the link itself (new tab with a modifier or middle button). */
  private onResultClick(event: MouseEvent, option: ResultOption): void {
    if (event.type === 'auxclick' && event.button !== 1) return;
    const newTab = event.ctrlKey || event.metaKey || event.shiftKey || event.button === 1;
    if (!this.select(option.hit.url, option.rank, 'result', newTab)) event.preventDefault();
    else if (!newTab) this.hide();
  }

  private onSummaryClick(event: MouseEvent): void {
    if (event.type === 'auxclick' && event.button !== 1) return;
    const link = event.composedPath().find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement);
    if (!link?.href) return;
    const index = this.summarySources.findIndex((source) => source.url === link.href || source.url === link.getAttribute('href'));
    const newTab = event.ctrlKey || event.metaKey || event.shiftKey || event.button === 1 || link.target === '_blank';
    if (!this.select(link.href, index >= 0 ? index + 1 : undefined, 'summary', newTab)) event.preventDefault();
    else if (!newTab) this.hide();
  }

  private toggleSpeech(): void {
    if (this.speech.listening) return this.speech.stop();
    this.speechBase = this.query ? `${this.query} ` : '';
    this.speech.start(this.strings.locale);
    this.requestUpdate();
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

  protected override render(): TemplateResult | typeof nothing {
    const config = this.config;
    const t = this.strings;
    if (!config && this.loadFailure) return previewNotice(this.client, this.loadFailure);
    // The box takes its place before the config arrives, so the page does not shift when it does.
    if (!config) {
      return this.box && this.isConnected
        ? html`<button type="button" class="box" part="box" disabled aria-hidden="true" tabindex="-1">
            ${icons.search}<span>${t('searchPlaceholder')}</span><kbd>${this.shortcutLabel()}</kbd>
          </button>`
        : nothing;
    }
    if (config.variant === 'inline') {
      const empty = this.items.length === 0 && !this.query.trim();
      return html`${this.input ? nothing : this.renderField(t, false)}${this.renderLive()}
        <div class="popup" ?hidden=${!this.expanded || empty}>${this.renderBody(t)}${this.renderFooter(t, false)}</div>`;
    }
    return html`${this.box
        ? html`<button type="button" class="box" part="box" aria-haspopup="dialog" aria-expanded=${String(this.open)} aria-keyshortcuts="Control+K Meta+K" @click=${() => this.show()}>
            ${icons.search}<span>${config.placeholder || t('searchPlaceholder')}</span><kbd aria-hidden="true">${this.shortcutLabel()}</kbd>
          </button>`
        : nothing}
      <dialog part="dialog" aria-modal="true" aria-label=${config.name || t('searchLabel')} lang=${t.locale}
        @cancel=${(event: Event) => (event.preventDefault(), this.hide())}
        @click=${(event: Event) => event.target === event.currentTarget && this.hide()}>
        ${this.open
          ? html`<div class="panel" part="panel" @keydown=${this.onDialogKeydown}>
              ${this.renderField(t, true)}${this.renderLive()}${this.renderBody(t)}${this.renderFooter(t, true)}
            </div>`
          : nothing}
      </dialog>`;
  }

  private shortcutLabel(): string {
    return keyCombo(this.strings, 'K');
  }

  private renderField(t: Strings, inModal: boolean): TemplateResult {
    const config = this.config!;
    const speech = config.speech_input && speechInputSupported();
    return html`<div class="field" part="field">
      ${icons.search}
      <input part="input" type="search" enterkeyhint="search" autocomplete="off" spellcheck="false"
        role="combobox" aria-autocomplete="list" aria-label=${t('searchLabel')}
        placeholder=${config.placeholder || t('searchPlaceholder')} .value=${live(this.query)}
        @input=${this.onInput} @keydown=${this.onKeydown} @focus=${this.onFocus} @blur=${inModal ? nothing : this.onBlur} />
      ${this.query
        ? html`<button type="button" class="clear-button" part="clear-button" @click=${this.clear}>${t('searchClear')}</button>`
        : nothing}
      ${speech
        ? html`<button type="button" class="icon-button" part="mic-button" aria-pressed=${String(this.speech.listening)}
            aria-label=${this.speech.listening ? t('speechStop') : t('speechStart')} @click=${this.toggleSpeech}>${icons.mic}</button>`
        : nothing}
      ${inModal
        ? html`<button type="button" class="icon-button" part="close-button" aria-label=${t('searchClose')} @click=${() => this.hide()}>${icons.close}</button>`
        : nothing}
    </div>`;
  }

  /** Empties the field and starts again from recent searches and suggestions. */
  private readonly clear = (): void => {
    clearTimeout(this.debounceTimer);
    this.debounceTimer = undefined;
    this.setQuery('');
    this.reset();
    this.fieldInput?.focus();
  };

  private renderBody(t: Strings): TemplateResult {
    const query = this.query.trim();
    // mousedown would move focus out of the input before the click on a result lands.
    return html`<div class="body" part="body" @mousedown=${(event: Event) => event.preventDefault()}>
      ${query ? this.renderSummary(t) : nothing}${this.renderState(t)}
      <div class="listbox" part="results" role="listbox" id=${this.listboxId} aria-label=${t('searchLabel')}
        ?hidden=${this.items.length === 0}>
        ${query ? html`${this.items[0]?.kind === 'ask' ? this.renderAsk(this.items[0]) : nothing}${this.groups.map((group) => this.renderGroup(group))}` : this.renderStartOptions(t)}
      </div>${query ? this.renderSkeleton(t) : this.renderRecentRemoval(t)}
    </div>`;
  }

  private renderAsk(option: QueryOption): TemplateResult {
    const active = option.id === this.activeId;
    return html`<div class="option ask" part=${active ? 'ask active' : 'ask'} role="option" id=${option.id} aria-selected=${String(active)}
      @click=${() => this.choose(option, false)} @pointermove=${() => this.activate(option.id)}>
      ${icons.sparkle}<span>${this.strings('searchAskAi', { query: option.query })}</span>
    </div>`;
  }

  /** The number of results (or why there are none), announced politely. */
  private renderLive(): TemplateResult {
    return html`<div class="visually-hidden" role="status">${this.announcement}</div>
      <div class="visually-hidden" role="status">${this.summaryAnnouncement}</div>`;
  }

  private renderState(t: Strings): TemplateResult | typeof nothing {
    if (!this.query.trim()) return nothing;
    if (this.phase === 'error') return html`<p class="state error">${errorMessage(t, this.error!)}</p>`;
    if (this.phase === 'empty') return html`<p class="state">${this.noResultsText(this.searchedQuery)}</p>`;
    return nothing;
  }

  /** Rows shaped like results while the first results of a query are on their way (below "Ask AI"). */
  private renderSkeleton(t: Strings): TemplateResult | typeof nothing {
    if (this.phase !== 'loading' || this.hits.length > 0) return nothing;
    return html`<div class="skeleton" aria-hidden="true">${[0, 1, 2].map(() => html`<div class="skeleton-row"><span class="shimmer"></span><span class="shimmer"></span></div>`)}</div>
      <p class="visually-hidden">${t('searchLoading')}</p>`;
  }

  /** "No results", pointing to the Ask AI option below it when there is one. */
  private noResultsText(query: string): string {
    return this.strings(this.hasChat() ? 'searchAskAiNoResults' : 'searchNoResults', { query });
  }

  private renderSummary(t: Strings): TemplateResult | typeof nothing {
    if (this.summaryPhase === 'hidden') return nothing;
    return html`<section class="summary" part="summary" aria-label=${t('searchSummary')} aria-busy=${String(this.summaryPhase !== 'done')}>
      <p class="summary-title">${icons.sparkle}${t('searchSummary')}</p>
      ${this.summaryPhase === 'loading'
        ? html`<p class="visually-hidden">${t('searchSummaryLoading')}</p>`
        : html`<div class="markdown" @click=${this.onSummaryClick} @auxclick=${this.onSummaryClick}>
            ${streamingMarkdownView(this.summaryMarkdown)}
          </div>`}
      ${this.summaryPhase === 'done'
        ? nothing
        : html`<div class="shimmer-lines" aria-hidden="true">
            ${(this.summaryPhase === 'loading' ? [0, 1, 2] : [0]).map(() => html`<span class="shimmer"></span>`)}
          </div>`}
      ${this.summarySources.length > 0 && this.summaryPhase === 'done'
        ? html`<ol class="summary-sources" aria-label=${t('sources')} @click=${this.onSummaryClick} @auxclick=${this.onSummaryClick}>
            ${this.summarySources.map(
              // Numbered as the summary cites them: [1] is the first source.
              (source, index) => html`<li><a href=${webUrl(source.url)}><span class="cite">[${index + 1}]</span> ${sourceName(source)}</a></li>`,
            )}
          </ol>`
        : nothing}
      ${this.summaryPhase === 'done' ? this.summaryFeedback?.render(t, this.client) : nothing}
    </section>`;
  }

  private renderGroup(group: PageGroup): TemplateResult {
    return html`<div role="group" aria-labelledby=${group.id}>
      <div class="group-title" id=${group.id}>${group.title}</div>
      ${group.options.map((option) => {
        const active = option.id === this.activeId;
        return html`<a class="option" part=${active ? 'result active' : 'result'} role="option" id=${option.id} href=${webUrl(option.hit.url)}
          tabindex="-1" aria-selected=${String(active)}
          @click=${(event: MouseEvent) => this.onResultClick(event, option)}
          @auxclick=${(event: MouseEvent) => this.onResultClick(event, option)}
          @pointermove=${() => this.activate(option.id)}>
          <span class="section">${option.hit.section || option.hit.title}</span>
          <span class="snippet">${parseSnippet(option.hit.snippet).map((run) => (run.marked ? html`<mark>${run.text}</mark>` : run.text))}</span>
        </a>`;
      })}
    </div>`;
  }

  /** Recent searches, then suggested questions, each in its group; the remove buttons of the recent ones sit beside the listbox. */
  private renderStartOptions(t: Strings): TemplateResult[] {
    const groups: TemplateResult[] = [];
    for (const [kind, title] of [['recent', t('searchRecent')], ['suggestion', t('suggestions')]] as const) {
      const options = this.items.filter((item): item is QueryOption => item.kind === kind);
      if (options.length === 0) continue;
      groups.push(html`<div role="group" aria-labelledby="${this.idPrefix}-${kind}">
        <div class="group-title" id="${this.idPrefix}-${kind}">${title}</div>
        ${options.map(
          (item) => html`<div class="option ${kind}" role="option" id=${item.id} aria-selected=${String(item.id === this.activeId)}
            @click=${() => this.choose(item, false)} @pointermove=${() => this.activate(item.id)}>
            ${kind === 'recent' ? icons.clock : icons.sparkle}<span>${item.query}</span>
          </div>`,
        )}
      </div>`);
    }
    return groups;
  }

  /**
   * The remove buttons of the recent searches, in a column beside the listbox (a listbox may hold
   * only options), one per row; the Delete key on the active option does the same.
   */
  private renderRecentRemoval(t: Strings): TemplateResult | typeof nothing {
    // Recent searches come first in the listbox, so the column's rows line up with theirs; the suggestions below have none.
    const recent = this.items.filter((item): item is QueryOption => item.kind === 'recent');
    if (recent.length === 0) return nothing;
    return html`<div class="recent-removal">
      <div class="group-title" aria-hidden="true">&nbsp;</div>
      ${recent.map(
        (item) => html`<button type="button" class="icon-button remove" aria-label=${t('searchRemoveRecentNamed', { query: item.query })} title=${t('searchRemoveRecent')}
          @click=${() => this.forget(item.query)}>${icons.close}</button>`,
      )}
    </div>`;
  }

  private activate(id: string): void {
    const index = this.items.findIndex((item) => item.id === id);
    if (index === this.activeIndex) return;
    this.activeIndex = index;
    this.requestUpdate();
  }

  private renderFooter(t: Strings, inModal: boolean): TemplateResult | typeof nothing {
    const branding = this.config!.branding;
    if (!inModal && !branding) return nothing;
    return html`<div class="footer" part="footer">
      ${inModal
        ? html`<span class="hints"><kbd>↑</kbd><kbd>↓</kbd> ${t('searchHintNavigate')}</span>
            <span class="hints"><kbd>↵</kbd> ${t('searchHintOpen')}</span>
            <span class="hints"><kbd>${keyCombo(t, '↵')}</kbd> ${t('searchHintNewTab')}</span>
            <span class="hints"><kbd>Esc</kbd> ${t('searchHintClose')}</span>`
        : nothing}
      ${branding ? html`<span class="branding" part="branding">${t('poweredBy')}</span>` : nothing}
    </div>`;
  }
}

if (!customElements.get('assist-search')) customElements.define('assist-search', AssistSearch);

declare global {
  interface HTMLElementTagNameMap {
    'assist-search': AssistSearch;
  }
}
