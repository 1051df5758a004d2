/**
 * Voice input through the browser's speech recognition, where there is one (Chromium's and
 * Safari's `webkitSpeechRecognition`), in the widget's UI language.
 */

interface RecognitionResult {
  readonly isFinal: boolean;
  readonly 0: { transcript: string };
}
interface Recognition extends EventTarget {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  start(): void;
  stop(): void;
  abort(): void;
  onresult: ((event: { resultIndex: number; results: ArrayLike<RecognitionResult> }) => void) | null;
  onend: (() => void) | null;
  onerror: ((event: { error: string }) => void) | null;
}
type RecognitionConstructor = new () => Recognition;

function recognitionConstructor(): RecognitionConstructor | undefined {
  const scope = globalThis as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition;
}

export function speechInputSupported(): boolean {
  return recognitionConstructor() !== undefined;
}

export interface SpeechInputCallbacks {
  /** The text heard so far in this session; `final` once the browser settled on it. */
  onText(text: string, final: boolean): void;
  /** Listening stopped (by `stop()`, silence, or an error). */
  onEnd(error?: string): void;
}

export class SpeechInput {
  private recognition: Recognition | null = null;

  constructor(private readonly callbacks: SpeechInputCallbacks) {}

  get listening(): boolean {
    return this.recognition !== null;
  }

  start(lang: string): boolean {
    const Constructor = recognitionConstructor();
    if (!Constructor || this.recognition) return false;
    const recognition = new Constructor();
    recognition.lang = lang;
    recognition.interimResults = true;
    recognition.continuous = false;
    recognition.onresult = (event) => {
      let text = '';
      let final = true;
      for (let index = 0; index < event.results.length; index++) {
        const result = event.results[index]!;
        text += result[0].transcript;
        final &&= result.isFinal;
      }
      this.callbacks.onText(text, final);
    };
    let failure: string | undefined;
    recognition.onerror = (event) => {
      failure = event.error;
    };
    recognition.onend = () => {
      this.recognition = null;
      this.callbacks.onEnd(failure);
    };
    this.recognition = recognition;
    try {
      recognition.start();
    } catch {
      this.recognition = null;
      return false;
    }
    return true;
  }

  stop(): void {
    this.recognition?.stop();
  }

  abort(): void {
    const recognition = this.recognition;
    this.recognition = null;
    recognition?.abort();
  }
}
