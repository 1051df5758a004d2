/**
 * Pages of the common documentation generators, saved small under fixtures/pages/, written
 * through the pages API as a crawler would send them: what is stored is the page's own text
 * (chrome dropped, code verbatim with its language), its title is clean, and search hits
 * link to ids that exist in the saved HTML (or to the page, never to an invented id).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseFixture, startTestServer, type TestServer } from './harness.js';

const PAGES = join(import.meta.dirname, 'fixtures', 'pages');
const DOCS = '/api/v1/acme/sources/docs/pages';

interface Generator {
  file: string;
  /** The title as a crawler sends it (raw, entities and site name included); absent: taken from the page. */
  writtenTitle?: string;
  title: string;
  kept: string[];
  dropped: string[];
  /** A fenced block expected verbatim, language line included. */
  code: string;
  /** Query → the fragment its hit on this page carries (null: the page itself). */
  anchors: Record<string, string | null>;
}

const GENERATORS: Generator[] = [
  {
    file: 'sphinx.html',
    writtenTitle: 'zipquill — Quill archive reader &#8212; Quillkit 3.2 documentation',
    title: 'zipquill — Quill archive reader',
    kept: ['Subclasses override `__init__()` and keep a `__slots__` tuple.', '| pages per quill | 65535 |', 'Raises:\n: BadQuill'],
    dropped: ['Navigation', 'Sidebar contents entry', 'Quick search', 'Copyright', '¶', 'next', 'Created using Sphinx'],
    code: "```python3\n>>> import zipquill\n>>> with zipquill.open('notes.qz') as archive:\n...     print(archive.__len__())\n```",
    anchors: { spinereel: 'zipquill.open', inkwell: 'zipquill.BadQuill', marginalia: 'limits' },
  },
  {
    file: 'docbook.html',
    title: '19.4. Burrow Consumption',
    kept: ['#### `shared_burrows` (`integer`) {#GUC-SHARED-BURROWS}', 'Several running sessions could be doing such digs concurrently.'],
    dropped: ['Prev', 'Next', 'Chapter 19. Server Configuration', 'Write Ahead Log', '19.4.1. Memory</a>', 'runtime-config-burrow.html'],
    code: '```\nshared_burrows = 128MB    # needs a restart\n```',
    anchors: { 'shared burrow buffers': 'GUC-SHARED-BURROWS', 'temporary disk files': 'GUC-DIG-MEM' },
  },
  {
    file: 'mkdocs-material.html',
    writtenTitle: 'Configure the lantern - Glowworm Docs',
    title: 'Configure the lantern',
    kept: ['The lantern reads `glowworm.yml` at start. Values set with `--brightness` win over the file.', 'Never snuff a lantern'],
    dropped: ['Skip to content', 'header logo', 'Primary sidebar', 'Secondary toc', 'Edit this page', 'Last update', 'Install footer', 'Copyright footer', '¶'],
    code: '```yaml\nwick:\n  length: 12mm   # <= 20mm\n```',
    anchors: { 'firefly budget': 'wick-length', 'moth guard': 'snuffing' },
  },
  {
    file: 'docusaurus.html',
    title: 'Rotate the turbine keys',
    kept: ['Rotate them before the `TURBINE_KEY_EXPIRED` error appears.', '## With the CLI {#with-the-cli}'],
    dropped: ['Skip to main content', 'navbar', 'Sidebar intro', 'Breadcrumb', 'On this page', 'Copy', 'Edit this page', 'Pagination intro', 'Desktop toc', 'Acme footer', '\u200b'],
    code: '```bash\nacme turbine rotate --key-id tk_123\nacme turbine status\n```',
    anchors: { 'propeller cycle': 'rollback', 'turbine status': 'with-the-cli' },
  },
  {
    file: 'vitepress.html',
    title: 'Tune the harmonica',
    kept: ['Run `reedbank tune` with the key you want.', '## Drone pitch {#drone-pitch}'],
    dropped: ['Skip to content', 'navbar title', 'Sidebar', 'On this page', 'Outline reed', 'Edit this page', 'Pager intro', 'Reedbank footer', '\u200b', '\nts\n'],
    code: "```ts\nimport { tune } from 'reedbank'\nawait tune({ key: 'C', gap: 0.2 }) // millimetres\n```",
    anchors: { 'soft breath': 'reed-gap', bellows: 'drone-pitch' },
  },
  {
    file: 'hugo.html',
    writtenTitle: 'Plant the seed vault | Orchard',
    title: 'Plant the seed vault',
    kept: ['Seeds keep for decades', 'Dig the vault at least two metres deep'],
    dropped: ['Orchard navbar', 'Sidebar docs link', 'Edit this page', 'Toc soil', 'Breadcrumb', 'Last modified', 'Orchard footer'],
    code: '```toml\n[vault]\ndepth_m = 2\n```',
    anchors: { 'frost line': 'soil-depth', germinator: null },
  },
];

