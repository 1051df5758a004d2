import type { IncomingMessage } from 'node:http';
import { HttpError, badRequest } from './errors.js';

/**
 * Reads a request body, refusing it as soon as it passes `limit` bytes: by its
 * Content-Length before reading anything, or while it streams in. Nothing past the
 * limit is ever buffered.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number): HttpError {
  const size = limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MiB` : `${limit / 1024} KiB`;
  return new HttpError('payload_too_large', `The request body is larger than ${size}.`, { Connection: 'close' });
}

/**
 * Reads a JSON object body. `textPlain` also accepts `text/plain` holding JSON (what
 * `navigator.sendBeacon` sends without a preflight).
 */
export async function readJson(req: IncomingMessage, limit: number, textPlain = false): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const accepted = type === 'application/json' || type.endsWith('+json') || (textPlain && type === 'text/plain');
  const raw = await readBody(req, limit);
  if (!accepted) {
    throw new HttpError(
      'unsupported_media_type',
      textPlain ? 'Send the body as application/json or text/plain JSON.' : 'Send the body as application/json.',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('The body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest('The body must be a JSON object.');
  return value as Record<string, unknown>;
}
