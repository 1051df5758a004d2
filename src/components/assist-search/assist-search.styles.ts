import { css } from 'lit';

/** The search widget's own styles; tokens (`--_*`) come from the shared `themeStyles`. */
export const searchStyles = css`
  :host {
    display: block;
  }
  :host([variant='modal']:not([box])) {
    display: contents;
  }
  kbd {
    font: inherit;
    font-size: 0.8em;
    border: 1px solid var(--_border);
    border-bottom-width: 2px;
    border-radius: 4px;
    padding: 0 0.35em;
    color: var(--_muted);
  }
  /* A fixed height, that of a heading line in most headers, so the box fits without growing one; assist.js also holds this much space for it before the widget's code arrives. */
  .box {
    display: flex;
    align-items: center;
    gap: 0.5em;
    box-sizing: border-box;
    height: 2em;
    width: 100%;
    min-width: 12em;
    padding: 0 0.7em;
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small);
    background: var(--_bg);
    color: var(--_muted);
    text-align: start;
  }
  .box span {
    flex: 1;
  }
  .box:disabled {
    cursor: default;
  }
  dialog {
    position: fixed;
    inset: 0;
    width: 100%;
    height: 100%;
    max-width: none;
    max-height: none;
    margin: 0;
    padding: 10vh 16px 16px;
    border: 0;
    background: rgb(0 0 0 / 0.45);
    color: var(--_text);
    z-index: var(--_z);
  }
  dialog::backdrop {
    background: transparent;
  }
  .panel {
    display: flex;
    flex-direction: column;
    max-width: var(--assist-panel-width, 640px);
    max-height: min(var(--assist-panel-height, 640px), 80vh);
    margin: 0 auto;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--_shadow);
    overflow: hidden;
  }
  .field {
    display: flex;
    align-items: center;
    gap: 0.5em;
    padding: 0.5em 0.75em;
    color: var(--_muted);
    background: var(--_bg);
  }
  :host([variant='inline']) .field {
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small);
  }
  .panel .field {
    border-bottom: 1px solid var(--_border);
  }
  .field input {
    flex: 1;
    min-width: 0;
    border: 0;
    outline: none;
    background: transparent;
    color: var(--_text);
    padding: 0.3em 0;
  }
  /* The clear button below is the one way to empty the field; no second "×" beside the close button. */
  .field input::-webkit-search-cancel-button,
  .field input::-webkit-search-decoration {
    appearance: none;
  }
  .clear-button {
    border: 0;
    background: none;
    padding: 0.2em 0.4em;
    border-radius: var(--_radius-small);
    color: var(--_muted);
    font-size: 0.85em;
    min-height: 24px;
  }
  .clear-button:hover {
    color: var(--_text);
  }
  .field input::placeholder {
    color: var(--_muted);
    opacity: 1;
  }
  /* The input draws no ring of its own: the field around it shows where focus is, inside its edge. */
  .field:has(> input:focus-visible) {
    outline: 2px solid var(--_accent);
    outline-offset: -2px;
  }
  .icon-button {
    display: inline-flex;
    border: 0;
    background: none;
    padding: 0.3em;
    border-radius: var(--_radius-small);
    color: var(--_muted);
  }
  .icon-button:hover,
  .icon-button[aria-pressed='true'] {
    color: var(--_accent);
  }
  .body {
    overflow-y: auto;
    overscroll-behavior: contain;
    padding: 0.25em 0.75em 0.75em;
  }
  .popup {
    display: flex;
    flex-direction: column;
    margin-top: 0.4em;
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small);
    background: var(--_bg);
    max-height: var(--assist-panel-height, 480px);
    overflow: hidden;
  }
  .popup[hidden] {
    display: none;
  }
  .state {
    margin: 0.75em 0.25em;
    color: var(--_muted);
  }
  .state.error {
    color: var(--_danger);
  }
  .summary {
    margin: 0.5em 0;
    padding: 0.75em;
    border-radius: var(--_radius-small);
    background: var(--_surface);
  }
  .summary-title {
    display: flex;
    align-items: center;
    gap: 0.4em;
    margin: 0 0 0.4em;
    font-weight: 600;
    color: var(--_accent);
  }
  .summary-sources {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4em;
    margin: 0.6em 0 0;
    padding: 0;
    list-style: none;
  }
  .summary-sources .cite {
    color: var(--_muted);
    font-variant-numeric: tabular-nums;
  }
  .summary-sources a {
    display: inline-flex;
    align-items: center;
    gap: 0.3em;
    min-height: 24px;
    font-size: 0.85em;
    padding: 0.15em 0.6em;
    border: 1px solid var(--_border);
    border-radius: 999px;
    color: var(--_text);
    text-decoration: none;
  }
  .listbox {
    margin: 0;
    padding: 0;
  }
  .group-title {
    margin: 0.75em 0.25em 0.25em;
    font-size: 0.85em;
    font-weight: 600;
    color: var(--_muted);
  }
  .option {
    display: flex;
    flex-direction: column;
    gap: 0.1em;
    padding: 0.5em 0.75em;
    border-radius: var(--_radius-small);
    color: var(--_text);
    text-decoration: none;
    cursor: pointer;
  }
  .option[aria-selected='true'] {
    background: var(--_accent);
    color: var(--_on-accent);
  }
  .option.recent,
  .option.suggestion,
  .option.ask {
    flex-direction: row;
    align-items: center;
    gap: 0.5em;
  }
  .option.recent span {
    flex: 1;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .option.ask {
    margin-top: 0.5em;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .option .icon {
    flex: none;
  }
  /* Recent searches beside their remove buttons, row for row: both are 2.5em high under one title's height. */
  .body:has(> .recent-removal) {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    column-gap: 0.25em;
    align-items: start;
  }
  .option.recent,
  .recent-removal .remove {
    height: 2.5em;
  }
  .recent-removal {
    display: flex;
    flex-direction: column;
  }
  .recent-removal .remove {
    width: 2.5em;
    justify-content: center;
    align-items: center;
  }
  .section {
    font-weight: 600;
  }
  .snippet {
    font-size: 0.9em;
    opacity: 0.85;
    overflow-wrap: anywhere;
  }
  mark {
    background: var(--_mark);
    color: inherit;
    border-radius: 2px;
  }
  .option[aria-selected='true'] mark {
    background: transparent;
    text-decoration: underline;
  }
  .skeleton-row {
    display: flex;
    flex-direction: column;
    gap: 0.45em;
    padding: 0.6em 0.75em;
  }
  .shimmer {
    display: block;
    height: 0.8em;
    border-radius: 4px;
    background: linear-gradient(90deg, var(--_border) 25%, var(--_surface) 50%, var(--_border) 75%) 0 0 / 200% 100%;
    animation: assist-shimmer 1.4s linear infinite;
  }
  .skeleton-row .shimmer:first-child {
    width: 40%;
  }
  .shimmer-lines {
    display: flex;
    flex-direction: column;
    gap: 0.45em;
    margin-top: 0.4em;
  }
  .shimmer-lines .shimmer:last-child {
    width: 60%;
  }
  @keyframes assist-shimmer {
    to {
      background-position: -200% 0;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .shimmer {
      animation: none;
    }
  }
  @media (forced-colors: active) {
    .option[aria-selected='true'] {
      forced-color-adjust: none;
      background: Highlight;
      color: HighlightText;
    }
    /* A gradient is dropped in forced colours: the placeholders keep a solid system-coloured shape. */
    .shimmer {
      forced-color-adjust: none;
      background: GrayText;
      animation: none;
    }
  }
  .footer {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.4em 1em;
    padding: 0.5em 0.75em;
    border-top: 1px solid var(--_border);
    font-size: 12px;
    color: var(--_muted);
  }
  .footer .branding {
    margin-inline-start: auto;
  }
  @media (max-width: 639.98px) {
    dialog {
      padding: 0;
    }
    .panel {
      max-width: none;
      height: 100%;
      max-height: none;
      border: 0;
      border-radius: 0;
      padding: env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left);
    }
    .hints {
      display: none;
    }
    input {
      font-size: 16px;
    }
  }
`;
