/**
 * Shared pieces of the client tests: an MSW worker standing in for the Assist API, fixtures
 * shaped like the contract, and a builder for Server-Sent Event responses.
 */
import { setupWorker } from 'msw/browser';
import { HttpResponse } from 'msw';
import type { ChatReply, Hit, WidgetConfig } from '../../wire/contract.js';
import { defaultConfig } from '../../wire/contract.js';
import { clearConfigCache } from '../../src/core/config-cache.js';

/**
 * Test files run in parallel pages of one origin, which share localStorage: each file gets its
 * own widget (and so its own storage keys) so one file's cleanup never wipes another's history.
 */
export const WIDGET_ID = `help-${Math.random().toString(36).slice(2, 10)}`;
export const WIDGET_KEY = `acme/${WIDGET_ID}`;
export const API = `${location.origin}/api/v1/acme/widgets/${WIDGET_ID}`;

/** The localStorage keys this file's widget owns. */
export function ownStorageKeys(): string[] {
  return Object.keys(localStorage).filter((key) => key.includes(WIDGET_ID));
}
/** Retries fast enough for tests, but still retries. */
export const FAST_RETRY = { retries: 2, baseDelayMs: 1, maxDelayMs: 20 };

export const worker = setupWorker();

/** Starts MSW for the file, resets handlers and browser storage around every test. */
export function useMockApi(): { requests: Request[] } {
  const log = { requests: [] as Request[] };
  before(async function () {
    // Registering the service worker is the slowest step by far on a loaded machine.
    this.timeout(30_000);
    await controlledBySharedWorker();
    await worker.start({ quiet: true, onUnhandledRequest: 'error' });
    worker.events.on('request:start', ({ request }) => {
      log.requests.push(request.clone());
    });
  });
  beforeEach(() => {
    log.requests.length = 0;
    sessionStorage.clear();
    for (const key of ownStorageKeys()) localStorage.removeItem(key);
    clearConfigCache();
  });
  afterEach(() => worker.resetHandlers());
  // No worker.stop() at the end: the runner closes the page anyway, and the service worker stays
  // registered for the files running beside this one (web-test-runner.config.mjs serves it so).
  return log;
}

/**
 * Makes sure the shared service worker controls this page when another file's page registered
 * it: MSW reloads a page that a registration of its worker exists for but no worker controls,
 * and the runner fails a file whose page reloads ("interrupted because the page was reloaded").
 * A page opened while the worker was being installed was too early for the worker's claim of
 * every page once active; it asks the worker to claim it (web-test-runner.config.mjs).
 */
async function controlledBySharedWorker(): Promise<void> {
  const isMock = (worker: ServiceWorker | null) => worker?.scriptURL.endsWith('/mockServiceWorker.js') === true;
  const registrations = await navigator.serviceWorker.getRegistrations();
  if (navigator.serviceWorker.controller || !registrations.some((registration) => [registration.active, registration.waiting, registration.installing].some(isMock))) return;
  const controlled = new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
  const { active } = await navigator.serviceWorker.ready;
  if (navigator.serviceWorker.controller) return;
  active?.postMessage('assist-tests:claim');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the shared mock service worker did not take control of this page')), 15_000);
  });
  await Promise.race([controlled, late]).finally(() => clearTimeout(timer));
}

export function hit(rank: number): Hit {
  return { id: `h${rank}`, pageId: `p${rank}`, url: `https://acme.test/p${rank}#s`, title: `Page ${rank}`, section: 'Intro', snippet: 'reset <mark>password</mark>', source: 'docs', score: 1 / rank };
}

export const CONFIG: WidgetConfig = { ...defaultConfig('chatbot', 'Help'), greeting: 'Hi!', default_language: 'de' };

export const REPLY: ChatReply = {
  text: 'Open **Settings**.',
  conversationId: 'c_1',
  answerId: 'a_1',
  sources: [{ url: 'https://acme.test/start', title: 'Start', pageId: 'p1' }],
};

export function errorBody(code: string, message = `${code} happened`) {
  return { error: { code, message } };
}

export type StreamEvent = [event: string, data: unknown];

/** The events of a successful streamed chat answer, as the contract shows them. */
export function chatEvents(reply: ChatReply = REPLY, deltas = ['Open ', '**Settings**', '.']): StreamEvent[] {
  return [
    ['meta', { conversationId: reply.conversationId, answerId: reply.answerId }],
    ['status', { status: 'searching' }],
    ['sources', { sources: reply.sources }],
    ['status', { status: 'generating' }],
    ...deltas.map((delta): StreamEvent => ['token', { delta }]),
    ['done', reply],
  ];
}

export function encodeEvents(events: StreamEvent[], lineEnd = '\n'): string {
  return events.map(([event, data], index) => `id: ${index + 1}${lineEnd}event: ${event}${lineEnd}data: ${JSON.stringify(data)}${lineEnd}${lineEnd}`).join('');
}

export interface StreamOptions {
  /** Split the bytes into chunks of this size (default: one chunk per event). */
  chunkSize?: number;
  /** Error the stream after sending everything (a dropped connection) instead of closing it. */
  breakConnection?: boolean;
  /** Wait this long between chunks. */
  delayMs?: number;
}

/** A `text/event-stream` response whose body is `text`, delivered in the given chunks. */
export function streamResponse(text: string, options: StreamOptions = {}): HttpResponse<ReadableStream> {
  const bytes = new TextEncoder().encode(text);
  const size = options.chunkSize ?? bytes.length;
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.slice(i, i + size));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const chunk of chunks) {
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        controller.enqueue(chunk);
      }
      if (options.breakConnection) setTimeout(() => controller.error(new Error('connection reset')), 10);
      else controller.close();
    },
  });
  return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
}

export function sseResponse(events: StreamEvent[], options: StreamOptions = {}): HttpResponse<ReadableStream> {
  return streamResponse(encodeEvents(events), options);
}

/** An answer stream the test feeds event by event, then closes. */
export function controlledStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    response: () => new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } }),
    send: (...events: StreamEvent[]) => controller.enqueue(encoder.encode(encodeEvents(events))),
    close: () => controller.close(),
  };
}

/** Rejection of `promise`, failing the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the promise to reject, but it resolved.');
}

export const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `check` passes (does not throw or return false), retrying until it does or `timeout` ms have passed. */
export async function until(check: () => unknown, timeout = 3000): Promise<void> {
  const start = Date.now();
  for (;;) {
    try {
      if (check() !== false) return;
    } catch (error) {
      if (Date.now() - start > timeout) throw error;
    }
    if (Date.now() - start > timeout) throw new Error(`Condition not met: ${check}`);
    await tick(10);
  }
}

/**
 * Records the analytics events a widget sends through `navigator.sendBeacon` (as the client
 * does); the original is put back by the cleanup pushed onto `cleanups`.
 */
export function captureBeacons(cleanups: (() => void)[]): { url: string; body: any }[] {
  const sent: { url: string; body: any }[] = [];
  const original = navigator.sendBeacon;
  navigator.sendBeacon = (url: string | URL, body?: BodyInit | null) => {
    void (body as Blob).text().then((text) => sent.push({ url: String(url), body: JSON.parse(text) }));
    return true;
  };
  cleanups.push(() => (navigator.sendBeacon = original));
  return sent;
}
