/**
 * Real documentation, as installed by Debian's postgresql-doc-15 (DocBook) and
 * python3.11-doc (Sphinx): a sample of their pages written through the pages API. Every
 * section's link lands on an id the saved page has, API entries are sections of their own,
 * and titles carry no site name. Skipped where the packages are not installed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseFixture, startTestServer, type TestServer } from './harness.js';

const SETS = [
  {
    name: 'PostgreSQL 15 manual (DocBook)',
    dir: '/usr/share/doc/postgresql-doc-15/html',
    files: ['auth-pg-hba-conf.html', 'runtime-config-resource.html', 'sql-createindex.html', 'ddl-partitioning.html', 'functions-json.html', 'tutorial-join.html'],
    entries: { 'runtime-config-resource.html': ['GUC-SHARED-BUFFERS', 'GUC-WORK-MEM'] } as Record<string, string[]>,
  },
  {
    name: 'Python 3.11 docs (Sphinx)',
    dir: '/usr/share/doc/python3.11/html',
    files: ['library/json.html', 'library/functools.html', 'library/os.path.html', 'tutorial/classes.html', 'library/itertools.html', 'reference/datamodel.html'],
    entries: { 'library/json.html': ['json.dumps', 'json.JSONDecoder.decode'], 'library/os.path.html': ['os.path.join'] } as Record<string, string[]>,
  },
];

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: baseFixture() });
});
after(() => server?.stop());

for (const set of SETS) {
  describe(set.name, { skip: !existsSync(join(set.dir, set.files[0]!)) && `${set.dir} is not installed` }, () => {
    test('every section links to an id the page has; API entries are sections; titles are clean', async () => {
      let linked = 0;
      for (const file of set.files) {
        const html = readFileSync(join(set.dir, file), 'utf8');
        const url = `https://docs.example.test/${file}`;
        const response = await server.request('POST', '/api/v1/acme/sources/blog/pages', { token: 'ak_test_all', body: { url, format: 'html', content: html } });
        assert.equal(response.status, 201, response.text);
        assert.doesNotMatch(response.json.title, /documentation$|&#|—\s*$/, `${file}: ${response.json.title}`);

        const ids = new Set([...html.matchAll(/\s(?:id|name)="([^"]+)"/g)].map((match) => match[1]!));
        const sections = await server.db.query<{ url: string }>('SELECT url FROM search_sections WHERE page_id = $1', [response.json.id]);
        const fragments = sections.flatMap((row) => (row.url.includes('#') ? [decodeURIComponent(row.url.slice(row.url.indexOf('#') + 1))] : []));
        linked += fragments.length;
        for (const fragment of fragments) assert.ok(ids.has(fragment), `${file}#${fragment} exists in the page`);
        for (const entry of set.entries[file] ?? []) assert.ok(fragments.includes(entry), `${file}#${entry} is a section`);
      }
      assert.ok(linked > 50, `sections link into their pages (${linked})`);
    });
  });
}
