import { warnOnce } from './warn.js';

/** What a widget implementation offers once its code is loaded (filled in by the widgets). */
export interface WidgetController {
  /** Loads the config and renders; may be async. */
  mount(): void | Promise<void>;
  open(): void;
  close(): void;
  /** Chat only. */
  toggle?(): void;
  destroy(): void;
}

/**
 * Mount options of `Assist.chat()` and `Assist.search()` (spec 4.4). The dashboard's settings
 * are the defaults; these override them, except `branding`, which the plan controls.
 */
export interface WidgetMountOptions {
  /** CSS selector of where the UI goes; required for inline chat. */
  target?: string;
  /** CSS selector of your own element(s) that open the widget instead of the default launcher or box. */
  trigger?: string;
  variant?: 'bubble' | 'inline' | 'modal';
  theme?: 'auto' | 'light' | 'dark';
  accent_light?: string;
  accent_dark?: string;
  placeholder?: string;
  /** Chat only. */
  greeting?: string;
  /** Chat only; image URL. */
  avatar?: string;
  /** Search only. */
  summary?: boolean;
  speech_input?: boolean;
  /** Search only; milliseconds. */
  debounce?: number;
  /**
   * Search only: the chat widget (`{organisation}/{widget}`) that "Ask AI" sends the query to.
   * Its `<assist-chat>` on the page is used, or one is made. Without it, an `<assist-chat>`
   * already on the page is asked, and without one no "Ask AI" is offered.
   */
  chat?: string;
  default_language?: string;
}

export type WidgetHandleState = 'created' | 'mounting' | 'ready' | 'failed' | 'destroyed';

/**
 * What `Assist.chat()` and `Assist.search()` return, usable at once: methods called before the
 * widget is mounted are queued and run in call order once it is.
 *
 * @example
 * const chat = Assist.chat('acme/help').mount();
 * document.querySelector('#help')?.addEventListener('click', () => chat.open());
 */
export interface WidgetHandle {
  /** Loads the config and renders. Safe to call again: later calls do nothing. */
  mount(): WidgetHandle;
  open(): WidgetHandle;
  close(): WidgetHandle;
  toggle(): WidgetHandle;
  /** Removes the widget; pending calls are dropped, later ones ignored. */
  destroy(): void;
  readonly state: WidgetHandleState;
  /** Settles when mounting does: resolves with the handle, or rejects with why it failed. */
  readonly ready: Promise<WidgetHandle>;
}

type QueuedCall = 'open' | 'close' | 'toggle';

/**
 * A {@link WidgetHandle} over a controller that `load` provides on `mount()`. `name` labels
 * console messages (e.g. `Assist.chat("acme/help")`).
 */
export function createWidgetHandle(name: string, load: () => Promise<WidgetController>): WidgetHandle {
  let state: WidgetHandleState = 'created';
  let controller: WidgetController | null = null;
  const queue: QueuedCall[] = [];
  let settle!: { resolve: (handle: WidgetHandle) => void; reject: (reason: unknown) => void };
  const ready = new Promise<WidgetHandle>((resolve, reject) => (settle = { resolve, reject }));
  // Nobody has to listen to `ready`; a failure is already printed to the console.
  ready.catch(() => undefined);

  // A function, not an inline comparison: `destroy()` may change the state across an await.
  const destroyed = () => state === 'destroyed';

  const run = (call: QueuedCall) => {
    const target = controller!;
    if (call === 'toggle' && !target.toggle) return warnOnce(`${name}: toggle() applies to the chat widget only.`);
    try {
      target[call]!();
    } catch (error) {
      console.error(`[assist] ${name}: ${call}() failed.`, error);
    }
  };

  const call = (method: QueuedCall) => {
    if (state === 'ready') run(method);
    else if (state === 'created' || state === 'mounting') queue.push(method);
    else if (state === 'failed') warnOnce(`${name}: ${method}() ignored because the widget failed to load.`);
    return handle;
  };

  const handle: WidgetHandle = {
    get state() {
      return state;
    },
    ready,
    mount() {
      if (state !== 'created') return handle;
      state = 'mounting';
      (async () => {
        const loaded = await load();
        if (destroyed()) return;
        controller = loaded;
        await loaded.mount();
        if (destroyed()) {
          loaded.destroy();
          return;
        }
        state = 'ready';
        for (const method of queue.splice(0)) run(method);
        settle.resolve(handle);
      })().catch((error: unknown) => {
        if (destroyed()) return;
        state = 'failed';
        queue.length = 0;
        console.error(`[assist] ${name}: the widget could not be mounted.`, error);
        settle.reject(error);
      });
      return handle;
    },
    open: () => call('open'),
    close: () => call('close'),
    toggle: () => call('toggle'),
    destroy() {
      if (state === 'destroyed') return;
      const wasReady = state === 'ready';
      state = 'destroyed';
      queue.length = 0;
      if (wasReady) {
        try {
          controller?.destroy();
        } catch (error) {
          console.error(`[assist] ${name}: destroy() failed.`, error);
        }
      }
      settle.reject(new Error(`${name} was destroyed.`));
    },
  };
  return handle;
}
