import { LitElement, html, nothing, render, type PropertyValues, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { VARIANTS, type ConversationMessage, type ConversationSummary, type Source, type WidgetConfig } from '../../../wire/contract.js';
import { createClient } from '../../client/client.js';
import type { AssistClient } from '../../client/types.js';
import { AssistError } from '../../core/errors.js';
import type { LocalMessage } from '../../core/history.js';
import type { VisitorInput } from '../../core/identity.js';
import { isBusy } from '../../core/status.js';
import { explainFailure, warnOnce } from '../../core/warn.js';
import type { WidgetMountOptions } from '../../core/widget-handle.js';
import { previewNotice, previewNoticeStyles } from '../shared/preview-notice.js';
import { ClientController } from '../shared/client-controller.js';
import { errorMessage, toAssistError } from '../shared/error-message.js';
import { AnswerFeedback, feedbackStyles } from '../shared/feedback.js';
import { sourceName, webUrl } from '../shared/links.js';
import { FocusReturn, lockPageScroll, markTriggers, trapTab } from '../shared/focus.js';
import { loadStrings, stringsFor, type Strings } from '../shared/i18n.js';
import { applyLanguage, messageLanguage } from '../shared/language.js';
import { icons } from '../shared/icons.js';
import { streamingMarkdownView } from '../shared/markdown-view.js';
import { StreamingMarkdown, renderMarkdown, trustedHtml } from '../shared/markdown.js';
import { attributeOptions, findElements, mergeConfig, type AttributeOptionNames } from '../shared/mount.js';
import { SpeechInput, speechInputSupported } from '../shared/speech.js';
import { applyTheme, markdownStyles, themeStyles } from '../shared/theme.js';
import { chatStyles } from './assist-chat.styles.js';

/** `detail` of `assist-message`: a question sent, or an answer completed. */
export interface AssistMessageDetail {
  role: 'user' | 'assistant';
  text: string;
  /** The conversation, once the server named it (always set on answers). */
  conversationId: string | null;
  /** Answers only: the cited pages. */
  sources?: Source[];
}

/** `detail` of `assist-error`: why a load, an answer or a history action failed. */
export interface AssistErrorDetail {
  error: AssistError;
}

/** The DOM events of `<assist-chat>`; all bubble and cross shadow roots. */
export interface AssistChatEventMap {
  'assist-ready': CustomEvent<{ config: WidgetConfig }>;
  'assist-open': CustomEvent<Record<string, never>>;
  'assist-close': CustomEvent<Record<string, never>>;
  'assist-message': CustomEvent<AssistMessageDetail>;
  'assist-error': CustomEvent<AssistErrorDetail>;
}

/** One message as the panel shows it. */
interface Entry {
  role: 'user' | 'assistant';
  /** The question, or (for an answer) the question it answers, to retry it. */
  question: string;
  /** Answers: the markdown, growing while it streams. */
  answer?: StreamingMarkdown;
  sources?: Source[];
  state: 'streaming' | 'done' | 'stopped' | 'failed';
  error?: AssistError;
  /** Answers the server named (`answerId`): the visitor's rating of it. */
  feedback?: AnswerFeedback;
}

/** The mount options `<assist-chat>` reads from its attributes. */
const OPTION_ATTRIBUTES: AttributeOptionNames = {
  text: ['variant', 'theme', 'accent-light', 'accent-dark', 'placeholder', 'greeting', 'avatar', 'default-language'],
  flags: ['speech-input'],
};

/** Below this width the bubble panel takes the whole screen (see the styles' media query). */
const SMALL_SCREEN = '(max-width: 639.98px)';

/**
 * The chat assistant: a floating launcher that opens a chat panel (`bubble`), or the panel
 * inside a container of the page (`inline`). Answers stream in as markdown with their sources;
 * signed visitors get their past conversations.
 *
 * Use `Assist.chat(key, options).mount()` from the script tag, or the element on its own:
 *
 * @example
 * <assist-chat widget="acme/help" base-url="https://assist.example.com"></assist-chat>
 * <script type="module">
 *   import 'assist-widgets/elements';
 *   const chat = document.querySelector('assist-chat');
 *   chat.user = { id: 'user-42', hash: signedOnYourServer }; // optional: history
 *   chat.addEventListener('assist-message', (event) => console.log(event.detail.text));
 * </script>
 *
 * @event assist-ready - The config is loaded and the widget is shown. `detail: { config }`
 * @event assist-open - The bubble panel opened.
 * @event assist-close - The bubble panel closed.
 * @event assist-message - The visitor sent a question, or an answer completed. `detail: AssistMessageDetail`
 * @event assist-error - Loading, an answer or a history action failed. `detail: { error: AssistError }`
 *
 * @slot launcher - Content of the floating launcher button (default: a chat icon).
 *
 * @csspart launcher - The floating button that opens the panel.
 * @csspart panel - The chat panel (a dialog in the bubble variant).
 * @csspart header - The panel's header with avatar, name and buttons.
 * @csspart avatar - The assistant's picture.
 * @csspart title - The widget name.
 * @csspart messages - The scrolling list of messages.
 * @csspart message - Every message; also `user` or `assistant`.
 * @csspart sources - The list of sources under an answer.
 * @csspart feedback - The "Helpful / Not helpful" buttons under a finished answer.
 * @csspart suggestions - The example questions of an empty conversation.
 * @csspart source-link - One source link.
 * @csspart status - The status of the answer being written.
 * @csspart form - The message form.
 * @csspart input - The message field.
 * @csspart send-button - The send button (a stop button while an answer streams).
 * @csspart mic-button - The voice input button.
 * @csspart copy-code-button - The copy button of a code block.
 * @csspart history - The list of past conversations.
 * @csspart branding - "Powered by Assist".
 *
 * @cssproperty --assist-accent-light - Accent in light mode (launcher, your messages, links). Default from `accent_light`.
 * @cssproperty --assist-accent-dark - Accent in dark mode. Default from `accent_dark`.
 * @cssproperty --assist-on-accent - Text on the accent.
 * @cssproperty --assist-bg-light - Panel background (also `-dark`).
 * @cssproperty --assist-surface-light - Answer bubbles and code (also `-dark`).
 * @cssproperty --assist-text-light - Text (also `-dark`).
 * @cssproperty --assist-muted-light - Secondary text (also `-dark`).
 * @cssproperty --assist-border-light - Borders (also `-dark`).
 * @cssproperty --assist-danger-light - Errors (also `-dark`).
 * @cssproperty --assist-radius - Panel and bubble radius.
 * @cssproperty --assist-radius-small - Buttons and code blocks.
 * @cssproperty --assist-font - Font family.
 * @cssproperty --assist-font-size - Base font size.
 * @cssproperty --assist-mono-font - Code font.
 * @cssproperty --assist-shadow - Shadow of the launcher and panel.
 * @cssproperty --assist-z-index - Stacking of the launcher and panel.
 * @cssproperty --assist-panel-width - Width of the bubble panel.
 * @cssproperty --assist-panel-height - Height of the bubble panel.
 */
export class AssistChat extends LitElement {
  static override styles = [themeStyles, markdownStyles, feedbackStyles, chatStyles, previewNoticeStyles];

  static override properties = {
    widget: {},
    baseUrl: { attribute: 'base-url' },
    trigger: {},
    variant: { reflect: true },
    open: { type: Boolean, reflect: true },
    config: { state: true },
    view: { state: true },
    draft: { state: true },
  };

  /** The widget key, `{organisation}/{widget}`. */
  declare widget: string;
  /** The API origin; default: the page's. */
  declare baseUrl: string;
  /** CSS selector of your own elements that open the bubble panel instead of the launcher. */
  declare trigger: string;
  /** `bubble` or `inline`; default from the dashboard. */
  declare variant: string;
  /** Whether the bubble panel is open. */
  declare open: boolean;
  /** The config in use (dashboard settings with the options laid over them), once loaded. */
  declare config: WidgetConfig | null;
  declare private view: 'chat' | 'history';
  declare private draft: string;

  /** The client to talk through; made from `widget`, `base-url` and `user` when not given. */
  client: AssistClient | null = null;
  /** The visitor, when the element makes its own client (set before it connects). */
  user: VisitorInput | null = null;
  /** Mount options laid over the dashboard's settings (attributes are read too). */
  options: WidgetMountOptions = {};
  /** Your own elements that open the panel (`trigger` names them in markup). */
  triggers: Element[] = [];

  private readonly clientState = new ClientController(this);
  private strings: Strings = stringsFor('en');
  private entries: Entry[] = [];
  private conversationId: string | null = null;
  private conversations: ConversationSummary[] | null = null;
  private historyError: AssistError | null = null;
  private notice = '';
  /** The greeting is markdown like an answer, rendered once. */
  private greetingHtml = '';
  private copied: Entry | null = null;
  /** Follow new text to the bottom until the visitor scrolls up. */
  private stickToBottom = true;
  private loading: Promise<WidgetConfig> | null = null;
  /** Why the config could not be loaded; shown in preview mode only. */
  private loadFailure: AssistError | null = null;
  private readonly focusReturn = new FocusReturn();
  private releaseScroll: (() => void) | null = null;
  /** The open panel covers the screen (small screens): a modal dialog then, else one beside the page, which stays usable. */
  private modal = false;
  private speechBase = '';
  private readonly speech = new SpeechInput({
    onText: (text) => (this.draft = this.speechBase + text),
    onEnd: () => this.requestUpdate(),
  });

  constructor() {
    super();
    this.open = false;
    this.config = null;
    this.view = 'chat';
    this.draft = '';
    this.clientState.prepareTokens = () => this.entries.at(-1)?.answer?.prepare();
  }

  /**
   * Loads the config (once; later calls return the same promise) and lays the options over it.
   * Rejects when the config cannot be loaded or the widget is not a chat widget.
   */
  load(): Promise<WidgetConfig> {
    return (this.loading ??= this.loadConfig());
  }

  /**
   * Opens the panel and sends `text` as the visitor's question, as if typed (the search
   * widget's "Ask AI" calls it). Waits for the config while the widget is still loading.
   *
   * @example
   * document.querySelector('assist-chat').sendMessage('How do I reset my password?');
   */
  async sendMessage(text: string): Promise<void> {
    await this.load();
    this.show();
    this.draft = text;
    this.send();
  }

  /** Opens the bubble panel (focuses the message field of an inline one). */
  show(): void {
    this.openPanel(this.launcher ?? (this.triggers[0] as HTMLElement | undefined));
  }

  /** `returnTo`: where focus goes back on close when nothing else had it (Safari does not focus clicked buttons). */
  private openPanel(returnTo?: HTMLElement | null): void {
    if (!this.config) return;
    if (this.config.variant === 'inline') return void this.focusInput();
    if (this.open) return;
    this.focusReturn.remember(returnTo);
    this.modal = matchMedia(SMALL_SCREEN).matches;
    if (this.modal) this.releaseScroll = lockPageScroll();
    this.open = true;
    this.focusInput();
    this.emit('assist-open', {});
  }

  /** Closes the bubble panel and gives focus back to what opened it. */
  hide(): void {
    if (!this.open) return;
    this.open = false;
    this.unlockScroll();
    this.speech.abort();
    this.focusReturn.restore(this.launcher ?? (this.triggers[0] as HTMLElement | undefined));
    this.emit('assist-close', {});
  }

  toggle(): void {
    if (this.open) this.hide();
    else this.show();
  }

  /** Removes the element and stops its client (answers in progress are cancelled). */
  destroy(): void {
    this.remove();
    this.client?.dispose();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.config) this.bindTriggers();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unbindTriggers();
    this.unlockScroll();
    this.speech.abort();
  }

  protected override updated(changed: PropertyValues<this>): void {
    // In markup the widget loads itself, once its attributes and the `user` property are set
    // (after this update, which loading would otherwise interrupt with another).
    if (!this.loading && (this.widget || this.client)) queueMicrotask(() => this.loadFromMarkup());
    if (changed.has('open')) markTriggers(this.triggers, this.open);
    const log = this.log;
    if (log && this.stickToBottom) log.scrollTop = log.scrollHeight;
    this.addCodeCopyButtons();
  }

  private loadFromMarkup(): void {
    if (this.loading) return;
    this.load().catch((error: unknown) => console.error(`[assist] <assist-chat widget="${this.widget ?? ''}">: the widget could not be loaded.`, error));
  }

  private get launcher(): HTMLElement | null {
    return this.renderRoot.querySelector('.launcher');
  }

  private get log(): HTMLElement | null {
    return this.renderRoot.querySelector('.log');
  }

  private async loadConfig(): Promise<WidgetConfig> {
    try {
      const client = (this.client ??= createClient(this.widget, { baseUrl: this.baseUrl || undefined, user: this.user }));
      this.clientState.use(client);
      const loaded = await client.fetchConfig();
      if (loaded.type !== 'chatbot') {
        throw new AssistError('wrong_widget_type', `"${client.widgetKey}" is a ${loaded.type} widget; use Assist.search() or <assist-search> for it.`);
      }
      const config = mergeConfig(loaded, { ...attributeOptions(this, OPTION_ATTRIBUTES), ...this.options }, VARIANTS.chatbot, (message) =>
        warnOnce(`<assist-chat widget="${client.widgetKey}">: ${message}`),
      );
      this.strings = await loadStrings(client.resolveLocale(config));
      applyLanguage(this, this.strings.locale);
      applyTheme(this, config);
      this.variant = config.variant;
      if (this.trigger && this.triggers.length === 0) this.triggers = findElements(`<assist-chat widget="${client.widgetKey}">`, 'trigger', this.trigger, this.baseUrl) ?? [];
      this.greetingHtml = renderMarkdown(config.greeting);
      const saved = client.history.load();
      this.restore(saved?.messages ?? [], saved?.conversationId ?? null);
      client.on('identity', ({ user, previous }) => {
        // Another visitor must never see this one's conversation.
        if (user?.id !== previous?.id) this.startOver();
        if (!user?.hash) this.view = 'chat';
        this.requestUpdate();
      });
      this.config = config;
      if (this.isConnected) this.bindTriggers();
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

  private readonly onTriggerClick = (event: Event): void => {
    event.preventDefault();
    if (this.open) this.hide();
    else this.openPanel(event.currentTarget as HTMLElement);
  };

  private bindTriggers(): void {
    for (const trigger of this.triggers) trigger.addEventListener('click', this.onTriggerClick);
    markTriggers(this.triggers, this.open);
  }

  private unbindTriggers(): void {
    for (const trigger of this.triggers) trigger.removeEventListener('click', this.onTriggerClick);
    markTriggers(this.triggers, null);
  }

  private unlockScroll(): void {
    this.releaseScroll?.();
    this.releaseScroll = null;
  }

  private emit<Name extends keyof AssistChatEventMap>(name: Name, detail: AssistChatEventMap[Name]['detail']): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  private async focusInput(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector('textarea')?.focus();
  }

  private restore(messages: (LocalMessage | ConversationMessage)[], conversationId: string | null): void {
    this.conversationId = conversationId;
    let question = '';
    this.entries = messages.map((message): Entry => {
      if (message.role === 'user') {
        question = message.text;
        return { role: 'user', question, state: 'done' };
      }
      const complete = (message as ConversationMessage).complete !== false;
      return {
        role: 'assistant',
        question,
        answer: new StreamingMarkdown().append(message.text),
        sources: message.sources,
        state: complete ? 'done' : 'stopped',
        ...(message.answerId && { feedback: this.feedbackFor(message.answerId) }),
      };
    });
    this.stickToBottom = true;
    this.requestUpdate();
  }

  private feedbackFor(answerId: string): AnswerFeedback {
    return new AnswerFeedback(answerId, () => this.requestUpdate());
  }

  /** A new conversation: the visible one is dropped here and in this browser (the server keeps it). */
  private startOver(): void {
    this.client?.stop();
    this.client?.history.clear();
    this.restore([], null);
    this.notice = '';
    this.view = 'chat';
  }

  private send(): void {
    const question = this.draft.trim();
    if (!question || isBusy(this.clientState.status)) return;
    this.speech.stop();
    this.draft = '';
    this.entries.push({ role: 'user', question, state: 'done' });
    this.emit('assist-message', { role: 'user', text: question, conversationId: this.conversationId });
    void this.ask(question);
  }

  private async ask(question: string): Promise<void> {
    const client = this.client!;
    const entry: Entry = { role: 'assistant', question, answer: new StreamingMarkdown(), state: 'streaming' };
    this.entries.push(entry);
    this.notice = '';
    this.stickToBottom = true;
    this.requestUpdate();
    try {
      const reply = await client.chat(question, {
        ...(this.conversationId && { conversationId: this.conversationId }),
        onToken: (delta) => entry.answer!.append(delta),
        onSources: (sources) => (entry.sources = sources),
      });
      if (!this.entries.includes(entry)) return;
      entry.answer!.set(reply.text);
      entry.sources = reply.sources;
      entry.feedback = this.feedbackFor(reply.answerId);
      entry.state = 'done';
      this.conversationId = reply.conversationId;
      this.emit('assist-message', { role: 'assistant', text: reply.text, conversationId: reply.conversationId, sources: reply.sources });
      this.notice = `${this.strings('chatAnswerReady')} ${plainText(entry.answer!.html)}`;
    } catch (caught) {
      if (!this.entries.includes(entry)) return;
      const error = toAssistError(caught);
      if (error.code === 'aborted') {
        entry.state = 'stopped';
        this.notice = this.strings('chatStopped');
      } else {
        entry.state = 'failed';
        entry.error = error;
        this.notice = this.failureText(error);
        this.emit('assist-error', { error });
      }
    }
    this.requestUpdate();
  }

  private retry(entry: Entry): void {
    this.entries = this.entries.filter((other) => other !== entry);
    void this.ask(entry.question);
    // The Try again button goes with the failed answer: focus moves to the one that can stop the new one.
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('.send')?.focus());
  }

  private failureText(error: AssistError): string {
    if (error.code !== 'credits_exhausted') return errorMessage(this.strings, error);
    return this.strings(error.hits?.length ? 'chatOutOfCredits' : 'chatOutOfCreditsNoResults');
  }

  private async copy(text: string): Promise<boolean> {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      return false;
    }
    this.notice = this.strings('chatCopied');
    this.requestUpdate();
    return true;
  }

  private async copyAnswer(entry: Entry): Promise<void> {
    if (!(await this.copy(entry.answer!.text))) return;
    this.copied = entry;
    this.requestUpdate();
    setTimeout(() => {
      if (this.copied !== entry) return;
      this.copied = null;
      this.requestUpdate();
    }, 2000);
  }

  /** Code blocks come from sanitised HTML, so their copy buttons are added to the DOM after rendering. */
  private addCodeCopyButtons(): void {
    for (const pre of this.renderRoot.querySelectorAll<HTMLElement>('.assistant pre:not([data-copy])')) {
      pre.dataset.copy = '';
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'tool copy-code';
      button.setAttribute('part', 'copy-code-button');
      button.setAttribute('aria-label', this.strings('chatCopyCode'));
      render(icons.copy, button);
      pre.append(button);
    }
  }

  private async onLogClick(event: Event): Promise<void> {
    const button = (event.target as Element).closest<HTMLElement>('.copy-code');
    const code = button?.parentElement;
    if (!button || !code) return;
    if (!(await this.copy(code.querySelector('code')?.textContent ?? ''))) return;
    button.setAttribute('aria-label', this.strings('chatCopied'));
    render(icons.check, button);
    setTimeout(() => {
      button.setAttribute('aria-label', this.strings('chatCopyCode'));
      render(icons.copy, button);
    }, 2000);
  }

  private onScroll(): void {
    const log = this.log!;
    this.stickToBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  }

  private onKeydown(event: KeyboardEvent): void {
    if (this.config?.variant !== 'bubble') return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      this.hide();
      return;
    }
    if (this.modal) trapTab(event, event.currentTarget as HTMLElement, this.renderRoot as ShadowRoot);
  }

  private onInputKeydown(event: KeyboardEvent): void {
    // While an input method composes (Japanese, Chinese…), Enter confirms the characters.
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    this.send();
  }

  private toggleSpeech(): void {
    if (this.speech.listening) return this.speech.stop();
    this.speechBase = this.draft ? `${this.draft} ` : '';
    if (this.speech.start(this.strings.locale)) this.notice = this.strings('speechListening');
    this.requestUpdate();
  }

  private async showHistory(): Promise<void> {
    this.view = 'history';
    this.conversations = null;
    this.historyError = null;
    await this.run(async (client) => (this.conversations = await client.listConversations()));
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('.history-back')?.focus();
  }

  private async openConversation(id: string): Promise<void> {
    await this.run(async (client) => {
      const conversation = await client.getConversation(id);
      client.stop();
      client.history.save({ conversationId: id, messages: conversation.messages });
      this.restore(conversation.messages, id);
      this.view = 'chat';
      this.focusInput();
    });
  }

  private async keep(summary: ConversationSummary): Promise<void> {
    await this.run(async (client) => {
      const updated = await client.keepConversation(summary.id, !summary.kept);
      this.conversations = this.conversations?.map((item) => (item.id === updated.id ? updated : item)) ?? null;
    });
  }

  private async deleteConversations(id: string | null): Promise<void> {
    if (id === null && !confirm(this.strings('chatConfirmDeleteAll'))) return;
    await this.run(async (client) => {
      if (id === null) await client.deleteConversations();
      else await client.deleteConversation(id);
      this.conversations = id === null ? [] : (this.conversations?.filter((item) => item.id !== id) ?? null);
      if (id === null || id === this.conversationId) this.restore([], null);
    });
  }

  /** Runs a history action; a failure (a wrong identity hash, say) is shown in the history view. */
  private async run(action: (client: AssistClient) => Promise<unknown>): Promise<void> {
    try {
      this.historyError = null;
      await action(this.client!);
    } catch (error) {
      this.historyError = toAssistError(error);
      this.view = 'history';
      this.emit('assist-error', { error: this.historyError });
    }
    this.requestUpdate();
  }

  protected override render(): TemplateResult | typeof nothing {
    const config = this.config;
    if (!config) return previewNotice(this.client, this.loadFailure);
    const t = this.strings;
    const bubble = config.variant === 'bubble';
    const name = config.name || t('chatDefaultName');
    const signed = Boolean(this.client?.user?.hash);
    const history = this.view === 'history' && signed;
    const panel = html`<section
      id="panel"
      part="panel"
      class="panel ${bubble ? 'bubble' : ''}"
      lang=${t.locale}
      role=${bubble ? 'dialog' : 'region'}
      aria-modal=${bubble && this.modal ? 'true' : nothing}
      aria-labelledby="title"
      ?hidden=${bubble && !this.open}
      @keydown=${this.onKeydown}
    >
      <header part="header" role="none">
        ${config.avatar
          ? html`<img part="avatar" class="avatar" src=${config.avatar} alt="" />`
          : html`<span part="avatar" class="avatar">${icons.chat}</span>`}
        <h2 id="title" part="title">${name}</h2>
        ${history
          ? html`<button type="button" class="tool history-back" aria-label=${t('chatBack')} @click=${() => ((this.view = 'chat'), this.focusInput())}>${icons.back}</button>`
          : html`${signed ? html`<button type="button" class="tool" aria-label=${t('chatHistory')} @click=${this.showHistory}>${icons.history}</button>` : nothing}
              <button type="button" class="tool" aria-label=${t('chatNew')} @click=${() => (this.startOver(), this.focusInput())}>${icons.plus}</button>`}
        ${bubble ? html`<button type="button" class="tool" aria-label=${t('chatClose')} @click=${this.hide}>${icons.close}</button>` : nothing}
      </header>
      ${history ? this.renderHistory() : this.renderChat()}
      <div class="visually-hidden" role="status" aria-live="polite">${this.liveText()}</div>
      ${config.branding ? html`<p part="branding" class="branding">${t('poweredBy')}</p>` : nothing}
    </section>`;
    if (!bubble) return panel;
    return html`${this.triggers.length
        ? nothing
        : html`<button
            type="button"
            part="launcher"
            class="launcher"
            aria-label=${this.open ? t('chatClose') : t('chatOpen')}
            aria-haspopup="dialog"
            aria-expanded=${String(this.open)}
            aria-controls="panel"
            @click=${this.toggle}
          >
            <slot name="launcher">${this.open ? icons.close : icons.chat}</slot>
          </button>`}${panel}`;
  }

  /** Stage of the answer being written, else the latest notice (answer ready, stopped, copied…). */
  private liveText(): string {
    const busy = isBusy(this.clientState.status);
    if (busy) return this.stageText();
    return this.notice;
  }

  private stageText(): string {
    return this.strings(this.clientState.stage === 'generating' ? 'chatGenerating' : 'chatSearching');
  }

  private renderChat(): TemplateResult {
    const t = this.strings;
    const config = this.config!;
    const busy = isBusy(this.clientState.status);
    const speech = config.speech_input && speechInputSupported();
    const name = config.name || t('chatDefaultName');
    // Send turns into Stop and back as one button, so focus on it survives sending and stopping.
    return html`<div part="messages" class="log" role="log" aria-live="off" aria-label=${t('chatLog')} tabindex="0" @scroll=${this.onScroll} @click=${this.onLogClick}>
        <div class="thread" role="list">
        ${config.greeting ? html`<div part="message assistant" class="message assistant" role="listitem"><span class="visually-hidden speaker">${name}:</span><div class="markdown">${unsafeHTML(this.greetingHtml)}</div></div>` : nothing}
        ${this.entries.map((entry) =>
          entry.role === 'user'
            ? html`<div part="message user" class="message user" role="listitem"><span class="visually-hidden speaker">${t('chatYou')}:</span><span lang=${ifDefined(messageLanguage(entry.question, t.locale))}>${entry.question}</span></div>`
            : this.renderAnswer(entry),
        )}
        </div>
        ${this.entries.length === 0 && config.suggestions.length > 0
          ? // Outside the list of messages, which may hold only messages; shown under the greeting until the first question.
            html`<div part="suggestions" class="suggestions" role="group" aria-label=${t('suggestions')}>
              ${config.suggestions.map((question) => html`<button type="button" class="suggestion" @click=${() => ((this.draft = question), this.send())}>${question}</button>`)}
            </div>`
          : nothing}
      </div>
      <form part="form" @submit=${(event: Event) => (event.preventDefault(), this.send())}>
        <textarea
          part="input"
          rows="1"
          aria-label=${t('chatInputLabel')}
          placeholder=${config.placeholder || t('chatPlaceholder')}
          .value=${this.draft}
          @input=${(event: Event) => (this.draft = (event.target as HTMLTextAreaElement).value)}
          @keydown=${this.onInputKeydown}
        ></textarea>
        ${speech
          ? html`<button
              type="button"
              part="mic-button"
              class="tool"
              aria-pressed=${String(this.speech.listening)}
              aria-label=${this.speech.listening ? t('speechStop') : t('speechStart')}
              @click=${this.toggleSpeech}
            >
              ${icons.mic}
            </button>`
          : nothing}
        <button type=${busy ? 'button' : 'submit'} part="send-button" class="tool send" aria-label=${busy ? t('chatStop') : t('chatSend')}
          @click=${() => isBusy(this.clientState.status) && this.client?.stop()}>${busy ? icons.stop : icons.send}</button>
      </form>`;
  }

  private renderAnswer(entry: Entry): TemplateResult {
    const t = this.strings;
    const answer = entry.answer!;
    const error = entry.error;
    const hits = error?.code === 'credits_exhausted' ? (error.hits ?? []) : [];
    return html`<div part="message assistant" class="message assistant" role="listitem">
      <span class="visually-hidden speaker">${this.config!.name || t('chatDefaultName')}:</span>
      ${entry.state === 'streaming' && !answer.text ? html`<span part="status" class="typing">${this.stageText()}</span>` : nothing}
      <div class="markdown" lang=${ifDefined(entry.state === 'streaming' ? undefined : messageLanguage(answer.text, t.locale))}>${streamingMarkdownView(answer)}</div>
      ${entry.state === 'stopped' ? html`<p class="note">${t('chatStopped')}</p>` : nothing}
      ${error ? html`<p class="error">${this.failureText(error)}</p>` : nothing}
      ${hits.length
        ? html`<ul class="hits">
            ${hits.map((hit, index) => html`<li><a href=${webUrl(hit.url)} target="_blank" rel="noopener noreferrer" @click=${() => this.track(hit.url, index, 'result')}>${sourceName(hit)}</a></li>`)}
          </ul>`
        : nothing}
      ${entry.sources?.length && entry.state !== 'failed'
        ? html`<ol part="sources" class="sources" aria-label=${t('sources')}>
            ${entry.sources.map(
              // Numbered as the answer cites them: [1] is the first source.
              (source, index) => html`<li><a part="source-link" href=${webUrl(source.url)} target="_blank" rel="noopener noreferrer" @click=${() => this.track(source.url, index, 'chat')}><span class="cite">[${index + 1}]</span> ${sourceName(source)}</a></li>`,
            )}
          </ol>`
        : nothing}
      ${entry.state === 'failed' && error?.code !== 'credits_exhausted'
        ? html`<div class="actions"><button type="button" class="tool" @click=${() => this.retry(entry)}>${icons.retry}${t('retry')}</button></div>`
        : nothing}
      ${entry.state === 'done'
        ? html`<div class="actions">
            <button type="button" class="tool" @click=${() => this.copyAnswer(entry)}>
              ${this.copied === entry ? icons.check : icons.copy}${this.copied === entry ? t('chatCopied') : t('chatCopy')}
            </button>
          </div>
          ${entry.feedback?.render(t, this.client)}`
        : nothing}
    </div>`;
  }

  private track(url: string, index: number, source: 'chat' | 'result'): void {
    // Chat never searches, so no search (queryId) is tied to the click.
    this.client?.trackEvent('click', { url, rank: index + 1, source }, { queryId: null });
  }

  private renderHistory(): TemplateResult {
    const t = this.strings;
    const conversations = this.conversations;
    const date = new Intl.DateTimeFormat(t.locale, { dateStyle: 'medium' });
    return html`<div part="history" class="history">
      <h3>${t('chatHistoryTitle')}</h3>
      ${this.historyError ? html`<p class="error" role="alert">${errorMessage(t, this.historyError)}</p>` : nothing}
      ${conversations?.length === 0 ? html`<p class="note">${t('chatHistoryEmpty')}</p>` : nothing}
      ${conversations?.length
        ? html`<ul>
              ${conversations.map(
                (conversation, index) => html`<li>
                  <button type="button" class="open" id="c${index}" @click=${() => this.openConversation(conversation.id)}>
                    <span class="title">${conversation.title}</span>
                    <span class="meta">${date.format(new Date(conversation.updatedAt))} · ${conversation.kept ? t('chatKept') : t('chatExpires')}</span>
                  </button>
                  <button type="button" class="tool" aria-describedby="c${index}" @click=${() => this.keep(conversation)}>
                    ${conversation.kept ? t('chatRelease') : t('chatKeep')}
                  </button>
                  <button type="button" class="tool" aria-label=${t('chatDelete')} aria-describedby="c${index}" @click=${() => this.deleteConversations(conversation.id)}>
                    ${icons.trash}
                  </button>
                </li>`,
              )}
            </ul>
            <button type="button" class="tool delete-all" @click=${() => this.deleteConversations(null)}>${t('chatDeleteAll')}</button>`
        : nothing}
    </div>`;
  }
}

/** The text of rendered (sanitised) HTML, for announcing an answer. */
function plainText(html: string): string {
  const template = document.createElement('template');
  try {
    template.innerHTML = trustedHtml(html);
  } catch {
    // A page enforcing Trusted Types that does not allow our policy: the tags' text is enough to announce.
    return html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  }
  return template.content.textContent?.trim() ?? '';
}

if (!customElements.get('assist-chat')) customElements.define('assist-chat', AssistChat);

declare global {
  interface HTMLElementTagNameMap {
    'assist-chat': AssistChat;
  }
}
