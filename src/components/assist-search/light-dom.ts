/**
 * Styles for the one case where the search renders into the page's own DOM: results for an
 * input the page already has. ARIA references (`aria-controls`, `aria-activedescendant`) only
 * resolve within one tree, so the listbox must live beside that input, outside any shadow root.
 *
 * The element's shadow styles are reused by nesting them under a scope selector (`:host`
 * becomes `&`), so no rule reaches the rest of the page. The sheet is adopted by the document
 * (or the shadow root the input lives in): constructable stylesheets work under a strict CSP.
 */
import type { CSSResultOrNative } from 'lit';

const sheets = new WeakMap<DocumentOrShadowRoot, CSSStyleSheet>();

export function adoptScopedStyles(root: DocumentOrShadowRoot, scope: string, styles: readonly CSSResultOrNative[]): void {
  if (sheets.has(root)) return;
  const text = styles
    .map((style) => (style instanceof CSSStyleSheet ? Array.from(style.cssRules, (rule) => rule.cssText).join('\n') : style.cssText))
    .join('\n')
    .replace(/:host\(((?:[^()]|\([^()]*\))*)\)/g, '&$1')
    .replace(/:host/g, '&');
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`${scope}{${text}}`);
  sheets.set(root, sheet);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
