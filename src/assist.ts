/**
 * The script-tag entry, `/widget/v1/assist.js`: defines the global `Assist` (spec 4.4).
 *
 * @example
 * <script src="https://assist.example.com/widget/v1/assist.js"></script>
 * <script>
 *   const client = Assist.headless('acme/help');
 *   client.search('reset password').then(({ hits }) => console.log(hits));
 * </script>
 */
import { parseWidgetKey } from '../wire/contract.js';
import { createClient } from './client/client.js';
import type { AssistClient, ClientOptions } from './client/types.js';
import { renderMarkdown } from './components/shared/markdown.js';
import { AssistError, isAssistError } from './core/errors.js';
import { apiOriginFromScript } from './core/script-origin.js';
import { warnOnce } from './core/warn.js';
import { createWidgetHandle, type WidgetController, type WidgetHandle, type WidgetMountOptions } from './core/widget-handle.js';

// Read now: document.currentScript is only set while this script first runs.
const apiOrigin = apiOriginFromScript(document.currentScript, location.origin, document.querySelectorAll('script[src]'));

export type WidgetKind = 'chat' | 'search';
export type WidgetOptions = ClientOptions & WidgetMountOptions;

/**
 * Where the widgets' own files live: /widget/v1/ on the origin this script came from. The
 * build replaces each `import()` below with that file, so the widget's code (and Lit) is
 * downloaded only by pages that mount it, when they mount it.
 */
const widgetBase = `${apiOrigin}/widget/v1/`;

/** `reserved`: search only, the space held in the page for its box (see reserveSearchBox). */
type CreateWidget = (widgetKey: string, options: WidgetOptions & { reserved?: Element }) => Promise<WidgetController>;
const widgetLoaders: Record<WidgetKind, () => Promise<CreateWidget>> = {
  chat: () => import('./components/assist-chat/index.js').then((module) => module.createChatWidget),
  search: () => import('./components/assist-search/index.js').then((module) => module.createSearchWidget),
};

function widget(kind: WidgetKind, widgetKey: string, options: WidgetOptions = {}): WidgetHandle {
  if (!parseWidgetKey(widgetKey)) {
    throw new AssistError('invalid_key', `Assist.${kind}(): the widget key must be "{organisation}/{widget}", like "acme/help" (got ${JSON.stringify(widgetKey)}).`);
  }
  return createWidgetHandle(`Assist.${kind}(${JSON.stringify(widgetKey)})`, async () => {
    const reserved = kind === 'search' ? reserveSearchBox(options.target) : null;
    try {
      const create = await widgetLoaders[kind]().catch((error: unknown) => {
        throw new AssistError('network', `The ${kind} widget could not be loaded from ${widgetBase}.`, { cause: error });
      });
      return await create(widgetKey, { ...options, baseUrl: options.baseUrl ?? apiOrigin, ...(reserved && { reserved }) });
    } catch (error) {
      reserved?.remove();
      throw error;
    }
  });
}

/**
 * Holds the place of the search box in `target` from the moment `mount()` runs, so the page
 * does not move when the widget's code and config arrive: as tall as the box (see the search
 * styles), and replaced by it in one task.
 */
function reserveSearchBox(target: string | undefined): HTMLElement | null {
  let holder: Element | null = null;
  try {
    holder = target ? document.querySelector(target) : null;
  } catch {
    // An invalid selector is reported when the widget mounts.
  }
  if (!holder) return null;
  const reserved = document.createElement('span');
  reserved.setAttribute('aria-hidden', 'true');
  // Set through the CSSOM, which a strict Content-Security-Policy allows.
  Object.assign(reserved.style, { display: 'block', fontSize: 'var(--assist-font-size, 15px)', height: '2em', minWidth: '12em' });
  holder.append(reserved);
  return reserved;
}

/** The global `Assist` object. */
export interface AssistGlobal {
  /** The SDK's major version, as in its URL (`/widget/v1/`). */
  readonly version: '1';
  /**
   * The chat widget (bubble or inline); call `mount()` to load and render it.
   * @example Assist.chat('acme/help', { variant: 'inline', target: '#help' }).mount();
   */
  chat(widgetKey: string, options?: WidgetOptions): WidgetHandle;
  /**
   * The search widget (modal or inline); call `mount()` to load and render it.
   * @example Assist.search('acme/docs').mount(); // Ctrl/Cmd+K opens it
   */
  search(widgetKey: string, options?: WidgetOptions): WidgetHandle;
  /**
   * The client without UI, ready at once, talking to the origin this script came from.
   * @example const client = Assist.headless('acme/help', { user: { id, hash } });
   */
  headless(widgetKey: string, options?: ClientOptions): AssistClient;
  /**
   * Markdown from chat or summarize into sanitised HTML.
   * @example answer.innerHTML = Assist.markdown(reply.text);
   */
  markdown(text: string): string;
  /** The error class every failure uses, for `instanceof` checks. */
  readonly AssistError: typeof AssistError;
  isAssistError(value: unknown): value is AssistError;
}

const Assist: AssistGlobal = {
  version: '1',
  chat: (widgetKey, options) => widget('chat', widgetKey, options),
  search: (widgetKey, options) => widget('search', widgetKey, options),
  headless: (widgetKey, options = {}) => createClient(widgetKey, { ...options, baseUrl: options.baseUrl ?? apiOrigin }),
  markdown: renderMarkdown,
  AssistError,
  isAssistError,
};

declare global {
  interface Window {
    Assist?: AssistGlobal;
  }
}

// A second copy (the tag pasted twice, a CMS adding it again) must not replace the first,
// whose widgets and handles the page already holds.
if (window.Assist) warnOnce('assist.js was loaded more than once; the first copy is kept.');
else window.Assist = Assist;
