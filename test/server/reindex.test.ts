/**
 * Pages indexed by an earlier version of the indexer are indexed again when a server starts,
 * from their stored content: after an upgrade that changes how pages are indexed, they are
 * found as pages pushed since are, without being pushed again, and nothing of them changes.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onPostgres, startTestServer, type TestServer } from './harness.js';
import { answerFixture } from './answer-helpers.js';
import { INDEX_VERSION } from '../../server/search/indexer.js';
import { reindexStalePages } from '../../server/store/pages.js';

const SEARCH = '/api/v1/acme/widgets/find/search';
const PAGES = '/api/v1/acme/sources/docs/pages';

const dataDir = onPostgres ? undefined : mkdtempSync(join(tmpdir(), 'assist-reindex-'));
const servers: TestServer[] = [];
after(async () => {
  for (const server of servers.reverse()) await server.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const found = async (server: TestServer, query: string) =>
  ((await server.request('POST', SEARCH, { token: 'ws_test_find', body: { query, limit: 10 } })).json.hits as { url: string }[]).map((hit) => hit.url);

test('a page an earlier indexer indexed is indexed again at start, found as a new one is, its content and dates unchanged', async () => {
  const first = await startTestServer({ fixture: answerFixture(), dataDir });
  servers.push(first);
  const pages: Record<string, { id: string; updatedAt: string; content: string }> = {};
  for (const slug of ['kilns', 'glazes']) {
    const response = await first.request('POST', PAGES, {
      token: 'ak_test_all',
      body: { url: `https://acme.test/docs/${slug}`, title: slug, content: `# ${slug}\n\n## pottery.${slug}_fired(path)\n\nReturn \`True\` once the ${slug} of a piece were fired in the kiln.` },
    });
    assert.equal(response.status, 201, response.text);
    pages[slug] = response.json;
  }
  // As an earlier indexer left them: indexed without what the current one finds them by. Only the
  // "kilns" page says so; the "glazes" page claims the current version, so it is left as it is.
  await first.db.query(`UPDATE search_sections SET heading = ''::tsvector, document = ''::tsvector WHERE page_id = ANY($1::text[])`, [[pages.kilns!.id, pages.glazes!.id]]);
  await first.db.query('UPDATE pages SET indexed_version = 0 WHERE id = $1', [pages.kilns!.id]);
  assert.deepEqual(await found(first, 'kilns fired'), [], 'not found before the restart');
  await first.close();

  const second = await startTestServer({ databaseUrl: first.databaseUrl, dataDir });
  servers.push(second);
  assert.equal(await second.context.services.reindex!.done, 1, 'only the page an earlier version indexed is indexed again');
  assert.deepEqual((await found(second, 'kilns fired')).map((url) => url.split('#')[0]), ['https://acme.test/docs/kilns']);
  assert.deepEqual(await found(second, 'glazes fired'), [], 'a page of the current version is not indexed again');
  const [row] = await second.db.query<{ version: number }>('SELECT indexed_version AS version FROM pages WHERE id = $1', [pages.kilns!.id]);
  assert.equal(row?.version, INDEX_VERSION);
  const after = (await second.request('GET', `${PAGES}/${pages.kilns!.id}`, { token: 'ak_test_all' })).json;
  assert.equal(after.updatedAt, pages.kilns!.updatedAt);
  assert.equal(after.content, pages.kilns!.content);
});

test('a page written by this version is marked with it, so the next start has nothing to index again', async () => {
  const server = servers.at(-1)!;
  const [row] = await server.db.query<{ stale: number }>('SELECT count(*)::int AS stale FROM pages WHERE indexed_version <> $1', [INDEX_VERSION]);
  assert.equal(row?.stale, 0);
});

test('a page an earlier indexer indexed and then written again is marked with this version, so the next start leaves it', async () => {
  const server = servers.at(-1)!;
  const created = await server.request('POST', PAGES, { token: 'ak_test_all', body: { url: 'https://acme.test/docs/saggars', title: 'Saggars', content: '# Saggars\n\nA saggar shields a piece from the flame.' } });
  assert.equal(created.status, 201, created.text);
  await server.db.query('UPDATE pages SET indexed_version = 0 WHERE id = $1', [created.json.id]);
  const patched = await server.request('PATCH', `${PAGES}/${created.json.id}`, { token: 'ak_test_all', body: { content: '# Saggars\n\nA saggar shields a piece from the flame and the ash.' } });
  assert.equal(patched.status, 200, patched.text);
  const [row] = await server.db.query<{ version: number }>('SELECT indexed_version AS version FROM pages WHERE id = $1', [created.json.id]);
  assert.equal(row?.version, INDEX_VERSION);
  assert.equal(await reindexStalePages(server.db), 0, 'nothing is left to index again');
});

test('a server indexing pages again answers requests meanwhile: the embedded database gives the event loop a turn between batches', async () => {
  const server = servers.at(-1)!;
  // Enough pages that indexing them again takes longer than a request, on a loaded machine too.
  for (let index = 0; index < 150; index++) {
    const response = await server.request('POST', PAGES, { token: 'ak_test_all', body: { url: `https://acme.test/docs/shelf-${index}`, title: `Shelf ${index}`, content: `# Shelf ${index}\n\nShelf ${index} holds the glazes of week ${index}.` } });
    assert.equal(response.status, 201, response.text);
  }
  await server.db.query('UPDATE pages SET indexed_version = 0');
  const [{ stale }] = await server.db.query<{ stale: number }>('SELECT count(*)::int AS stale FROM pages');
  await server.close();

  const restarted = await startTestServer({ databaseUrl: server.databaseUrl, dataDir });
  servers.push(restarted);
  let doneAt = Infinity;
  const done = restarted.context.services.reindex!.done.then((count) => ((doneAt = performance.now()), count));
  const health = await restarted.request('GET', '/healthz');
  const answeredAt = performance.now();
  assert.equal(health.status, 200);
  assert.ok(answeredAt < doneAt, 'answered while pages were still being indexed again');
  assert.equal(await done, stale);
});
test('a page that cannot be indexed again keeps its earlier index, is named in the log, and the pages after it are indexed', async () => {
  const server = servers.at(-1)!;
  await server.context.services.reindex!.done;
  const ids: string[] = [];
  for (const slug of ['sieves', 'broken', 'stilts']) {
    const response = await server.request('POST', PAGES, {
      token: 'ak_test_all',
      body: { url: `https://acme.test/docs/${slug}`, title: slug, content: `# ${slug}\n\nThe ${slug} of the studio are stacked by the kiln door.` },
    });
    assert.equal(response.status, 201, response.text);
    ids.push(response.json.id);
  }
  await server.db.query(`UPDATE search_sections SET heading = ''::tsvector, document = ''::tsvector WHERE page_id = ANY($1::text[])`, [ids]);
  await server.db.query('UPDATE pages SET indexed_version = 0 WHERE id = ANY($1::text[])', [ids]);
  // The database refuses the middle page's index, as it would a page an indexer bug cannot cut.
  await server.db.query(`CREATE FUNCTION refuse_one_page() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.page_id = '${ids[1]}' THEN RAISE EXCEPTION 'this page cannot be indexed'; END IF; RETURN NEW; END $$`);
  await server.db.query('CREATE TRIGGER refuse_one_page BEFORE INSERT ON search_sections FOR EACH ROW EXECUTE FUNCTION refuse_one_page()');
  try {
    const lines: string[] = [];
    assert.equal(await reindexStalePages(server.db, { log: (line) => lines.push(line) }), 2);
    for (const slug of ['sieves', 'stilts']) assert.deepEqual((await found(server, slug)).map((url) => url.split('#')[0]), [`https://acme.test/docs/${slug}`]);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, new RegExp(`page ${ids[1]} could not be indexed again.*this page cannot be indexed`));
    const versions = await server.db.query<{ id: string; version: number }>('SELECT id, indexed_version AS version FROM pages WHERE id = ANY($1::text[])', [ids]);
    assert.deepEqual(Object.fromEntries(versions.map((row) => [row.id, row.version])), { [ids[0]!]: INDEX_VERSION, [ids[1]!]: 0, [ids[2]!]: INDEX_VERSION });
  } finally {
    await server.db.query('DROP TRIGGER refuse_one_page ON search_sections');
    await server.db.query('DROP FUNCTION refuse_one_page()');
  }
});
