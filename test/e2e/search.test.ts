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
  Object.assign(find, { config: { summary: true, debounce: 150, suggestions: ['How do I change the accent colour?'] } });
  fixture.organisations[0]!.widgets.find((widget) => widget.id === 'help')!.websites.push('127.0.0.1');
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
  // The results of the whole query: a pause while typing may show those of "accent" first.
  await options.first().locator('mark', { hasText: 'colour' }).waitFor();
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

/** Waits for the server to hold what `query` selects (events arrive by beacon, a moment later). */
async function eventually<Row>(query: () => Promise<Row[]>, ready: (rows: Row[]) => boolean): Promise<Row[]> {
  let rows: Row[] = [];
  for (let attempt = 0; attempt < 50; attempt++) {
    rows = await query();
    if (ready(rows)) return rows;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return rows;
}

test('Ask AI: Enter on the first option closes the search, the chat answers the query, and its rating reaches the server', async () => {
  const { page, errors } = await openPage(`<main><h1>Host</h1><p>Content.</p></main>
    <script>Assist.search('acme/find', { chat: 'acme/help' }).mount();</script>`);
  await page.waitForFunction(() => document.querySelector('assist-search')?.shadowRoot?.querySelector('dialog'));
  await page.keyboard.press('Control+k');
  const input = page.locator('assist-search input[role="combobox"]');
  await input.waitFor();
  // The empty modal offers the widget's suggested questions.
  assert.deepEqual(await page.locator('assist-search [role="option"]').allTextContents().then((texts) => texts.map((text) => text.trim())), ['How do I change the accent colour?']);
  await input.pressSequentially('install');
  const ask = page.locator('assist-search [part~="ask"]');
  await ask.waitFor();
  assert.equal((await ask.textContent())?.trim(), 'Ask AI: install');
  await page.locator('assist-search [part="result"]').first().waitFor();
  assert.equal(await page.locator('assist-search [role="option"]').first().getAttribute('part'), 'ask');
  await input.press('Enter');

  await page.locator('assist-chat [part="panel"]:not([hidden])').waitFor();
  assert.equal(await page.locator('assist-search dialog').evaluate((dialog) => (dialog as HTMLDialogElement).open), false);
  assert.equal((await page.locator('assist-chat .message.user > :not(.speaker)').first().textContent())?.trim(), 'install');
  const feedback = page.locator('assist-chat [part="feedback"]').last();
  await feedback.waitFor({ timeout: 30_000 });
  await feedback.getByRole('button', { name: 'Not helpful' }).click();
  await feedback.getByRole('textbox').fill('It skips the proxy case');
  await feedback.getByRole('textbox').press('Enter');

  const rows = await eventually(
    () =>
      e2e.server.db.query<{ value: string; comment: string | null; kind: string; rater: string; asker: string }>(
        `SELECT f.value, f.comment, a.kind, f.session_id AS rater, a.session_id AS asker FROM answer_feedback f JOIN answers a ON a.id = f.answer_id WHERE f.widget_id = 'help'`,
      ),
    (found) => found[0]?.comment === 'It skips the proxy case',
  );
  assert.equal(rows.length, 1);
  assert.deepEqual({ ...rows[0], rater: undefined, asker: undefined }, { value: 'unhelpful', comment: 'It skips the proxy case', kind: 'chat', rater: undefined, asker: undefined });
  assert.equal(rows[0]!.rater, rows[0]!.asker);
  assert.deepEqual(errors, []);
});

test('a finished summary is rated helpful, and the rating reaches the server for that summary', async () => {
  const { page, errors } = await openPage(`<script>Assist.search('acme/find').mount();</script>`);
  await page.waitForFunction(() => document.querySelector('assist-search')?.shadowRoot?.querySelector('dialog'));
  await page.keyboard.press('Control+k');
  await page.locator('assist-search input[role="combobox"]').pressSequentially('accent colour');
  const feedback = page.locator('assist-search [part="summary"] [part="feedback"]');
  await feedback.waitFor({ timeout: 30_000 });
  await feedback.getByRole('button', { name: 'Helpful', exact: true }).click();
  const rows = await eventually(
    () => e2e.server.db.query<{ value: string; kind: string; question: string }>(
      `SELECT f.value, a.kind, a.question FROM answer_feedback f JOIN answers a ON a.id = f.answer_id WHERE f.widget_id = 'find'`,
    ),
    (found) => found.length > 0,
  );
  assert.deepEqual(rows, [{ value: 'helpful', kind: 'summary', question: 'accent colour' }]);
  assert.deepEqual(errors, []);
});
