/**
 * Markdown as the server reads it, one function per rule: inline syntax to plain text
 * (code and `__name__` kept as written, code fences untouched), the title of a markdown
 * page (fixtures, `ingest` and the pages API agree, a `# ` inside a code fence is no title),
 * the folder-to-url rule (`guide/index.md` → `…/guide/` everywhere), and titles cleaned of
 * the site name.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHtml } from '../../server/content/html.js';
import { fencedBlocks, markdownTitle, plainInline } from '../../server/content/markdown.js';
import { urlOfFile } from '../../server/content/paths.js';
import { decodeTitleEntities, sharedTitleSuffix, withoutSiteName } from '../../server/content/title.js';
import { readFolder } from '../../server/ingest/documents.js';
import { entryHeading } from '../../server/search/search.js';
import { PATH_SEPARATOR, splitSections } from '../../server/search/sections.js';
import { readFolderPages } from '../../server/store/fixture.js';
import { baseFixture, startTestServer, type TestServer } from './harness.js';

test('inline syntax: emphasis, links and code go, identifiers and code stay as written', () => {
  const cases: [string, string][] = [
    ['Call `__init__` and `**kwargs` here', 'Call __init__ and **kwargs here'],
    ['Override __init__ and __slots__ in Python', 'Override __init__ and __slots__ in Python'],
    ['**bold**, *em*, __strong words__ and ~~gone~~ text', 'bold, em, strong words and gone text'],
    ['snake_case_name, 2 * 3 * 4 and a_b_c stay', 'snake_case_name, 2 * 3 * 4 and a_b_c stay'],
    ['See [the guide](https://acme.test/a_(b)) and ![logo](x.png)', 'See the guide and logo'],
    ['A [reference][ref] link', 'A reference link'],
    ['Escaped \\*stars\\* and \\_under\\_ and \\`ticks\\`', 'Escaped *stars* and _under_ and `ticks`'],
    ['`` code with ` inside ``', ' code with ` inside '],
    ['A lone ` backtick and [bracket', 'A lone ` backtick and [bracket'],
    // Inside code a backslash is itself: the pattern `[a\-z]` and the path `C:\` keep theirs.
    ["the backslash (`'\\'`), `[a\\-z]`, `C:\\` and `D:\\`", "the backslash ('\\'), [a\\-z], C:\\ and D:\\"],
  ];
  for (const [markdown, plain] of cases) assert.equal(plainInline(markdown), plain, markdown);
});

test('code fences are not read as markdown: their text is kept byte for byte', () => {
  const page = '# Hooks\n\n```python\nclass A:\n    def __init__(self, *args, **kwargs):\n        self.__dict__ = [x](y)\n```\n\nThen `__enter__`.';
  const [intro] = splitSections(page, 'Hooks');
  assert.match(intro!.text, /def __init__\(self, \*args, \*\*kwargs\):\n {8}self\.__dict__ = \[x\]\(y\)/);
  assert.match(intro!.text, /Then __enter__\./);
});

test('the title of a markdown page: the first `# ` heading outside code fences and front matter', () => {
  assert.equal(markdownTitle('```sh\n# not a title\n```\n\n# Install `assist`\n'), 'Install assist');
  assert.equal(markdownTitle('---\ntitle: meta\n---\n## Second\n# First level {#custom}\n'), 'First level');
  assert.equal(markdownTitle('~~~\n# in tildes\n~~~\nNo heading'), undefined);
  assert.equal(markdownTitle('# Closing hashes ##'), 'Closing hashes');
});

test('the folder-to-url rule: .md dropped, index.md is its folder, .html kept', () => {
  const base = 'https://acme.test/docs/';
  assert.equal(urlOfFile(base, join('guide', 'index.md')), 'https://acme.test/docs/guide/');
  assert.equal(urlOfFile(base, 'index.md'), 'https://acme.test/docs/');
  assert.equal(urlOfFile(base, join('guide', 'install.md')), 'https://acme.test/docs/guide/install');
  assert.equal(urlOfFile(base, join('api', 'a b.html')), 'https://acme.test/docs/api/a%20b.html');
});

test('titles: entities decoded, the site name around the heading taken off, a shared ending found', () => {
  assert.equal(decodeTitleEntities('json &#8212; JSON &amp; <b> co'), 'json — JSON & <b> co');
  assert.equal(withoutSiteName('json — JSON encoder — Python 3.11.2 documentation', 'json — JSON encoder'), 'json — JSON encoder');
  assert.equal(withoutSiteName('Rotate keys | Acme Docs', 'Rotate keys'), 'Rotate keys');
  assert.equal(withoutSiteName('PostgreSQL: Documentation: 15: 21.1. The pg_hba.conf File', '21.1. The pg_hba.conf File'), '21.1. The pg_hba.conf File');
  assert.equal(withoutSiteName('Rotate keys faster', 'Rotate keys'), 'Rotate keys faster', 'no separator: not a site name');
  assert.equal(withoutSiteName('Install - My Site', undefined), 'Install - My Site', 'without a heading nothing is guessed');
  const titles = ['json — Python 3.11 documentation', 'os — Python 3.11 documentation', 'Glossary — Python 3.11 documentation', 'Odd one'];
  assert.equal(sharedTitleSuffix(titles), ' — Python 3.11 documentation');
  assert.equal(sharedTitleSuffix(['A - B', 'C - D', 'E - F']), undefined, 'different endings are no site name');
});

test('code keeps its blank lines as the page has them; blank lines between blocks are one', () => {
  const { markdown } = readHtml('<main><p>Try it:</p><div><div><pre>SELECT 1;\n\n\nSELECT 2;\n</pre></div></div><p>Done.</p></main>');
  assert.equal(markdown, 'Try it:\n\n```\nSELECT 1;\n\n\nSELECT 2;\n```\n\nDone.');
});

test('HTML tables become pipe tables; a table inside a cell is text of that cell', () => {
  const { markdown } = readHtml(
    '<main><table><tr><th>Flag</th><th>Meaning</th></tr><tr><td><code>-v</code><table><tr><td>nested</td></tr></table> more</td>' +
      '<td>a|b</td></tr></table></main>',
  );
  assert.equal(markdown, '| Flag | Meaning |\n| --- | --- |\n| `-v` nested more | a\\|b |');
});

test('a list or a definition list inside a table cell is text of that cell: what follows the table is not read as list items or indented code', () => {
  // DocBook's function tables list a function's variants in a cell (`pg_relation_size`'s forks).
  const { markdown } = readHtml(
    '<main><table><tr><th>Function</th><th>Description</th></tr><tr><td><code>burrow_size</code></td><td>Size of one fork:<ul><li><code>main</code></li><li><code>fsm</code></li></ul></td></tr>' +
      '<tr><td><code>burrow_kind</code></td><td><dl><dt>k</dt><dd>the kind</dd></dl></td></tr></table>' +
      '<p>The functions above accept a burrow name.</p><p>Table 9.96 lists the tunnel functions.</p></main>',
  );
  assert.equal(
    markdown,
    '| Function | Description |\n| --- | --- |\n| `burrow_size` | Size of one fork: `main` `fsm` |\n| `burrow_kind` | k the kind |\n\nThe functions above accept a burrow name.\n\nTable 9.96 lists the tunnel functions.',
  );
});

let scratch: string;
let server: TestServer;
before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'assist-reader-'));
  server = await startTestServer({ fixture: baseFixture() });
});
after(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

test('fixtures, ingest and the pages API give a markdown page the same title and url', async () => {
  const folder = join(scratch, 'site');
  mkdirSync(join(folder, 'guide'), { recursive: true });
  const markdown = '```sh\n# not a title\n```\n\n# Install the *zebracorn*\n\nRun it.';
  writeFileSync(join(folder, 'guide', 'index.md'), markdown);
  const base = 'https://acme.test/handbook/';

  const [fixturePage] = readFolderPages({ folder, baseUrl: base });
  const [ingested] = await readFolder(folder, base);
  const created = await server.request('POST', '/api/v1/acme/sources/docs/pages', {
    token: 'ak_test_all',
    body: { url: 'https://acme.test/handbook/guide/', content: markdown },
  });
  assert.equal(created.status, 201, created.text);

  assert.deepEqual([fixturePage!.url, fixturePage!.title], ['https://acme.test/handbook/guide/', 'Install the zebracorn']);
  assert.deepEqual([(ingested as { url: string }).url, (ingested as { title: string }).title], ['https://acme.test/handbook/guide/', 'Install the zebracorn']);
  assert.equal(created.json.title, 'Install the zebracorn');
});

test('an HTML page written without a language takes its <html lang>; a raw crawler title is cleaned', async () => {
  const html =
    '<html lang="de"><head><title>Proxy &#8212; Zebracorn Handbuch</title></head><body><nav>Menü</nav>' +
    '<main><h1 id="proxy">Proxy</h1><p>Den Proxy setzen.</p></main></body></html>';
  const response = await server.request('POST', '/api/v1/acme/sources/docs/pages', {
    token: 'ak_test_all',
    body: { url: 'https://acme.test/de/proxy.html', format: 'html', content: html, title: 'Proxy &#8212; Zebracorn Handbuch' },
  });
  assert.equal(response.status, 201, response.text);
  assert.equal(response.json.language, 'de');
  assert.equal(response.json.title, 'Proxy');
  const patched = await server.request('PATCH', `/api/v1/acme/sources/docs/pages/${response.json.id}`, {
    token: 'ak_test_all',
    body: { title: 'Proxy &amp; Firewall' },
  });
  assert.equal(patched.json.title, 'Proxy & Firewall');
});

/** Pushes HTML pages through the pages API; then, for a query, the url of the first search hit on one of them. */
async function pushedHtml(pages: { url: string; content: string }[]): Promise<(query: string) => Promise<string>> {
  for (const { url, content } of pages) {
    const response = await server.request('POST', '/api/v1/acme/sources/docs/pages', { token: 'ak_test_all', body: { url, format: 'html', content } });
    assert.equal(response.status, 201, response.text);
  }
  return async (query) => {
    const response = await server.request('POST', '/api/v1/acme/widgets/find/search', { token: 'ws_test_find', body: { query } });
    assert.equal(response.status, 200, response.text);
    const hit = (response.json.hits as { url: string }[]).find((candidate) => pages.some((page) => candidate.url.startsWith(page.url)));
    assert.ok(hit, `"${query}" finds its page: ${response.text}`);
    return hit.url;
  };
}

