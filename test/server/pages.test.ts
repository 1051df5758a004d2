/**
 * The pages lifecycle as an API user sees it: create (markdown, text, HTML reduced to text),
 * get, patch, delete; the stable cursor listing; validation naming the field; media types and
 * body limits, including a 20 MB upload refused before it is read.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { baseFixture, startTestServer, type TestServer } from './harness.js';
import { assertError, assertErrorBody, assertInvalidField, asTestResponse, parseRaw, rawRequest } from './expect.js';

const ADMIN_TOKEN = 'admin-token-for-pages-tests';
const TOKEN = 'ak_test_all';
const DOCS = '/api/v1/acme/sources/docs/pages';
const BLOG = '/api/v1/acme/sources/blog/pages';
const MiB = 1024 * 1024;

let server: TestServer;
let counter = 0;
const uniqueUrl = (prefix = 'page') => `https://acme.test/${prefix}/${++counter}`;

function fixture() {
  const setup = baseFixture();
  setup.organisations[0]!.sources.push({ id: 'paged', name: 'Paged', pages: [] });
  return setup;
}

before(async () => {
  server = await startTestServer({ fixture: fixture(), adminToken: ADMIN_TOKEN });
});
after(() => server?.stop());

const create = (path: string, body: unknown) => server.request('POST', path, { token: TOKEN, body });

describe('create, read, change, delete', () => {
  test('a markdown page: 201 with the page, a Location that reads it back, content kept as written', async () => {
    const url = uniqueUrl('markdown');
    const content = '# Install\n\nRun `npm install assist`.\n\n## Configure\n\nSee [the guide](https://acme.test/guide).';
    const response = await create(DOCS, { url, title: 'Install', content, language: 'en', metadata: { section: 'guides', order: 3, draft: false, owner: null } });
    assert.equal(response.status, 201, response.text);
    const page = response.json;
    assert.match(page.id, /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/);
    assert.equal(page.source, 'docs');
    assert.equal(page.url, url);
    assert.equal(page.title, 'Install');
    assert.equal(page.language, 'en');
    assert.deepEqual(page.metadata, { section: 'guides', order: 3, draft: false, owner: null });
    assert.equal(page.content, content);
    assert.ok(!Number.isNaN(Date.parse(page.createdAt)) && page.createdAt.endsWith('Z'), 'createdAt is ISO 8601 UTC');
    assert.ok(page.updatedAt.endsWith('Z'));

    const location = response.headers.get('location');
    assert.equal(location, `${DOCS}/${page.id}`);
    const read = await server.request('GET', location!, { token: TOKEN });
    assert.equal(read.status, 200);
    assert.deepEqual(read.json, page);
  });

  test('a text page keeps its text as is', async () => {
    const content = 'Plain words.\nNo # heading here, <b>not markup</b> either.';
    const response = await create(DOCS, { url: uniqueUrl('text'), title: 'Text', content, format: 'text' });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.json.content, content);
  });

  test('an HTML page is reduced to text that keeps headings and link text and drops scripts, styles and chrome', async () => {
    const html = `<!doctype html><html><head><title>Ignored head title</title><style>.secret-style { color: red }</style>
      <script>window.secretScript = 1</script></head><body>
      <header><div class="logo">Header chrome</div></header>
      <nav><a href="/">Nav home link</a><a href="/pricing">Nav pricing</a></nav>
      <main>
        <h1>Getting started</h1>
        <p>Read the <a href="https://acme.test/guide">installation guide</a> first &amp; then relax.</p>
        <h2>Options</h2>
        <ul><li>Fast</li><li>Small</li></ul>
        <script type="module">import('evil')</script>
        <div role="navigation">Role navigation chrome</div>
      </main>
      <footer>Footer chrome © Acme</footer></body></html>`;
    const response = await create(DOCS, { url: uniqueUrl('html'), title: 'Getting started', content: html, format: 'html' });
    assert.equal(response.status, 201, response.text);
    const content: string = response.json.content;
    assert.match(content, /^# Getting started$/m);
    assert.match(content, /^## Options$/m);
    assert.match(content, /Read the installation guide first & then relax\./);
    assert.match(content, /Fast/);
    assert.match(content, /Small/);
    for (const dropped of ['secret-style', 'secretScript', 'evil', 'Header chrome', 'Nav home link', 'Nav pricing', 'Role navigation chrome', 'Footer chrome', 'Ignored head title']) {
      assert.ok(!content.includes(dropped), `"${dropped}" should have been dropped: ${content}`);
    }
    assert.ok(!/<[a-z/!]/i.test(content), `no markup is served back: ${content}`);
  });

  test('an HTML page without a title takes the document title', async () => {
    const response = await create(DOCS, { url: uniqueUrl('html-title'), content: '<title>From the head</title><p>Body</p>', format: 'html' });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.json.title, 'From the head');
  });

  test('a second page with the same url is 409 with the existing page id; the same url in another source is fine', async () => {
    const url = uniqueUrl('duplicate');
    const first = await create(DOCS, { url, title: 'First', content: 'One' });
    assert.equal(first.status, 201);
    const second = await create(DOCS, { url, title: 'Second', content: 'Two' });
    assertError(second, 409, 'conflict');
    assert.equal(second.json.pageId, first.json.id);
    const kept = await server.request('GET', `${DOCS}/${first.json.id}`, { token: TOKEN });
    assert.equal(kept.json.title, 'First', 'the conflicting write changed nothing');
    assert.equal((await create(BLOG, { url, title: 'Elsewhere', content: 'Three' })).status, 201);
  });

  test('patch changes only the fields sent', async () => {
    const created = (await create(DOCS, { url: uniqueUrl('patch'), title: 'Before', content: '# Before\n\nOld body.', language: 'en', metadata: { tag: 'a' } })).json;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const titled = await server.request('PATCH', `${DOCS}/${created.id}`, { token: TOKEN, body: { title: 'After' } });
    assert.equal(titled.status, 200, titled.text);
    assert.equal(titled.json.title, 'After');
    for (const field of ['id', 'url', 'content', 'language', 'metadata', 'createdAt', 'source'] as const) {
      assert.deepEqual(titled.json[field], created[field], `${field} must not change`);
    }
    assert.ok(Date.parse(titled.json.updatedAt) > Date.parse(created.updatedAt), 'updatedAt moves on');

    const newUrl = uniqueUrl('patched');
    const moved = await server.request('PATCH', `${DOCS}/${created.id}`, { token: TOKEN, body: { url: newUrl, content: 'New body.', metadata: { tag: 'b' } } });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.json.url, newUrl);
    assert.equal(moved.json.content, 'New body.');
    assert.deepEqual(moved.json.metadata, { tag: 'b' });
    assert.equal(moved.json.title, 'After');
    assert.equal(moved.json.language, 'en');

    const cleared = await server.request('PATCH', `${DOCS}/${created.id}`, { token: TOKEN, body: { language: null, metadata: null } });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.json.language, undefined);
    assert.equal(cleared.json.metadata, undefined);

    const reread = await server.request('GET', `${DOCS}/${created.id}`, { token: TOKEN });
    assert.deepEqual(reread.json, cleared.json);
  });

  test('patching a url onto another page\'s url is 409 with that page\'s id', async () => {
    const taken = (await create(DOCS, { url: uniqueUrl('taken'), title: 'Taken', content: 'x' })).json;
    const mover = (await create(DOCS, { url: uniqueUrl('mover'), title: 'Mover', content: 'y' })).json;
    const response = await server.request('PATCH', `${DOCS}/${mover.id}`, { token: TOKEN, body: { url: taken.url } });
    assertError(response, 409, 'conflict');
    assert.equal(response.json.pageId, taken.id);
  });

  test('patch and delete of an unknown page are 404', async () => {
    assertError(await server.request('PATCH', `${DOCS}/p_unknown`, { token: TOKEN, body: { title: 'x' } }), 404, 'not_found');
    assertError(await server.request('DELETE', `${DOCS}/p_unknown`, { token: TOKEN }), 404, 'not_found');
  });

  test('delete answers 204 with no body, then the page is gone everywhere', async () => {
    const url = uniqueUrl('delete');
    const page = (await create(DOCS, { url, title: 'Doomed', content: 'Bye' })).json;
    const deleted = await server.request('DELETE', `${DOCS}/${page.id}`, { token: TOKEN });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assertError(await server.request('GET', `${DOCS}/${page.id}`, { token: TOKEN }), 404, 'not_found');
    assertError(await server.request('DELETE', `${DOCS}/${page.id}`, { token: TOKEN }), 404, 'not_found');
    assert.equal((await create(DOCS, { url, title: 'Again', content: 'Back' })).status, 201, 'the url is free again');
  });

  test('GET /me counts the pages of each source', async () => {
    const before = (await server.request('GET', '/api/v1/me', { token: TOKEN })).json.sources.find((source: { id: string }) => source.id === 'blog').pages;
    await create(BLOG, { url: uniqueUrl('counted'), title: 'Counted', content: 'x' });
    const afterCount = (await server.request('GET', '/api/v1/me', { token: TOKEN })).json.sources.find((source: { id: string }) => source.id === 'blog').pages;
    assert.equal(afterCount, before + 1);
  });
});

describe('listing with a cursor', () => {
  const PAGED = '/api/v1/acme/sources/paged/pages';
  const ids: string[] = [];

  before(async () => {
    for (let index = 0; index < 23; index++) {
      const response = await create(PAGED, { url: `https://acme.test/paged/${index}`, title: `Paged ${index}`, content: `Page number ${index}` });
      assert.equal(response.status, 201);
      ids.push(response.json.id);
    }
  });

  async function listAll(limit: number): Promise<{ seen: string[]; calls: number }> {
    const seen: string[] = [];
    let cursor: string | null = null;
    let calls = 0;
    do {
      const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await server.request('GET', PAGED + query, { token: TOKEN });
      assert.equal(response.status, 200, response.text);
      assert.ok(response.json.pages.length <= limit);
      for (const page of response.json.pages) {
        assert.equal(page.content, undefined, 'listings carry no content');
        seen.push(page.id);
      }
      cursor = response.json.nextCursor;
      calls++;
      assert.ok(calls < 100, 'the listing ends');
    } while (cursor !== null);
    return { seen, calls };
  }

  test('every page exactly once, in a stable order, with nextCursor null at the end', async () => {
    const bySeven = await listAll(7);
    assert.equal(bySeven.calls, 4);
    assert.deepEqual(bySeven.seen, ids);
    const byOne = await listAll(1);
    assert.deepEqual(byOne.seen, ids);
    const whole = await server.request('GET', `${PAGED}?limit=200`, { token: TOKEN });
    assert.deepEqual(whole.json.pages.map((page: { id: string }) => page.id), ids);
    assert.equal(whole.json.nextCursor, null);
  });

  test('the default limit is 50', async () => {
    const response = await server.request('GET', PAGED, { token: TOKEN });
    assert.equal(response.json.pages.length, 23);
    assert.equal(response.json.nextCursor, null);
  });

  test('an exact multiple of the limit still ends with nextCursor null, not an empty extra page', async () => {
    const first = await server.request('GET', `${PAGED}?limit=23`, { token: TOKEN });
    assert.equal(first.json.pages.length, 23);
    assert.equal(first.json.nextCursor, null);
  });

  test('pages added and deleted between calls cause no duplicates and no gaps', async () => {
    const first = await server.request('GET', `${PAGED}?limit=5`, { token: TOKEN });
    const firstIds: string[] = first.json.pages.map((page: { id: string }) => page.id);
    assert.deepEqual(firstIds, ids.slice(0, 5));

    // Delete one page already listed and one not yet listed; add a new one.
    assert.equal((await server.request('DELETE', `${PAGED}/${ids[2]}`, { token: TOKEN })).status, 204);
    assert.equal((await server.request('DELETE', `${PAGED}/${ids[10]}`, { token: TOKEN })).status, 204);
    const added = (await create(PAGED, { url: 'https://acme.test/paged/added', title: 'Added', content: 'New' })).json.id;

    const rest: string[] = [];
    let cursor: string | null = first.json.nextCursor;
    while (cursor) {
      const response = await server.request('GET', `${PAGED}?limit=5&cursor=${encodeURIComponent(cursor)}`, { token: TOKEN });
      assert.equal(response.status, 200, response.text);
      rest.push(...response.json.pages.map((page: { id: string }) => page.id));
      cursor = response.json.nextCursor;
    }
    const expected = [...ids.slice(5).filter((id) => id !== ids[10]), added];
    assert.deepEqual(rest, expected);

    // A cursor pointing at a page that has since been deleted still continues after it.
    const afterDeleted = await server.request('GET', `${PAGED}?limit=2`, { token: TOKEN });
    const cursorAtSecond = afterDeleted.json.nextCursor;
    assert.equal((await server.request('DELETE', `${PAGED}/${afterDeleted.json.pages[1].id}`, { token: TOKEN })).status, 204);
    const continued = await server.request('GET', `${PAGED}?limit=2&cursor=${encodeURIComponent(cursorAtSecond)}`, { token: TOKEN });
    assert.equal(continued.status, 200);
    assert.deepEqual(continued.json.pages.map((page: { id: string }) => page.id), [ids[3], ids[4]]);
  });

  test('a cursor from one source does not leak pages of another', async () => {
    const docs = await server.request('GET', `${DOCS}?limit=1`, { token: TOKEN });
    assert.ok(docs.json.nextCursor);
    const response = await server.request('GET', `${BLOG}?limit=200&cursor=${encodeURIComponent(docs.json.nextCursor)}`, { token: TOKEN });
    assert.equal(response.status, 200);
    for (const page of response.json.pages) assert.equal(page.source, 'blog');
  });

  for (const limit of ['0', '201', '-1', 'abc', '1.5', '', '1e2', '99999999999']) {
    test(`limit=${limit} is 400 naming limit`, async () => {
      assertInvalidField(await server.request('GET', `${PAGED}?limit=${limit}`, { token: TOKEN }), 'limit');
    });
  }
  for (const limit of ['1', '200']) {
    test(`limit=${limit} is accepted`, async () => {
      assert.equal((await server.request('GET', `${PAGED}?limit=${limit}`, { token: TOKEN })).status, 200);
    });
  }
  for (const cursor of ['garbage', Buffer.from('s').toString('base64url'), '%FF%FE', 'AAAA', Buffer.from('s-1').toString('base64url'), Buffer.from('s1x').toString('base64url')]) {
    test(`cursor=${cursor} is 400 naming cursor`, async () => {
      assertInvalidField(await server.request('GET', `${PAGED}?cursor=${cursor}`, { token: TOKEN }), 'cursor');
    });
  }
});

describe('validation', () => {
  const valid = () => ({ url: uniqueUrl('valid'), title: 'Valid', content: 'Valid content' });
  const cases: { name: string; body: Record<string, unknown>; field: string }[] = [
    { name: 'a relative url', body: { ...valid(), url: '/relative/path' }, field: 'url' },
    { name: 'an ftp url', body: { ...valid(), url: 'ftp://acme.test/file' }, field: 'url' },
    { name: 'a javascript: url', body: { ...valid(), url: 'javascript:alert(1)' }, field: 'url' },
    { name: 'a url that is a number', body: { ...valid(), url: 42 }, field: 'url' },
    { name: 'a missing url', body: { title: 'x', content: 'x' }, field: 'url' },
    { name: 'a missing content', body: { url: uniqueUrl(), title: 'x' }, field: 'content' },
    { name: 'content that is not a string', body: { ...valid(), content: { text: 'x' } }, field: 'content' },
    { name: 'an unknown format', body: { ...valid(), format: 'pdf' }, field: 'format' },
    { name: 'a title that is not a string', body: { ...valid(), title: 5 }, field: 'title' },
    { name: 'an empty title', body: { ...valid(), title: '   ' }, field: 'title' },
    { name: 'nested metadata', body: { ...valid(), metadata: { tags: { a: 1 } } }, field: 'metadata' },
    { name: 'metadata holding an array', body: { ...valid(), metadata: { tags: ['a'] } }, field: 'metadata' },
    { name: 'metadata that is an array', body: { ...valid(), metadata: ['a'] }, field: 'metadata' },
    { name: 'metadata that is a string', body: { ...valid(), metadata: 'a=b' }, field: 'metadata' },
    { name: 'a language that is no language tag', body: { ...valid(), language: 'english please' }, field: 'language' },
    { name: 'a language that is a number', body: { ...valid(), language: 7 }, field: 'language' },
    { name: 'a title with a NUL character', body: { ...valid(), title: 'a\u0000b' }, field: 'title' },
    { name: 'metadata with a lone surrogate', body: { ...valid(), metadata: { note: 'x\ud800y' } }, field: 'metadata.note' },
  ];
  for (const entry of cases) {
    test(`${entry.name} is 400 naming ${entry.field}`, async () => {
      assertInvalidField(await create(DOCS, entry.body), entry.field);
    });
  }

  test('a rejected create leaves no page behind', async () => {
    const url = uniqueUrl('rejected');
    await create(DOCS, { url, title: 'x', content: 'x', language: '!!' });
    assert.equal((await create(DOCS, { url, title: 'x', content: 'x' })).status, 201);
  });

  test('an invalid patch changes nothing', async () => {
    const page = (await create(DOCS, valid())).json;
    assertInvalidField(await server.request('PATCH', `${DOCS}/${page.id}`, { token: TOKEN, body: { title: 'New', url: 'nope' } }), 'url');
    assert.equal((await server.request('GET', `${DOCS}/${page.id}`, { token: TOKEN })).json.title, 'Valid');
  });

  const malformed: { name: string; rawBody: string | Uint8Array }[] = [
    { name: 'malformed JSON', rawBody: '{"url": ' },
    { name: 'a JSON array', rawBody: '[{"url":"https://acme.test/a"}]' },
    { name: 'JSON null', rawBody: 'null' },
    { name: 'a JSON string', rawBody: '"hello"' },
    { name: 'invalid UTF-8', rawBody: Buffer.concat([Buffer.from('{"url":"https://acme.test/x","title":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('","content":"x"}')]) },
    { name: 'an empty body', rawBody: '' },
  ];
  for (const entry of malformed) {
    test(`${entry.name} is 400`, async () => {
      const response = await server.request('POST', DOCS, { token: TOKEN, rawBody: entry.rawBody, headers: { 'Content-Type': 'application/json' } });
      assertError(response, 400, 'invalid_request');
    });
  }

  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/html', 'application/jsonx']) {
    test(`Content-Type ${contentType} is 415`, async () => {
      const response = await server.request('POST', DOCS, { token: TOKEN, rawBody: JSON.stringify(valid()), headers: { 'Content-Type': contentType } });
      assertError(response, 415, 'unsupported_media_type');
    });
  }

  test('a JSON body without a Content-Type is 415', async () => {
    const response = await server.request('POST', DOCS, { token: TOKEN, rawBody: new TextEncoder().encode(JSON.stringify(valid())) });
    assertError(response, 415, 'unsupported_media_type');
  });

  for (const contentType of ['application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json']) {
    test(`Content-Type ${contentType} is accepted`, async () => {
      const response = await server.request('POST', DOCS, { token: TOKEN, rawBody: JSON.stringify(valid()), headers: { 'Content-Type': contentType } });
      assert.equal(response.status, 201, response.text);
    });
  }
});

describe('body limits', () => {
  test('a page write up to 8 MiB is accepted, over 1 MiB', async () => {
    const content = 'word '.repeat(Math.ceil((1.5 * MiB) / 5));
    const response = await create(DOCS, { url: uniqueUrl('big'), title: 'Big', content });
    assert.equal(response.status, 201, response.text.slice(0, 200));
    assert.equal(response.json.content.length, content.length);
  });

  test('a page write over 8 MiB is 413, for create and patch', async () => {
    const content = 'x'.repeat(8 * MiB + 10);
    assertError(await create(DOCS, { url: uniqueUrl('huge'), title: 'Huge', content }), 413, 'payload_too_large');
    const page = (await create(DOCS, { url: uniqueUrl('small'), title: 'Small', content: 'x' })).json;
    assertError(await server.request('PATCH', `${DOCS}/${page.id}`, { token: TOKEN, body: { content } }), 413, 'payload_too_large');
    assert.equal((await server.request('GET', `${DOCS}/${page.id}`, { token: TOKEN })).json.content, 'x');
  });

  test('other bodies are limited to 1 MiB (the admin API)', async () => {
    const response = await server.request('POST', '/api/v1/admin/organisations', {
      token: ADMIN_TOKEN,
      body: { id: 'padded', name: 'x'.repeat(MiB + 10) },
    });
    assertError(response, 413, 'payload_too_large');
  });

  test('a declared 20 MB upload is refused at once, before its body arrives, and the connection is closed', async () => {
    const response = await rawRequest(
      server.port,
      `POST ${DOCS} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 20000000\r\n\r\n{"url":`,
      { waitMs: 5000 },
    );
    assert.equal(response.status, 413, response.raw.slice(0, 300));
    assert.ok(response.firstByteAfter! < 2000, `answered after ${response.firstByteAfter} ms`);
    assert.equal(response.headers.connection, 'close');
    assert.ok(response.closedByServer, 'the server closes the connection instead of waiting for 20 MB');
    assertErrorBody(asTestResponse(response));
  });

  test('a streamed upload without Content-Length is refused while the client is still sending', async () => {
    const socket = connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const received: Buffer[] = [];
    let closed = false;
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => (closed = true));
    socket.write(`POST ${DOCS} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const chunk = Buffer.alloc(256 * 1024, 'a');
    let sent = 0;
    const deadline = Date.now() + 15_000;
    while (received.length === 0 && !closed && sent < 20 * 1000 * 1000 && Date.now() < deadline) {
      socket.write(`${chunk.length.toString(16)}\r\n`);
      socket.write(chunk);
      socket.write('\r\n');
      sent += chunk.length;
      // Send only as fast as the server reads, so `sent` is what it was offered.
      while (socket.writableLength > 0 && received.length === 0 && !closed && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }
    // Give the answer a moment to arrive in full.
    const waitUntil = Date.now() + 3000;
    while (!closed && Date.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 20));
    socket.destroy();
    const response = parseRaw(Buffer.concat(received).toString('latin1'), undefined, closed);
    assert.equal(response.status, 413, `after sending ${sent} bytes: ${response.raw.slice(0, 200)}`);
    assert.ok(sent < 20 * 1000 * 1000, `the answer came while the client was still sending (after ${sent} bytes)`);
    assert.ok(closed, 'the server closed the connection');
    assertErrorBody(asTestResponse(response));
  });

  test('a client that goes on sending after the refusal is not reset: the rest is read and dropped, then the connection ends cleanly', async () => {
    // allowHalfOpen: the client keeps sending after the server has finished its answer, as one that has not read it yet does.
    const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
    await new Promise((resolve) => socket.once('connect', resolve));
    const received: Buffer[] = [];
    const errors: string[] = [];
    let answerEnded = false;
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('end', () => (answerEnded = true));
    socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    // Resolves once the bytes are handed to the kernel, or after a second if they cannot be.
    const sendChunk = (chunk: Buffer) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        socket.write(`${chunk.length.toString(16)}\r\n${chunk.toString('latin1')}\r\n`, 'latin1', () => (clearTimeout(timer), resolve()));
      });
    socket.write(`POST ${DOCS} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const chunk = Buffer.alloc(256 * 1024, 'a');
    for (let sent = 0; sent <= 9 * MiB && !answerEnded; sent += chunk.length) await sendChunk(chunk);
    const deadline = Date.now() + 3000;
    while (!answerEnded && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(answerEnded, 'the server finished its answer');
    // Another megabyte after the answer, then a pause: a server that closed on unread bytes resets the connection here.
    for (let more = 0; more < 4; more++) await sendChunk(chunk);
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.end();
    await closed;
    assert.deepEqual(errors, [], 'no reset and no broken pipe');
    const response = parseRaw(Buffer.concat(received).toString('latin1'), undefined, true);
    assert.equal(response.status, 413, response.raw.slice(0, 200));
    assertErrorBody(asTestResponse(response));
  });

  test('the server still works after refusing large uploads', async () => {
    assert.equal((await server.request('GET', '/healthz')).status, 200);
    assert.equal((await create(DOCS, { url: uniqueUrl('after'), title: 'After', content: 'ok' })).status, 201);
  });
});
