import type { ClientOptions } from '../../client/types.js';
import { createClient } from '../../client/client.js';
import { AssistError } from '../../core/errors.js';
import type { WidgetController, WidgetMountOptions } from '../../core/widget-handle.js';
import { findElements } from '../shared/mount.js';
import { AssistSearch } from './assist-search.js';

export { AssistSearch } from './assist-search.js';
export type { AssistSearchDetail, AssistSearchEventMap, AssistSelectDetail, SearchPhase } from './assist-search.js';

/**
 * What `Assist.search(key, options).mount()` runs: loads the config, then places the widget
 * where its variant and the `target`/`trigger` options say.
 *
 * - modal: the overlay lives at the end of `<body>`, or in `target` together with a search box
 *   that opens it; `trigger` elements open it too; Ctrl/Cmd+K always does.
 * - inline: the field and its results fill `target`; or, when `trigger` names an `<input>` of
 *   the page, results appear right after that input (or in `target` when given).
 *
 * @example
 * const search = await createSearchWidget('acme/docs', { variant: 'inline', target: '#search' });
 * await search.mount();
 */
export async function createSearchWidget(
  widgetKey: string,
  options: ClientOptions & WidgetMountOptions & { baseUrl?: string; reserved?: Element | null },
): Promise<WidgetController> {
  const label = `Assist.search(${JSON.stringify(widgetKey)})`;
  const { target, trigger, user, context, token, baseUrl, retry, reserved, ...mountOptions } = options;
  const client = createClient(widgetKey, { user, context, token, baseUrl, retry });
  const element = new AssistSearch();
  element.client = client;
  element.options = mountOptions;
  // Only used for a chat that "Ask AI" makes; the search itself talks through `client`.
  if (baseUrl) element.baseUrl = baseUrl;

  // A selector that matches nothing is reported (naming it) and left out; the modal still
  // works with Ctrl/Cmd+K, an inline search without a place to render fails to mount.
  const elementsOf = (option: 'target' | 'trigger', selector: string | undefined): Element[] =>
    (selector && findElements(label, option, selector, baseUrl)) || [];

  return {
    async mount() {
      try {
        await place();
      } catch (error) {
        element.remove();
        reserved?.remove();
        client.dispose();
        throw error;
      }
    },
    open: () => element.show(),
    close: () => element.hide(),
    destroy: () => element.destroy(),
  };

  async function place(): Promise<void> {
    const [targetElement] = elementsOf('target', target);
    // In place before the config arrives: the box it shows meanwhile keeps the page from shifting.
    targetElement?.append(element);
    // The box the element renders until its config arrives takes over from the space assist.js held.
    reserved?.remove();
    const config = await element.load();
    const triggers = elementsOf('trigger', trigger);
    if (config.variant === 'inline') {
      const input = triggers.find((candidate): candidate is HTMLInputElement => candidate instanceof HTMLInputElement);
      if (input) {
        element.input = input;
        if (targetElement) targetElement.append(element);
        else input.after(element);
      } else if (targetElement) {
        targetElement.append(element);
      } else {
        throw new AssistError('invalid_request', 'The inline search needs a target (where to render the field) or a trigger naming an existing <input>.');
      }
      return;
    }
    element.triggers = triggers;
    element.box = Boolean(targetElement);
    (targetElement ?? document.body).append(element);
  }
}
