/** Focus handling for dialogs (the chat panel, the search modal): move in, trap, return. */

const TABBABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'textarea:not([disabled])',
  'select:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/**
 * The elements Tab can reach inside `container`, in order, skipping hidden ones and those taken
 * out of the Tab order with a negative `tabindex` (the options of a listbox, reached with the
 * arrow keys through `aria-activedescendant`).
 */
export function tabbables(container: ParentNode): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (element) => element.tabIndex >= 0 && element.getClientRects().length > 0 && !element.closest('[inert]') && getComputedStyle(element).visibility !== 'hidden',
  );
}

/** The focused element, looking through open shadow roots. */
export function deepActiveElement(root: Document | ShadowRoot = document): Element | null {
  let active = root.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/**
 * Keeps Tab and Shift+Tab inside `container` (call from a keydown handler). Returns true when
 * it moved focus itself.
 */
export function trapTab(event: KeyboardEvent, container: ParentNode, root: ShadowRoot): boolean {
  if (event.key !== 'Tab') return false;
  const items = tabbables(container);
  if (items.length === 0) {
    event.preventDefault();
    return true;
  }
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const active = root.activeElement;
  const inside = active instanceof HTMLElement && items.includes(active);
  if (event.shiftKey && (active === first || !inside)) {
    event.preventDefault();
    last.focus();
    return true;
  }
  if (!event.shiftKey && (active === last || !inside)) {
    event.preventDefault();
    first.focus();
    return true;
  }
  return false;
}

/**
 * Marks the page's own elements that open a widget's dialog as its disclosure buttons
 * (`aria-haspopup`, `aria-expanded`), as the widget's own launcher is; `expanded: null` takes
 * the marks off again.
 */
export function markTriggers(triggers: readonly Element[], expanded: boolean | null): void {
  for (const trigger of triggers) {
    if (expanded === null) {
      trigger.removeAttribute('aria-haspopup');
      trigger.removeAttribute('aria-expanded');
    } else {
      trigger.setAttribute('aria-haspopup', 'dialog');
      trigger.setAttribute('aria-expanded', String(expanded));
    }
  }
}

/** Remembers what had focus, to give it back when a dialog closes. */
export class FocusReturn {
  private previous: HTMLElement | null = null;

  remember(fallback?: HTMLElement | null): void {
    const active = deepActiveElement();
    this.previous = active instanceof HTMLElement && active !== document.body ? active : (fallback ?? null);
  }

  restore(fallback?: HTMLElement | null): void {
    const target = this.previous?.isConnected ? this.previous : fallback;
    this.previous = null;
    target?.focus({ preventScroll: true });
  }
}

/**
 * Stops the page behind a full-screen dialog from scrolling, without the layout shift that
 * hiding the scrollbar would cause. Counts nested locks (two widgets on one page).
 */
let scrollLocks = 0;
let savedStyles: { overflow: string; paddingRight: string } | null = null;

export function lockPageScroll(): () => void {
  if (scrollLocks++ === 0) {
    const body = document.body;
    const scrollbar = window.innerWidth - document.documentElement.clientWidth;
    savedStyles = { overflow: body.style.overflow, paddingRight: body.style.paddingRight };
    const padding = parseFloat(getComputedStyle(body).paddingRight) || 0;
    body.style.overflow = 'hidden';
    if (scrollbar > 0) body.style.paddingRight = `${padding + scrollbar}px`;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--scrollLocks === 0 && savedStyles) {
      document.body.style.overflow = savedStyles.overflow;
      document.body.style.paddingRight = savedStyles.paddingRight;
      savedStyles = null;
    }
  };
}
