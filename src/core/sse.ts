/** One dispatched Server-Sent Event. */
export interface ServerSentEvent {
  /** The event type; `message` when the server gave none. */
  event: string;
  data: string;
  /** The last event id seen so far in the stream (ids persist across events, per the spec). */
  id: string;
}

/**
 * An incremental parser for the `text/event-stream` format (WHATWG HTML, "Server-sent events"):
 * lines end in CRLF, LF or CR (also split across chunks), `data:` lines of one event join with
 * `\n`, one space after the colon is dropped, `:` lines are comments, and an event is dispatched
 * only at its terminating blank line, so an event cut off by the end of the stream never is.
 */
export class ServerSentEventParser {
  private buffer = '';
  /** A chunk ended in CR: if the next one starts with LF, that LF belongs to the same line end. */
  private pendingCarriageReturn = false;
  private eventType = '';
  private dataLines: string[] = [];
  private lastEventId = '';

  /** Feeds decoded text; returns the events it completed. */
  push(text: string): ServerSentEvent[] {
    if (this.pendingCarriageReturn && text.startsWith('\n')) text = text.slice(1);
    this.pendingCarriageReturn = false;
    this.buffer += text;
    const events: ServerSentEvent[] = [];
    let start = 0;
    for (;;) {
      const lineEnd = findLineEnd(this.buffer, start);
      if (lineEnd === -1) break;
      const line = this.buffer.slice(start, lineEnd);
      if (this.buffer[lineEnd] === '\r') {
        if (lineEnd + 1 === this.buffer.length) {
          this.pendingCarriageReturn = true;
          start = lineEnd + 1;
        } else {
          start = this.buffer[lineEnd + 1] === '\n' ? lineEnd + 2 : lineEnd + 1;
        }
      } else {
        start = lineEnd + 1;
      }
      const event = this.processLine(line);
      if (event) events.push(event);
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  private processLine(line: string): ServerSentEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.dataLines.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      default:
        // `retry` and unknown fields: nothing for a fetch-based reader to do.
        break;
    }
    return null;
  }

  private dispatch(): ServerSentEvent | null {
    const hasData = this.dataLines.length > 0;
    const event: ServerSentEvent = { event: this.eventType || 'message', data: this.dataLines.join('\n'), id: this.lastEventId };
    this.eventType = '';
    this.dataLines = [];
    return hasData ? event : null;
  }
}

function findLineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 10 || char === 13) return i;
  }
  return -1;
}

/**
 * Reads a response body as Server-Sent Events. UTF-8 is decoded in streaming mode, so a
 * character split across network chunks comes out whole. Breaking out of the loop cancels
 * the body, which closes the connection and lets the server stop generating.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  const parser = new ServerSentEventParser();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        yield* parser.push(decoder.decode());
        return;
      }
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    if (!finished) reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
