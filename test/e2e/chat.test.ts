import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { de } from '../../src/i18n/translations/de.js';
import { en } from '../../src/i18n/translations/en.js';
import { ja } from '../../src/i18n/translations/ja.js';
import { baseFixture } from '../server/harness.js';
import { hostPage, startE2E, type E2E } from './harness.js';

/*
 * The chat widget as a website gets it: the built assist.js (run `npm run build:widget`
 * first) loaded from the real server by a page on another origin, in Chromium.
 */

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const SIGNING_SECRET = 'sig_test_help';

let e2e: E2E;
before(async () => {
  // Slow the embedded answer down so a test can look at the panel while it streams, also on a loaded machine.
  process.env.ASSIST_EMBEDDED_TOKEN_DELAY_MS = '150';
  const fixture = baseFixture();
  const [acme, other] = fixture.organisations;
  acme!.widgets[0]!.websites.push('127.0.0.1');
  other!.widgets[0]!.websites.push('127.0.0.1');
  (other!.sources[0]!.pages as { url: string; title: string; content: string }[]).push({ url: 'https://other.test/billing', title: 'Billing', content: '# Billing\n\nInvoices are sent by email every month.' });
  e2e = await startE2E({ fixture });
});
after(() => e2e.close());

/** A host page that mounts `Assist.chat(key, options)`; `nonce` marks its inline script for a strict CSP. */
function chatPage(path: string, key: string, options: Record<string, unknown> = {}, nonce = '') {
  e2e.site.pages.set(path, hostPage(e2e.server, `<main><h1>Host</h1></main><script${nonce && ` nonce="${nonce}"`}>Assist.chat(${JSON.stringify(key)}, ${JSON.stringify(options)}).mount();</script>`));
  return `${e2e.site.origin}${path}`;
}

async function ask(page: Page, question: string): Promise<void> {
  await page.locator('assist-chat [part="launcher"]').click();
  await page.locator('assist-chat textarea').fill(question);
  await page.keyboard.press('Enter');
}

/** Serious and critical axe-core violations on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> } }).axe;
    const { violations } = await axe.run(document);
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
  });
}

/** Waits until an answer is partly there and still streaming (the stop button shows). */
async function midAnswer(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.querySelector('assist-chat')?.shadowRoot;
    const answer = root?.querySelector('.assistant:last-child .markdown')?.textContent ?? '';
    return answer.length > 0 && root?.querySelector(`button[aria-label="Stop"]`) !== null;
  });
}

test('a visitor asks a question and sees the answer stream in, with its sources; axe finds nothing serious mid-answer', async () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const { page, errors } = await e2e.newPage({ colorScheme });
    await page.goto(chatPage('/', 'acme/help'));
    await ask(page, 'How do I install the widget?');
    await midAnswer(page);
    assert.deepEqual(await seriousViolations(page), [], `axe in ${colorScheme} mode`);
    const answer = page.locator('assist-chat .assistant').last();
    await answer.locator('[part="source-link"]', { hasText: 'Start' }).waitFor();
    await answer.getByRole('button', { name: en.chatCopy }).waitFor();
    assert.match(await answer.locator('.markdown').innerText(), /script tag/);
    assert.equal(await page.locator('assist-chat [part="source-link"]').first().getAttribute('href'), 'https://acme.test/start');
    assert.deepEqual(errors, []);
  }
});

test('a bubble panel under a strict CSP is styled and reports no violation', async () => {
  const url = chatPage('/strict', 'acme/help', {}, 'n0nce');
  e2e.site.headers.set('/strict', {
    'Content-Security-Policy': `default-src 'none'; script-src 'nonce-n0nce' ${e2e.server.url}; connect-src ${e2e.server.url}; style-src 'self'; img-src 'self'`,
  });
  const { page, errors } = await e2e.newPage();
  await page.goto(url);
  const launcher = page.locator('assist-chat [part="launcher"]');
  await launcher.click();
  assert.equal(await launcher.evaluate((element) => getComputedStyle(element).position), 'fixed');
  assert.equal(await page.locator('assist-chat [part="panel"]').evaluate((element) => getComputedStyle(element).display), 'flex');
  await page.locator('assist-chat textarea').fill('How do I install the widget?');
  await page.keyboard.press('Enter');
  await page.locator('assist-chat [part="source-link"]').first().waitFor();
  assert.deepEqual(errors, []);
});

