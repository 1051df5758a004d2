import { html, nothing, render, type PropertyValues, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { Source, WidgetConfig } from '../../../wire/contract.js';
import { ChatSession, type ChatMessage, type ChatSessionState } from '../../client/chat-session.js';
import type { AssistClient, ClientOptions } from '../../client/types.js';
import type { AssistError } from '../../core/errors.js';
import type { VisitorInput } from '../../core/identity.js';
import { isBusy } from '../../core/status.js';
import { previewNotice, previewNoticeStyles } from '../shared/preview-notice.js';
import { errorMessage } from '../shared/error-message.js';
import { AnswerFeedback, feedbackStyles } from '../shared/feedback.js';
import { sourceName, webUrl } from '../shared/links.js';
import { trapTab } from '../shared/focus.js';
import { messageLanguage } from '../shared/language.js';
import { icons } from '../shared/icons.js';
import { streamingMarkdownView } from '../shared/markdown-view.js';
import { StreamingMarkdown, renderMarkdown } from '../shared/markdown.js';
import type { AttributeOptionNames } from '../shared/mount.js';
import { speechInputSupported } from '../shared/speech.js';
import { markdownStyles, themeStyles } from '../shared/theme.js';
import { WidgetElement, type WidgetEventMap } from '../shared/widget-element.js';
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

export type { AssistErrorDetail } from '../shared/widget-element.js';

/** The DOM events of `<assist-chat>`; all bubble and cross shadow roots. */
export interface AssistChatEventMap extends WidgetEventMap {
  'assist-message': CustomEvent<AssistMessageDetail>;
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
export class AssistChat extends WidgetElement<AssistChatEventMap> {
  static override styles = [themeStyles, markdownStyles, feedbackStyles, chatStyles, previewNoticeStyles];

  static override properties = {
    trigger: {},
    view: { state: true },
    draft: { state: true },
  };

  /** CSS selector of your own elements that open the bubble panel instead of the launcher. */
  declare trigger: string;
  /** `bubble` or `inline`; default from the dashboard. */
  declare variant: string;
  /** Whether the bubble panel is open. */
  declare open: boolean;
  declare private view: 'chat' | 'history';
  declare private draft: string;

  /** The client to talk through; made from `widget`, `base-url` and `user` when not given. */
  declare client: AssistClient | null;
  /** The visitor, when the element makes its own client (set before it connects). */
  user: VisitorInput | null = null;
  /** The conversation, once the config is loaded. */
  session: ChatSession | null = null;

  protected readonly widgetType = 'chatbot';
  protected readonly optionAttributes = OPTION_ATTRIBUTES;
  private notice = '';
  /** The greeting is markdown like an answer, rendered once. */
  private greetingHtml = '';
  /** Each answer's rendering, kept while it streams so only the new text is rendered. */
  private readonly markdown = new WeakMap<ChatMessage, StreamingMarkdown>();
  private readonly feedback = new WeakMap<ChatMessage, AnswerFeedback>();
  /** Follow new text to the bottom until the visitor scrolls up. */
  private stickToBottom = true;
  /** The open panel covers the screen (small screens): a modal dialog then, else one beside the page, which stays usable. */
  private modal = false;

  constructor() {
    super();
    this.view = 'chat';
    this.draft = '';
    this.clientState.prepareTokens = () => {
      const last = this.messages.at(-1);
      if (last?.role === 'assistant') this.markdownOf(last).prepare();
    };
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
    if (this.modal) this.lockScroll();
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

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const log = this.log;
    if (log && this.stickToBottom) log.scrollTop = log.scrollHeight;
    this.addCodeCopyButtons();
  }

  protected override clientOptions(): ClientOptions {
    return { ...super.clientOptions(), user: this.user };
  }

  protected override get triggerSelector(): string | null {
    return this.trigger || null;
  }

  protected get typedText(): string {
    return this.draft;
  }

  protected heard(text: string): void {
    this.draft = text;
  }

  protected override toggleSpeech(): boolean {
    const started = super.toggleSpeech();
    if (started) this.notice = this.strings('speechListening');
    return started;
  }

  protected configure(client: AssistClient, config: WidgetConfig): void {
    this.greetingHtml = renderMarkdown(config.greeting);
    const session = (this.session = new ChatSession(client));
    session.subscribe(() => this.requestUpdate());
    session.on('restore', () => (this.stickToBottom = true));
    session.on('message', ({ message, conversationId }) => {
      if (message.role === 'user') return this.emit('assist-message', { role: 'user', text: message.text, conversationId });
      this.emit('assist-message', { role: 'assistant', text: message.text, conversationId, sources: message.sources });
      this.notice = `${this.strings('chatAnswerReady')} ${plainText(this.markdownOf(message).html)}`;
    });
    session.on('interrupted', ({ message }) => (this.notice = message.error ? this.failureText(message.error) : this.strings('chatStopped')));
    session.on('error', ({ error }) => this.emit('assist-error', { error }));
    client.on('identity', ({ user, previous }) => {
      // The session started over for another visitor; history is only for a signed one.
      const another = user?.id !== previous?.id;
      if (another) this.notice = '';
      if (another || !user?.hash) this.view = 'chat';
      this.requestUpdate();
    });
  }

  protected readonly onTriggerClick = (event: Event): void => {
    event.preventDefault();
    if (this.open) this.hide();
    else this.openPanel(event.currentTarget as HTMLElement);
  };

  private get messages(): readonly ChatMessage[] {
    return this.session?.state.messages ?? [];
  }

  private get launcher(): HTMLElement | null {
    return this.renderRoot.querySelector('.launcher');
  }

  private get log(): HTMLElement | null {
    return this.renderRoot.querySelector('.log');
  }

  private async focusInput(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector('textarea')?.focus();
  }

  /** The rendering of an answer, brought up to its text (cheap while it only grew). */
  private markdownOf(message: ChatMessage): StreamingMarkdown {
    let markdown = this.markdown.get(message);
    if (!markdown) this.markdown.set(message, (markdown = new StreamingMarkdown()));
    return markdown.set(message.text);
  }

  private feedbackOf(message: ChatMessage): AnswerFeedback | undefined {
    const answerId = message.answerId;
    if (!answerId) return undefined;
    let feedback = this.feedback.get(message);
    if (!feedback) this.feedback.set(message, (feedback = new AnswerFeedback(answerId, () => this.requestUpdate())));
    return feedback;
  }

  /** A new conversation, from the start: the session's, and the panel's notices and view. */
  private startOver(): void {
    this.session?.startOver();
    this.notice = '';
    this.view = 'chat';
    this.focusInput();
  }

  private send(): void {
    if (!this.session?.send(this.draft)) return;
    this.speech.stop();
    this.draft = '';
    this.notice = '';
    this.stickToBottom = true;
  }

  private retry(message: ChatMessage): void {
    this.notice = '';
    this.stickToBottom = true;
    this.session?.retry(message);
    // The Try again button goes with the failed answer: focus moves to the one that can stop the new one.
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('.send')?.focus());
  }

  private failureText(error: AssistError): string {
    if (error.code !== 'credits_exhausted') return errorMessage(this.strings, error);
    return this.strings(error.hits?.length ? 'chatOutOfCredits' : 'chatOutOfCreditsNoResults');
  }

  private async copyAnswer(message: ChatMessage): Promise<void> {
    if (await this.session?.copy(message)) this.notice = this.strings('chatCopied');
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
    if (!button || !code || !(await this.session?.copyText(code.querySelector('code')?.textContent ?? ''))) return;
    this.notice = this.strings('chatCopied');
    this.requestUpdate();
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

  private async showHistory(): Promise<void> {
    this.view = 'history';
    await this.session?.loadConversations();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('.history-back')?.focus();
  }

  private async openConversation(id: string): Promise<void> {
    if (!(await this.session?.openConversation(id))) return;
    this.view = 'chat';
    this.focusInput();
  }

  private deleteConversations(id: string | null): void {
    if (id === null && !confirm(this.strings('chatConfirmDeleteAll'))) return;
    void this.session?.deleteConversations(id);
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
              <button type="button" class="tool" aria-label=${t('chatNew')} @click=${this.startOver}>${icons.plus}</button>`}
        ${bubble ? html`<button type="button" class="tool" aria-label=${t('chatClose')} @click=${this.hide}>${icons.close}</button>` : nothing}
      </header>
      ${history ? this.renderHistory(this.session!.state) : this.renderChat()}
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
        ${this.messages.map((message) =>
          message.role === 'user'
            ? html`<div part="message user" class="message user" role="listitem"><span class="visually-hidden speaker">${t('chatYou')}:</span><span lang=${ifDefined(messageLanguage(message.text, t.locale))}>${message.text}</span></div>`
            : this.renderAnswer(message),
        )}
        </div>
        ${this.messages.length === 0 && config.suggestions.length > 0
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
          @click=${() => isBusy(this.clientState.status) && this.session?.stop()}>${busy ? icons.stop : icons.send}</button>
      </form>`;
  }

  private renderAnswer(entry: ChatMessage): TemplateResult {
    const t = this.strings;
    const answer = this.markdownOf(entry);
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
              ${this.session?.state.copied === entry ? icons.check : icons.copy}${this.session?.state.copied === entry ? t('chatCopied') : t('chatCopy')}
            </button>
          </div>
          ${this.feedbackOf(entry)?.render(t, this.client)}`
        : nothing}
    </div>`;
  }

  private track(url: string, index: number, source: 'chat' | 'result'): void {
    // Chat never searches, so no search (queryId) is tied to the click.
    this.client?.trackEvent('click', { url, rank: index + 1, source }, { queryId: null });
  }

  private renderHistory({ conversations, historyError }: ChatSessionState): TemplateResult {
    const t = this.strings;
    const date = new Intl.DateTimeFormat(t.locale, { dateStyle: 'medium' });
    return html`<div part="history" class="history">
      <h3>${t('chatHistoryTitle')}</h3>
      ${historyError ? html`<p class="error" role="alert">${errorMessage(t, historyError)}</p>` : nothing}
      ${conversations?.length === 0 ? html`<p class="note">${t('chatHistoryEmpty')}</p>` : nothing}
      ${conversations?.length
        ? html`<ul>
              ${conversations.map(
                (conversation, index) => html`<li>
                  <button type="button" class="open" id="c${index}" @click=${() => this.openConversation(conversation.id)}>
                    <span class="title">${conversation.title}</span>
                    <span class="meta">${date.format(new Date(conversation.updatedAt))} · ${conversation.kept ? t('chatKept') : t('chatExpires')}</span>
                  </button>
                  <button type="button" class="tool" aria-describedby="c${index}" @click=${() => this.session?.keepConversation(conversation)}>
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

/**
 * The text of rendered (sanitised) markdown, for announcing an answer: its tags dropped and its
 * character references decoded. Sanitised markdown has no comments, scripts or attributes
 * holding `>`, so this is its text, got without parsing a long answer's HTML a second time.
 */
function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:#(\d+)|#x([\da-f]+)|([a-z]+));/gi, (reference, decimal?: string, hex?: string, name?: string) => {
      if (decimal || hex) return String.fromCodePoint(Number.parseInt(decimal ?? hex!, decimal ? 10 : 16));
      return NAMED_REFERENCES[name!.toLowerCase()] ?? reference;
    })
    .trim();
}

const NAMED_REFERENCES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

if (!customElements.get('assist-chat')) customElements.define('assist-chat', AssistChat);

declare global {
  interface HTMLElementTagNameMap {
    'assist-chat': AssistChat;
  }
}
