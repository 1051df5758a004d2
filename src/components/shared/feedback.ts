/**
 * "Helpful / Not helpful" under a finished chat answer or search summary, with an optional
 * short comment after "Not helpful". Each choice is sent at once through the client
 * (`sendFeedback`); a later choice, or the comment, replaces the earlier rating on the server.
 */
import { css, html, nothing, type SVGTemplateResult, type TemplateResult } from 'lit';
import { LIMITS, type FeedbackValue } from '../../../wire/contract.js';
import type { AssistClient } from '../../client/types.js';
import { icons } from './icons.js';
import type { Strings } from './i18n.js';

/** The rating of one answer, as the visitor sees it. */
export class AnswerFeedback {
  value: FeedbackValue | null = null;
  /** The comment was sent: the field gives way to a thank-you. */
  commented = false;
  private comment = '';

  constructor(
    readonly answerId: string,
    /** Asks the element to render again. */
    private readonly changed: () => void,
  ) {}

  rate(client: AssistClient | null, value: FeedbackValue): void {
    if (this.value === value) return;
    this.value = value;
    this.commented = false;
    this.send(client);
  }

  private send(client: AssistClient | null): void {
    try {
      client?.sendFeedback(this.answerId, this.value!, this.value === 'unhelpful' && this.comment.trim() ? this.comment : undefined);
    } catch {
      // Feedback must never break the widget.
    }
    this.changed();
  }

  private submitComment(client: AssistClient | null, event: Event): void {
    event.preventDefault();
    if (!this.comment.trim()) return;
    this.commented = true;
    this.send(client);
  }

  /** `label` names the answer rated, so the buttons of several answers tell apart for a screen reader. */
  render(t: Strings, client: AssistClient | null): TemplateResult {
    const button = (value: FeedbackValue, icon: SVGTemplateResult, label: string) =>
      html`<button type="button" class="feedback-button" aria-pressed=${String(this.value === value)} @click=${() => this.rate(client, value)}>
        ${icon}<span>${label}</span>
      </button>`;
    const thanks = this.value === 'helpful' || this.commented;
    return html`<div class="feedback" part="feedback" role="group" aria-label=${t('feedbackQuestion')}>
      <span class="feedback-question" aria-hidden="true">${t('feedbackQuestion')}</span>
      ${button('helpful', icons.thumbUp, t('feedbackHelpful'))}${button('unhelpful', icons.thumbDown, t('feedbackUnhelpful'))}
      ${this.value === 'unhelpful' && !this.commented
        ? html`<form class="feedback-comment" @submit=${(event: Event) => this.submitComment(client, event)}>
            <input type="text" maxlength=${LIMITS.feedbackComment} aria-label=${t('feedbackCommentLabel')} placeholder=${t('feedbackCommentLabel')}
              .value=${this.comment} @input=${(event: Event) => (this.comment = (event.target as HTMLInputElement).value)} />
            <button type="submit" class="feedback-button">${t('feedbackSend')}</button>
          </form>`
        : nothing}
      <span class="feedback-thanks" aria-live="polite">${thanks ? t('feedbackThanks') : ''}</span>
    </div>`;
  }
}

/** Styles of {@link AnswerFeedback}; tokens come from the shared `themeStyles`. */
export const feedbackStyles = css`
  .feedback {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px 6px;
    margin-top: 8px;
    font-size: 0.85em;
    color: var(--_muted);
  }
  .feedback-button {
    display: inline-flex;
    align-items: center;
    gap: 4px;
    min-height: 28px;
    padding: 2px 8px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    background: none;
    color: var(--_text);
    font-size: inherit;
  }
  .feedback-button[aria-pressed='true'] {
    border-color: var(--_accent);
    color: var(--_accent);
  }
  .feedback-button .icon {
    width: 14px;
    height: 14px;
  }
  .feedback-comment {
    display: flex;
    flex: 1 1 100%;
    gap: 6px;
    margin: 0;
    padding: 0;
    border: 0;
  }
  .feedback-comment input {
    flex: 1;
    min-width: 0;
    padding: 4px 8px;
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small);
    background: var(--_bg);
    color: var(--_text);
  }
  .feedback-thanks:empty {
    display: none;
  }
  /* Forced colours make every border the same: the chosen rating keeps the system highlight. */
  @media (forced-colors: active) {
    .feedback-button[aria-pressed='true'] {
      forced-color-adjust: none;
      border-color: Highlight;
      background: Highlight;
      color: HighlightText;
    }
  }
`;
