import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { baseFixture } from '../server/harness.js';
import { hostPage, startE2E, type E2E } from './harness.js';

let e2e: E2E;
before(async () => {
  const fixture = baseFixture();
  fixture.organisations[0]!.widgets[0]!.websites.push('127.0.0.1');
  e2e = await startE2E({ fixture });
});
after(() => e2e.close());

test('a page on a listed website reads the widget config across origins; an unlisted one is refused', async () => {
  e2e.site.pages.set('/', hostPage(e2e.server));
  const { page, errors } = await e2e.newPage();
  await page.goto(`${e2e.site.origin}/`);
  const allowed = await page.evaluate(async (base) => {
    const response = await fetch(`${base}/api/v1/acme/widgets/help/config`);
    return { status: response.status, body: await response.json() };
  }, e2e.server.url);
  assert.equal(allowed.status, 200);
  assert.equal(allowed.body.greeting, 'Hi!');

  const refused = await page.evaluate(async (base) => {
    const response = await fetch(`${base}/api/v1/acme/widgets/find/config`);
    return { status: response.status, body: await response.json() };
  }, e2e.server.url);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'origin_not_allowed');
  assert.equal(typeof (await page.evaluate(() => typeof (window as unknown as { Assist?: unknown }).Assist)), 'string');
  assert.deepEqual(errors.filter((error) => !error.includes('403')), []);
});
