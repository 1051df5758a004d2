/**
 * The demo's server side: fixture sources that are a folder of markdown files, and the
 * /demo/ routes (pages with their CSP, the signed visitor, the server-rendered results,
 * the docs reader).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { projectRoot } from '../../server/options.js';
import { markdownTitle } from '../../server/content/markdown.js';
import { applyFixture, readFixtureFile } from '../../server/store/fixture.js';
import { startTestServer, type TestServer } from './harness.js';

/** A folder with a fixture in `site/` whose docs source is `../docs`, as the demo's is. */
function folderFixture(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'assist-folder-'));
  mkdirSync(join(root, 'site'));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, 'docs', path, '..'), { recursive: true });
    writeFileSync(join(root, 'docs', path), text);
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  const fixture = {
    organisations: [
      {
        id: 'folk',
        sources: [
          {
            id: 'docs',
            name: 'Docs',
            folder: '../docs',
            baseUrl: 'https://folk.test/docs/',
            pages: [{ url: 'https://folk.test/about', title: 'About', content: 'Listed in the fixture itself.' }],
          },
        ],
        apiKeys: [{ name: 'read', key: 'ak_folk_read', permissions: ['pages.read'] }],
      },
    ],
  };
  const fixturePath = join(root, 'site', 'fixture.json');
  writeFileSync(fixturePath, JSON.stringify(fixture));
  return { fixturePath, write, remove: (path: string) => unlinkSync(join(root, 'docs', path)), cleanUp: () => rmSync(root, { recursive: true, force: true }) };
}

