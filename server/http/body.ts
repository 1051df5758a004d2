import type { IncomingMessage } from 'node:http';
import { HttpError, badRequest } from './errors.js';

/**
 * Reads a request body, refusing it as soon as it passes `limit` bytes: by its
 * Content-Length before reading anything, or while it streams in. Nothing past the
 * limit is ever buffered. A refused body is left flowing, so the rest of it is read and
 * dropped while the refusal goes out (see `closeAfterAnswer` in server.ts); destroying
 * the request would stop the socket being read, and the client's send would then stall.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  refuseDeclaredOversize(req, limit);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onBroken).off('close', onBroken);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) settle(() => reject(tooLarge(limit)));
      else chunks.push(chunk);
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks)));
    // The client went away or broke the connection mid-body: nobody is left to answer, and it is no server fault.
    const onBroken = () =>
      settle(() => reject(new HttpError('invalid_request', 'The request body ended before it was complete.', { Connection: 'close' })));
    req.on('data', onData).once('end', onEnd).once('error', onBroken).once('close', onBroken);
  });
}

function refuseDeclaredOversize(req: IncomingMessage, limit: number): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
}

function tooLarge(limit: number): HttpError {
  const size = limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MiB` : `${limit / 1024} KiB`;
  return new HttpError('payload_too_large', `The request body is larger than ${size}.`, { Connection: 'close' });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a JSON object body. `textPlain` also accepts `text/plain` holding JSON (what
 * `navigator.sendBeacon` sends without a preflight). A request without any body and
 * without a Content-Type reads as `{}`, so operations that need no input (e.g. minting
 * a preview token) can be called with a bare POST.
 */
export async function readJson(req: IncomingMessage, limit: number, textPlain = false): Promise<Record<string, unknown>> {
  const contentType = req.headers['content-type'];
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  refuseDeclaredOversize(req, limit);
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody && contentType === undefined) return {};
  const accepted = type === 'application/json' || type.endsWith('+json') || (textPlain && type === 'text/plain');
  if (!accepted) {
    // Refused before reading; closing the connection spares reading a body nobody will use.
    throw new HttpError(
      'unsupported_media_type',
      textPlain ? 'Send the body as application/json or text/plain JSON.' : 'Send the body as application/json.',
      { Connection: 'close' },
    );
  }
  const raw = await readBody(req, limit);
  let text: string;
  try {
    text = strictUtf8.decode(raw);
  } catch {
    throw badRequest('The body is not valid UTF-8.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('The body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest('The body must be a JSON object.');
  rejectUnstorableText(value);
  return value as Record<string, unknown>;
}

/** U+0000, or half of a surrogate pair (JSON's `\ud800` escapes can make one). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * PostgreSQL text cannot hold U+0000, and a lone surrogate is no Unicode text at all, so a
 * string with either would fail in the database as a 500. Refuse it here, naming where it
 * is. Walks with an explicit stack: JSON.parse takes nesting far deeper than recursion could.
 */
function rejectUnstorableText(root: object): void {
  const pending: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) throw badRequest(`\`${path}\` holds a NUL character or a lone surrogate, which is not text.`);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push({ value: item, path: `${path}[${index}]` }));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, member] of Object.entries(value)) {
        const memberPath = path ? `${path}.${key}` : key;
        if (UNSTORABLE.test(key)) throw badRequest(`The field name \`${JSON.stringify(key).slice(1, -1)}\` holds a NUL character or a lone surrogate.`);
        pending.push({ value: member, path: memberPath });
      }
    }
  }
}