/** Every id and anchor name the saved page has: where a browser can scroll to. */
function idsOf(html: string): Set<string> {
  return new Set([...html.matchAll(/\s(?:id|name)="([^"]+)"/g)].map((match) => match[1]!));
}

let server: TestServer;
const stored = new Map<string, any>();

before(async () => {
  server = await startTestServer({ fixture: baseFixture() });
  for (const generator of GENERATORS) {
    const html = readFileSync(join(PAGES, generator.file), 'utf8');
    const body = { url: `https://docs.example.test/${generator.file}`, format: 'html', content: html, ...(generator.writtenTitle ? { title: generator.writtenTitle } : {}) };
    const response = await server.request('POST', DOCS, { token: 'ak_test_all', body });
    assert.equal(response.status, 201, response.text);
    stored.set(generator.file, response.json);
  }
});
after(() => server?.stop());

const search = async (query: string) => {
  const response = await server.request('POST', '/api/v1/acme/widgets/find/search', { token: 'ws_test_find', body: { query } });
  assert.equal(response.status, 200, response.text);
  return response.json.hits as { url: string; title: string }[];
};

for (const generator of GENERATORS) {
  describe(generator.file.replace('.html', ''), () => {
    test('the stored content is the main text, without chrome', () => {
      const content: string = stored.get(generator.file).content;
      for (const text of generator.kept) assert.ok(content.includes(text), `kept ${JSON.stringify(text)} in:\n${content}`);
      for (const text of generator.dropped) assert.ok(!content.includes(text), `dropped ${JSON.stringify(text)} from:\n${content}`);
      assert.doesNotMatch(content, /<[a-z/!]/i, 'no markup is stored');
    });

    test('code blocks are kept verbatim with their language', () => {
      assert.ok(stored.get(generator.file).content.includes(generator.code), stored.get(generator.file).content);
    });

    test('the title is clean: entities decoded, the site name gone', () => {
      assert.equal(stored.get(generator.file).title, generator.title);
    });

    test('hits link to ids the saved page has, or to the page', async () => {
      const page = stored.get(generator.file);
      const ids = idsOf(readFileSync(join(PAGES, generator.file), 'utf8'));
      for (const [query, fragment] of Object.entries(generator.anchors)) {
        const hits = await search(query);
        const hit = hits.find((candidate) => candidate.url.split('#')[0] === page.url);
        assert.ok(hit, `"${query}" finds ${generator.file}: ${JSON.stringify(hits)}`);
        const found = hit.url.includes('#') ? decodeURIComponent(hit.url.slice(hit.url.indexOf('#') + 1)) : null;
        assert.equal(found, fragment, `"${query}" lands on its section`);
        for (const other of hits) {
          if (other.url.split('#')[0] !== page.url || !other.url.includes('#')) continue;
          const id = decodeURIComponent(other.url.slice(other.url.indexOf('#') + 1));
          assert.ok(ids.has(id), `#${id} exists in ${generator.file}`);
        }
      }
    });
  });
}
