/**
 * The one Server-Sent Events writer (chat and summarize both use it): one JSON object per
 * event, each with an increasing `id`; writes wait for `drain` when the socket's buffer is
 * full, so a slow reader slows generation down instead of filling memory; the stream ends
 * in `finally`, and stops as soon as the client goes away.
 */
import type { ServerResponse } from 'node:http';
import type { StreamEventName, StreamEvents } from '../../wire/contract.js';

/** How often a comment line goes out while nothing else does, so proxies keep an idle stream open. */
const HEARTBEAT_MS = 15_000;

/**
 * Token events that come within this long of the last write go out together, in one write,
 * when it has passed: a model streams a token every few milliseconds, and a browser spends a
 * task (and a promise) on every chunk it reads. Each is still an event of its own.
 */
export const TOKEN_GATHER_MS = 25;

export class EventStream {
  private nextId = 1;
  private ended = false;
  private readonly heartbeat: NodeJS.Timeout;
  /** Token events waiting for their write (TOKEN_GATHER_MS), and when the last token went out. */
  private gathered = '';
  private gatherTimer: NodeJS.Timeout | undefined;
  private tokenWrittenAt = -Infinity;

  constructor(
    private readonly res: ServerResponse,
    private readonly signal: AbortSignal,
  ) {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // nginx and similar proxies buffer responses unless told not to.
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    this.heartbeat = setInterval(() => {
      if (!this.closed && res.writableLength === 0) res.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** True once the stream ended or the client went away; nothing more is written then. */
  get closed(): boolean {
    return this.ended || this.signal.aborted || this.res.destroyed || this.res.writableEnded;
  }

  /**
   * Writes one event (a token soon after another with the next write, TOKEN_GATHER_MS) and
   * waits until the socket can take more. Resolves to false when the client is gone (before
   * or while waiting), so the caller can stop generating.
   */
  async send<Name extends StreamEventName>(event: Name, data: StreamEvents[Name]): Promise<boolean> {
    if (this.closed) return false;
    // JSON.stringify never emits a raw line break, so one `data:` line always holds the whole object.
    const frame = `id: ${this.nextId++}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    // The first token goes at once: how soon an answer starts to show is what a visitor notices most.
    const sinceToken = performance.now() - this.tokenWrittenAt;
    if (event === 'token' && sinceToken < TOKEN_GATHER_MS) {
      this.gathered += frame;
      this.gatherTimer ??= setTimeout(() => this.write(), TOKEN_GATHER_MS - sinceToken);
      if (this.res.writableNeedDrain) await this.drained();
      return !this.closed;
    }
    if (event === 'token') this.tokenWrittenAt = performance.now();
    const accepted = this.write(frame);
    if (!accepted) await this.drained();
    return !this.closed;
  }

  /** Ends the response (idempotent), after any token events still gathered. */
  end(): void {
    clearInterval(this.heartbeat);
    if (this.ended) return;
    this.write();
    this.ended = true;
    if (!this.res.destroyed && !this.res.writableEnded) this.res.end();
  }

  /** Writes the gathered token events, then `frame`, in order, at once. */
  private write(frame = ''): boolean {
    clearTimeout(this.gatherTimer);
    this.gatherTimer = undefined;
    if (this.gathered) this.tokenWrittenAt = performance.now();
    const text = this.gathered + frame;
    this.gathered = '';
    if (!text || this.closed) return true;
    const accepted = this.res.write(text);
    // Node corks the socket on a write and uncorks it on the next tick, which a long chain of
    // promises (a database query) can put off until after the next event: send this one now.
    if (this.res.socket?.writableCorked) this.res.socket.uncork();
    return accepted;
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        this.signal.removeEventListener('abort', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
      this.signal.addEventListener('abort', done, { once: true });
      if (this.closed) done();
    });
  }
}

/**
 * Opens a stream, hands it to `write`, and ends it whatever happens. An exception from
 * `write` after the stream began cannot become an error response any more; the caller is
 * expected to have turned failures into an `error` event already, so it is only rethrown.
 */
export async function streamEvents(res: ServerResponse, signal: AbortSignal, write: (stream: EventStream) => Promise<void>): Promise<void> {
  const stream = new EventStream(res, signal);
  try {
    await write(stream);
  } finally {
    stream.end();
  }
}

/** Whether the request asked for a stream (`Accept: text/event-stream`). */
export function wantsEventStream(accept: string | undefined): boolean {
  return (accept ?? '')
    .split(',')
    .some((part) => part.split(';')[0]!.trim().toLowerCase() === 'text/event-stream');
}