describe('a fixture source that is a folder of markdown files', () => {
  let server: TestServer;
  before(async () => (server = await startTestServer()));
  after(() => server.stop());

  const listed = async () => {
    const response = await server.request('GET', '/api/v1/folk/sources/docs/pages?limit=100', { token: 'ak_folk_read' });
    assert.equal(response.status, 200);
    return (response.json.pages as { url: string; title: string }[]).map(({ url, title }) => ({ url, title })).sort((a, b) => a.url.localeCompare(b.url));
  };

  test('every .md file becomes a page at baseUrl + its path, titled by its first heading; the source follows the folder on every apply', async () => {
    const docs = folderFixture({
      'install.md': '# Installing Assist\n\nLoad the script tag.\n\n## Linux\n\nUse a package.',
      'guides/signing visitors.md': 'Intro before the title.\n\n# Signing visitors\n\nHMAC-SHA256 of the id.',
      'notes.txt': 'not markdown',
    });
    try {
      const first = await applyFixture(server.db, readFixtureFile(docs.fixturePath));
      assert.equal(first.pagesChanged, 3);
      assert.deepEqual(await listed(), [
        { url: 'https://folk.test/about', title: 'About' },
        { url: 'https://folk.test/docs/guides/signing%20visitors', title: 'Signing visitors' },
        { url: 'https://folk.test/docs/install', title: 'Installing Assist' },
      ]);
      const page = await server.request('GET', '/api/v1/folk/sources/docs/pages?limit=100', { token: 'ak_folk_read' });
      const install = (page.json.pages as { id: string; url: string }[]).find((entry) => entry.url.endsWith('/install'))!;
      const full = await server.request('GET', `/api/v1/folk/sources/docs/pages/${install.id}`, { token: 'ak_folk_read' });
      assert.match(full.json.content, /Use a package\./);

      assert.equal((await applyFixture(server.db, readFixtureFile(docs.fixturePath))).pagesChanged, 0, 'applying again changes nothing');

      docs.write('install.md', '# Installing Assist 2\n\nLoad the script tag once.');
      docs.remove('guides/signing visitors.md');
      assert.equal((await applyFixture(server.db, readFixtureFile(docs.fixturePath))).pagesChanged, 2);
      assert.deepEqual(await listed(), [
        { url: 'https://folk.test/about', title: 'About' },
        { url: 'https://folk.test/docs/install', title: 'Installing Assist 2' },
      ]);
    } finally {
      docs.cleanUp();
    }
  });

  test('a folder that does not exist or a baseUrl that cannot take paths is refused, naming the problem', async () => {
    const docs = folderFixture({ 'a.md': '# A' });
    try {
      const missing = readFixtureFile(docs.fixturePath) as any;
      missing.organisations[0].sources[0].folder = join(tmpdir(), 'assist-no-such-folder');
      await assert.rejects(applyFixture(server.db, missing), /Cannot read the fixture folder/);
      const noSlash = readFixtureFile(docs.fixturePath) as any;
      noSlash.organisations[0].sources[0].baseUrl = 'https://folk.test/docs';
      await assert.rejects(applyFixture(server.db, noSlash), /baseUrl` must end with "\/"/);
    } finally {
      docs.cleanUp();
    }
  });
});

/** The demo's fixture as shipped, its docs source read from `docsFolder`. */
function shippedDemo(docsFolder: string) {
  const fixture = JSON.parse(readFileSync(join(projectRoot(), 'demo', 'fixture.json'), 'utf8'));
  fixture.organisations[0].sources[0].folder = docsFolder;
  return fixture;
}

describe('the demo routes', () => {
  let server: TestServer;
  let docsDir: string;
  before(async () => {
    docsDir = mkdtempSync(join(tmpdir(), 'assist-demo-docs-'));
    writeFileSync(join(docsDir, 'signing.md'), '# Signing visitors\n\nSign the id on your server.\n\n## In Node\n\nUse createHmac.\n\n## In Python\n\nUse hmac.new.');
    server = await startTestServer({ fixture: shippedDemo(docsDir) });
  });
  after(async () => {
    await server.stop();
    rmSync(docsDir, { recursive: true, force: true });
  });

  /** A GET with a Host header of our choosing (fetch does not let one set it). */
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
      const request = httpRequest(`${server.url}${path}`, { headers }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text }));
      });
      request.on('error', reject);
      request.end();
    });

  test('pages load Assist from the other loopback name under a CSP without unsafe-inline; an odd Host puts nothing into the page', async () => {
    const port = new URL(server.url).port;
    const onLocalhost = await get('/demo/', { Host: `localhost:${port}` });
    assert.equal(onLocalhost.status, 200);
    assert.ok(onLocalhost.text.includes(`<script src="http://127.0.0.1:${port}/widget/v1/assist.js"></script>`));
    const policy = String(onLocalhost.headers['content-security-policy']);
    assert.match(policy, new RegExp(`script-src 'self' http://127\\.0\\.0\\.1:${port};`));
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);

    const onLoopback = await get('/demo/chat-bubble.html', { Host: `127.0.0.1:${port}` });
    assert.ok(onLoopback.text.includes(`<script src="http://localhost:${port}/widget/v1/assist.js"></script>`));

    const odd = await get('/demo/', { Host: 'evil.test"><script>alert(1)</script>' });
    assert.equal(odd.status, 200);
    assert.ok(odd.text.includes('<script src="/widget/v1/assist.js"></script>'));
    assert.ok(!odd.text.includes('evil.test'));

    assert.equal((await get('/demo/no-such-page.html')).status, 404);
    assert.equal((await get('/demo/results.html')).status, 404, 'the results template is only served filled in');
    assert.equal((await get('/demo/demo.css')).status, 200);
  });

  test('the visitor gets an id kept in a cookie, signed so the conversation routes accept it', async () => {
    const first = await get('/demo/visitor.json');
    assert.equal(first.status, 200);
    const { widget, user } = JSON.parse(first.text);
    assert.equal(widget, 'demo/help');
    assert.match(user.id, /^visitor-[a-f0-9]{16}$/);
    assert.equal(user.hash, createHmac('sha256', 'sig_demo_help_local').update(user.id).digest('hex'));
    const cookie = String(first.headers['set-cookie']);
    assert.match(cookie, /HttpOnly/);

    const history = await server.request('GET', `/api/v1/demo/widgets/help/conversations?user=${user.id}&hash=${user.hash}`, { token: 'ws_demo_help_local' });
    assert.equal(history.status, 200);
    assert.deepEqual(history.json.conversations, []);

    const again = await get('/demo/visitor.json', { Cookie: cookie.split(';')[0]! });
    assert.equal(JSON.parse(again.text).user.id, user.id, 'the same visitor after a reload');
    assert.equal(again.headers['set-cookie'], undefined);

    const forged = await get('/demo/visitor.json', { Cookie: 'assist_demo_visitor=admin' });
    assert.notEqual(JSON.parse(forged.text).user.id, 'admin', 'only ids the demo made are signed');
  });

  test('the results page escapes the query and keeps the search session for the beacon', async () => {
    const query = '"><script>alert(1)</script> signing';
    const page = await get(`/demo/results?q=${encodeURIComponent(query)}&session=s_demo_session_1`);
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes('<script>alert(1)</script>'));
    assert.ok(page.text.includes('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; signing"'));
    assert.ok(page.text.includes('data-widget="demo/search" data-session="s_demo_session_1"'));

    const found = await get(`/demo/results?q=${encodeURIComponent('sign the id on your server')}`);
    const session = /data-session="([^"]+)"/.exec(found.text)?.[1];
    assert.match(session ?? '', /^[\w-]+$/, 'the search answered with a session');
    const links = [...found.text.matchAll(/<a href="([^"]+)" data-sv-click data-sv-rank="(\d+)" data-sv-source="result" data-sv-query="([^"]+)">/g)];
    assert.ok(links.length > 0, 'results are rendered as marked links');
    assert.equal(links[0]![1], 'http://localhost:8787/demo/docs/signing');
    assert.equal(links[0]![2], '1');

    const noSession = await get('/demo/results?session=%22%3E');
    assert.ok(noSession.text.includes('data-session=""'), 'a session that is not one is dropped');
  });

  test('the docs reader serves each doc of the docs folder, its text and anchors, and nothing outside that folder', async () => {
    const folder = join(projectRoot(), 'docs');
    const name = readdirSync(folder).filter((file) => file.endsWith('.md')).sort()[0]!.slice(0, -'.md'.length);
    const markdown = readFileSync(join(folder, `${name}.md`), 'utf8');
    const title = markdownTitle(markdown) ?? name;
    const reader = await get(`/demo/docs/${name}`);
    assert.equal(reader.status, 200);
    assert.ok(reader.text.includes(`data-document="${name}"`));
    assert.ok(reader.text.includes(`<h1>${title.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</h1>`));
    const json = JSON.parse((await get(`/demo/docs/${name}.json`)).text);
    assert.equal(json.title, title);
    assert.equal(json.markdown, markdown);
    const anchors = json.headings.map((heading: { anchor: string }) => heading.anchor);
    assert.ok(anchors.length > 0 && anchors.length === new Set(anchors).size, 'one anchor per heading');
    // The anchors search results link to, each with its heading, the title's excepted.
    const identity = JSON.parse((await get('/demo/docs/identity.json')).text);
    assert.deepEqual(identity.headings.slice(0, 3), [
      { text: 'How the hash is made', anchor: 'how-the-hash-is-made' },
      { text: 'Node', anchor: 'node' },
      { text: 'Python', anchor: 'python' },
    ]);
    assert.equal((await get(`/demo/docs/${name}.md`)).text, markdown);
    assert.equal((await get('/demo/docs/nothing-by-this-name')).status, 404);
    assert.equal((await get('/demo/docs/..%2F..%2Fpackage')).status, 404);
    assert.equal((await get('/demo/docs/%2E%2E/demo/fixture.json')).status, 404);
  });
});