test('text after a list of API entries belongs to the section the list stands in, not to its last entry', async () => {
  // DocBook: the settings of "When to Dig", then a paragraph and a table of the section's own.
  const docbook =
    '<html><head><title>19.8. Digging</title></head><body><div class="sect1" id="DIG"><h2>19.8. Digging</h2>' +
    '<div class="sect2" id="DIG-WHEN"><h3>19.8.2. When to Dig</h3><div class="variablelist"><dl class="variablelist">' +
    '<dt id="GUC-DIG-MIN"><code class="varname">dig_min_depth</code> (<code>integer</code>)</dt><dd><p>Sets how deep a burrow starts.</p></dd>' +
    '<dt id="GUC-DIG-PROGRESS"><code class="varname">dig_progress_interval</code> (<code>integer</code>)</dt><dd><p>How often progress is told.</p></dd>' +
    '</dl></div><p>Table 19.3 explains the soil hardness grades.</p>' +
    '<table><tr><th>Grade</th><th>Soil</th></tr><tr><td>SAND</td><td>loose quartzite grains</td></tr></table></div></div></body></html>';
  // Sphinx: a function entry, then a paragraph of the section; a class whose own text goes on after its method.
  const sphinx =
    '<html><head><title>zeb — Burrows</title></head><body><div role="main"><section id="zeb-burrows"><h1>zeb — Burrows</h1>' +
    '<section id="files"><h2>Files</h2><dl class="py function"><dt class="sig" id="zeb.open">zeb.open(path)</dt><dd><p>Open a burrow.</p></dd></dl>' +
    '<p>The following flags tell zeb.open how to treat marmalade tunnels.</p>' +
    '<dl class="py class"><dt class="sig" id="zeb.Burrow">class zeb.Burrow</dt><dd><p>A burrow.</p>' +
    '<dl class="py method"><dt class="sig" id="zeb.Burrow.dig">dig()</dt><dd><p>Dig deeper.</p></dd></dl>' +
    '<p>Burrows compare equal when their quokka counts match.</p></dd></dl></section></section></div></body></html>';
  const pages = [
    { url: 'https://acme.test/docs/runtime-config-dig.html', content: docbook },
    { url: 'https://acme.test/docs/zeb.html', content: sphinx },
  ];
  const landsOn = await pushedHtml(pages);
  assert.equal(await landsOn('soil hardness grades'), 'https://acme.test/docs/runtime-config-dig.html#DIG-WHEN');
  assert.equal(await landsOn('loose quartzite'), 'https://acme.test/docs/runtime-config-dig.html#DIG-WHEN', 'the table too');
  assert.equal(await landsOn('marmalade tunnels'), 'https://acme.test/docs/zeb.html#files');
  assert.equal(await landsOn('quokka counts'), 'https://acme.test/docs/zeb.html#zeb.Burrow', 'a class entry goes on after its methods');
  assert.equal(await landsOn('dig progress interval'), 'https://acme.test/docs/runtime-config-dig.html#GUC-DIG-PROGRESS', 'entries keep their own');

  // The section is headed again where its text goes on, and nothing of the page is lost or doubled.
  const { markdown } = readHtml(docbook);
  const sections = splitSections(markdown, '19.8. Digging', { format: 'html' });
  assert.deepEqual(
    sections.map((section) => [section.anchor, section.text]),
    [
      ['DIG-WHEN', ''],
      ['GUC-DIG-MIN', 'Sets how deep a burrow starts.'],
      ['GUC-DIG-PROGRESS', 'How often progress is told.'],
      ['DIG-WHEN', sections.at(-1)!.text],
    ],
  );
  assert.match(sections.at(-1)!.text, /^Table 19\.3 explains the soil hardness grades\.\s+Grade.*SAND.*loose quartzite grains/s);
});