for (const [name, policies] of [
  ['enforces Trusted Types', ''],
  ['enforces Trusted Types and allows only the documented policies', "; trusted-types assist lit-html dompurify"],
] as const) {
  test(`a streamed answer renders and is announced on a page that ${name}`, async () => {
    const path = `/trusted-types${policies ? '-named' : ''}`;
    const url = chatPage(path, 'acme/help', {}, 'n0nce');
    e2e.site.headers.set(path, {
      'Content-Security-Policy': `script-src 'nonce-n0nce' ${e2e.server.url}; connect-src ${e2e.server.url}; require-trusted-types-for 'script'${policies}`,
    });
    const { page, errors } = await e2e.newPage();
    await page.goto(url);
    assert.equal(await page.evaluate(() => 'trustedTypes' in window), true, 'the browser has Trusted Types');
    await ask(page, 'How do I install the widget?');
    const answer = page.locator('assist-chat .assistant').last();
    await answer.getByRole('button', { name: en.chatCopy }).waitFor();
    assert.match(await answer.locator('.markdown').innerText(), /script tag/);
    // The answer is announced when done: its text read from the rendered HTML through the `assist` policy.
    await page.waitForFunction(() => /script tag/.test(document.querySelector('assist-chat')?.shadowRoot?.querySelector('[aria-live]')?.textContent ?? ''));
    assert.deepEqual(errors, []);
  });
}

test('an organisation without credits gets the kind message and the search results instead', async () => {
  const { page } = await e2e.newPage();
  await page.goto(chatPage('/broke', 'other/bot'));
  await ask(page, 'When are invoices sent?');
  const answer = page.locator('assist-chat .assistant').last();
  await answer.locator('.error', { hasText: en.chatOutOfCredits }).waitFor();
  const link = answer.locator('.hits a').first();
  assert.equal(await link.getAttribute('href'), 'https://other.test/billing');
  assert.match(await link.innerText(), /Billing/);
});

test('a signed visitor finds, keeps, opens and deletes their conversations; a wrong hash shows an error', async () => {
  const id = 'visitor-7';
  const hash = createHmac('sha256', SIGNING_SECRET).update(id).digest('hex');
  const { page } = await e2e.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(chatPage('/signed', 'acme/help', { user: { id, hash } }));
  await ask(page, 'How do I configure the accent colour?');
  await page.locator('assist-chat .assistant').last().getByRole('button', { name: en.chatCopy }).waitFor();

  const chat = page.locator('assist-chat');
  await chat.getByRole('button', { name: en.chatNew }).click();
  await chat.getByRole('button', { name: en.chatHistory }).click();
  const item = chat.locator('.history li');
  await item.first().waitFor();
  assert.equal(await item.count(), 1);
  assert.match(await item.locator('.title').innerText(), /accent colour/);
  await item.getByRole('button', { name: en.chatKeep }).click();
  await item.getByText(en.chatKept).waitFor();
  await item.locator('.open').click();
  await chat.locator('.user', { hasText: 'How do I configure the accent colour?' }).waitFor();

  await chat.getByRole('button', { name: en.chatHistory }).click();
  await chat.getByRole('button', { name: en.chatDeleteAll }).click();
  await chat.locator('.history .note', { hasText: en.chatHistoryEmpty }).waitFor();

  const { page: impostor } = await e2e.newPage();
  await impostor.goto(chatPage('/impostor', 'acme/help', { user: { id, hash: 'f'.repeat(64) } }));
  await impostor.locator('assist-chat [part="launcher"]').click();
  await impostor.locator('assist-chat').getByRole('button', { name: en.chatHistory }).click();
  await impostor.locator('assist-chat .history [role="alert"]', { hasText: en.errorIdentity }).waitFor();
  assert.equal(await impostor.locator('assist-chat .history li').count(), 0);
});

test('the UI speaks German or Japanese when the browser does', async () => {
  for (const [locale, strings, lang] of [['de-DE', de, 'de'], ['ja-JP', ja, 'ja']] as const) {
    const { page } = await e2e.newPage({ locale });
    await page.goto(chatPage('/', 'acme/help'));
    const launcher = page.locator('assist-chat [part="launcher"]');
    assert.equal(await launcher.getAttribute('aria-label'), strings.chatOpen);
    await launcher.click();
    assert.equal(await page.locator('assist-chat [part="panel"]').getAttribute('lang'), lang);
    assert.equal(await page.locator('assist-chat textarea').getAttribute('placeholder'), strings.chatPlaceholder);
    await page.getByRole('dialog', { name: 'Help' }).getByRole('button', { name: strings.chatClose }).waitFor();
    await page.locator('assist-chat [part="branding"]', { hasText: strings.poweredBy }).waitFor();
  }
});
