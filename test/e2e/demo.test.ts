/**
 * The demo site, as `npm start` serves it: the real server with the demo fixture (its content
 * is this project's docs folder), the built SDK, and Chromium opening every /demo/ page.
 * The pages load Assist from the server's other loopback name, so each page is a website on
 * another origin than the API, as on a real site; the fixture's website list gets the test
 * port's hosts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../server/options.js';
import { startE2E, type E2E } from './harness.js';

let e2e: E2E;
let demo: string;

before(async () => {
  const root = projectRoot();
  const fixture = JSON.parse(readFileSync(join(root, 'demo', 'fixture.json'), 'utf8'));
  const organisation = fixture.organisations[0];
  for (const widget of organisation.widgets) widget.websites.push('127.0.0.1', 'localhost');
  // The harness writes the fixture to a temporary folder; the docs stay where they are.
  for (const source of organisation.sources) if (source.folder) source.folder = join(root, 'demo', source.folder);
  e2e = await startE2E({ fixture });
  demo = `${e2e.server.url}/demo/`;
});
after(() => e2e?.close());

/** Answers links to the docs' public address (localhost:8787 in the fixture) with a blank page. */
async function stubDocLinks(page: Page): Promise<void> {
  await page.route('http://localhost:8787/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>doc</title>' }));
}

async function askChat(page: Page, question: string): Promise<void> {
  const input = page.locator('assist-chat [part="input"]');
  await input.fill(question);
  await input.press('Enter');
  await page.locator('assist-chat [part="source-link"]').first().waitFor({ timeout: 30_000 });
  // Sources come before the text: the answer is whole once its actions (copy, or retry) show.
  await page.locator('assist-chat .message.assistant .actions').last().waitFor({ timeout: 30_000 });
}

const PAGES: [path: string, widget: string | null][] = [
  ['', 'assist-chat'],
  ['chat-bubble.html', 'assist-chat'],
  ['chat-trigger.html', 'assist-chat'],
  ['chat-inline.html', 'assist-chat'],
  ['search-modal.html', 'assist-search'],
  ['search-inline.html', 'assist-search'],
  ['headless.html', null],
  ['results?q=signing', null],
  ['signed-visitor.html', 'assist-chat'],
  ['docs/embedding', 'assist-chat'],
];

test('every demo page loads under its strict CSP with no console error, and shows how it embeds Assist', async () => {
  for (const [path, widget] of PAGES) {
    const { page, errors, context } = await e2e.newPage();
    const response = await page.goto(demo + path);
    assert.equal(response?.status(), 200, path);
    assert.match(response!.headers()['content-security-policy'] ?? '', /script-src 'self' http:\/\/localhost:\d+;/, path);
    if (widget) await page.locator(widget).waitFor({ state: 'attached', timeout: 10_000 });
    if (!path.startsWith('docs/')) {
      await page.waitForFunction(() => (document.querySelector('#demo-snippet')?.textContent ?? '').includes('/widget/v1/'));
    }
    await page.waitForTimeout(300);
    assert.deepEqual(errors, [], `console errors on /demo/${path}`);
    await context.close();
  }
});

test('at 375 px no demo page scrolls sideways, and the launcher and the modal’s close button are on screen', async () => {
  for (const [path, widget] of [...PAGES, ['docs/identity', 'assist-chat'] as [string, string]]) {
    const { page, context } = await e2e.newPage({ viewport: { width: 375, height: 700 } });
    await page.goto(demo + path);
    if (widget) await page.locator(widget).waitFor({ state: 'attached', timeout: 10_000 });
    await page.waitForTimeout(300);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `/demo/${path} is ${width} px wide at 375 px`);
    const inView = async (selector: string) => {
      const box = await page.locator(selector).boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 375, `${selector} on /demo/${path} is on screen: ${JSON.stringify(box)}`);
    };
    if (path === 'chat-bubble.html') await inView('assist-chat [part="launcher"]');
    if (path === 'search-modal.html') {
      await page.locator('assist-search [part="box"]').click();
      await inView('assist-search [part="close-button"]');
    }
    await context.close();
  }
});

test('the docs reader opens a cited section on its own heading', async () => {
  const { page, context } = await e2e.newPage();
  await page.goto(demo + 'docs/identity#python');
  await page.locator('#python').waitFor({ timeout: 10_000 });
  assert.equal((await page.locator('#python').textContent())?.trim(), 'Python');
  assert.equal((await page.locator('#node').textContent())?.trim(), 'Node');
  assert.equal(await page.locator('h1').first().getAttribute('id'), null);
  await context.close();
});

test('the overview links every mode, and each link opens a page', async () => {
  const { page, context } = await e2e.newPage();
  await page.goto(demo);
  const links = await page.locator('.mode-list a').evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
  assert.equal(links.length, 8);
  for (const link of links) assert.equal((await page.request.get(link)).status(), 200, link);
  await context.close();
});