test('a term without an id after an entry that has one belongs to the section the list stands in, not to that entry', async () => {
  // DocBook (psql's meta-commands): `\copy` has an id, `\d` and `\x` after it do not; a second signature of one entry stays its own.
  const docbook =
    '<html><head><title>burrow</title></head><body><div class="refsect2" id="BURROW-COMMANDS"><h3>Meta-Commands</h3><div class="variablelist"><dl class="variablelist">' +
    '<dt><span class="term"><code class="literal">\\a</code></span></dt><dd><p>Toggles the aligned tunnel map.</p></dd>' +
    '<dt id="BURROW-COMMANDS-COPY"><span class="term"><code class="literal">\\copy</code></span></dt><dd><p>Copies a tunnel to a file.</p></dd>' +
    '<dt><span class="term"><code class="literal">\\d</code></span></dt><dd><p>Lists the chambers of every burrow.</p></dd>' +
    '<dt><span class="term"><code class="literal">\\x</code></span></dt><dd><p>Shows each marmalade column on its own line.</p></dd>' +
    '</dl></div></div></body></html>';
  const sphinx =
    '<html><head><title>zeb — Burrows</title></head><body><div role="main"><section id="zeb-burrows"><h1>zeb — Burrows</h1>' +
    '<dl class="py function"><dt class="sig" id="zeb.dig">zeb.dig(depth)</dt><dt class="sig">zeb.dig(depth, angle)</dt><dd><p>Digs a quokka tunnel at an angle.</p></dd></dl>' +
    '</section></div></body></html>';
  const pages = [
    { url: 'https://acme.test/docs/app-burrow.html', content: docbook },
    { url: 'https://acme.test/docs/zeb-dig.html', content: sphinx },
  ];
  const landsOn = await pushedHtml(pages);
  assert.equal(await landsOn('chambers of every burrow'), 'https://acme.test/docs/app-burrow.html#BURROW-COMMANDS');
  assert.equal(await landsOn('marmalade column own line'), 'https://acme.test/docs/app-burrow.html#BURROW-COMMANDS');
  assert.equal(await landsOn('copies a tunnel'), 'https://acme.test/docs/app-burrow.html#BURROW-COMMANDS-COPY', 'the entry keeps its own');
  assert.equal(await landsOn('quokka tunnel angle'), 'https://acme.test/docs/zeb-dig.html#zeb.dig', 'a second signature is the same entry');

  // The terms keep their definitions, under the list's section headed again.
  const { markdown } = readHtml(docbook);
  const sections = splitSections(markdown, 'burrow', { format: 'html' });
  assert.deepEqual(
    sections.map((section) => section.anchor),
    ['BURROW-COMMANDS', 'BURROW-COMMANDS-COPY', 'BURROW-COMMANDS'],
  );
  assert.match(sections.at(-1)!.text, /\\d\s+Lists the chambers of every burrow\.\s+\\x\s+Shows each marmalade column on its own line\./);
});

