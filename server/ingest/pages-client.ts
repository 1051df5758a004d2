/**
 * The management API's pages routes, as `assist-server ingest` calls them over HTTP with an
 * organisation API key. A refusal becomes a `PagesApiError` carrying the contract's error
 * code and message, so the command can show the server's own words.
 */
import { LIMITS, type ErrorBody, type Page, type PageFormat, type PageList } from '../../wire/contract.js';

/** The body of a page write (contract: management API). */
export interface PageWrite {
  url?: string;
  title?: string;
  content?: string;
  format?: PageFormat;
  language?: string | null;
  metadata?: Record<string, string | number | boolean | null> | null;
}

export class PagesApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly serverMessage: string,
    /** Extra members of the error body, e.g. the `pageId` of a 409. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(`${status} ${code}: ${serverMessage}`);
  }
}

const REQUEST_TIMEOUT_MS = 60_000;
const MAX_ATTEMPTS = 3;
const RETRIED_SOCKET_ERRORS = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * A client for one source's pages.
 *
 * @example
 *   const pages = new PagesClient('http://localhost:8787', 'ak_…', 'acme', 'docs');
 *   for (const page of await pages.listAll()) console.log(page.url);
 */
export class PagesClient {
  private readonly collection: string;

  constructor(
    private readonly serverUrl: string,
    private readonly apiKey: string,
    organisation: string,
    source: string,
  ) {
    this.collection = `/api/v1/${encodeURIComponent(organisation)}/sources/${encodeURIComponent(source)}/pages`;
  }

  /** Every page of the source (without content), following the cursor to the end. */
  async listAll(): Promise<Page[]> {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ limit: String(LIMITS.pageListMax) });
      if (cursor) query.set('cursor', cursor);
      const list: PageList = await this.call('GET', `${this.collection}?${query}`);
      pages.push(...list.pages);
      cursor = list.nextCursor;
    } while (cursor);
    return pages;
  }

  create(page: PageWrite): Promise<Page> {
    return this.call('POST', this.collection, page);
  }

  update(pageId: string, changes: PageWrite): Promise<Page> {
    return this.call('PATCH', `${this.collection}/${encodeURIComponent(pageId)}`, changes);
  }

  async remove(pageId: string): Promise<void> {
    await this.call('DELETE', `${this.collection}/${encodeURIComponent(pageId)}`);
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.apiKey}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response | undefined;
    for (let attempt = 1; !response; attempt++) {
      try {
        response = await fetch(new URL(path, this.serverUrl), {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        const cause = (error as { cause?: Error & { code?: string } }).cause;
        // A kept-alive connection the server closed just as this request went out: safe to
        // send again (a create that did arrive comes back as 409 and becomes an update).
        if (attempt < MAX_ATTEMPTS && RETRIED_SOCKET_ERRORS.has(cause?.code ?? '')) {
          await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
          continue;
        }
        throw new Error(`cannot reach the server at ${this.serverUrl}: ${cause?.message ?? (error as Error).message}`);
      }
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const error = (json as ErrorBody | undefined)?.error;
      if (error && typeof error.code === 'string' && typeof error.message === 'string') {
        const { error: _error, ...details } = json as ErrorBody & Record<string, unknown>;
        throw new PagesApiError(response.status, error.code, error.message, details);
      }
      throw new PagesApiError(response.status, 'unexpected_response', `${method} ${path} answered without an error body: ${text.slice(0, 200)}`);
    }
    return json as T;
  }
}
