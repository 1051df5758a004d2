/**
 * `assist-server ingest` against the real server: a folder and a sitemap (served by a local
 * HTTP server) pushed into a source through the pages API, run again to prove nothing
 * changes, then edited, shrunk and refused.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess, type CliResult } from './cli-run.js';
import { baseFixture, startTestServer, type TestServer } from './harness.js';
import { HTML_READER_VERSION } from '../../server/content/read.js';

let server: TestServer;
let scratch: string;

before(async () => {
  server = await startTestServer({ fixture: baseFixture() });
  scratch = mkdtempSync(join(tmpdir(), 'assist-ingest-'));
});

after(async () => {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function runIngest(args: string[], options: { terminal?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return runInProcess(['ingest', ...args], { env: options.env, stderrIsTerminal: options.terminal });
}

async function listPages(source: string): Promise<any[]> {
  const response = await server.request('GET', `/api/v1/acme/sources/${source}/pages?limit=200`, { token: 'ak_test_all' });
  assert.equal(response.status, 200, response.text);
  return response.json.pages;
}

const byUrl = (pages: any[]) => new Map(pages.map((page) => [page.url, page]));

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

const counts = (json: any) => ({ created: json.created, updated: json.updated, unchanged: json.unchanged, deleted: json.deleted, failed: json.failed });

test('a folder becomes pages under the base url, searchable at once; a second run changes nothing', async () => {
  const folder = join(scratch, 'site');
  write(join(folder, 'index.md'), '# Welcome\n\nThe handbook of the zebracorn project.');
  write(join(folder, 'install.md'), '```sh\n# not a title\n```\n\n# Installing the zebracorn\n\nRun the zebracorn installer and answer its three questions.');
  write(join(folder, 'notes', 'untitled.md'), 'Plain notes without any heading about quokkas.');
  write(
    join(folder, 'guides', 'proxy.html'),
    '<!doctype html><html lang="de"><head><title>Proxy-Einstellungen</title><script>alert(1)</script></head>' +
      '<body><nav>Menu</nav><h1>Proxy</h1><p>Den Proxy für das Zebracorn-Netz setzen.</p></body></html>',
  );
  write(join(folder, 'readme.txt'), 'not a page');
  write(join(folder, '.drafts', 'secret.md'), '# Secret draft');

  const base = 'https://acme.test/handbook';
  const args = [folder, '--server', server.url, '--key', 'ak_test_all', '--org', 'acme', '--source', 'docs', '--base-url', base];
  const first = await runIngest(args);
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(counts(first.json), { created: 4, updated: 0, unchanged: 0, deleted: 0, failed: 0 });
  assert.match(first.stderr, /ingest: writing 4\/4 /, 'plain progress lines when stderr is not a terminal');
  assert.match(first.stderr, /ingest: 4 created, 0 updated, 0 unchanged, 0 deleted, 0 failed/);
  assert.doesNotMatch(first.stderr, /\r/, 'no carriage returns in a log');

  const pages = byUrl(await listPages('docs'));
  assert.equal(pages.get('https://acme.test/handbook/')?.title, 'Welcome', 'index.md stands for its folder');
  assert.equal(pages.get('https://acme.test/handbook/install')?.title, 'Installing the zebracorn', 'a # inside a code fence is no title');
  assert.equal(pages.get('https://acme.test/handbook/notes/untitled')?.title, 'untitled', 'without a heading the file name is the title');
  const proxy = pages.get('https://acme.test/handbook/guides/proxy.html');
  assert.equal(proxy?.title, 'Proxy-Einstellungen');
  assert.equal(proxy?.language, 'de', "an HTML page's lang becomes its language");
  assert.ok(pages.has('https://acme.test/start'), 'the fixture page outside the folder is left alone');
  assert.ok(![...pages.keys()].some((url) => /secret|readme/.test(url)), 'hidden folders and other files are skipped');

  const answered = await server.request('POST', '/api/v1/acme/widgets/find/summarize', { token: 'ws_test_find', body: { query: 'zebracorn installer' } });
  assert.equal(answered.status, 200, answered.text);
  assert.equal(answered.json.sources[0]?.url.split('#')[0], 'https://acme.test/handbook/install', 'ingested pages answer at once');

  const html = await server.request('GET', `/api/v1/acme/sources/docs/pages/${proxy.id}`, { token: 'ak_test_all' });
  assert.doesNotMatch(html.json.content, /alert|Menu/, 'HTML goes through the server reduction');

  const second = await runIngest(args, { terminal: true });
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(counts(second.json), { created: 0, updated: 0, unchanged: 4, deleted: 0, failed: 0 });
  assert.match(second.stderr, /\r\x1b\[2Kwriting +\[#+\] 4\/4/, 'a bar redrawn in place on a terminal');
  const again = byUrl(await listPages('docs'));
  for (const [url, page] of pages) assert.equal(again.get(url)?.updatedAt, page.updatedAt, `${url} was not written again`);
});

test('changed files are updated, vanished ones deleted only with --delete-missing, and pages outside the base url stay', async () => {
  const folder = join(scratch, 'changing');
  write(join(folder, 'a.md'), '# Alpha\n\nThe first page.');
  write(join(folder, 'b.md'), '# Beta\n\nThe second page.');
  write(join(folder, 'c.md'), '# Gamma\n\nThe third page.');
  const base = 'https://acme.test/changing/';
  const args = [folder, '--server', server.url, '--key', 'ak_test_all', '--org', 'acme', '--source', 'docs', '--base-url', base];
  assert.equal((await runIngest(args)).code, 0);
  // Metadata written by someone else survives an update.
  const alpha = byUrl(await listPages('docs')).get(`${base}a`);
  const tagged = await server.request('PATCH', `/api/v1/acme/sources/docs/pages/${alpha.id}`, {
    token: 'ak_test_all',
    body: { metadata: { ...alpha.metadata, team: 'docs' } },
  });
  assert.equal(tagged.status, 200, tagged.text);

  write(join(folder, 'a.md'), '# Alpha, revised\n\nThe first page mentions the narwhal now.');
  unlinkSync(join(folder, 'c.md'));
  const kept = await runIngest(args);
  assert.equal(kept.code, 0, kept.stderr);
  assert.deepEqual(counts(kept.json), { created: 0, updated: 1, unchanged: 1, deleted: 0, failed: 0 });
  assert.ok(byUrl(await listPages('docs')).has(`${base}c`), 'without --delete-missing a vanished file keeps its page');

  const dry = await runIngest([...args, '--delete-missing', '--dry-run']);
  assert.deepEqual(counts(dry.json), { created: 0, updated: 0, unchanged: 2, deleted: 1, failed: 0 });
  assert.match(dry.stderr, /dry run/);
  assert.ok(byUrl(await listPages('docs')).has(`${base}c`), 'a dry run deletes nothing');

  const pruned = await runIngest([...args, '--delete-missing']);
  assert.equal(pruned.code, 0, pruned.stderr);
  assert.deepEqual(counts(pruned.json), { created: 0, updated: 0, unchanged: 2, deleted: 1, failed: 0 });
  const pages = byUrl(await listPages('docs'));
  assert.ok(!pages.has(`${base}c`));
  assert.ok(pages.has('https://acme.test/start') && pages.has('https://acme.test/handbook/install'), 'pages outside the base url stay');
  const revised = await server.request('GET', `/api/v1/acme/sources/docs/pages/${pages.get(`${base}a`).id}`, { token: 'ak_test_all' });
  assert.equal(revised.json.title, 'Alpha, revised');
  assert.match(revised.json.content, /narwhal/);
  assert.equal(revised.json.metadata.team, 'docs');
});

test('a Sphinx build: generated index and search pages are skipped, globs choose the rest, titles lose the site name', async () => {
  const folder = join(scratch, 'sphinx');
  const page = (title: string, heading: string) =>
    `<html lang="en"><head><title>${title} &#8212; Quillkit 3.2 documentation</title></head><body>` +
    `<div class="related" role="navigation">Navigation</div><div class="body" role="main"><section id="s"><h1>${heading}</h1>` +
    `<p>About ${heading} and the inkwell.</p></section></div></body></html>`;
  write(join(folder, 'index.html'), page('Quillkit documentation', 'Welcome to Quillkit'));
  write(join(folder, 'library', 'zipquill.html'), page('zipquill — Quill archives', 'zipquill — Quill archives'));
  write(join(folder, 'library', 'zipcrate.html'), page('zipcrate', 'zipcrate'));
  write(join(folder, 'whatsnew', '3.2.html'), page('What’s New In Quillkit 3.2', 'What’s New In Quillkit 3.2'));
  for (const generated of ['genindex.html', 'genindex-A.html', 'search.html', 'py-modindex.html', join('_sources', 'index.html'), join('_static', 'x.html')]) {
    write(join(folder, generated), page('Index', 'Index'));
  }
  const base = 'https://acme.test/quill/';
  const args = [folder, '--server', server.url, '--key', 'ak_test_all', '--org', 'acme', '--source', 'docs', '--base-url', base];

  const planned = await runIngest([...args, '--dry-run']);
  assert.equal(planned.code, 0, planned.stderr);
  assert.equal(planned.json.created, 4, 'index, two library pages and the what’s new page; generated pages skipped');
  const everything = await runIngest([...args, '--dry-run', '--include-generated']);
  assert.equal(everything.json.created, 10, '--include-generated takes them too');

  const chosen = await runIngest([...args, '--include', 'library/**', '--include', 'index.html,whatsnew/', '--exclude', 'zipcrate*']);
  assert.equal(chosen.code, 0, chosen.stderr);
  const pages = byUrl((await listPages('docs')).filter((page) => page.url.startsWith(base)));
  assert.deepEqual([...pages.keys()].sort(), [`${base}index.html`, `${base}library/zipquill.html`, `${base}whatsnew/3.2.html`]);
  assert.equal(pages.get(`${base}library/zipquill.html`).title, 'zipquill — Quill archives');
  assert.equal(pages.get(`${base}index.html`).title, 'Quillkit documentation', 'the site name every title shares is taken off');
});

test('a page written through the API without ingest is adopted once, then left unchanged', async () => {
  const folder = join(scratch, 'adopt');
  write(join(folder, 'faq.md'), '# FAQ\n\nQuestions and answers.');
  const created = await server.request('POST', '/api/v1/acme/sources/docs/pages', {
    token: 'ak_test_all',
    body: { url: 'https://acme.test/adopt/faq', title: 'FAQ', content: '# FAQ\n\nQuestions and answers.' },
  });
  assert.equal(created.status, 201, created.text);
  const args = [folder, '--server', server.url, '--key', 'ak_test_all', '--org', 'acme', '--source', 'docs', '--base-url', 'https://acme.test/adopt/'];
  assert.deepEqual(counts((await runIngest(args)).json), { created: 0, updated: 1, unchanged: 0, deleted: 0, failed: 0 });
  assert.deepEqual(counts((await runIngest(args)).json), { created: 0, updated: 0, unchanged: 1, deleted: 0, failed: 0 });
});

test('an HTML page read by an earlier version of the HTML reader is written again, to be read anew; markdown is left as it is', async () => {
  const folder = join(scratch, 'reader');
  write(join(folder, 'guide.html'), '<html><head><title>Guide</title></head><body><main><h1>Guide</h1><p>Rotate the keys every month.</p></main></body></html>');
  write(join(folder, 'faq.md'), '# FAQ\n\nQuestions and answers.');
  const args = [folder, '--server', server.url, '--key', 'ak_test_all', '--org', 'acme', '--source', 'docs', '--base-url', 'https://acme.test/reader/'];
  assert.deepEqual(counts((await runIngest(args)).json), { created: 2, updated: 0, unchanged: 0, deleted: 0, failed: 0 });
  const guide = byUrl(await listPages('docs')).get('https://acme.test/reader/guide.html');
  assert.equal(guide.metadata.ingestReader, HTML_READER_VERSION);
  // As a page written by an earlier version of the server reads, with metadata of the site's own beside it.
  const earlier = await server.request('PATCH', `/api/v1/acme/sources/docs/pages/${guide.id}`, {
    token: 'ak_test_all',
    body: { content: 'Guide Rotate the keys every month.', format: 'text', metadata: { ...guide.metadata, ingestReader: HTML_READER_VERSION - 1, team: 'security' } },
  });
  assert.equal(earlier.status, 200, earlier.text);
  assert.deepEqual(counts((await runIngest(args)).json), { created: 0, updated: 1, unchanged: 1, deleted: 0, failed: 0 });
  const reread = await server.request('GET', `/api/v1/acme/sources/docs/pages/${guide.id}`, { token: 'ak_test_all' });
  assert.match(reread.json.content, /^# Guide/m, 'read again from its HTML');
  assert.deepEqual(reread.json.metadata, { ...guide.metadata, team: 'security' });
  assert.deepEqual(counts((await runIngest(args)).json), { created: 0, updated: 0, unchanged: 2, deleted: 0, failed: 0 });
  // Written by a release before the mark: read anew once too.
  const { ingestReader: _reader, ...unmarked } = reread.json.metadata;
  assert.equal((await server.request('PATCH', `/api/v1/acme/sources/docs/pages/${guide.id}`, { token: 'ak_test_all', body: { metadata: unmarked } })).status, 200);
  assert.deepEqual(counts((await runIngest(args)).json), { created: 0, updated: 1, unchanged: 1, deleted: 0, failed: 0 });
  assert.deepEqual(counts((await runIngest(args)).json), { created: 0, updated: 0, unchanged: 2, deleted: 0, failed: 0 });
});

/** A site on 127.0.0.1 whose routes the test can change between runs. */
async function startSite(routes: Map<string, { type: string; body: string }>): Promise<{ url: string; close(): Promise<void> }> {
  const site: Server = createServer((req, res) => {
    const route = routes.get(req.url ?? '');
    if (!route) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such page');
      return;
    }
    res.writeHead(200, { 'Content-Type': route.type }).end(route.body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => site.close(() => resolve())),
  };
}

