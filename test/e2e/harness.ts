/**
 * End-to-end harness: the real server (with the built SDK under /widget/v1/), a host
 * website on another origin, and the machine's Chromium driven by playwright-core.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer, type TestServer, type TestServerOptions } from '../server/harness.js';

export const CHROMIUM_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A website on its own origin whose pages are given as HTML strings by path. */
export interface HostSite {
  origin: string;
  pages: Map<string, string>;
  /** Extra response headers, e.g. a Content-Security-Policy. */
  headers: Map<string, Record<string, string>>;
  close(): Promise<void>;
}

export async function startHostSite(): Promise<HostSite> {
  const pages = new Map<string, string>();
  const headers = new Map<string, Record<string, string>>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://host').pathname;
    const html = pages.get(path);
    if (path === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    if (html === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...headers.get(path) });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pages,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface E2E {
  server: TestServer;
  site: HostSite;
  browser: Browser;
  /** A fresh browser context and page; console errors and page errors are collected. */
  newPage(options?: { locale?: string; colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } }): Promise<{
    page: Page;
    context: BrowserContext;
    errors: string[];
  }>;
  close(): Promise<void>;
}

/**
 * Starts everything. The host site runs on 127.0.0.1 with a random port, so widgets that
 * should accept it list `127.0.0.1` (no port) among their websites.
 */
export async function startE2E(options: TestServerOptions): Promise<E2E> {
  const [server, site, browser] = await Promise.all([startTestServer(options), startHostSite(), launchBrowser()]);
  const contexts: BrowserContext[] = [];
  return {
    server,
    site,
    browser,
    async newPage(pageOptions = {}) {
      const context = await browser.newContext(pageOptions);
      contexts.push(context);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(String(error)));
      return { page, context, errors };
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      await site.close();
      await server.stop();
    },
  };
}

/** A host page that loads the SDK from the Assist server with one script tag. */
export function hostPage(server: TestServer, body = '', head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host page</title>${head}
<script src="${server.url}/widget/v1/assist.js"></script></head><body>${body}</body></html>`;
}
