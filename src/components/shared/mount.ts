/**
 * What `Assist.chat()` and `Assist.search()` share when mounting: finding the `target` and
 * `trigger` elements (with a clear console error naming a selector that matches nothing),
 * and laying the integrator's options over the dashboard's config.
 */
import { LOCALES, THEMES, type WidgetConfig } from '../../../wire/contract.js';
import type { WidgetMountOptions } from '../../core/widget-handle.js';
import { troubleshootingUrl } from '../../core/warn.js';

/**
 * The elements a selector names, or null after logging why there are none. `label` names the
 * widget in the message, e.g. `Assist.chat("acme/help")`; `apiOrigin` is where the
 * troubleshooting page it links to is served.
 */
export function findElements(label: string, option: 'target' | 'trigger', selector: string, apiOrigin?: string): Element[] | null {
  let found: Element[];
  try {
    found = [...document.querySelectorAll(selector)];
  } catch {
    console.error(`[assist] ${label}: the ${option} "${selector}" is not a valid CSS selector. See ${troubleshootingUrl('missing-target', apiOrigin)}`);
    return null;
  }
  if (found.length === 0) {
    console.error(
      `[assist] ${label}: no element matches the ${option} selector "${selector}". Call mount() after the element exists. See ${troubleshootingUrl('missing-target', apiOrigin)}`,
    );
    return null;
  }
  return found;
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * The config the widget renders with: the dashboard's settings, overridden by the options
 * passed to the call, except `branding` (the plan decides), `type` and `name`. An option of
 * the wrong kind is ignored with a warning rather than breaking the widget.
 */
export function mergeConfig(
  config: WidgetConfig,
  options: WidgetMountOptions,
  variants: readonly WidgetConfig['variant'][],
  warn: (message: string) => void,
): WidgetConfig {
  const merged: WidgetConfig = { ...config };
  const take = <Key extends keyof WidgetMountOptions & keyof WidgetConfig>(key: Key, valid: (value: unknown) => boolean) => {
    const value = options[key];
    if (value === undefined) return;
    if (valid(value)) (merged as unknown as Record<string, unknown>)[key] = value;
    else warn(`the option ${key} has an unusable value ${JSON.stringify(value)}; the dashboard's setting is used.`);
  };
  const isString = (value: unknown) => typeof value === 'string';
  take('variant', (value) => variants.includes(value as WidgetConfig['variant']));
  take('theme', (value) => (THEMES as readonly unknown[]).includes(value));
  take('accent_light', (value) => isString(value) && HEX.test(value as string));
  take('accent_dark', (value) => isString(value) && HEX.test(value as string));
  take('placeholder', isString);
  take('greeting', isString);
  take('avatar', isString);
  take('summary', (value) => typeof value === 'boolean');
  take('speech_input', (value) => typeof value === 'boolean');
  take('debounce', (value) => typeof value === 'number' && value >= 0 && value <= 10_000);
  take('default_language', (value) => (LOCALES as readonly unknown[]).includes(value));
  return merged;
}

/** How each mount option is written as an attribute of `<assist-chat>` / `<assist-search>`. */
export interface AttributeOptionNames {
  /** Taken as written, e.g. `accent-light="#2557d6"` → `accent_light`. */
  text: readonly string[];
  /** Present means true, except `="false"`, e.g. `summary`, `speech-input`. */
  flags?: readonly string[];
  /** Numbers, e.g. `debounce="300"`. */
  numbers?: readonly string[];
}

/**
 * The mount options an element carries as attributes (attribute `accent-light` is option
 * `accent_light`), for the elements used on their own in markup. `mergeConfig` then checks them.
 */
export function attributeOptions(element: Element, names: AttributeOptionNames): WidgetMountOptions {
  const options: Record<string, unknown> = {};
  const read = (list: readonly string[] | undefined, convert: (value: string) => unknown) => {
    for (const name of list ?? []) {
      const value = element.getAttribute(name);
      if (value !== null) options[name.replaceAll('-', '_')] = convert(value);
    }
  };
  read(names.text, (value) => value);
  read(names.flags, (value) => value !== 'false');
  read(names.numbers, Number);
  return options as WidgetMountOptions;
}
