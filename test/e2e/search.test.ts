/**
 * The search widget end to end: the built assist.js, loaded by a page on another origin from
 * the real server, searching the real index, streaming a real summary, and reporting clicks
 * that land in the database. Needs `npm run build:widget` first.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { baseFixture } from '../server/harness.js';
import { hostPage, startE2E, type E2E } from './harness.js';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let e2e: E2E;
before(async () => {
  const fixture = baseFixture();
  const find = fixture.organisations[0]!.widgets.find((widget) => widget.id === 'find')!;
  find.websites.push('127.0.0.1');
  Object.assign(find, { config: { summary: true, debounce: 150 } });
  e2e = await startE2E({ fixture });
});
after(() => e2e.close());

/** The result pages live on acme.test; the browser gets a stand-in page for them. */
async function openPage(body: string) {
  const opened = await e2e.newPage();
  await opened.context.route('https://acme.test/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Acme page</title>' }));
  e2e.site.pages.set('/', hostPage(e2e.server, body));
  await opened.page.goto(`${e2e.site.origin}/`);
  return opened;
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown): Promise<{ violations: { id: string; impact: string }[] }> } }).axe;
    const { violations } = await axe.run(document.querySelector('assist-search'));
    return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id);
  });
}

test('Ctrl+K, type, see results and a summary; ArrowDown and Enter open the result and the click reaches the server', async () => {
  const { page, errors } = await openPage(`<main><h1>Host</h1><p>Content.</p></main>
    <script>Assist.search('acme/find').mount();</script>`);
  await page.waitForFunction(() => document.querySelector('assist-search')?.shadowRoot?.querySelector('dialog'));
  await page.keyboard.press('Control+k');
  const input = page.locator('assist-search input[role="combobox"]');
  await input.waitFor();
  await input.pressSequentially('accent colour');

  const options = page.locator('assist-search [role="option"]');
  await options.first().waitFor();
  const firstHref = await options.first().getAttribute('href');
  assert.equal(firstHref, 'https://acme.test/start#configure');
  assert.deepEqual(await options.first().locator('mark').allTextContents(), ['accent', 'colour']);
  assert.match(await page.locator('assist-search [role="status"]').first().textContent() ?? '', /^\d+ results?$/);

  await page.locator('assist-search .summary-sources a').first().waitFor();
  assert.ok(((await page.locator('assist-search [part="summary"] .markdown').textContent()) ?? '').trim().length > 0);
  assert.deepEqual(await axeViolations(page), []);

  await input.press('ArrowDown');
  assert.equal(await input.getAttribute('aria-activedescendant'), await options.first().getAttribute('id'));
  await Promise.all([page.waitForURL('https://acme.test/start#configure'), input.press('Enter')]);

  const searches = await e2e.server.db.query<{ id: string; session_id: string }>(
    `SELECT id, session_id FROM search_queries WHERE widget_id = 'find' AND query = 'accent colour'`,
  );
  assert.equal(searches.length, 1);
  let clicks: { query_id: string; session_id: string; url: string; rank: number; source: string }[] = [];
  for (let attempt = 0; attempt < 50 && clicks.length === 0; attempt++) {
    clicks = await e2e.server.db.query(`SELECT query_id, session_id, url, rank, source FROM analytics_events WHERE widget_id = 'find'`);
    if (clicks.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.deepEqual(clicks, [{ query_id: searches[0]!.id, session_id: searches[0]!.session_id, url: 'https://acme.test/start#configure', rank: 1, source: 'result' }]);
  assert.deepEqual(errors, []);
});

test('the inline variant on an existing input shows results right after it, as a combobox', async () => {
  const { page, errors } = await openPage(`<label for="q">Search</label><input id="q" type="search"><p id="after">After the input</p>
    <script>Assist.search('acme/find', { variant: 'inline', trigger: '#q' }).mount();</script>`);
  await page.waitForFunction(() => document.querySelector('#q')?.getAttribute('role') === 'combobox');
  await page.locator('#q').pressSequentially('install');
  const option = page.locator('#q + assist-search [role="option"]').first();
  await option.waitFor();
  assert.equal(await option.getAttribute('href'), 'https://acme.test/start');
  const listboxId = await page.locator('#q').getAttribute('aria-controls');
  assert.equal(await page.evaluate((id) => document.getElementById(id!)?.getAttribute('role'), listboxId), 'listbox');
  assert.equal(await page.locator('#q').getAttribute('aria-expanded'), 'true');
  await page.locator('#q').press('ArrowDown');
  assert.equal(await page.locator('#q').getAttribute('aria-activedescendant'), await option.getAttribute('id'));
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(errors, []);
});
