/** The path the SDK is served from (contract, "Scripts and pages served"). */
export const SDK_PATH_PATTERN = /\/widget\/v1\/assist(?:\.min)?\.js(?:[?#]|$)/;

/**
 * The API origin for the script-tag build: the origin `assist.js` was loaded from, so one build
 * works on any host. `document.currentScript` is only set while the script first runs, so the
 * caller reads it then. When it is missing (some tag managers inject the script in ways that
 * clear it), the first script on the page whose URL looks like the SDK's is used; else `fallback`.
 */
export function apiOriginFromScript(currentScript: Element | null | undefined, fallback: string, scripts: Iterable<HTMLScriptElement> = []): string {
  const candidates: Element[] = currentScript ? [currentScript] : [...scripts].filter((script) => SDK_PATH_PATTERN.test(script.src));
  for (const script of candidates) {
    const src = (script as HTMLScriptElement).src;
    if (!src) continue;
    try {
      const url = new URL(src);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
    } catch {
      // not a usable URL; try the next
    }
  }
  return fallback;
}
