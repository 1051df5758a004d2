/** The answer engines' shared vocabulary (see engine.ts for how one is chosen). */

/** A retrieved section, numbered the way the answer cites it: `[citation]` is `sources[citation - 1]`. */
export interface GroundingSection {
  citation: number;
  /** The section's address, with its `#fragment` when it has a heading. */
  url: string;
  title: string;
  pageId: string;
  /** Where in the page it sits ("Install › Linux"). */
  section?: string;
  /** Plain text, for matching. */
  text: string;
  /** The body as written (fenced code with its language, inline code in backticks), for quoting; '' when not kept. */
  markdown: string;
  /** The description of the reference page whose opening line, a name and its purpose, is the section right before it. */
  describesOpening?: boolean;
  /** The entry of one of the things the question compares ("staticmethod vs classmethod"), in the question's order. */
  compares?: boolean;
  /** The section of examples of the page of the section right before it, which shows no code or steps of its own. */
  showsExample?: boolean;
}

/** One earlier turn of the conversation. */
export interface Turn {
  role: 'user' | 'assistant';
  text: string;
}

/** The page the visitor is on, as the SDK sends it. */
export interface PageContext {
  url?: string;
  title?: string;
}

export interface GenerateInput {
  question: string;
  /** Earlier turns, oldest first (complete answers only). */
  history: Turn[];
  /** Best first; may be empty. */
  sections: GroundingSection[];
  context?: PageContext;
  /** The visitor's language (one of the built-in locales), for the engine's own words (e.g. "I couldn't find this"). */
  language: string;
  /** What the documentation is about (the organisation's and the sources' names): "… in postgres?" names it, not something asked. */
  subject?: string[];
  /** Aborted when the client goes away: the engine stops and releases what it holds. */
  signal: AbortSignal;
}

export interface AnswerEngine {
  readonly name: string;
  /**
   * The sections the answer to `input` will cite, renumbered from 1 in the order the
   * answer cites them, known before generating; [] when the engine will decline. An engine
   * that cannot know in advance leaves this out, and every retrieved section is cited.
   */
  cites?(input: Omit<GenerateInput, 'signal'>): GroundingSection[];
  /** The answer as deltas, in order. Throws `AnswerEngineError` when it cannot answer. */
  generate(input: GenerateInput): AsyncIterable<string>;
}

/** A failure an engine reports to the visitor; `message` is safe to show (no internals). */
export class AnswerEngineError extends Error {
  constructor(
    message: string,
    /** What went wrong in detail, for the server log only. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Resolves after `ms`, or rejects at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
