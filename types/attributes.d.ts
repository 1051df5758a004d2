/**
 * The attributes and properties of `<assist-chat>` and `<assist-search>` as a template writes
 * them, shared by the React (`assist-widgets/react`) and Vue (`assist-widgets/vue`) declarations.
 * docs/reference.md lists them; test/components/element-properties.test.ts sets every one.
 */
import type { AssistChat, AssistSearch, Locale, WidgetMountOptions } from '../dist/npm/src/index.js';

/** A flag attribute: present (`""`, `true`, `"true"`) turns it on, `"false"` (or `false`) off. */
export type AssistFlag = boolean | '' | 'true' | 'false';

/** Written as attributes (kebab-case) or as the element's own properties. */
interface AssistSharedAttributes {
  /** The widget key, `{organisation}/{widget}`. Required. */
  widget: string;
  /** Your Assist server's origin; default: the page's. */
  'base-url'?: string;
  /** Same as `base-url`, as the property. */
  baseUrl?: string;
  /** Selector of your own elements that open the widget. */
  trigger?: string;
  /** Whether the bubble panel or the modal is open (reflected). */
  open?: boolean;
  theme?: 'auto' | 'light' | 'dark';
  /** `#rrggbb` or `#rgb`. */
  'accent-light'?: string;
  /** `#rrggbb` or `#rgb`. */
  'accent-dark'?: string;
  placeholder?: string;
  'default-language'?: Locale;
  'speech-input'?: AssistFlag;
}

export interface AssistChatAttributes extends AssistSharedAttributes {
  variant?: 'bubble' | 'inline';
  greeting?: string;
  /** URL of the assistant's picture. */
  avatar?: string;
  /** The visitor `{ id, hash }`; set before the element connects. */
  user?: AssistChat['user'];
  /** All mount options as one object; wins over attributes. */
  options?: WidgetMountOptions;
  /** The headless client it talks through. */
  client?: AssistChat['client'];
}

export interface AssistSearchAttributes extends AssistSharedAttributes {
  variant?: 'modal' | 'inline';
  /** Modal: show the search box that opens the modal (default true). */
  box?: boolean;
  summary?: AssistFlag;
  /** Milliseconds. */
  debounce?: number | string;
  /** Inline: an `<input>` of your page to search from (set before the element connects). */
  input?: AssistSearch['input'];
  options?: WidgetMountOptions;
  client?: AssistSearch['client'];
}
