import { expect } from '@esm-bundle/chai';
import { ServerSentEventParser, readServerSentEvents, type ServerSentEvent } from '../../src/core/sse.js';

function parse(...chunks: string[]): ServerSentEvent[] {
  const parser = new ServerSentEventParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
}

function bodyOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function readAll(chunks: Uint8Array[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(bodyOf(chunks))) events.push(event);
  return events;
}

const STREAM = 'id: 1\nevent: meta\ndata: {"answerId":"a_1"}\n\nid: 2\nevent: token\ndata: {"delta":"Grüße 日本 🎉"}\n\n: keep-alive\n\nid: 3\nevent: done\ndata: {"text":"Grüße 日本 🎉"}\n\n';
const EXPECTED: ServerSentEvent[] = [
  { id: '1', event: 'meta', data: '{"answerId":"a_1"}' },
  { id: '2', event: 'token', data: '{"delta":"Grüße 日本 🎉"}' },
  { id: '3', event: 'done', data: '{"text":"Grüße 日本 🎉"}' },
];

describe('Server-Sent Events parser', () => {
  it('reads id, event and data fields and dispatches at the blank line', () => {
    expect(parse(STREAM)).to.deep.equal(EXPECTED);
  });

  it('joins multi-line data with \\n', () => {
    expect(parse('data: first\ndata: second\ndata:\ndata: fourth\n\n')).to.deep.equal([{ id: '', event: 'message', data: 'first\nsecond\n\nfourth' }]);
  });

  it('accepts CRLF, CR and LF line ends, also mixed', () => {
    const crlf = STREAM.replace(/\n/g, '\r\n');
    const cr = STREAM.replace(/\n/g, '\r');
    expect(parse(crlf)).to.deep.equal(EXPECTED);
    expect(parse(cr)).to.deep.equal(EXPECTED);
    expect(parse('event: a\r\ndata: 1\r\rdata: 2\n\r\n')).to.deep.equal([
      { id: '', event: 'a', data: '1' },
      { id: '', event: 'message', data: '2' },
    ]);
  });

  it('does not mistake a CRLF split between chunks for two line ends', () => {
    expect(parse('data: a\r', '\ndata: b\r', '\n\r', '\n')).to.deep.equal([{ id: '', event: 'message', data: 'a\nb' }]);
  });

  it('strips one space after the colon only, and takes a line without colon as a field name', () => {
    expect(parse('data:  two spaces\n\ndata\n\n')).to.deep.equal([
      { id: '', event: 'message', data: ' two spaces' },
      { id: '', event: 'message', data: '' },
    ]);
  });

  it('ignores comments, unknown fields, retry and events without data', () => {
    expect(parse(': comment\nretry: 10\nfoo: bar\n\nevent: empty\n\ndata: x\n\n')).to.deep.equal([{ id: '', event: 'message', data: 'x' }]);
  });

  it('keeps the last id for later events, and ignores an id with NUL', () => {
    expect(parse('id: 7\ndata: a\n\ndata: b\n\nid: 8\u0000\ndata: c\n\n').map((event) => event.id)).to.deep.equal(['7', '7', '7']);
  });

  it('never dispatches an event the stream ended in the middle of', () => {
    expect(parse('data: done\n')).to.deep.equal([]);
  });

  it('gives the same events for every split of the text into two chunks', () => {
    for (const text of [STREAM, STREAM.replace(/\n/g, '\r\n')]) {
      for (let cut = 0; cut <= text.length; cut++) {
        expect(parse(text.slice(0, cut), text.slice(cut)), `cut at ${cut}`).to.deep.equal(EXPECTED);
      }
    }
  });
});

describe('readServerSentEvents', () => {
  const bytes = new TextEncoder().encode(STREAM);

  it('decodes the stream in one chunk', async () => {
    expect(await readAll([bytes])).to.deep.equal(EXPECTED);
  });

  it('gives the same events for every byte boundary, including inside multi-byte UTF-8 characters', async () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await readAll([bytes.slice(0, cut), bytes.slice(cut)]), `cut at byte ${cut}`).to.deep.equal(EXPECTED);
    }
  });

  it('gives the same events one byte at a time, and for random chunkings', async () => {
    expect(await readAll(Array.from(bytes, (byte) => Uint8Array.of(byte)))).to.deep.equal(EXPECTED);
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let round = 0; round < 50; round++) {
      const chunks: Uint8Array[] = [];
      for (let start = 0; start < bytes.length; ) {
        const size = 1 + Math.floor(random() * 12);
        chunks.push(bytes.slice(start, start + size));
        start += size;
      }
      expect(await readAll(chunks), `round ${round}`).to.deep.equal(EXPECTED);
    }
  });

  it('skips a byte-order mark at the start', async () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
    expect(await readAll([withBom.slice(0, 2), withBom.slice(2)])).to.deep.equal(EXPECTED);
  });

  it('cancels the body when the reader stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readServerSentEvents(body)) {
      if (event.event === 'meta') break;
    }
    expect(cancelled).to.equal(true);
  });
});
