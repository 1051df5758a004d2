/**
 * The words of the pages a widget searches, not of every source of its organisation: what a
 * typo is read as, which words of a question its pages never use, and the completions of a
 * word being typed come from its own sources. Here the docs (British, "colour") and the blog
 * (American, "color"; about freight) are two sources of one organisation, and the widgets
 * search the docs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_ANSWER } from '../../server/answer/embedded.js';
import { openDb, type Queryable } from '../../server/store/db.js';
import { migrate } from '../../server/store/migrate.js';
import { searchSections } from '../../server/search/search.js';
import { recountVocabulary } from '../../server/search/indexer.js';
import { baseFixture, databaseAtVersion, freshPostgresDatabase, onPostgres, startTestServer, type TestServer } from './harness.js';
import { CHAT } from './answer-helpers.js';

type Page = { url: string; title: string; content: string };

function twoSourcesFixture() {
  const fixture = baseFixture();
  const [docs, blog] = fixture.organisations[0]!.sources as { id: string; pages: Page[] }[];
  // Documentation of hundreds of pages: a word none of them uses says something then.
  docs!.pages.push(
    ...Array.from({ length: 200 }, (_, index) => ({ url: `https://acme.test/changelog/${index}`, title: `Changelog ${index}`, content: `# Changelog ${index}\n\nNothing else changed in this release.` })),
  );
  blog!.pages.push(
    ...Array.from({ length: 30 }, (_, index) => ({
      url: `https://acme.test/blog/${index}`,
      title: `Week ${index}`,
      content: `# Week ${index}\n\nOur color of the week, and the freight that shipped on Monday.`,
    })),
  );
  return fixture;
}

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: twoSourcesFixture() });
});
after(() => server.stop());

const searchDocs = async (query: string) => {
  const response = await server.request('POST', '/api/v1/acme/widgets/find/search', { token: 'ws_test_find', body: { query, limit: 5 } });
  assert.equal(response.status, 200, response.text);
  return response.json.hits as { url: string }[];
};

/** Every word count, by source, as rows in one order. */
const vocabulary = (db: Queryable) =>
  db.query<{ organisation_id: string; source_id: string; word: string; pages: number }>(
    `SELECT organisation_id, source_id, word, pages FROM search_vocabulary WHERE pages <> 0 ORDER BY organisation_id COLLATE "C", source_id COLLATE "C", word`,
  );

describe('the vocabulary of the sources searched', () => {
  test("a word only another source uses is a typo of the searched source's word: \"color\" finds the docs' \"colour\"", async () => {
    // Counted over the organisation, "color" was on 30 pages, a word the pages use, and found nothing in the docs.
    const hits = await searchDocs('color');
    assert.equal(hits[0]?.url, 'https://acme.test/start#configure');
  });

  test('a question about what only another source covers is refused, with no sources', async () => {
    const response = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I set the freight colour in the dashboard?' } });
    assert.equal(response.status, 200, response.text);
    // Counted over the organisation, "freight" was a word of the pages, and the docs' page on the accent colour answered.
    assert.equal(response.json.text, NO_ANSWER.en);
    assert.deepEqual(response.json.sources, []);
  });

  test('a page deleted from one source leaves the counts of that source', async () => {
    const pages = await server.request('GET', '/api/v1/acme/sources/blog/pages?limit=100', { token: 'ak_test_all' });
    assert.equal(pages.status, 200, pages.text);
    for (const page of pages.json.pages as { id: string }[]) {
      const deleted = await server.request('DELETE', `/api/v1/acme/sources/blog/pages/${page.id}`, { token: 'ak_test_all' });
      assert.equal(deleted.status, 204, deleted.text);
    }
    // Words of deleted pages leave the vocabulary at the next index write.
    const pushed = await server.request('POST', '/api/v1/acme/sources/docs/pages', {
      token: 'ak_test_all',
      body: { url: 'https://acme.test/shipping', title: 'Shipping', content: '# Shipping\n\nOrders ship within a day.' },
    });
    assert.equal(pushed.status, 201, pushed.text);
    const rows = await vocabulary(server.db);
    assert.deepEqual(rows.filter((row) => row.source_id === 'blog'), []);
    assert.ok(rows.some((row) => row.source_id === 'docs' && row.word === 'shipping'));
  });
});

describe('a database whose vocabulary was counted over the organisation', () => {
  test('is counted per source when upgraded, as a new deployment of the same pages counts it, and searches so', async () => {
    const database = onPostgres ? await freshPostgresDatabase() : undefined;
    const db = await openDb(database ? { databaseUrl: database.url } : { dataDir: 'memory' });
    // The same pages but the blog's first, which the older deployment had deleted.
    const withoutFirstPost = twoSourcesFixture();
    (withoutFirstPost.organisations[0]!.sources[1]!.pages as Page[]).shift();
    const fresh = await startTestServer({ fixture: withoutFirstPost });
    try {
      await databaseAtVersion(db, 12, twoSourcesFixture());
      // One count of the organisation's pages for each word.
      assert.deepEqual(await db.query("SELECT organisation_id, pages FROM search_vocabulary WHERE word = 'color'"), [{ organisation_id: 'acme', pages: 30 }]);
      // Deleted, its sections are parked until the next index write takes its words out of the counts.
      await db.query("DELETE FROM pages WHERE url = 'https://acme.test/blog/0'");
      assert.ok((await migrate(db)).includes(13), 'the upgrade applies version 13');
      const upgraded = await vocabulary(db);
      assert.deepEqual(upgraded, await vocabulary(fresh.db));
      assert.deepEqual(upgraded.filter((row) => row.word === 'color').map((row) => row.source_id), ['blog']);
      const hits = await searchSections(db, { organisationId: 'acme', sources: ['docs'], query: 'color', limit: 5 });
      assert.equal(hits[0]?.url, 'https://acme.test/start#configure');
      // Counted a few pages at a time, the same counts.
      await fresh.db.query('DELETE FROM search_vocabulary');
      await recountVocabulary(fresh.db, { batch: 7 });
      assert.deepEqual(await vocabulary(fresh.db), upgraded);
    } finally {
      await fresh.stop();
      await db.close();
      await database?.drop();
    }
  });
});
