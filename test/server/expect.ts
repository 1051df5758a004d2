/**
 * Assertions and raw-socket helpers shared by the server suite: what every error response
 * must look like (contract: "Every non-2xx response has this body"), and a way to send bytes
 * that `fetch` refuses to send (lying Content-Length, unknown methods, half-closed uploads).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { TestResponse } from './harness.js';

/** Frames of a Node stack trace (`    at fn (file:1:2)`) or Node's own modules: none may ever reach a client. */
const STACK_TRACE = /\n\s+at (?:[^\n]*?[(\s])?(?:file:\/\/|\/|[A-Za-z]:\\|node:)[^\s]*:\d+:\d+|node:internal/;
/** Where the server's sources live on this machine; a body naming it leaks internals. */
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A body carries no stack trace and no path into the server's files. */
export function assertNoStackTrace(text: string, context = ''): void {
  assert.doesNotMatch(text, STACK_TRACE, `a response body leaks a stack trace ${context}: ${text.slice(0, 300)}`);
  assert.ok(!text.includes(PROJECT_ROOT), `a response body leaks a server path ${context}: ${text.slice(0, 300)}`);
}

/** The contract's error body: `{ error: { code, message } }`, JSON, with a readable message. */
export function assertErrorBody(response: Pick<TestResponse, 'status' | 'headers' | 'json' | 'text'>, context = ''): void {
  const where = `${context} (status ${response.status}, body ${response.text.slice(0, 200)})`;
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `error without a JSON content type ${where}`);
  assert.ok(response.json && typeof response.json === 'object', `error body is not JSON ${where}`);
  const error = response.json.error;
  assert.ok(error && typeof error === 'object', `error body lacks "error" ${where}`);
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message'], `error object has other members ${where}`);
  assert.equal(typeof error.code, 'string', where);
  assert.equal(typeof error.message, 'string', where);
  assert.ok(error.message.length > 0, `empty error message ${where}`);
  assertNoStackTrace(response.text, where);
  if (response.status === 401) assert.equal(response.headers.get('www-authenticate'), 'Bearer', `401 without WWW-Authenticate ${where}`);
}

/** A response is exactly this status and error code, with the contract's body. */
export function assertError(response: TestResponse, status: number, code: string, context = ''): void {
  assert.equal(response.status, status, `expected ${status} ${code} ${context}, got ${response.status} ${response.text.slice(0, 300)}`);
  assertErrorBody(response, context);
  assert.equal(response.json.error.code, code, `${context}: ${response.json.error.message}`);
}

/** An error whose message names the offending field (contract: "the message names the field"). */
export function assertInvalidField(response: TestResponse, field: string, context = ''): void {
  assertError(response, 400, 'invalid_request', context);
  assert.ok(response.json.error.message.includes(field), `the message should name "${field}" ${context}: ${response.json.error.message}`);
}

export interface RawResponse {
  /** Everything the server sent, decoded as latin1 so no byte is lost. */
  raw: string;
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting until the first byte of the answer. */
  firstByteAfter: number | undefined;
  /** Whether the server closed the connection before `waitMs` ran out. */
  closedByServer: boolean;
}

/**
 * Sends `data` on a new TCP connection and collects what comes back until the server closes
 * the connection or `waitMs` passes. `halfClose` ends the sending side afterwards (FIN), as a
 * client does that gives up on a request mid-body.
 */
export function rawRequest(port: number, data: string | Buffer, { waitMs = 3000, halfClose = false } = {}): Promise<RawResponse> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let firstByteAfter: number | undefined;
    let settled = false;
    const finish = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseRaw(Buffer.concat(chunks).toString('latin1'), firstByteAfter, closedByServer));
    };
    socket.on('data', (chunk) => {
      firstByteAfter ??= Date.now() - started;
      chunks.push(chunk);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('end', () => finish(true));
    socket.write(data);
    if (halfClose) socket.end();
    const timer = setTimeout(() => finish(false), waitMs);
  });
}

export function parseRaw(raw: string, firstByteAfter: number | undefined, closedByServer: boolean): RawResponse {
  const headerEnd = raw.indexOf('\r\n\r\n');
  const head = headerEnd === -1 ? raw : raw.slice(0, headerEnd);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  return {
    raw,
    status: status ? Number(status) : undefined,
    headers,
    body: headerEnd === -1 ? '' : raw.slice(headerEnd + 4),
    firstByteAfter,
    closedByServer,
  };
}

/** A raw answer as the TestResponse the other assertions take. */
export function asTestResponse(response: RawResponse): TestResponse {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(response.body, 'latin1').toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: response.status ?? 0, headers: new Headers(response.headers), text: response.body, json };
}