const urlset = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((url) => `<url><loc>${url.replace(/&/g, '&amp;')}</loc></url>`)
    .join('')}</urlset>`;

test('a sitemap: its pages are fetched and ingested, failures are named and counted, and later runs follow it', async () => {
  const routes = new Map<string, { type: string; body: string }>();
  const site = await startSite(routes);
  try {
    const at = (path: string) => `${site.url}${path}`;
    routes.set('/sitemap.xml', {
      type: 'application/xml',
      body: `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${at('/pages.xml')}</loc></sitemap></sitemapindex>`,
    });
    routes.set('/pages.xml', { type: 'application/xml', body: urlset([at('/guide.html'), at('/notes?topic=a&b=1'), at('/gone')]) });
    routes.set('/guide.html', { type: 'text/html; charset=utf-8', body: '<html><head><title>Site guide</title></head><body><h1>Guide</h1><p>Feed the axolotl daily.</p></body></html>' });
    routes.set('/notes?topic=a&b=1', { type: 'text/markdown', body: '# Field notes\n\nThe axolotl sleeps at noon.' });

    const args = ['--server', server.url, '--key', 'ak_test_all', '--org', 'acme', '--source', 'blog'];
    const first = await runIngest([at('/sitemap.xml'), ...args]);
    assert.equal(first.code, 1, 'a page that could not be fetched makes the run fail');
    assert.deepEqual(counts(first.json), { created: 2, updated: 0, unchanged: 0, deleted: 0, failed: 1 });
    assert.match(first.stderr, new RegExp(`failed ${at('/gone')}: fetching .* answered 404`));
    assert.match(first.stderr, /1 page failed \(listed above\)/);
    let pages = byUrl(await listPages('blog'));
    assert.equal(pages.get(at('/guide.html'))?.title, 'Site guide');
    assert.equal(pages.get(at('/notes?topic=a&b=1'))?.title, 'Field notes', 'text/markdown is stored as markdown, title from its heading');

    // Next run from a sitemap file on disk: the notes changed, the guide left the sitemap.
    routes.set('/notes?topic=a&b=1', { type: 'text/markdown', body: '# Field notes\n\nThe axolotl now sleeps at dusk.' });
    const sitemapFile = join(scratch, 'sitemap.xml');
    writeFileSync(sitemapFile, urlset([at('/notes?topic=a&b=1')]));
    const second = await runIngest([sitemapFile, ...args, '--delete-missing']);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(counts(second.json), { created: 0, updated: 1, unchanged: 0, deleted: 1, failed: 0 });
    pages = byUrl(await listPages('blog'));
    assert.deepEqual([...pages.keys()], [at('/notes?topic=a&b=1')]);
  } finally {
    await site.close();
  }
});

test('a connection the server side drops is tried again, and a create that did arrive is not duplicated', async () => {
  const folder = join(scratch, 'flaky');
  write(join(folder, 'one.md'), '# One\n\nThe first flaky page.');
  write(join(folder, 'two.md'), '# Two\n\nThe second flaky page.');
  // A proxy in front of the server that cuts the connection of the first two writes: the
  // first before forwarding it, the second after the server stored the page.
  let writes = 0;
  const proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const isWrite = req.method !== 'GET';
    if (isWrite) writes++;
    if (isWrite && writes === 1) return void req.socket.destroy();
    const forwarded = await fetch(server.url + req.url, {
      method: req.method,
      headers: { Authorization: req.headers.authorization ?? '', 'Content-Type': 'application/json' },
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const text = await forwarded.text();
    if (isWrite && writes === 2) return void req.socket.destroy();
    res.writeHead(forwarded.status, { 'Content-Type': 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  try {
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const run = await runIngest([folder, '--server', proxyUrl, '--key', 'ak_test_all', '--org', 'acme', '--source', 'docs', '--base-url', 'https://acme.test/flaky/', '--concurrency', '1']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(counts(run.json), { created: 2, updated: 0, unchanged: 0, deleted: 0, failed: 0 });
    const flaky = (await listPages('docs')).filter((page) => page.url.startsWith('https://acme.test/flaky/'));
    assert.deepEqual(flaky.map((page) => page.url).sort(), ['https://acme.test/flaky/one', 'https://acme.test/flaky/two']);
  } finally {
    await new Promise((resolve) => proxy.close(resolve));
  }
});

test('refusals are shown in the server\'s words with a failing exit code, and nothing is written', async () => {
  const folder = join(scratch, 'refused');
  write(join(folder, 'page.md'), '# Refused\n\nNever stored.');
  const common = [folder, '--server', server.url, '--org', 'acme', '--base-url', 'https://acme.test/refused/'];
  const before = (await listPages('docs')).length;

  const badKey = await runIngest([...common, '--source', 'docs', '--key', 'ak_wrong_key']);
  assert.equal(badKey.code, 2);
  assert.match(badKey.stderr, /cannot list the pages of acme\/docs on http:\/\/127\.0\.0\.1:\d+: 401 unauthenticated: \S/);

  const outsideLimit = await runIngest([...common, '--source', 'docs', '--key', 'ak_test_blog']);
  assert.equal(outsideLimit.code, 2);
  assert.match(outsideLimit.stderr, /403 source_forbidden/);

  const readOnly = await runIngest([...common, '--source', 'docs'], { env: { ASSIST_API_KEY: 'ak_test_read' } });
  assert.equal(readOnly.code, 1, 'the key from ASSIST_API_KEY lists but may not write');
  assert.match(readOnly.stderr, /failed https:\/\/acme\.test\/refused\/page: 403 permission_denied: .*pages\.write/);
  assert.equal(readOnly.json.failed, 1);

  const unreachable = await runIngest([...common, '--source', 'docs', '--key', 'ak_test_all', '--server', 'http://127.0.0.1:9']);
  assert.equal(unreachable.code, 1);
  assert.match(unreachable.stderr, /cannot reach the server at http:\/\/127\.0\.0\.1:9/);

  const noBase = await runIngest([folder, '--server', server.url, '--key', 'ak_test_all', '--org', 'acme', '--source', 'docs']);
  assert.equal(noBase.code, 2);
  assert.match(noBase.stderr, /--base-url is required for a folder/);

  const notSitemap = await runIngest([join(folder, 'page.md'), '--server', server.url, '--key', 'ak_test_all', '--org', 'acme', '--source', 'docs']);
  assert.equal(notSitemap.code, 2);
  assert.match(notSitemap.stderr, /page\.md lists no page urls: is it a sitemap/);

  assert.equal((await listPages('docs')).length, before, 'no refused run wrote a page');
});
