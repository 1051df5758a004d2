/**
 * The same pages give the same results. A word on more pages than a search ranks is ranked
 * from a share of its sections; which share must not depend on the random ids that two
 * deployments give the same pages, or a site would answer differently from its staging copy,
 * nor on the version that wrote them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { baseFixture, databaseAtVersion, freshPostgresDatabase, onPostgres, startTestServer, type TestServer } from './harness.js';
import { openDb } from '../../server/store/db.js';
import { migrate } from '../../server/store/migrate.js';
import { searchHeadings, searchSections } from '../../server/search/search.js';

/** More pages mention "ledger" than a search ranks (BODY_CANDIDATES in server/search/search.ts), none in a heading. */
const PAGE_COUNT = 120;

function fixtureWithLedgerPages() {
  const fixture = baseFixture();
  const docs = fixture.organisations[0]!.sources.find((source) => source.id === 'docs')!;
  for (let index = 0; index < PAGE_COUNT; index++) {
    // Pages of several lengths, and pages of the same length whose scores tie.
    const filler = Array.from({ length: index % 7 }, (_, word) => `remark${word}`).join(' ');
    docs.pages.push({
      url: `https://acme.test/notes/${String(index).padStart(3, '0')}`,
      title: `Note ${index}`,
      content: `# Note ${index}\n\n## Details\n\nThe ledger keeps this entry. ${filler}`,
    });
  }
  return fixture;
}

const servers: TestServer[] = [];
before(async () => {
  for (let copy = 0; copy < 2; copy++) servers.push(await startTestServer({ fixture: fixtureWithLedgerPages() }));
});
after(() => Promise.all(servers.map((server) => server.stop())));

/** A search for the word every page holds: more matches than are ranked. */
const LEDGER_QUERY = { query: 'ledger', limit: 20 };

async function ledgerHitUrls(server: TestServer): Promise<string[]> {
  const response = await server.request('POST', '/api/v1/acme/widgets/find/search', { token: 'ws_test_find', body: LEDGER_QUERY });
  assert.equal(response.status, 200, response.text);
  return response.json.hits.map((hit: { url: string }) => hit.url);
}

describe('stable results', () => {
  test('two deployments of the same pages list the same hits, in the same order, for a word on more pages than are ranked', async () => {
    const [first, second] = await Promise.all(servers.map(ledgerHitUrls));
    assert.equal(first!.length, 20);
    assert.deepEqual(second, first);
  });

  test('pages written by the version before stable results list the same hits once the database is upgraded', async () => {
    const database = onPostgres ? await freshPostgresDatabase() : undefined;
    const db = await openDb(database ? { databaseUrl: database.url } : { dataDir: 'memory' });
    try {
      // Version 9 gave each page's sections a bucket by the page's random id.
      await databaseAtVersion(db, 9, fixtureWithLedgerPages());
      assert.ok((await migrate(db)).includes(10), "the upgrade applies version 10");
      const hits = await searchSections(db, { organisationId: 'acme', sources: ['docs'], ...LEDGER_QUERY });
      assert.deepEqual(hits.map((hit) => hit.url), await ledgerHitUrls(servers[0]!));
    } finally {
      await db.close();
      await database?.drop();
    }
  });
});

describe('entries found by their heading', () => {
  /** Pages whose entries rank alike (the same heading, as long), stored in the order given. */
  const entryPages = (urls: string[]) => {
    const fixture = baseFixture();
    const docs = fixture.organisations[0]!.sources.find((source) => source.id === 'docs')!;
    for (const url of urls) docs.pages.push({ url, title: `Stream ${url.at(-1)}`, content: `# Stream ${url.at(-1)}\n\n## close()\n\nCloses the stream.` });
    return fixture;
  };

  test('come in the same order whatever order their pages were pushed in', async () => {
    const urls = ['https://acme.test/api/stream-a', 'https://acme.test/api/stream-b', 'https://acme.test/api/stream-c'];
    const orders = [urls, [...urls].reverse()];
    const found: string[][] = [];
    for (const order of orders) {
      const server = await startTestServer({ fixture: entryPages(order) });
      try {
        const hits = await searchHeadings(server.db, { organisationId: 'acme', sources: ['docs'], names: ['close()'], limit: 5 });
        found.push(hits.map((hit) => hit.url.replace(/#.*$/, '')));
      } finally {
        await server.stop();
      }
    }
    assert.deepEqual(found[0], urls);
    assert.deepEqual(found[1], found[0]);
  });

  test('a call comes first as the visitor writes it: `pause()` is the function, not a class `dbg.Pause` of a shorter heading; `Pause()` the class', async () => {
    const fixture = baseFixture();
    const docs = fixture.organisations[0]!.sources.find((source) => source.id === 'docs')!;
    docs.pages.push(
      { url: 'https://acme.test/api/debugger', title: 'debugger', content: '# debugger\n\n## class dbg.Pause()\n\nThis class implements temporary pauses and their ignore counts.' },
      { url: 'https://acme.test/api/builtins', title: 'Built-in functions', content: '# Built-in functions\n\n## pause(*args, **options)\n\nThis function drops you into the debugger at the call site.' },
    );
    const server = await startTestServer({ fixture });
    try {
      const found = async (name: string) => (await searchHeadings(server.db, { organisationId: 'acme', sources: ['docs'], names: [name], limit: 5 })).map((hit) => hit.url);
      assert.deepEqual(await found('pause()'), ['https://acme.test/api/builtins#pauseargs-options', 'https://acme.test/api/debugger#class-dbgpause']);
      assert.deepEqual(await found('Pause()'), ['https://acme.test/api/debugger#class-dbgpause', 'https://acme.test/api/builtins#pauseargs-options']);
    } finally {
      await server.stop();
    }
  });
});

describe('a server of the release before words were joined, split or hyphenated', () => {
  test('still searches the upgraded database during a rolling update, as it searched before the upgrade', async () => {
    const database = onPostgres ? await freshPostgresDatabase() : undefined;
    const db = await openDb(database ? { databaseUrl: database.url } : { dataDir: 'memory' });
    // search_run as that release calls it (server/search/search.ts before 015_joined_words.sql), with its 16 arguments.
    const words = ['ledger', 'entry'];
    const earlierCall = async () => {
      const [row] = await db.query<{ result: unknown }>(
        `SELECT search_run($1, $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[], $9::int[], $10::text[],
                           $11, $12, $13, $14, $15, $16) AS result`,
        ['acme', ['docs'], [], words, words.map(() => 'plain'), words.map(() => 0), [], [], [], [], words.join(' '), 20, 30, 50, 10, 80],
      );
      const result = (typeof row!.result === 'string' ? JSON.parse(row!.result) : row!.result) as { hits: { url: string }[] };
      return result.hits.map((hit) => hit.url);
    };
    try {
      await databaseAtVersion(db, 14, fixtureWithLedgerPages());
      const before = await earlierCall();
      assert.ok(before.length >= 20 && before.every((url) => url.startsWith('https://acme.test/notes/')), before.join(' '));
      assert.ok((await migrate(db)).includes(16), 'the upgrade applies version 16');
      assert.deepEqual(await earlierCall(), before);
    } finally {
      await db.close();
      await database?.drop();
    }
  });
});
