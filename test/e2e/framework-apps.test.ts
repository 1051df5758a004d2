/**
 * The widget package in the apps front-end teams write: Vite apps for React 19, Vue 3 and plain
 * TypeScript (test/apps/), each rendering `<assist-search>` and `<assist-chat>` with every
 * documented attribute and property. The package is packed with `npm pack` and installed into
 * the apps with npm (one install for the three, with their Vite, React and Vue); each app is
 * type-checked against the package's declarations (`assist-widgets/react`,
 * `assist-widgets/vue`), built with Vite, and loaded in Chromium against the real server, where
 * it searches, streams a summary and a chat answer, and receives the `assist-*` events.
 * Needs `npm run build` first.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { baseFixture, startTestServer, type TestServer } from '../server/harness.js';
import { launchBrowser } from './harness.js';
import type { RecordedEvent } from '../apps/shared/recorded-event.js';

const run = promisify(execFile);
const repo = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const APPS_DIR = join(repo, 'test/apps');

interface App {
  name: string;
  /** Type-checks the app against the installed package's declarations. */
  typecheck: string[];
  greeting: string;
}

const TSC = join(repo, 'node_modules/typescript/bin/tsc');
const APPS: App[] = [
  { name: 'react', typecheck: [TSC, '-p', '.'], greeting: 'Hello from React' },
  { name: 'vue', typecheck: [join(APPS_DIR, 'node_modules/vue-tsc/bin/vue-tsc.js'), '-p', '.'], greeting: 'Hello from Vue' },
  { name: 'plain', typecheck: [TSC, '-p', '.'], greeting: 'Hello from TypeScript' },
];


let server: TestServer;
let site: Server;
let siteOrigin: string;
let browser: Browser;

/** Serves each app's Vite build under /NAME/. */
function serveBuiltApps(): Server {
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };
  return createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://apps').pathname);
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const [, name, ...rest] = path.split('/');
    const file = normalize(join(APPS_DIR, name ?? '', 'dist', rest.join('/') || 'index.html'));
    if (!APPS.some((app) => app.name === name) || !file.startsWith(join(APPS_DIR, name!, 'dist')) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
}

before(async () => {
  assert.ok(existsSync(join(repo, 'dist/npm/src/index.js')), 'dist/npm is missing: run `npm run build` first');
  const tmp = join(repo, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp, repo], { cwd: repo });
  const tarball = join(tmp, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  // One install for the three apps: their own dependencies (test/apps/package-lock.json, from npm's
  // cache after the first run) and the packed package, which npm unpacks afresh each time.
  await run('npm', ['install', '--no-save', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: APPS_DIR });
  const fixture = baseFixture();
  // The apps run on a dev machine's address: `localhost:*` lets any port in.
  for (const widget of fixture.organisations[0]!.widgets) widget.websites.push('localhost:*');
  site = serveBuiltApps();
  [server, browser] = await Promise.all([startTestServer({ fixture }), launchBrowser(), new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))]);
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

after(async () => {
  await browser?.close();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
  await server?.stop();
});

for (const app of APPS) {
  describe(`the ${app.name} app`, () => {
    test('type-checks against the package’s declarations, which refuse wrong attributes', async () => {
      const result = await run(process.execPath, app.typecheck, { cwd: join(APPS_DIR, app.name) }).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      assert.equal(result, '');
    });

    test('builds with Vite from the installed package', async () => {
      await run(process.execPath, [join(APPS_DIR, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: join(APPS_DIR, app.name) });
      assert.ok(existsSync(join(APPS_DIR, app.name, 'dist/index.html')));
    });

    test('renders both elements with their attributes, searches with a summary, streams a chat answer and receives the assist-* events', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      try {
        await page.goto(`${siteOrigin}/${app.name}/?server=${encodeURIComponent(server.url)}`);
        const events = () => page.evaluate(() => (window as unknown as { assistEvents: RecordedEvent[] }).assistEvents);
        await page.waitForFunction(() => (window as unknown as { assistEvents: RecordedEvent[] }).assistEvents.filter((event) => event.type === 'assist-ready').length === 2);

        // Attributes and properties took effect.
        assert.equal(await page.locator('assist-search input').getAttribute('placeholder'), 'Search the Acme docs');
        assert.equal(await page.locator('assist-chat textarea').getAttribute('placeholder'), 'Ask about Acme');
        await page.locator('assist-chat').getByText(app.greeting).waitFor();
        const configs = await page.evaluate(() => {
          type Configured = Element & { config: Record<string, unknown> | null };
          const search = document.querySelector('assist-search') as Configured;
          const chat = document.querySelector('assist-chat') as Configured;
          return { summary: search.config?.summary, debounce: search.config?.debounce, searchVariant: search.config?.variant, chatVariant: chat.config?.variant, accent: chat.config?.accent_light, theme: chat.config?.theme };
        });
        assert.deepEqual(configs, { summary: true, debounce: 50, searchVariant: 'inline', chatVariant: 'inline', accent: '#2557d6', theme: 'light' });

        // Search, with the summary streamed above the results.
        await page.locator('assist-search input').fill('accent colour');
        await page.waitForFunction(() => (window as unknown as { assistEvents: RecordedEvent[] }).assistEvents.some((event) => event.type === 'assist-search'));
        const searched = (await events()).find((event) => event.type === 'assist-search')!;
        assert.ok(searched.hits! > 0, 'the search found the page');
        await page.locator('assist-search [part="summary"] .markdown').filter({ hasText: /\w/ }).waitFor();
        await page.locator('assist-search [part~="result"]').first().click();
        await page.waitForFunction(() => (window as unknown as { assistEvents: RecordedEvent[] }).assistEvents.some((event) => event.type === 'assist-select'));
        assert.match((await events()).find((event) => event.type === 'assist-select')!.url!, /^https:\/\/acme\.test\/start/);

        // Chat: the question, then the streamed answer.
        await page.locator('assist-chat textarea').fill('How do I install the widget?');
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => (window as unknown as { assistEvents: RecordedEvent[] }).assistEvents.some((event) => event.type === 'assist-message' && event.role === 'assistant'));
        const messages = (await events()).filter((event) => event.type === 'assist-message');
        assert.deepEqual(messages.map((event) => event.role), ['user', 'assistant']);
        assert.equal(messages[0]!.text, 'How do I install the widget?');
        assert.ok(messages[1]!.text!.length > 0, 'the answer has text');
        assert.notEqual((await page.locator('assist-chat [part~="assistant"] .markdown').last().textContent())!.trim(), '', 'the answer is shown');

        assert.deepEqual((await events()).filter((event) => event.type === 'assist-error'), []);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  });
}
