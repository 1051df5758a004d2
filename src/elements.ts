/**
 * The npm entry `assist-widgets/elements`: defines the `<assist-chat>` and `<assist-search>`
 * custom elements, for pages that write the elements in their HTML. The main entry is free of
 * side effects so that bundlers leave out whatever an app does not use (a headless app ships no
 * Lit); a bare `import 'assist-widgets'` therefore defines nothing, and this entry is the one to
 * import for its side effects. Importing `AssistChat` or `AssistSearch` from the main entry also
 * defines that element.
 *
 * @example
 * import 'assist-widgets/elements';
 * // <assist-chat widget="acme/help" base-url="https://assist.example.com"></assist-chat>
 */
import './components/assist-chat/assist-chat.js';
import './components/assist-search/assist-search.js';