test('a signature without an anchor of its own is its definition\'s term as code: `d | other` and `f(*args, **kwargs)` as the page writes them, without the "[source]" link beside it', () => {
  const sphinx =
    '<html><head><title>Mappings</title></head><body><div role="main"><section id="mappings"><h1>Mappings</h1><p>These operations are supported:</p>' +
    '<dl class="describe"><dt class="sig sig-object py">\n<span class="sig-name descname"><span class="pre">d</span> <span class="pre">|</span> <span class="pre">other</span></span></dt>' +
    '<dd><p>Create a new mapping with the keys of <em>d</em> and <em>other</em>.</p></dd></dl>' +
    '<dl class="py method"><dt class="sig sig-object py">\n<span class="sig-prename descclassname"><span class="pre">burrow.</span></span><span class="sig-name descname"><span class="pre">dig</span></span>' +
    '<span class="sig-paren">(</span><em class="sig-param"><span class="o">*</span><span class="n">args</span></em>, <em class="sig-param"><span class="o">**</span><span class="n">kwargs</span></em><span class="sig-paren">)</span>' +
    '<a class="reference internal" href="_modules/burrow.html#dig"><span class="viewcode-link"><span class="pre">[source]</span></span></a></dt>' +
    '<dd><p>Dig with the arguments given.</p></dd></dl></section></div></body></html>';
  const { markdown } = readHtml(sphinx);
  assert.match(markdown, /^`d \| other`\n: Create a new mapping with the keys of d and other\.$/m);
  assert.match(markdown, /^`burrow\.dig\(\*args, \*\*kwargs\)`\n: Dig with the arguments given\.$/m);
});

