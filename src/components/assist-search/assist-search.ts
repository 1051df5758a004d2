import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { Hit, WidgetConfig } from '../../../wire/contract.js';
import { SearchSession, type PageGroup, type QueryOption, type ResultOption, type SearchOption, type SearchSessionState } from '../../client/search-session.js';
import type { AssistClient, ClientEvents } from '../../client/types.js';
import { toAssistError } from '../../core/errors.js';
import { previewNotice, previewNoticeStyles } from '../shared/preview-notice.js';
import { errorMessage } from '../shared/error-message.js';
import { AnswerFeedback, feedbackStyles } from '../shared/feedback.js';
import { isWebUrl, sourceName, webUrl } from '../shared/links.js';
import { trapTab } from '../shared/focus.js';
import { keyCombo, type Strings } from '../shared/i18n.js';
import { icons } from '../shared/icons.js';
import { streamingMarkdownView } from '../shared/markdown-view.js';
import { StreamingMarkdown } from '../shared/markdown.js';
import type { AttributeOptionNames } from '../shared/mount.js';
import { speechInputSupported } from '../shared/speech.js';
import { markdownStyles, themeStyles } from '../shared/theme.js';
import { WidgetElement, type WidgetEventMap } from '../shared/widget-element.js';
import { searchStyles } from './assist-search.styles.js';
import { adoptScopedStyles } from './light-dom.js';
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
export interface AssistSearchEventMap extends WidgetEventMap {
  'assist-search': CustomEvent<AssistSearchDetail>;
  'assist-select': CustomEvent<AssistSelectDetail>;
}

export type { SearchPhase } from '../../client/search-session.js';

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
export class AssistSearch extends WidgetElement<AssistSearchEventMap> {
  static override styles = [themeStyles, markdownStyles, feedbackStyles, searchStyles, previewNoticeStyles];

  static override properties = {
    box: { type: Boolean, reflect: true },
  };

  /** `modal` or `inline`; default from the dashboard. */
  declare variant: string;
  /** Whether the modal is open. */
  declare open: boolean;
  /** Modal only: show a search box that opens the modal (default true; `Assist.search` shows it when given a `target`). */
  declare box: boolean;

  /**
   * Inline only: an input of the page to search from, instead of one the widget renders. Set it
   * before the element connects; results then render in the page's DOM, beside the input.
   */
  input: HTMLInputElement | null = null;
  /** The search, once the config is loaded. */
  session: SearchSession | null = null;

  protected readonly widgetType = 'search';
  protected readonly optionAttributes = OPTION_ATTRIBUTES;
  private readonly idPrefix = `assist-search-${++instances}`;
  /** The session's state this render shows. */
  private shown: SearchSessionState | null = null;
  private announcement = '';
  /** Said once when a summary has arrived, apart from the number of results. */
  private summaryAnnouncement = '';
  private readonly summaryMarkdown = new StreamingMarkdown();
  private summaryFeedback: AnswerFeedback | null = null;
  private chatElement: Promise<AssistChat> | null = null;
  /** Ctrl/Cmd+K was pressed before the config had loaded. */
  private showWhenReady = false;

  constructor() {
    super();
    this.box = true;
    this.clientState.prepareTokens = () => this.summaryMarkdown.set(this.session?.state.summary.text ?? '').prepare();
  }

  /** Opens the modal (focuses the field of an inline search). */
  show(): void {
    if (!this.config) return;
    if (this.config.variant === 'inline') return void this.fieldInput?.focus();
    if (this.open) return;
    this.focusReturn.remember(this.renderRoot.querySelector<HTMLElement>('.box'));
    this.lockScroll();
    this.session?.open();
    this.open = true;
    this.emit('assist-open', {});
  }

