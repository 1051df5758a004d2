/**
 * The analytics beacon (`/widget/v1/assist-analytics.js`) on a host website of its own origin,
 * against the real server: marked links report clicks (also ones added after load), without a
 * preflight and without holding up navigation; the manual form; sessions shared with a search.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { baseFixture } from '../server/harness.js';
import { startE2E, type E2E } from './harness.js';

let e2e: E2E;
before(async () => {
  const fixture = baseFixture();
  fixture.organisations[0]!.widgets[1]!.websites.push('127.0.0.1');
  e2e = await startE2E({ fixture });
  e2e.site.pages.set('/landed', '<!doctype html><title>Landed</title><p>Result page</p>');
});
after(() => e2e.close());

interface StoredClick {
  session_id: string;
  query_id: string | null;
  url: string;
  rank: number | null;
  source: string | null;
}

async function storedClicks(where: string, value: string): Promise<StoredClick[]> {
  return e2e.server.db.query<StoredClick>(
    `SELECT session_id, query_id, url, rank, source FROM analytics_events WHERE widget_id = 'find' AND ${where} = $1 ORDER BY id`,
    [value],
  );
}

/** Waits until the server has stored `count` clicks matching the condition (beacons are asynchronous). */
async function waitForClicks(where: string, value: string, count: number): Promise<StoredClick[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const rows = await storedClicks(where, value);
    if (rows.length >= count || Date.now() > deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every request the browser makes to the events route, with its method and content type. */
function recordEventRequests(context: BrowserContext): { method: string; contentType: string | undefined }[] {
  const seen: { method: string; contentType: string | undefined }[] = [];
  context.on('request', (request) => {
    if (request.url().includes('/events')) seen.push({ method: request.method(), contentType: request.headers()['content-type'] });
  });
  return seen;
}

function beaconTag(attributes = ''): string {
  return `<script src="${e2e.server.url}/widget/v1/assist-analytics.js" ${attributes}></script>`;
}

async function openHostPage(page: Page, path: string, html: string): Promise<void> {
  e2e.site.pages.set(path, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Results</title>${html}</head><body></body></html>`);
  await page.goto(`${e2e.site.origin}${path}`);
}

test('a click on a marked link and on a link added after load reach the server, with no preflight, and navigation happens', async () => {
  const { page, context, errors } = await e2e.newPage();
  const requests = recordEventRequests(context);
  const session = 's_beacon_links';
  e2e.site.pages.set(
    '/results',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Results</title>
     ${beaconTag(`data-widget="acme/find" data-session="${session}"`)}</head><body>
     <ol><li><a id="first" href="/landed?from=first" data-sv-click data-sv-rank="1" data-sv-source="result">Start</a></li></ol>
     <script>
       setTimeout(() => {
         const link = document.createElement('a');
         link.id = 'later';
         link.href = '/landed?from=later';
         link.textContent = 'Configure';
         link.setAttribute('data-sv-click', '');
         link.dataset.svRank = '2';
         link.dataset.svUrl = 'https://acme.test/start#configure';
         document.querySelector('ol').append(link);
       }, 300);
     </script></body></html>`,
  );

  await page.goto(`${e2e.site.origin}/results`);
  await page.click('#first');
  await page.waitForURL('**/landed?from=first');
  let rows = await waitForClicks('session_id', session, 1);
  assert.deepEqual(rows, [{ session_id: session, query_id: null, url: `${e2e.site.origin}/landed?from=first`, rank: 1, source: 'result' }]);

  await page.goBack();
  await page.waitForSelector('#later');
  await page.click('#later');
  await page.waitForURL('**/landed?from=later');
  rows = await waitForClicks('session_id', session, 2);
  assert.deepEqual(rows[1], { session_id: session, query_id: null, url: 'https://acme.test/start#configure', rank: 2, source: null });

  assert.ok(requests.length >= 2, 'the browser sent the clicks to the events route');
  assert.deepEqual(requests.filter(({ method }) => method !== 'POST'), [], 'no preflight (OPTIONS) request');
  assert.ok(requests.every(({ contentType }) => contentType?.startsWith('text/plain')));
  assert.deepEqual(errors, []);
});

test('Enter on a focused link and a middle click are reported too; unmarked links are not', async () => {
  const { page } = await e2e.newPage();
  const session = 's_beacon_keys';
  await openHostPage(
    page,
    '/keys',
    `${beaconTag(`data-widget="acme/find" data-session="${session}"`)}
     <script>addEventListener('DOMContentLoaded', () => document.body.innerHTML =
       '<a id="plain" href="#plain">Plain</a> <a id="kbd" href="#kbd" data-sv-click data-sv-rank="3">Keyboard</a> ' +
       '<a id="middle" href="/landed?from=middle" data-sv-click data-sv-rank="4" data-sv-source="summary">Middle</a>');</script>`,
  );
  await page.click('#plain');
  await page.focus('#kbd');
  await page.keyboard.press('Enter');
  await page.click('#middle', { button: 'middle' });
  const rows = await waitForClicks('session_id', session, 2);
  assert.deepEqual(
    rows.map(({ url, rank, source }) => ({ url: new URL(url).hash || new URL(url).pathname, rank, source })),
    [
      { url: '#kbd', rank: 3, source: null },
      { url: '/landed', rank: 4, source: 'summary' },
    ],
  );
});

test('the manual form: AssistAnalytics.init({ key, sessionId }).trackClick({ url, rank, source })', async () => {
  const { page, errors } = await e2e.newPage();
  await openHostPage(page, '/manual', beaconTag());
  await page.evaluate(() => {
    const analytics = (window as unknown as { AssistAnalytics: { init(options: object): { trackClick(props: object): void } } }).AssistAnalytics;
    analytics.init({ key: 'acme/find', sessionId: 's_beacon_manual' }).trackClick({ url: 'https://acme.test/start', rank: 5, source: 'summary' });
  });
  const rows = await waitForClicks('session_id', 's_beacon_manual', 1);
  assert.deepEqual(rows, [{ session_id: 's_beacon_manual', query_id: null, url: 'https://acme.test/start', rank: 5, source: 'summary' }]);
  assert.deepEqual(errors, []);
});

test('data-session joins the session of a search made with that session id, and data-sv-query ties the click to the search', async () => {
  const search = await e2e.server.request('POST', '/api/v1/acme/widgets/find/search', { token: 'ws_test_find', body: { query: 'install widget', sessionId: 's_beacon_funnel' } });
  assert.equal(search.status, 200);
  assert.equal(search.json.sessionId, 's_beacon_funnel');
  const hit = search.json.hits[0];
  assert.ok(hit, 'the search found the page');

  const { page } = await e2e.newPage();
  await openHostPage(
    page,
    '/funnel',
    `${beaconTag(`data-widget="acme/find" data-session="${search.json.sessionId}"`)}
     <script>addEventListener('DOMContentLoaded', () => document.body.innerHTML =
       '<a id="hit" href="#hit" data-sv-click data-sv-rank="1" data-sv-source="result" data-sv-query="${search.json.queryId}" data-sv-url="${hit.url}">${hit.title}</a>');</script>`,
  );
  await page.click('#hit');
  await waitForClicks('session_id', 's_beacon_funnel', 1);
  const funnel = await e2e.server.db.query<{ query: string; url: string }>(
    `SELECT q.query, e.url FROM analytics_events e JOIN search_queries q ON q.session_id = e.session_id AND q.id = e.query_id
     WHERE e.session_id = 's_beacon_funnel'`,
  );
  assert.deepEqual(funnel, [{ query: 'install widget', url: hit.url }]);
});

test('without data-session, clicks join the tab session that assist.js uses on the same page', async () => {
  const { page } = await e2e.newPage();
  await openHostPage(
    page,
    '/shared',
    `<script src="${e2e.server.url}/widget/v1/assist.js"></script>${beaconTag('data-widget="acme/find"')}
     <script>addEventListener('DOMContentLoaded', () => document.body.innerHTML = '<a id="hit" href="#hit" data-sv-click data-sv-rank="1">Start</a>');</script>`,
  );
  // The beacon's click creates the tab session; the SDK's client then reports the same one.
  await page.click('#hit');
  const sessionId = await page.evaluate(() => (window as unknown as { Assist: { headless(key: string): { sessionId: string } } }).Assist.headless('acme/find').sessionId);
  assert.match(sessionId, /^s_[0-9a-f]{32}$/);
  const rows = await waitForClicks('session_id', sessionId, 1);
  assert.equal(rows.length, 1);
  await page.reload();
  await page.click('#hit');
  assert.equal((await waitForClicks('session_id', sessionId, 2)).length, 2, 'the session lasts for the tab');
});

test('under the strict Content-Security-Policy of the docs (no unsafe-inline), the beacon reports clicks', async () => {
  const { page, errors } = await e2e.newPage();
  const session = 's_beacon_csp';
  e2e.site.headers.set('/csp', {
    'Content-Security-Policy': `default-src 'self'; script-src 'self' ${e2e.server.url}; connect-src 'self' ${e2e.server.url}; style-src 'self'`,
  });
  e2e.site.pages.set(
    '/csp',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Results</title>
     ${beaconTag(`data-widget="acme/find" data-session="${session}"`)}</head>
     <body><a id="hit" href="#hit" data-sv-click data-sv-rank="1">Start</a></body></html>`,
  );
  await page.goto(`${e2e.site.origin}/csp`);
  await page.click('#hit');
  assert.equal((await waitForClicks('session_id', session, 1)).length, 1);
  assert.deepEqual(errors, [], 'no Content-Security-Policy violation');
});

test('a malformed data-widget gives a clear console warning and reports nothing', async () => {
  const { page, context } = await e2e.newPage();
  const requests = recordEventRequests(context);
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await openHostPage(
    page,
    '/malformed',
    `${beaconTag('data-widget="acme"')}
     <script>addEventListener('DOMContentLoaded', () => document.body.innerHTML = '<a id="hit" href="#hit" data-sv-click>Start</a>');</script>`,
  );
  await page.click('#hit');
  await page.waitForTimeout(300);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /\[assist\].*"acme" is not a widget key.*\{organisation\}\/\{widget\}/);
  assert.deepEqual(requests, []);
});
