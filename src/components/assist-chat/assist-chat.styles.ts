import { css } from 'lit';

/** Layout of `<assist-chat>`; colours, radii and fonts come from the shared `--assist-*` tokens. */
export const chatStyles = css`
  :host {
    display: contents;
  }
  :host([variant='inline']) {
    display: block;
    height: 100%;
  }
  .launcher {
    position: fixed;
    right: max(20px, env(safe-area-inset-right));
    bottom: max(20px, env(safe-area-inset-bottom));
    z-index: var(--_z);
    width: 56px;
    height: 56px;
    border: 0;
    border-radius: 50%;
    display: grid;
    place-items: center;
    background: var(--_accent);
    color: var(--_on-accent);
    box-shadow: var(--_shadow);
    transition: transform 0.15s ease;
  }
  /* The focus ring's halo (see the theme) stays in front of the launcher's own shadow. */
  .launcher:focus-visible {
    box-shadow: 0 0 0 6px var(--_bg), var(--_shadow);
  }
  .launcher:hover {
    transform: scale(1.06);
  }
  .launcher .icon {
    width: 26px;
    height: 26px;
  }
  .panel {
    display: flex;
    flex-direction: column;
    height: 100%;
    background: var(--_bg);
    color: var(--_text);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    overflow: hidden;
  }
  .panel[hidden] {
    display: none;
  }
  .bubble {
    position: fixed;
    right: max(20px, env(safe-area-inset-right));
    bottom: calc(max(20px, env(safe-area-inset-bottom)) + 68px);
    z-index: var(--_z);
    width: min(var(--assist-panel-width, 390px), calc(100vw - 40px));
    height: min(var(--assist-panel-height, 620px), calc(100vh - 120px));
    box-shadow: var(--_shadow);
    animation: rise 0.18s ease-out;
  }
  @keyframes rise {
    from {
      opacity: 0;
      transform: translateY(12px);
    }
  }
  header {
    display: flex;
    align-items: center;
    gap: 10px;
    padding: 10px 10px 10px 14px;
    border-bottom: 1px solid var(--_border);
  }
  .avatar {
    width: 32px;
    height: 32px;
    border-radius: 50%;
    object-fit: cover;
    flex: none;
    display: grid;
    place-items: center;
    background: var(--_accent);
    color: var(--_on-accent);
  }
  .avatar .icon {
    width: 18px;
    height: 18px;
  }
  h2,
  h3 {
    flex: 1;
    margin: 0;
    font-size: 1em;
    font-weight: 600;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .tool {
    flex: none;
    display: inline-grid;
    place-items: center;
    min-width: 36px;
    height: 36px;
    padding: 0 6px;
    border: 0;
    border-radius: var(--_radius-small);
    background: none;
    color: var(--_muted);
  }
  .tool:hover {
    background: var(--_surface);
    color: var(--_text);
  }
  .log,
  .history {
    flex: 1;
    overflow-y: auto;
    overscroll-behavior: contain;
    padding: 14px;
  }
  .thread {
    display: flex;
    flex-direction: column;
    gap: 12px;
  }
  .message {
    max-width: 88%;
  }
  .user {
    align-self: flex-end;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    background: var(--_accent);
    color: var(--_on-accent);
    padding: 8px 12px;
    border-radius: var(--_radius) var(--_radius) 4px var(--_radius);
  }
  .assistant {
    align-self: flex-start;
    background: var(--_surface);
    padding: 10px 12px;
    border-radius: var(--_radius) var(--_radius) var(--_radius) 4px;
  }
  /*
   * The blocks of an answer out of view (a long answer streaming in, the earlier answers of a
   * conversation) are not laid out or painted again while the answer grows: each update then
   * costs what is on screen, not the whole thread. Once shown, a block keeps its size, so the
   * scroll position holds; its text stays in the accessibility tree and in find-in-page. The
   * margin lets a focus ring drawn outside a link at a block's edge show whole.
   */
  .assistant .markdown > * {
    content-visibility: auto;
    contain-intrinsic-size: auto 40em auto 1.5em;
    overflow-clip-margin: 4px;
  }
  .assistant pre .copy-code {
    position: absolute;
    top: 4px;
    right: 4px;
    height: 30px;
    min-width: 30px;
    background: var(--_bg);
  }
  .typing,
  .note,
  .meta {
    color: var(--_muted);
    font-size: 0.9em;
  }
  .error {
    color: var(--_danger);
  }
  .sources {
    margin: 8px 0 0;
    padding: 8px 0 0;
    border-top: 1px solid var(--_border);
    list-style: none;
    font-size: 0.9em;
  }
  .sources a,
  .hits a {
    color: var(--_accent);
  }
  /* 24 px targets (WCAG 2.5.8), the number inside the link so it is read with the name. */
  .sources a,
  .hits a {
    display: inline-flex;
    align-items: center;
    gap: 0.3em;
    min-height: 24px;
  }
  .sources .cite {
    color: var(--_muted);
    font-variant-numeric: tabular-nums;
  }
  .hits {
    margin: 6px 0 0;
    padding-left: 1.2em;
  }
  .actions {
    display: flex;
    gap: 4px;
    margin-top: 6px;
  }
  .actions .tool {
    height: 30px;
    gap: 4px;
    display: inline-flex;
    align-items: center;
    font-size: 0.85em;
  }
  .actions .icon {
    width: 16px;
    height: 16px;
  }
  form {
    display: flex;
    align-items: flex-end;
    gap: 6px;
    margin: 0 10px 8px;
    padding: 6px;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  form:focus-within {
    border-color: var(--_accent);
    box-shadow: 0 0 0 1px var(--_accent);
  }
  /* The form's border is the one focus ring of the message field. */
  textarea:focus-visible {
    outline: none;
  }
  .suggestions {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    /* Below the list of messages, as far from the greeting as the messages are from each other. */
    margin: 16px 0 8px;
  }
  .suggestion {
    padding: 6px 10px;
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small);
    background: none;
    color: var(--_text);
    font-size: 0.9em;
    text-align: start;
  }
  .suggestion:hover {
    border-color: var(--_accent);
  }
  textarea {
    flex: 1;
    min-height: 36px;
    max-height: 140px;
    field-sizing: content;
    resize: none;
    border: 0;
    outline: 0;
    padding: 7px 6px;
    background: none;
  }
  textarea::placeholder {
    color: var(--_muted);
    opacity: 1;
  }
  .send {
    background: var(--_accent);
    color: var(--_on-accent);
  }
  .send:hover {
    background: var(--_accent);
    color: var(--_on-accent);
    opacity: 0.9;
  }
  .tool[aria-pressed='true'] {
    color: var(--_danger);
  }
  .branding {
    margin: 0 0 8px;
  }
  .history ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .history li {
    display: flex;
    align-items: center;
    gap: 4px;
    padding: 6px 0;
    border-bottom: 1px solid var(--_border);
  }
  .history .open {
    flex: 1;
    min-width: 0;
    text-align: start;
    border: 0;
    background: none;
    padding: 4px;
    border-radius: var(--_radius-small);
  }
  .history .open:hover {
    background: var(--_surface);
  }
  .history .title {
    display: block;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .history .tool {
    font-size: 0.85em;
  }
  .delete-all {
    margin-top: 12px;
    color: var(--_danger);
  }
  /* Forced colours drop backgrounds and shadows: boundaries that were only a fill get a border. */
  @media (forced-colors: active) {
    .launcher {
      border: 2px solid ButtonText;
    }
    .send,
    .avatar {
      border: 1px solid ButtonText;
    }
    .message {
      border: 1px solid CanvasText;
    }
  }
  @media (max-width: 639.98px) {
    .bubble {
      inset: 0;
      width: 100%;
      height: 100%;
      max-height: none;
      border: 0;
      border-radius: 0;
      padding: env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left);
    }
    textarea {
      font-size: 16px;
    }
  }
`;