describe('the demo as shipped, on the project docs', () => {
  const fixture = shippedDemo(join(projectRoot(), 'docs'));
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ fixture });
  });
  after(() => server.stop());

  const ask = (widget: string, message: string) =>
    server.request('POST', `/api/v1/demo/widgets/${widget}/${widget === 'help' ? 'chat' : 'summarize'}`, {
      token: `ws_demo_${widget}_local`,
      body: widget === 'help' ? { message } : { query: message },
    });

  test("the demo's suggested questions are answered from the section about them", async () => {
    const answeredFrom: Record<string, string> = {
      'How do I embed the chat widget?': 'embedding#the-chat-assistant',
      'How do I sign a visitor id?': 'identity',
      'How do I change the accent colour?': 'theming#light-dark-and-accent-colours',
      'Which languages are supported?': 'embedding#language',
    };
    for (const widget of fixture.organisations[0].widgets as { id: string; config: { suggestions: string[] } }[])
      for (const suggestion of widget.config.suggestions) {
        assert.ok(suggestion in answeredFrom, `a section to answer the suggestion "${suggestion}"`);
        const { status, json } = await ask(widget.id, suggestion);
        assert.equal(status, 200);
        assert.equal(json.sources[0]?.url, `http://localhost:8787/demo/docs/${answeredFrom[suggestion]}`, `${suggestion}\n${json.text}`);
      }
  });

  test('what a new user asks first is answered from the section that says it', async () => {
    for (const [question, section] of [
      ['How do I install the server?', 'server#installing-the-server-package'],
      ['How do I add my own docs?', 'server#adding-content'],
      ['How do I embed the search widget?', 'embedding#the-search'],
      ['How do I sign a visitor id in Go?', 'identity#go'],
    ]) {
      const { json } = await ask('help', question!);
      assert.equal(json.sources[0]?.url, `http://localhost:8787/demo/docs/${section}`, `${question}\n${json.text}`);
    }
  });

  test('"How do I sign a visitor id in Python?" is answered from the Python section, with its snippet as a code block', async () => {
    const { status, json } = await ask('help', 'How do I sign a visitor id in Python?');
    assert.equal(status, 200);
    const snippet = readFileSync(join(projectRoot(), 'docs', 'snippets', 'sign.py'), 'utf8');
    assert.ok(json.text.includes('```python\n' + snippet + '```'), `the snippet byte for byte in:\n${json.text}`);
    assert.match(json.text, /^To sign a visitor id in Python, call `sign_visitor_id`/);
    assert.doesNotMatch(json.text, /```js|Assist\.chat\(/, 'not the page opening’s JavaScript');
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['http://localhost:8787/demo/docs/identity#python']);
  });
});