test('another name of an entry heads it with the first (`zeb.A`, `zeb.ASCII`): neither is an empty section, and a search for either lands on it', async () => {
  const sphinx =
    '<html><head><title>zeb — Burrows</title></head><body><div role="main"><section id="zeb-burrows"><h1>zeb — Burrows</h1>' +
    '<section id="flags"><h2>Flags</h2><dl class="py data"><dt class="sig" id="zeb.A"><span class="sig-prename">zeb.</span><span class="sig-name">A</span></dt>' +
    '<dt class="sig" id="zeb.ASCII"><span class="sig-prename">zeb.</span><span class="sig-name">ASCII</span></dt><dd><p>Digs marmalade tunnels in plain letters only.</p></dd></dl>' +
    '<dl class="py data"><dt class="sig" id="zeb.B">zeb.B</dt><dd><p>Digs quokka tunnels.</p></dd></dl></section></section></div></body></html>';
  const sections = splitSections(readHtml(sphinx).markdown, 'zeb — Burrows', { format: 'html' });
  assert.deepEqual(
    sections.filter((section) => section.anchor?.startsWith('zeb.')).map((section) => [section.anchor, section.path.split(PATH_SEPARATOR).at(-1), section.text]),
    [
      ['zeb.A', 'zeb.A, zeb.ASCII', 'Digs marmalade tunnels in plain letters only.'],
      ['zeb.B', 'zeb.B', 'Digs quokka tunnels.'],
    ],
  );
  const landsOn = await pushedHtml([{ url: 'https://acme.test/docs/zeb-flags.html', content: sphinx }]);
  assert.equal(await landsOn('zeb.ASCII'), 'https://acme.test/docs/zeb-flags.html#zeb.A');
  assert.equal(await landsOn('zeb.A'), 'https://acme.test/docs/zeb-flags.html#zeb.A');
  // "What does zeb.ASCII do?" finds the entry by either of its names.
  for (const name of ['zeb.a', 'zeb.ascii', 'ascii']) assert.ok(entryHeading(name).test('zeb.a, zeb.ascii'), name);
  assert.ok(entryHeading('exit').test('quit(code=none), exit(code=none)'));
  assert.ok(!entryHeading('zeb.ascii').test('zeb.asciix'));
  assert.ok(!entryHeading('tuples').test('lists, tuples, and sequences'), 'a heading of words lists no names');
  // A DocBook index's terms have no definition of their own: each is its own.
  const index = readHtml('<html><body><main><dl><dt id="ientry-1">auto-increment</dt><dt id="ientry-2">autocommit</dt><dd><dl><dt>psql</dt></dl></dd></dl></main></body></html>').markdown;
  assert.match(index, /auto-increment \{#ientry-1\}[\s\S]*autocommit \{#ientry-2\}/);
});

test('inline text reads as the page shows it: code side by side is one span, an exponent keeps its caret, a Sphinx topic is text', () => {
  const { markdown } = readHtml(
    '<html><body><main><aside class="topic"><p class="topic-title">Abstract</p><p>Burrows are dug everywhere.</p></aside>' +
      '<p>Run <code class="option">--scale=</code><em class="replaceable"><code>factor</code></em> or match <code>{</code><em><code>m</code></em><code>}</code>; ' +
      'ids wrap around modulo-2<sup>32</sup>, at the 1<sup>st</sup> burrow, says Smith<sup id="fnref:2"><a href="#fn:2">2</a></sup>.</p>' +
      '<aside class="sidebar"><ul><li>Elsewhere</li></ul></aside></main></body></html>',
  );
  assert.match(markdown, /Burrows are dug everywhere\./);
  assert.match(markdown, /Run `--scale=factor` or match `\{m\}`;/);
  assert.match(markdown, /modulo-2\^32, at the 1st burrow, says Smith2\./, 'a footnote mark is no exponent');
  assert.doesNotMatch(markdown, /Elsewhere/, 'an aside of the site around the text is not');
});

test('a link that is only a mark ("§" to each release note\'s commit, "¶") is left out; a link with words is text', () => {
  const { markdown } = readHtml(
    '<html><body><main><ul><li><p>Fix the burrow counter (Ada Digger) <a class="ulink" href="https://acme.test/c/429aeaebd">§</a></p></li>' +
      '<li><p>See <a href="https://acme.test/burrows">the burrows guide</a> and section <a href="#s2">¶</a> <a href="#s3">§ 3</a>.</p></li>' +
      '<li><p>Dig <a href="#dig">#</a>deeper</p></li></ul></main></body></html>',
  );
  assert.match(markdown, /^- Fix the burrow counter \(Ada Digger\)$/m);
  assert.match(markdown, /^- See the burrows guide and section § 3\.$/m);
  assert.match(markdown, /^- Dig deeper$/m);
});

test('paragraphs in a quote stay apart, as on the page, in a quote inside a quote too (Sphinx\'s indented definitions)', () => {
  const { markdown } = readHtml(
    '<html><body><main><blockquote><div><p><a href="#ledger">Ledger</a></p><blockquote><div><p>Base class for books.</p></div></blockquote>' +
      '<p><a href="#journal">Journal</a></p><blockquote><div><p>Base class for books kept in order.</p></div></blockquote></div></blockquote></main></body></html>',
  );
  assert.equal(markdown.trim(), '> Ledger\n>\n> > Base class for books.\n>\n> Journal\n>\n> > Base class for books kept in order.');
  // A term's definition and a list's items in a quote keep to their lines, as outside one.
  const listed = readHtml('<html><body><main><blockquote><dl><dt>Ledger</dt><dd><p>A book.</p></dd></dl><ul><li>one</li><li>two</li></ul></blockquote></main></body></html>');
  assert.equal(listed.markdown.trim(), '> Ledger\n> : A book.\n> - one\n> - two');
});

test('a pipe is text outside a table, and in a cell when escaped: SQL\'s `||` and Python\'s `x | y` are searched as written', () => {
  const page = '# Operators\n\nConcatenate with (`||`) or join sets with `a | b`.\n\n| Operator | Description |\n| --- | --- |\n| `text` `\\|\\|` `text` | Concatenates |\n| `x \\| y` | bitwise or |\n\nAfter the table, a | b.';
  const [section] = splitSections(page, 'Operators');
  assert.equal(section!.text, 'Concatenate with (||) or join sets with a | b.\n\nOperator | Description\ntext || text | Concatenates\nx | y | bitwise or\n\nAfter the table, a | b.');
});

test('fenced code blocks are read as a reader sees them: closed by the same mark at least as long, with nothing after it', () => {
  const markdown = ['Run:', '', '```python', 'open(path)', '```', '', '~~~~', 'x()', '~~~', '~~~~ not a fence', '~~~~~', '', 'After.'].join('\n');
  assert.deepEqual(fencedBlocks(markdown), ['```python\nopen(path)\n```', '~~~~\nx()\n~~~\n~~~~ not a fence\n~~~~~']);
  assert.deepEqual(fencedBlocks('No code here.'), []);
});
