/**
 * Why a widget did not load, shown in its place in preview mode only (a client made with a
 * preview `token`, as the dashboard's preview is). A public page shows nothing instead: its
 * visitors cannot fix the integration, its developers read the `[assist]` console warning.
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import type { AssistClient } from '../../client/types.js';
import type { AssistError } from '../../core/errors.js';

export const previewNoticeStyles = css`
  .preview-notice {
    display: block;
    margin: 0;
    padding: 8px 12px;
    border: 1px solid var(--_danger, #b3261e);
    border-radius: 6px;
    background: transparent;
    color: var(--_danger, #b3261e);
    font: 13px/1.4 var(--assist-font, system-ui, sans-serif);
  }
`;

export function previewNotice(client: AssistClient | null, failure: AssistError | null): TemplateResult | typeof nothing {
  if (!failure || !client?.preview) return nothing;
  return html`<p class="preview-notice" role="alert">Assist preview: ${failure.message}</p>`;
}
