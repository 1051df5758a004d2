/**
 * What the three apps share: where the Assist server is (the test passes it in the page's URL,
 * `?server=http://127.0.0.1:PORT`), the widget keys, and a record of the `assist-*` events each
 * element dispatched, which the test reads from `window.assistEvents`.
 */
import { createClient, type AssistClient } from 'assist-widgets';
import type { RecordedEvent } from './recorded-event.js';

const params = new URLSearchParams(location.search);

export const SERVER = params.get('server') ?? 'http://localhost:8787';
export const CHAT_KEY = params.get('chat') ?? 'acme/help';
export const SEARCH_KEY = params.get('search') ?? 'acme/find';

/** A client of its own for the chat element (its `client` property), made with the package's headless client. */
export function chatClient(): AssistClient {
  return createClient(CHAT_KEY, { baseUrl: SERVER });
}


declare global {
  interface Window {
    assistEvents: RecordedEvent[];
  }
}
window.assistEvents = [];

/** Keeps what the test checks of an `assist-*` event. */
export function record(event: Event): void {
  const detail = (event as CustomEvent<Record<string, unknown>>).detail ?? {};
  window.assistEvents.push({
    tag: (event.currentTarget as Element).localName,
    type: event.type,
    hits: Array.isArray(detail.hits) ? detail.hits.length : undefined,
    role: typeof detail.role === 'string' ? detail.role : undefined,
    text: typeof detail.text === 'string' ? detail.text : undefined,
    url: typeof detail.url === 'string' ? detail.url : undefined,
  });
  // The apps route results themselves, as a single-page app would.
  if (event.type === 'assist-select') event.preventDefault();
}
