/** Inline SVG icons (stroke icons on a 24px grid), hidden from assistive technology: every control that shows one has its own name. */
import { svg, type SVGTemplateResult } from 'lit';

const icon = (paths: SVGTemplateResult) =>
  svg`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${paths}</svg>`;

export const icons = {
  chat: icon(svg`<path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z"/>`),
  close: icon(svg`<path d="M6 6l12 12M18 6L6 18"/>`),
  send: icon(svg`<path d="M4 12l16-8-6 16-2.5-6.5z"/>`),
  stop: icon(svg`<rect x="7" y="7" width="10" height="10" rx="1.5"/>`),
  mic: icon(svg`<rect x="9" y="3" width="6" height="11" rx="3"/><path d="M5 11a7 7 0 0 0 14 0M12 18v3"/>`),
  copy: icon(svg`<rect x="9" y="9" width="11" height="11" rx="2"/><path d="M5 15V5a2 2 0 0 1 2-2h8"/>`),
  check: icon(svg`<path d="M5 12.5l4.5 4.5L19 7.5"/>`),
  retry: icon(svg`<path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7"/>`),
  plus: icon(svg`<path d="M12 5v14M5 12h14"/>`),
  history: icon(svg`<path d="M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 2"/>`),
  back: icon(svg`<path d="M15 18l-6-6 6-6"/>`),
  trash: icon(svg`<path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3"/>`),
  pin: icon(svg`<path d="M12 17v5M8 3h8l-1 7 3 3H6l3-3z"/>`),
  search: icon(svg`<circle cx="11" cy="11" r="7"/><path d="M20 20l-4-4"/>`),
  link: icon(svg`<path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"/>`),
  page: icon(svg`<path d="M6 3h8l4 4v14H6zM14 3v4h4"/>`),
  sparkle: icon(svg`<path d="M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8zM19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z"/>`),
  thumbUp: icon(svg`<path d="M7 10v11H4V10zM7 10l4-7a2 2 0 0 1 3 2l-1 5h6a2 2 0 0 1 2 2.3l-1.4 7A2 2 0 0 1 17.6 21H7"/>`),
  thumbDown: icon(svg`<path d="M17 14V3h3v11zM17 14l-4 7a2 2 0 0 1-3-2l1-5H5a2 2 0 0 1-2-2.3l1.4-7A2 2 0 0 1 6.4 3H17"/>`),
  clock: icon(svg`<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>`),
};
