const warned = new Set<string>();

/**
 * Prints a development warning once per distinct message, with the `[assist]` prefix, so an
 * integration mistake made in a loop (every keystroke, every render) does not flood the console.
 */
export function warnOnce(message: string, ...details: unknown[]): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[assist] ${message}`, ...details);
}

/**
 * Hands an exception thrown by integrator code (an event handler, an `onToken` callback) to the
 * page's error reporting without letting it break the SDK's own flow.
 */
export function reportCallbackError(error: unknown): void {
  const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
  if (typeof report === 'function') report(error);
  else console.error('[assist] A callback threw:', error);
}

/** Sections of docs/troubleshooting.md a warning links to (the reader page's heading anchors). */
export type TroubleshootingTopic = 'origin-not-allowed' | 'wrong-widget-type' | 'missing-target' | 'history-needs-a-signed-visitor';

/**
 * The troubleshooting page as the Assist server serves it (`/demo/docs/troubleshooting`, from the
 * docs that come with the server), so the link works wherever the widget's API is.
 */
export function troubleshootingUrl(topic: TroubleshootingTopic, apiOrigin?: string): string {
  const origin = apiOrigin || (typeof location !== 'undefined' ? location.origin : '');
  return `${origin}/demo/docs/troubleshooting#${topic}`;
}

/** What a developer needs to know about a failure whose fix is in their integration, by error code. */
const EXPLANATIONS: Partial<Record<string, { topic: TroubleshootingTopic; explain: (widgetKey: string, message: string) => string }>> = {
  origin_not_allowed: {
    topic: 'origin-not-allowed',
    explain: (widgetKey) => {
      const page = typeof location !== 'undefined' ? location : null;
      return page
        ? `"${widgetKey}" refused this page's origin ${page.origin}: add "${page.host}" to the widget's website list (or "localhost:*" for local development on any port).`
        : `"${widgetKey}" refused this origin: add it to the widget's website list.`;
    },
  },
  wrong_widget_type: { topic: 'wrong-widget-type', explain: (widgetKey, message) => `"${widgetKey}": ${message}` },
  invalid_identity: { topic: 'history-needs-a-signed-visitor', explain: (widgetKey, message) => `"${widgetKey}": ${message}` },
};

/**
 * Prints, once, why a call failed when the fix is in the integration (a refused origin, a widget
 * of the other type, history without a signed visitor), with the troubleshooting page's link.
 * Other failures (network, credits…) are the visitor's situation and are not warned about.
 */
export function explainFailure(error: { code: string; message: string }, widgetKey: string, apiOrigin?: string): void {
  const explanation = EXPLANATIONS[error.code];
  if (!explanation) return;
  warnOnce(`${explanation.explain(widgetKey, error.message)} See ${troubleshootingUrl(explanation.topic, apiOrigin)}`);
}
