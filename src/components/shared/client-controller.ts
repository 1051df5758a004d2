/**
 * Bridges the headless client to a Lit element: subscribes while the element is connected,
 * unsubscribes when it is not, and asks for a render whenever something the UI shows changed.
 * The element never keeps its own copy of the client's logic, only what it displays.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { StreamStatus, WidgetConfig } from '../../../wire/contract.js';
import type { AssistClient, ClientEvents } from '../../client/types.js';
import type { ClientStatus } from '../../core/status.js';

/** How long tokens gather before they are rendered together. */
const TOKEN_RENDER_INTERVAL_MS = 50;

export class ClientController implements ReactiveController {
  /** The answer status of the latest chat or summarize call. */
  status: ClientStatus = 'idle';
  /** The server's stage within the answer (`searching`, `generating`), or null. */
  stage: StreamStatus | null = null;
  config: WidgetConfig | null = null;
  /**
   * Turns the tokens that arrived into HTML (the markdown of the answer being written), run in a
   * task before the one that updates the DOM, so that neither holds the main thread long.
   */
  prepareTokens: (() => void) | null = null;
  private client: AssistClient | null = null;
  private subscriptions: (() => void)[] = [];
  private connected = false;
  /** Set while a render of the tokens arrived since the last one is scheduled; cancels it. */
  private cancelScheduled: (() => void) | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    /** Also told about every client event, e.g. to dispatch `assist-*` DOM events. */
    private readonly onEvent?: <Name extends keyof ClientEvents>(name: Name, payload: ClientEvents[Name]) => void,
  ) {
    host.addController(this);
  }

  get current(): AssistClient | null {
    return this.client;
  }

  /** Switches to another client (or none), moving the subscriptions with it. */
  use(client: AssistClient | null): void {
    this.unsubscribe();
    this.client = client;
    this.status = client?.status ?? 'idle';
    this.stage = null;
    if (this.connected) this.subscribe();
    this.host.requestUpdate();
  }

  hostConnected(): void {
    this.connected = true;
    this.subscribe();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.unsubscribe();
    this.cancelScheduled?.();
    this.cancelScheduled = null;
  }

  /**
   * Tokens arrive faster than anyone reads (each in its own task, so Lit cannot batch them):
   * rendering what arrived twenty times a second looks as smooth as once per token, at a
   * fraction of the cost. The markdown is rendered in one task and the DOM updated in the next,
   * each short. Everything else (status, the complete reply, errors) renders at once.
   */
  private renderSoon(): void {
    if (this.cancelScheduled) return;
    const timer = setTimeout(() => {
      this.prepareTokens?.();
      const update = setTimeout(() => {
        this.cancelScheduled = null;
        this.host.requestUpdate();
      });
      this.cancelScheduled = () => clearTimeout(update);
    }, TOKEN_RENDER_INTERVAL_MS);
    this.cancelScheduled = () => clearTimeout(timer);
  }

  private subscribe(): void {
    const client = this.client;
    if (!client || this.subscriptions.length > 0) return;
    const listen = <Name extends keyof ClientEvents>(name: Name, apply?: (payload: ClientEvents[Name]) => void) => {
      this.subscriptions.push(
        client.on(name, (payload) => {
          apply?.(payload);
          this.onEvent?.(name, payload);
          if (name === 'token') this.renderSoon();
          else this.host.requestUpdate();
        }),
      );
    };
    listen('status', ({ status, stage }) => {
      this.status = status;
      this.stage = stage;
    });
    listen('config', ({ config }) => {
      this.config = config;
    });
    listen('token');
    listen('reply');
    listen('error');
    listen('identity');
  }

  private unsubscribe(): void {
    for (const unsubscribe of this.subscriptions.splice(0)) unsubscribe();
  }
}
