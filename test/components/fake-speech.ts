/**
 * A browser speech recogniser that hears `transcript` once started, for the widgets' voice
 * input tests. `started` records the language of each start; `restore()` puts back what the
 * browser had.
 */
export function fakeSpeechRecognition(transcript: string): { started: string[]; restore(): void } {
  const started: string[] = [];
  const scope = window as unknown as { SpeechRecognition?: unknown; webkitSpeechRecognition?: unknown };
  const original = { SpeechRecognition: scope.SpeechRecognition, webkitSpeechRecognition: scope.webkitSpeechRecognition };
  scope.SpeechRecognition = scope.webkitSpeechRecognition = class {
    lang = '';
    onresult: ((event: unknown) => void) | null = null;
    onend: (() => void) | null = null;
    onerror = null;
    start() {
      started.push(this.lang);
      setTimeout(() => {
        this.onresult?.({ resultIndex: 0, results: [{ isFinal: true, 0: { transcript } }] });
        this.onend?.();
      }, 10);
    }
    stop() {}
    abort() {}
  };
  return { started, restore: () => void Object.assign(scope, original) };
}
