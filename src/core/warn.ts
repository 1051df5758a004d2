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
