/**
 * The theming contract shared by `<assist-chat>` and `<assist-search>`: every colour, radius,
 * font, size and z-index is an `--assist-*` custom property with a light and a dark default.
 * The host element carries `data-theme="auto|light|dark"`; `auto` follows the visitor's
 * colour scheme. Styles live in the shadow root as adopted stylesheets (no inline `<style>`),
 * so a strict Content-Security-Policy without `unsafe-inline` works.
 *
 * Public properties (set them on the element or any ancestor):
 * --assist-accent-light, --assist-accent-dark, --assist-on-accent, --assist-bg-light, --assist-bg-dark,
 * --assist-surface-light, --assist-surface-dark, --assist-text-light, --assist-text-dark,
 * --assist-muted-light, --assist-muted-dark, --assist-border-light, --assist-border-dark,
 * --assist-danger-light, --assist-danger-dark, --assist-mark-light, --assist-mark-dark,
 * --assist-radius, --assist-radius-small, --assist-font, --assist-font-size, --assist-mono-font,
 * --assist-shadow, --assist-z-index, --assist-panel-width, --assist-panel-height.
 */
import { css } from 'lit';
import type { WidgetConfig } from '../../../wire/contract.js';

/** The dark defaults: chosen by `data-theme="dark"`, or by `auto` in a dark colour scheme. */
const darkPalette = css`
  color-scheme: dark;
  --_accent: var(--assist-accent-dark, #8ab4ff);
  --_on-accent: var(--assist-on-accent-dark, #0b1530);
  --_bg: var(--assist-bg-dark, #17191e);
  --_surface: var(--assist-surface-dark, #23262d);
  --_text: var(--assist-text-dark, #eceef2);
  --_muted: var(--assist-muted-dark, #a9afbc);
  --_border: var(--assist-border-dark, #3a3f49);
  --_danger: var(--assist-danger-dark, #ffb4ab);
  --_mark: var(--assist-mark-dark, #6b5a00);
`;

export const themeStyles = css`
  :host {
    color-scheme: light;
    --_accent: var(--assist-accent-light, #2557d6);
    --_on-accent: var(--assist-on-accent, #ffffff);
    --_bg: var(--assist-bg-light, #ffffff);
    --_surface: var(--assist-surface-light, #f4f5f7);
    --_text: var(--assist-text-light, #1b1d22);
    --_muted: var(--assist-muted-light, #5b6170);
    --_border: var(--assist-border-light, #d5d8de);
    --_danger: var(--assist-danger-light, #b3261e);
    --_mark: var(--assist-mark-light, #fff0a8);
    --_radius: var(--assist-radius, 12px);
    --_radius-small: var(--assist-radius-small, 8px);
    --_font: var(--assist-font, system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif);
    --_font-size: var(--assist-font-size, 15px);
    --_mono: var(--assist-mono-font, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
    --_shadow: var(--assist-shadow, 0 12px 40px rgb(0 0 0 / 0.18), 0 2px 8px rgb(0 0 0 / 0.08));
    --_z: var(--assist-z-index, 2147483000);
    font-family: var(--_font);
    font-size: var(--_font-size);
    line-height: 1.5;
    color: var(--_text);
  }
  :host([data-theme='dark']) {
    ${darkPalette}
  }
  @media (prefers-color-scheme: dark) {
    :host([data-theme='auto']) {
      ${darkPalette}
    }
  }
  :host([hidden]) {
    display: none !important;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  button,
  input,
  textarea {
    font: inherit;
    color: inherit;
  }
  button {
    cursor: pointer;
  }
  /*
   * The ring sits on a halo of the widget's background, so it keeps 3:1 whatever the page is
   * behind the launcher or search box (a dark widget on a light page, or the reverse).
   */
  :focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
    box-shadow: 0 0 0 6px var(--_bg);
  }
  .visually-hidden {
    position: absolute !important;
    width: 1px;
    height: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  .icon {
    width: 20px;
    height: 20px;
    flex: none;
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
    stroke-linejoin: round;
  }
  .branding {
    font-size: 12px;
    color: var(--_muted);
    text-align: center;
  }
  .branding a {
    color: inherit;
  }
  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation-duration: 0.01ms !important;
      animation-iteration-count: 1 !important;
      transition-duration: 0.01ms !important;
      scroll-behavior: auto !important;
    }
  }
`;

/** Markdown rendered inside a widget: answers, summaries. */
export const markdownStyles = css`
  .markdown {
    overflow-wrap: anywhere;
  }
  .markdown > :first-child {
    margin-top: 0;
  }
  .markdown > :last-child {
    margin-bottom: 0;
  }
  .markdown p,
  .markdown ul,
  .markdown ol,
  .markdown pre,
  .markdown table,
  .markdown blockquote {
    margin: 0 0 0.6em;
  }
  .markdown h1,
  .markdown h2,
  .markdown h3,
  .markdown h4 {
    font-size: 1em;
    margin: 0.8em 0 0.4em;
  }
  .markdown a {
    color: var(--_accent);
  }
  .markdown code {
    font-family: var(--_mono);
    font-size: 0.9em;
    background: var(--_surface);
    border-radius: 4px;
    padding: 0.1em 0.3em;
  }
  .markdown pre {
    position: relative;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small);
    padding: 0.7em 0.8em;
    overflow-x: auto;
  }
  .markdown pre code {
    background: none;
    padding: 0;
  }
  .markdown table {
    border-collapse: collapse;
    display: block;
    overflow-x: auto;
  }
  .markdown th,
  .markdown td {
    border: 1px solid var(--_border);
    padding: 0.25em 0.5em;
  }
  .markdown blockquote {
    border-left: 3px solid var(--_border);
    padding-left: 0.8em;
    color: var(--_muted);
  }
`;

/**
 * Applies a config's theme to the host: `data-theme`, and the accent colours as custom
 * properties set through the CSSOM (allowed under a strict CSP, unlike style attributes).
 */
export function applyTheme(host: HTMLElement, config: Pick<WidgetConfig, 'theme' | 'accent_light' | 'accent_dark'>): void {
  host.dataset.theme = config.theme;
  host.style.setProperty('--assist-accent-light', config.accent_light);
  host.style.setProperty('--assist-accent-dark', config.accent_dark);
}
