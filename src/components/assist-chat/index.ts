/**
 * `Assist.chat()` behind the script tag: finds the `target` and `trigger` elements, makes the
 * client and the `<assist-chat>` element, loads the config and places the widget.
 */
import type { AssistClient, ClientOptions } from '../../client/types.js';
import { createClient } from '../../client/client.js';
import { AssistError } from '../../core/errors.js';
import type { WidgetController, WidgetMountOptions } from '../../core/widget-handle.js';
import { findElements } from '../shared/mount.js';
import { AssistChat } from './assist-chat.js';

export { AssistChat };
export type { AssistChatEventMap, AssistErrorDetail, AssistMessageDetail } from './assist-chat.js';

/**
 * The controller of one `Assist.chat(widgetKey, options)` handle. `mount()` rejects, after a
 * console error naming the selector, when `target` or `trigger` matches nothing, and when an
 * inline chat has no target; nothing is added to the page then.
 *
 * @example
 * const controller = await createChatWidget('acme/help', { variant: 'inline', target: '#help', baseUrl });
 * await controller.mount();
 */
export async function createChatWidget(widgetKey: string, options: ClientOptions & WidgetMountOptions): Promise<WidgetController> {
  const label = `Assist.chat(${JSON.stringify(widgetKey)})`;
  const element = document.createElement('assist-chat');
  let client: AssistClient | null = null;

  const elementsOf = (option: 'target' | 'trigger'): Element[] => {
    const selector = options[option];
    if (selector === undefined) return [];
    const found = findElements(label, option, selector, options.baseUrl);
    if (!found) throw new AssistError('invalid_request', `No element matches the ${option} selector "${selector}".`);
    return found;
  };

  return {
    async mount() {
      try {
        const [target] = elementsOf('target');
        element.triggers = elementsOf('trigger');
        element.options = options;
        element.client = client = createClient(widgetKey, options);
        const config = await element.load();
        if (config.variant === 'inline' && !target) {
          throw new AssistError('invalid_request', `${label}: an inline chat needs a target, the CSS selector of the container it fills.`);
        }
        (target ?? document.body).append(element);
      } catch (error) {
        client?.dispose();
        throw error;
      }
    },
    open: () => element.show(),
    close: () => element.hide(),
    toggle: () => element.toggle(),
    destroy: () => element.destroy(),
  };
}