test('the chat bubble answers a question about Assist from the docs, citing them', async () => {
  const { page, errors, context } = await e2e.newPage();
  await stubDocLinks(page);
  await page.goto(demo + 'chat-bubble.html');
  await page.locator('assist-chat [part="launcher"]').click();
  await askChat(page, 'How do I embed the chat widget with a script tag?');
  const answer = await page.locator('assist-chat .message.assistant .markdown').last().innerText();
  assert.ok(answer.length > 20, `an answer: ${answer}`);
  const source = await page.locator('assist-chat [part="source-link"]').first().getAttribute('href');
  assert.match(source ?? '', /\/demo\/docs\//);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a custom trigger opens the chat and the default launcher is not shown', async () => {
  const { page, context } = await e2e.newPage();
  await page.goto(demo + 'chat-trigger.html');
  await page.locator('assist-chat').waitFor({ state: 'attached' });
  assert.equal(await page.locator('assist-chat [part="launcher"]').count(), 0);
  await page.locator('#open-help').click();
  await page.locator('assist-chat [part="input"]').waitFor();
  await context.close();
});

test('the switcher sets theme and language on the widgets, and both survive a reload', async () => {
  const { page, errors, context } = await e2e.newPage({ locale: 'en-US' });
  await page.goto(demo + 'chat-inline.html');
  const input = page.locator('#help-panel assist-chat [part="input"]');
  assert.equal(await input.getAttribute('aria-label'), 'Message');
  await page.selectOption('#demo-language', 'de');
  await page.selectOption('#demo-theme', 'dark');
  await page.waitForFunction(() => document.querySelectorAll('assist-chat').length === 1 && document.querySelector('assist-chat')?.getAttribute('data-theme') === 'dark');
  await page.locator('#help-panel assist-chat [part="input"][aria-label="Nachricht"]').waitFor();
  await page.reload();
  await page.locator('#help-panel assist-chat [part="input"][aria-label="Nachricht"]').waitFor();
  assert.equal(await page.locator('#demo-language').inputValue(), 'de');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await page.locator('assist-chat').getAttribute('data-theme'), 'dark');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the search modal opens with Ctrl+K and shows results from the docs', async () => {
  const { page, errors, context } = await e2e.newPage();
  await page.goto(demo + 'search-modal.html');
  await page.locator('assist-search [part="box"]').waitFor();
  await page.keyboard.press('Control+k');
  await page.locator('assist-search [part="input"]').fill('signing secret');
  // "Ask AI" comes first (the page gives the search its help chat), then the results.
  await page.locator('assist-search [part~="result"]').first().waitFor({ timeout: 15_000 });
  assert.equal(await page.locator('assist-search [role="option"]').first().getAttribute('part'), 'ask');
  assert.match(await page.locator('assist-search [part~="result"]').first().getAttribute('href') ?? '', /\/demo\/docs\//);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the inline search shows results right after the page\'s own input', async () => {
  const { page, errors, context } = await e2e.newPage();
  await page.goto(demo + 'search-inline.html');
  await page.locator('assist-search').waitFor({ state: 'attached' });
  await page.locator('#site-search').fill('content security policy');
  await page.locator('#site-search').press('Enter');
  await page.locator('[role="option"]').first().waitFor({ timeout: 15_000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the headless page draws its own results and streams an answer rendered as markdown', async () => {
  const { page, errors, context } = await e2e.newPage();
  await page.goto(demo + 'headless.html');
  await page.locator('#ask-input').fill('visitor signing');
  await page.locator('#ask-form button[value="search"]').click();
  await page.locator('#ask-list li a').first().waitFor({ timeout: 15_000 });
  assert.match(await page.locator('#ask-status').innerText(), /results/);

  await page.locator('#ask-input').fill('How do I sign a visitor id on my server?');
  await page.locator('#ask-form button[value="ask"]').click();
  await page.waitForFunction(() => document.querySelector('#ask-status')?.textContent === 'Sources:', undefined, { timeout: 30_000 });
  assert.ok((await page.locator('#ask-answer p, #ask-answer li, #ask-answer pre').count()) > 0, 'the answer is rendered markup');
  assert.ok((await page.locator('#ask-list li a').count()) > 0, 'sources are listed');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a click on a server-rendered result reaches the server in the same session as the search', async () => {
  const { page, errors, context } = await e2e.newPage();
  await stubDocLinks(page);
  await page.goto(`${demo}results?q=${encodeURIComponent('signing secret')}`);
  const link = page.locator('#results a[data-sv-click]').first();
  await link.waitFor();
  const session = await page.locator('script[data-widget="demo/search"]').getAttribute('data-session');
  assert.match(session ?? '', /^[\w-]+$/);
  const href = await link.getAttribute('href');
  await link.click();
  await page.waitForURL(href!);

  const rows = async () =>
    e2e.server.db.query<{ url: string; rank: number; source: string; query_id: string | null }>(
      'SELECT url, rank, source, query_id FROM analytics_events WHERE widget_id = $1 AND session_id = $2',
      ['search', session],
    );
  for (let attempt = 0; attempt < 50 && (await rows()).length === 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
  const [click] = await rows();
  assert.ok(click, 'the click is stored under the search session');
  assert.equal(click.url, href);
  assert.equal(click.rank, 1);
  assert.equal(click.source, 'result');
  const searches = await e2e.server.db.query<{ id: string }>('SELECT id FROM search_queries WHERE session_id = $1', [session]);
  assert.equal(searches.length, 1, 'the search is in the same session');
  assert.equal(click.query_id, searches[0]!.id);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a signed visitor finds a past conversation in the history after a reload', async () => {
  const { page, errors, context } = await e2e.newPage();
  await stubDocLinks(page);
  await page.goto(demo + 'signed-visitor.html');
  await page.locator('#visitor-status', { hasText: 'Signed in as visitor-' }).waitFor();
  const visitor = await page.locator('#visitor-status').innerText();
  await askChat(page, 'What does the analytics beacon do?');

  await page.reload();
  await page.locator('#visitor-status', { hasText: visitor }).waitFor();
  await page.locator('assist-chat button[aria-label="History"]').click();
  await page.locator('assist-chat [part="history"] .title', { hasText: 'analytics beacon' }).waitFor({ timeout: 10_000 });
  assert.deepEqual(errors, []);
  await context.close();
});
