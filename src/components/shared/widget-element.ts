/**
 * What `<assist-chat>` and `<assist-search>` share around their sessions: loading the config
 * (once) with the options laid over it, the `assist-*` DOM events, the page's trigger
 * elements, voice input, locking the page's scroll, and tearing all of it down.
 */
import { LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import { VARIANTS, type WidgetConfig } from '../../../wire/contract.js';
import { createClient } from '../../client/client.js';
import type { AssistClient, ClientEvents, ClientOptions } from '../../client/types.js';
import { AssistError, toAssistError } from '../../core/errors.js';
import { explainFailure, warnOnce } from '../../core/warn.js';
import type { WidgetMountOptions } from '../../core/widget-handle.js';
import { ClientController } from './client-controller.js';
import { FocusReturn, lockPageScroll, markTriggers } from './focus.js';
import { loadStrings, stringsFor, type Strings } from './i18n.js';
import { applyLanguage } from './language.js';
import { attributeOptions, findElements, mergeConfig, type AttributeOptionNames } from './mount.js';
import { SpeechInput } from './speech.js';
import { applyTheme } from './theme.js';

type WidgetType = keyof typeof VARIANTS;

/** What to use instead, when a widget key names the other type of widget. */
const OTHER_WIDGET: Record<WidgetType, string> = {
  chatbot: 'Assist.search() or <assist-search>',
  search: 'Assist.chat() or <assist-chat>',
};

/** `detail` of `assist-error`: why a load, an answer, a search or a history action failed. */
export interface AssistErrorDetail {
  error: AssistError;
}

/** The DOM events every widget dispatches; all bubble and cross shadow roots. */
export interface WidgetEventMap {
  'assist-ready': CustomEvent<{ config: WidgetConfig }>;
  'assist-open': CustomEvent<Record<string, never>>;
  'assist-close': CustomEvent<Record<string, never>>;
  'assist-error': CustomEvent<AssistErrorDetail>;
}

type DetailOf<Event> = Event extends CustomEvent<infer Detail> ? Detail : never;

export abstract class WidgetElement<EventMap extends WidgetEventMap> extends LitElement {
  static override properties: PropertyDeclarations = {
    widget: {},
    baseUrl: { attribute: 'base-url' },
    variant: { reflect: true },
    open: { type: Boolean, reflect: true },
    config: { state: true },
  };

  /** The widget key, `{organisation}/{widget}`. */
  declare widget: string;
  /** The API origin; default: the page's. */
  declare baseUrl: string;
  /** The variant in use; default from the dashboard. */
  declare variant: string;
  /** Whether the panel or modal is open. */
  declare open: boolean;
  /** The config in use (dashboard settings with the options laid over them), once loaded. */
  declare config: WidgetConfig | null;

  /** The client to talk through; made from `widget` and `base-url` when not given. */
  client: AssistClient | null = null;
  /** Mount options laid over the dashboard's settings (attributes are read too). */
  options: WidgetMountOptions = {};
  /** Your own elements that open the panel or modal. */
  triggers: Element[] = [];

  protected strings: Strings = stringsFor('en');
  /** Why the config could not be loaded; shown in preview mode only. */
  protected loadFailure: AssistError | null = null;
  protected readonly clientState = new ClientController(this, (name, payload) => this.clientEvent(name, payload));
  protected readonly focusReturn = new FocusReturn();
  protected readonly speech = new SpeechInput({
    onText: (text, final) => this.heard(this.speechBase + text, final),
    onEnd: () => this.requestUpdate(),
  });
  private speechBase = '';
  private loading: Promise<WidgetConfig> | null = null;
  private releaseScroll: (() => void) | null = null;

  /** The type of widget this element shows. */
  protected abstract readonly widgetType: WidgetType;
  /** The mount options read from attributes. */
  protected abstract readonly optionAttributes: AttributeOptionNames;
  /** What the visitor has typed, which voice input continues. */
  protected abstract get typedText(): string;
  /** Voice input heard `text` (what was typed before included); `final` once the browser settled on it. */
  protected abstract heard(text: string, final: boolean): void;
  /** A click on one of the page's triggers. */
  protected abstract readonly onTriggerClick: (event: Event) => void;
  /** Sets up what the element shows for a loaded config, before it renders with it. */
  protected abstract configure(client: AssistClient, config: WidgetConfig): Promise<void> | void;

  constructor() {
    super();
    this.open = false;
    this.config = null;
  }

  /**
   * Loads the config (once; later calls return the same promise) and lays the options over it.
   * Rejects when the config cannot be loaded or the widget is of the other type.
   */
  load(): Promise<WidgetConfig> {
    return (this.loading ??= this.loadConfig());
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
    for (const trigger of this.triggers) trigger.removeEventListener('click', this.onTriggerClick);
    markTriggers(this.triggers, null);
    this.unlockScroll();
    this.speech.abort();
  }

  protected override updated(changed: PropertyValues<this>): void {
    // In markup the widget loads itself, once its attributes (and properties such as `user`)
    // are set: after this update, which loading would otherwise interrupt with another.
    if (!this.loading && (this.widget || this.client)) queueMicrotask(() => this.loadFromMarkup());
    if (changed.has('open')) markTriggers(this.triggers, this.open);
  }

  /** Options of the client the element makes for itself when none was given. */
  protected clientOptions(): ClientOptions {
    return { baseUrl: this.baseUrl || undefined };
  }

  /** The `trigger` selector given in markup. */
  protected get triggerSelector(): string | null {
    return this.getAttribute('trigger');
  }

  /** Every client event, e.g. to dispatch the `assist-error` of a failed search. */
  protected clientEvent<Name extends keyof ClientEvents>(_name: Name, _payload: ClientEvents[Name]): void {}

  /** Dispatches an `assist-*` event; false when a listener cancelled it (`cancelable` only). */
  protected emit<Name extends keyof EventMap & string>(name: Name, detail: DetailOf<EventMap[Name]>, cancelable = false): boolean {
    return this.dispatch(name, detail, cancelable);
  }

  /** `emit` for the events every widget has, whatever its own map says of them. */
  private dispatch(name: string, detail: unknown, cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }

  /** Keeps the page behind a full-screen panel from scrolling, until `unlockScroll`. */
  protected lockScroll(): void {
    this.releaseScroll ??= lockPageScroll();
  }

  protected unlockScroll(): void {
    this.releaseScroll?.();
    this.releaseScroll = null;
  }

  /** Starts voice input, continuing what was typed, or stops it; true when listening started. */
  protected toggleSpeech(): boolean {
    if (this.speech.listening) {
      this.speech.stop();
      return false;
    }
    const typed = this.typedText;
    this.speechBase = typed ? `${typed} ` : '';
    const started = this.speech.start(this.strings.locale);
    this.requestUpdate();
    return started;
  }

  private loadFromMarkup(): void {
    if (this.loading) return;
    this.load().catch((error: unknown) => console.error(`[assist] <${this.localName} widget="${this.widget ?? ''}">: the widget could not be loaded.`, error));
  }

  private bindTriggers(): void {
    for (const trigger of this.triggers) trigger.addEventListener('click', this.onTriggerClick);
    markTriggers(this.triggers, this.open);
  }

  private async loadConfig(): Promise<WidgetConfig> {
    try {
      const client = (this.client ??= createClient(this.widget, this.clientOptions()));
      this.clientState.use(client);
      const loaded = await client.fetchConfig();
      if (loaded.type !== this.widgetType) {
        throw new AssistError('wrong_widget_type', `"${client.widgetKey}" is a ${loaded.type} widget; use ${OTHER_WIDGET[this.widgetType]} for it.`);
      }
      const label = `<${this.localName} widget="${client.widgetKey}">`;
      const config = mergeConfig(loaded, { ...attributeOptions(this, this.optionAttributes), ...this.options }, VARIANTS[this.widgetType], (message) =>
        warnOnce(`${label}: ${message}`),
      );
      this.strings = await loadStrings(client.resolveLocale(config));
      applyLanguage(this, this.strings.locale);
      applyTheme(this, config);
      this.variant = config.variant;
      const selector = this.triggerSelector;
      if (selector && this.triggers.length === 0) this.triggers = findElements(label, 'trigger', selector, this.baseUrl) ?? [];
      await this.configure(client, config);
      this.config = config;
      if (this.isConnected) this.bindTriggers();
      this.dispatch('assist-ready', { config });
      return config;
    } catch (error) {
      this.loadFailure = toAssistError(error);
      if (this.client) explainFailure(this.loadFailure, this.client.widgetKey, this.baseUrl);
      this.requestUpdate();
      this.dispatch('assist-error', { error: this.loadFailure });
      throw error;
    }
  }
}