  /** Closes the modal and gives focus back to what opened it. */
  hide(): void {
    if (!this.open) return;
    this.open = false;
    // Closed now, not on the next render: focus cannot return to a page that a modal dialog makes inert.
    this.renderRoot.querySelector('dialog')?.close();
    this.unlockScroll();
    this.speech.abort();
    this.focusReturn.restore(this.renderRoot.querySelector<HTMLElement>('.box') ?? (this.triggers[0] as HTMLElement | undefined));
    this.emit('assist-close', {});
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('keydown', this.onShortcut);
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
    const input = this.input;
    if (input) {
      input.removeEventListener('input', this.onInput);
      input.removeEventListener('keydown', this.onKeydown);
      input.removeEventListener('focus', this.onFocus);
      input.removeEventListener('blur', this.onBlur);
      for (const name of ['role', 'aria-autocomplete', 'autocomplete', 'aria-expanded', 'aria-controls', 'aria-activedescendant']) input.removeAttribute(name);
    }
    this.session?.cancel();
  }

  /** An input of the page renders results into the page's DOM (see `input`); otherwise a shadow root. */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    return this.input ? this : super.createRenderRoot();
  }

  protected override willUpdate(): void {
    this.shown = this.session?.state ?? null;
    if (this.showWhenReady && this.config) {
      this.showWhenReady = false;
      if (this.config.variant === 'modal') this.show();
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const dialog = this.renderRoot.querySelector('dialog');
    if (changed.has('open') && dialog) {
      if (this.open && !dialog.open) {
        dialog.showModal();
        this.fieldInput?.focus();
      } else if (!this.open && dialog.open) dialog.close();
    }
    const input = this.input;
    // The page's input: a recent search chosen, or voice input, changes what it holds.
    if (input && input.value !== this.query) input.value = this.query;
    this.syncInputAria();
    this.renderRoot.querySelector(`[id="${this.activeId}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }

  protected get typedText(): string {
    return this.query;
  }

  protected heard(text: string, final: boolean): void {
    this.session?.setQuery(text);
    if (final) this.session?.searchNow();
  }

  protected override clientEvent<Name extends keyof ClientEvents>(name: Name, payload: ClientEvents[Name]): void {
    // A failed config load is reported by load() itself.
    const failure = name === 'error' ? (payload as ClientEvents['error']) : null;
    if (failure && failure.operation !== 'config') this.emit('assist-error', { error: failure.error });
  }

  protected configure(client: AssistClient, config: WidgetConfig): void {
    const session = (this.session = new SearchSession(client, {
      debounce: config.debounce,
      summary: config.summary,
      suggestions: config.suggestions,
      idPrefix: this.idPrefix,
      canAsk: () => this.hasChat(),
      onChoose: (option, newTab) => {
        if (option.kind === 'ask') void this.askAi(option.query);
        else if (option.kind === 'result' && this.select(option.hit.url, option.rank, 'result', newTab)) this.navigate(option.hit.url, newTab);
      },
    }));
    session.subscribe(() => this.requestUpdate());
    session.on('search', () => (this.summaryAnnouncement = ''));
    session.on('results', ({ query, hits, queryId }) => {
      this.announcement = hits.length > 0 ? this.strings.plural('searchResults', hits.length) : this.noResultsText(query);
      this.emit('assist-search', { query, hits, queryId });
    });
    session.on('failure', ({ error }) => (this.announcement = errorMessage(this.strings, error)));
    session.on('summary', () => (this.summaryAnnouncement = this.strings('searchSummaryReady')));
    session.on('reset', () => (this.announcement = this.summaryAnnouncement = ''));
  }

  protected readonly onTriggerClick = (event: Event): void => {
    event.preventDefault();
    this.show();
  };

  private get query(): string {
    return this.shown?.query ?? '';
  }

  private get items(): readonly SearchOption[] {
    return this.shown?.options ?? [];
  }

  private get activeId(): string {
    return this.shown?.activeOption?.id ?? '';
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
    this.session?.addRecent(query);
    if (this.config?.variant === 'modal') this.hide();
    else this.session?.close();
    try {
      const chat = await this.findChat();
      await chat.sendMessage(query);
    } catch (error) {
      this.chatElement = null;
      this.emit('assist-error', { error: toAssistError(error) });
    }
  }

  private get fieldInput(): HTMLInputElement | null {
    return this.input ?? this.renderRoot.querySelector('input');
  }

  private get listboxId(): string {
    return `${this.idPrefix}-listbox`;
  }

  /** The results popup is showing: always in the open modal, while the visitor is in the field inline. */
  private get showingResults(): boolean {
    return this.config?.variant === 'modal' ? this.open : Boolean(this.shown?.isOpen);
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

  /**
   * Ctrl/Cmd+K opens the modal, unless the visitor is typing elsewhere or another widget on the
   * page already took this key press (it then calls `preventDefault()`, as this one does).
   */
  private readonly onShortcut = (event: KeyboardEvent): void => {
    if (event.key.toLowerCase() !== 'k' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    if (event.defaultPrevented || isTyping(event)) return;
    // Pressed while the config loads (the box already shows the shortcut): the modal opens once it has loaded.
    if (!this.config) {
      if (this.loadFailure || this.variant === 'inline') return;
      event.preventDefault();
      this.showWhenReady = true;
      return;
    }
    if (this.config.variant !== 'modal') return;
    event.preventDefault();
    this.show();
  };

  private readonly onInput = (event: Event): void => {
    this.session?.onInput((event.target as HTMLInputElement).value);
  };

  private readonly onFocus = (): void => {
    // The modal refreshes its recent searches when it opens.
    if (this.config?.variant !== 'modal') this.session?.open();
  };

  private readonly onBlur = (event: FocusEvent): void => {
    // Focus moving within the widget (the mic button, say) keeps the results open.
    const next = event.relatedTarget;
    if (next instanceof Node && (this.contains(next) || this.renderRoot.contains(next))) return;
    this.session?.close();
  };

  private readonly onKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && this.config?.variant === 'modal') {
      event.preventDefault();
      this.hide();
    } else if (this.session?.onKeyDown(event)) {
      event.preventDefault();
      // Delete forgot a recent search: its remove button may have had the pointer, the field keeps focus.
      if (event.key === 'Delete') this.fieldInput?.focus();
    }
  };

  private readonly onDialogKeydown = (event: KeyboardEvent): void => {
    const panel = this.renderRoot.querySelector('.panel');
    if (panel && this.shadowRoot) trapTab(event, panel, this.shadowRoot);
  };

  private forget(query: string): void {
    this.session?.forget(query);
    this.fieldInput?.focus();
  }

  /** Tracks the click and asks the page whether to navigate; true when the widget should. */
  private select(url: string, rank: number | undefined, source: 'result' | 'summary', newTab: boolean): boolean {
    const { queryId = null, searchedQuery = '' } = this.session?.state ?? {};
    this.client?.trackEvent('click', { url, ...(rank !== undefined && { rank }), source }, { queryId });
    this.session?.addRecent(searchedQuery);
    return this.emit('assist-select', { url, ...(rank !== undefined && { rank }), source, newTab, queryId }, true);
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
    const index = (this.session?.state.summary.sources ?? []).findIndex((source) => source.url === link.href || source.url === link.getAttribute('href'));
    const newTab = event.ctrlKey || event.metaKey || event.shiftKey || event.button === 1 || link.target === '_blank';
    if (!this.select(link.href, index >= 0 ? index + 1 : undefined, 'summary', newTab)) event.preventDefault();
    else if (!newTab) this.hide();
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
        <div class="popup" ?hidden=${!this.shown?.isOpen || empty}>${this.renderBody(t)}${this.renderFooter(t, false)}</div>`;
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
    this.session?.clear();
    this.fieldInput?.focus();
  };

  private renderBody(t: Strings): TemplateResult {
    const query = this.query.trim();
    // mousedown would move focus out of the input before the click on a result lands.
    return html`<div class="body" part="body" @mousedown=${(event: Event) => event.preventDefault()}>
      ${query ? this.renderSummary(t) : nothing}${this.renderState(t)}
      <div class="listbox" part="results" role="listbox" id=${this.listboxId} aria-label=${t('searchLabel')}
        ?hidden=${this.items.length === 0}>
        ${query ? html`${this.items[0]?.kind === 'ask' ? this.renderAsk(this.items[0]) : nothing}${this.shown!.groups.map((group) => this.renderGroup(group))}` : this.renderStartOptions(t)}
      </div>${query ? this.renderSkeleton(t) : this.renderRecentRemoval(t)}
    </div>`;
  }

  private renderAsk(option: QueryOption): TemplateResult {
    const active = option.id === this.activeId;
    return html`<div class="option ask" part=${active ? 'ask active' : 'ask'} role="option" id=${option.id} aria-selected=${String(active)}
      @click=${() => this.session?.choose(option, false)} @pointermove=${() => this.session?.activate(option.id)}>
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
    const { phase, error, searchedQuery } = this.shown!;
    if (phase === 'error') return html`<p class="state error">${errorMessage(t, error!)}</p>`;
    if (phase === 'empty') return html`<p class="state">${this.noResultsText(searchedQuery)}</p>`;
    return nothing;
  }

  /** Rows shaped like results while the first results of a query are on their way (below "Ask AI"). */
  private renderSkeleton(t: Strings): TemplateResult | typeof nothing {
    if (this.shown!.phase !== 'loading' || this.shown!.hits.length > 0) return nothing;
    return html`<div class="skeleton" aria-hidden="true">${[0, 1, 2].map(() => html`<div class="skeleton-row"><span class="shimmer"></span><span class="shimmer"></span></div>`)}</div>
      <p class="visually-hidden">${t('searchLoading')}</p>`;
  }

  /** "No results", pointing to the Ask AI option below it when there is one. */
  private noResultsText(query: string): string {
    return this.strings(this.hasChat() ? 'searchAskAiNoResults' : 'searchNoResults', { query });
  }

  private renderSummary(t: Strings): TemplateResult | typeof nothing {
    const { phase, text, sources, answerId } = this.shown!.summary;
    if (phase === 'hidden') return nothing;
    if (answerId && this.summaryFeedback?.answerId !== answerId) this.summaryFeedback = new AnswerFeedback(answerId, () => this.requestUpdate());
    return html`<section class="summary" part="summary" aria-label=${t('searchSummary')} aria-busy=${String(phase !== 'done')}>
      <p class="summary-title">${icons.sparkle}${t('searchSummary')}</p>
      ${phase === 'loading'
        ? html`<p class="visually-hidden">${t('searchSummaryLoading')}</p>`
        : html`<div class="markdown" @click=${this.onSummaryClick} @auxclick=${this.onSummaryClick}>
            ${streamingMarkdownView(this.summaryMarkdown.set(text))}
          </div>`}
      ${phase === 'done'
        ? nothing
        : html`<div class="shimmer-lines" aria-hidden="true">
            ${(phase === 'loading' ? [0, 1, 2] : [0]).map(() => html`<span class="shimmer"></span>`)}
          </div>`}
      ${sources.length > 0 && phase === 'done'
        ? html`<ol class="summary-sources" aria-label=${t('sources')} @click=${this.onSummaryClick} @auxclick=${this.onSummaryClick}>
            ${sources.map(
              // Numbered as the summary cites them: [1] is the first source.
              (source, index) => html`<li><a href=${webUrl(source.url)}><span class="cite">[${index + 1}]</span> ${sourceName(source)}</a></li>`,
            )}
          </ol>`
        : nothing}
      ${phase === 'done' && answerId ? this.summaryFeedback?.render(t, this.client) : nothing}
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
          @pointermove=${() => this.session?.activate(option.id)}>
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
            @click=${() => this.session?.choose(item, false)} @pointermove=${() => this.session?.activate(item.id)}>
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
