/**
 * The widget search route: hits are sections of the widget's own sources, forgiving of
 * typos and half-typed words, with escaped snippets; every search is recorded with its
 * session and query id, so a click sent later joins the search in the analytics funnel.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.js';
import { answerFixture } from './answer-helpers.js';
import { assertError, assertInvalidField } from './expect.js';

const SEARCH = '/api/v1/acme/widgets/find/search';
const PAGES = '/api/v1/acme/sources/docs/pages';

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: answerFixture(), adminToken: 'admin_test' });
});
after(() => server.stop());

const search = (body: Record<string, unknown>, options: { token?: string; origin?: string } = { token: 'ws_test_find' }) =>
  server.request('POST', SEARCH, { ...options, body });
/** Pushes a page to the acme docs source, as a crawler would. */
const push = (body: Record<string, unknown>) => server.request('POST', PAGES, { token: 'ak_test_all', body });

describe('search', () => {
  test('answers sections of the right page, with the section heading and an anchored url', async () => {
    const response = await search({ query: 'proxy windows' });
    assert.equal(response.status, 200);
    const { sessionId, queryId, hits } = response.json;
    assert.match(sessionId, /^s_/);
    assert.match(queryId, /^q_/);
    const [first] = hits;
    assert.equal(first.title, 'Proxy settings');
    assert.equal(first.section, 'Windows');
    assert.match(first.url, /^https:\/\/acme\.test\/docs\/proxy#windows$/);
    assert.match(first.snippet, /<mark>[Pp]roxy<\/mark>/);
    assert.deepEqual(Object.keys(first).sort(), ['id', 'pageId', 'score', 'section', 'snippet', 'source', 'title', 'url']);
  });

  test('forgives a typo and matches the word still being typed', async () => {
    const typo = await search({ query: 'credtis' });
    assert.equal(typo.json.hits[0]?.title, 'Answer credits');
    const prefix = await search({ query: 'instal' });
    assert.equal(prefix.json.hits[0]?.title, 'Installing the widget');
  });

  test('forgives a letter dropped, added, changed or swapped, and two changed in a long word', async () => {
    const slips: [string, string][] = [
      ['colur ', 'Colours'], // dropped
      ['darrk ', 'Colours'], // added
      ['proxu ', 'Proxy settings'], // changed
      ['balnace ', 'Answer credits'], // swapped
      ['orgamisatiom ', 'Answer credits'], // two changed: no one-letter deletion of each meets
    ];
    for (const [query, title] of slips) {
      const { hits } = (await search({ query })).json;
      assert.equal(hits[0]?.title, title, `"${query.trim()}" should find ${title}`);
    }
  });

  test('a short word being typed matches the letters typed, not everything its stem would', async () => {
    const created = await server.request('POST', PAGES, {
      token: 'ak_test_all',
      body: { url: 'https://acme.test/docs/introduction', title: 'Introduction', content: '# Introduction\n\nAn index of the information here.' },
    });
    assert.equal(created.status, 201);
    // "ins" stems to "in": as a stem it would match "introduction", "index" and "information".
    const titles = (await search({ query: 'ins' })).json.hits.map((hit: { title: string }) => hit.title);
    assert.equal(titles[0], 'Installing the widget');
    assert.ok(!titles.includes('Introduction'), `"ins" should not find the introduction: ${titles.join(', ')}`);
    // A stem of three letters or more still matches through the stem: "uses" finds "use".
    assert.ok((await search({ query: 'uses' })).json.hits.length > 0);
  });

  test('escapes page content in snippets: only <mark> is markup', async () => {
    const created = await server.request('POST', PAGES, {
      token: 'ak_test_all',
      body: { url: 'https://acme.test/docs/tags', title: 'Tags', content: 'Zanzibar explains <img src=x onerror=alert(1)> tags & entities.', format: 'text' },
    });
    assert.equal(created.status, 201);
    // Searchable in the response to the very next request.
    const { hits } = (await search({ query: 'zanzibar' })).json;
    assert.equal(hits[0]?.title, 'Tags');
    assert.doesNotMatch(hits[0].snippet, /<img/);
    assert.match(hits[0].snippet, /&lt;img/);
    assert.match(hits[0].snippet, /&amp;/);
  });

  test('sees only the widget\'s sources', async () => {
    const created = await server.request('POST', '/api/v1/acme/sources/blog/pages', {
      token: 'ak_test_all',
      body: { url: 'https://acme.test/blog/quokka', title: 'Quokka news', content: 'The quokka release is out.' },
    });
    assert.equal(created.status, 201);
    assert.deepEqual((await search({ query: 'quokka' })).json.hits, []);
  });

  test('with more words than any one section holds, still lists the sections holding some', async () => {
    // No section mentions all four words; the rarest of them, "proxy", decides.
    const { hits } = (await search({ query: 'linux windows proxy install' })).json;
    assert.ok(hits.length >= 2, `expected sections holding some of the words, got ${hits.length}`);
    assert.equal(hits[0].title, 'Proxy settings');
  });

  test('a section holding every word comes before sections about only one of them', async () => {
    const page = (slug: string, title: string, content: string) =>
      server.request('POST', PAGES, { token: 'ak_test_all', body: { url: `https://acme.test/docs/${slug}`, title, content, format: 'text' } });
    // "zephyr" is rarer than "calibrate", and the three pages titled with it would outrank
    // the one page that holds both words if holding both did not come first.
    for (const index of [1, 2, 3]) {
      assert.equal((await page(`zephyr-${index}`, `Zephyr relay ${index}`, 'The zephyr relay forwards messages between sites.')).status, 201);
    }
    for (const index of [1, 2, 3, 4]) {
      assert.equal((await page(`calibrate-${index}`, `Sensors ${index}`, 'Calibrate each sensor once a year.')).status, 201);
    }
    assert.equal((await page('relay-setup', 'Relay setup', 'Before the first message, calibrate the zephyr link.')).status, 201);
    const { hits } = (await search({ query: 'zephyr calibrate' })).json;
    assert.equal(hits[0]?.title, 'Relay setup');
    assert.ok(hits.slice(1).some((hit: { title: string }) => hit.title.startsWith('Zephyr relay')), 'sections holding one of the words follow');
  });

  test('the page named what was searched for comes first, however many headings of other pages say the word', async () => {
    // More headings holding the word than a search ranks (HEADING_CANDIDATES in server/search/search.ts), written first.
    for (const part of [1, 2]) {
      const options = Array.from({ length: 40 }, (_, index) => `## Gyroscope option ${part}.${index}\n\nSets how the gyroscope reports turn ${index}.`).join('\n\n');
      assert.equal((await push({ url: `https://acme.test/docs/gyroscope-options-${part}`, title: `Sensor options ${part}`, content: `# Sensor options ${part}\n\n${options}` })).status, 201);
    }
    // The page of that name, its opening long beside its entries, as a module's page is.
    const opening = 'This module reads the orientation of the device from its sensors, and keeps the readings of the last minute. '.repeat(8);
    const entries = ['gyroscope.read()', 'gyroscope.reset()', 'gyroscope.rate'].map((name) => `## ${name}\n\nOne call of the gyroscope module.`).join('\n\n');
    assert.equal((await push({ url: 'https://acme.test/docs/gyroscope', title: 'gyroscope — Orientation sensors', content: `# gyroscope — Orientation sensors\n\n${opening}\n\n${entries}` })).status, 201);
    // As typed, complete, quoted, misspelt.
    for (const query of ['gyroscope', 'gyroscope ', '"gyroscope"', 'gyroscpoe ']) {
      const { hits } = (await search({ query, limit: 5 })).json;
      assert.equal(hits[0]?.url, 'https://acme.test/docs/gyroscope', `${query}: ${hits.map((hit: { url: string }) => hit.url).join(' ')}`);
    }
  });

  test('a word that names an entry finds that entry first, not pages of words beginning with it nor a member of a class', async () => {
    // A module whose name begins with the word, its title holding it in every one of its sections; and its own function
    // of that name, qualified by it.
    const members = ['Info.name', 'Info.size', 'Info.date', 'Archive.write', 'quill(nib)'].map((name) => `## quillpack.${name}\n\nA member of the archive.`).join('\n\n');
    assert.equal((await push({ url: 'https://acme.test/docs/a-quillpack', title: 'quillpack — Work with quill archives', content: `# quillpack — Work with quill archives\n\n${members}` })).status, 201);
    // The entry of the name itself, on a page of many entries; and a class whose method has that name.
    const entries = ['quill(*feathers, strict=False, colour=None)', 'inkwell(depth)', 'nib(width)'].map((entry) => `## ${entry}\n\nA built-in function.`).join('\n\n');
    assert.equal((await push({ url: 'https://acme.test/docs/builtins', title: 'Built-in functions', content: `# Built-in functions\n\n${entries}` })).status, 201);
    assert.equal((await push({ url: 'https://acme.test/docs/desk', title: 'Desk', content: '# Desk\n\n## class Desk(size)\n\nA desk.\n\n### quill(x)\n\nPuts a quill in the desk.' })).status, 201);
    for (const query of ['quill', 'quill ']) {
      const { hits } = (await search({ query, limit: 5 })).json;
      assert.equal(hits[0]?.section, 'quill(*feathers, strict=False, colour=None)', `${query}: ${hits.map((hit: { url: string; section?: string }) => `${hit.url} ${hit.section ?? ''}`).join(' | ')}`);
    }
  });

  test('a section headed by what was searched for comes first, also when the word is misspelt, and not a release\'s note of it', async () => {
    // More headings holding the word than a search ranks, written first.
    for (const part of [1, 2]) {
      const options = Array.from({ length: 40 }, (_, index) => `## Lantern option ${part}.${index}\n\nSets how bright lantern ${index} burns.`).join('\n\n');
      assert.equal((await push({ url: `https://acme.test/docs/lantern-options-${part}`, title: `Lighting options ${part}`, content: `# Lighting options ${part}\n\n${options}` })).status, 201);
    }
    assert.equal((await push({ url: 'https://acme.test/docs/4.0', title: 'Release 4.0', content: '# Release 4.0\n\n## Lanterns\n\nLanterns are brighter.' })).status, 201);
    // A view's reference page, titled by its name in lower case: named so, not about lanterns.
    assert.equal((await push({ url: 'https://acme.test/docs/3-views', title: '37.2. lanterns', content: '# 37.2. lanterns\n\nOne row per lantern.' })).status, 201);
    // The section so long it is stored in two pieces under its heading.
    const lanterns = 'A lantern lights the camp at night; hang it from the ridge pole, away from the canvas. '.repeat(300);
    const guide = `# Camp guide\n\n## 4.1. Tents\n\nPitch the tent first.\n\n## 4.2. Lanterns\n\n${lanterns}`;
    assert.equal((await push({ url: 'https://acme.test/docs/camp', title: 'Camp guide', content: guide })).status, 201);
    for (const query of ['lanterns ', 'lantern ', 'lanterm ']) {
      const { hits } = (await search({ query, limit: 5 })).json;
      assert.equal(hits[0]?.section, '4.2. Lanterns', `${query}: ${hits.map((hit: { url: string; section?: string }) => `${hit.url} ${hit.section ?? ''}`).join(' | ')}`);
      assert.equal(hits.filter((hit: { section?: string }) => hit.section === '4.2. Lanterns').length, 1, 'the section is listed once');
    }
  });

  test('two words the pages write as one find the word written so ("light box", "light-box" for "lightbox"), and a stop word is never joined', async () => {
    // The page about it never says "light" or "box" apart; another says both, about other things.
    assert.equal((await push({ url: 'https://acme.test/docs/lightbox', title: 'Lightbox', content: '# Lightbox\n\nThe lightbox shows a picture above the page, dimming the rest.\n\n## lightbox.open(picture)\n\nOpens the lightbox.' })).status, 201);
    assert.equal((await push({ url: 'https://acme.test/docs/light-themes', title: 'Light themes', content: '# Light themes\n\nChoose a light theme for the search box and the results.' })).status, 201);
    for (const query of ['light box ', 'light box', 'light-box ', 'light box? ']) {
      const urls = (await search({ query, limit: 5 })).json.hits.map((hit: { url: string }) => hit.url.replace(/#.*$/, ''));
      assert.equal(urls[0], 'https://acme.test/docs/lightbox', `${query}: ${urls.join(' ')}`);
      if (!query.includes('-')) assert.ok(urls.includes('https://acme.test/docs/light-themes'), `${query}: the page holding both words is still found`);
    }
    // "my gizmo" is about a gizmo: `mygizmo` in an example does not make "my" a word to find.
    assert.equal((await push({ url: 'https://acme.test/docs/gizmo', title: 'Gizmo basics', content: '# Gizmo basics\n\nA gizmo sorts the mail.' })).status, 201);
    assert.equal((await push({ url: 'https://acme.test/docs/gizmo-example', title: 'Example', content: '# Example\n\n```python\nmygizmo = make()\n```' })).status, 201);
    const urls = (await search({ query: 'my gizmo ', limit: 5 })).json.hits.map((hit: { url: string }) => hit.url);
    assert.equal(urls[0], 'https://acme.test/docs/gizmo', urls.join(' '));
  });

  test('a word the pages never use that is two they do ("colourscheme" for "colour scheme") finds the two side by side, not apart', async () => {
    assert.equal((await push({ url: 'https://acme.test/docs/dark-mode', title: 'Dark mode', content: "# Dark mode\n\nThe colour scheme follows the visitor's system setting. A colour scheme can also be forced." })).status, 201);
    assert.equal((await push({ url: 'https://acme.test/docs/print', title: 'Printing', content: '# Printing\n\nThe colour of links in print is fixed. This scheme applies to every page.' })).status, 201);
    for (const query of ['colourscheme ', 'Colourscheme']) {
      const urls = (await search({ query, limit: 5 })).json.hits.map((hit: { url: string }) => hit.url);
      assert.equal(urls[0], 'https://acme.test/docs/dark-mode', `${query}: ${urls.join(' ')}`);
      assert.ok(!urls.includes('https://acme.test/docs/print'), `${query}: the words apart are not what was searched for`);
    }
    // Once a page uses the word as typed, that page is what was searched for.
    assert.equal((await push({ url: 'https://acme.test/docs/themes', title: 'Themes', content: '# Themes\n\nSet `colourscheme` to `dark` or `light`.' })).status, 201);
    const urls = (await search({ query: 'colourscheme ', limit: 5 })).json.hits.map((hit: { url: string }) => hit.url);
    assert.deepEqual(urls, ['https://acme.test/docs/themes']);
  });

  test('a word the pages write with hyphens finds it written so ("checkin" for "check-in", "readonly" for "read-only"), not its parts apart', async () => {
    assert.equal((await push({ url: 'https://acme.test/docs/front-desk', title: 'Front desk', content: '# Front desk\n\nGuests use the check-in kiosk on arrival. Late check-in is possible until midnight.' })).status, 201);
    assert.equal((await push({ url: 'https://acme.test/docs/old-logbooks', title: 'Old logbooks', content: '# Old logbooks\n\nA logbook older than a year becomes read-only: nobody can change it.' })).status, 201);
    assert.equal((await push({ url: 'https://acme.test/docs/reading', title: 'Reading', content: '# Reading\n\nRead the first page only, then check the logbook in the kiosk.' })).status, 201);
    for (const [query, page] of [['checkin ', 'front-desk'], ['Checkin kiosk', 'front-desk'], ['readonly ', 'old-logbooks'], ['readonly logbook', 'old-logbooks']] as const) {
      const urls = (await search({ query, limit: 5 })).json.hits.map((hit: { url: string }) => hit.url);
      assert.equal(urls[0], `https://acme.test/docs/${page}`, `${query}: ${urls.join(' ')}`);
      if (!query.trim().includes(' ')) assert.ok(!urls.includes('https://acme.test/docs/reading'), `${query}: the parts apart are not what was searched for`);
    }
    // The snippet marks the word as the page writes it.
    const [hit] = (await search({ query: 'checkin ', limit: 1 })).json.hits;
    assert.match(hit.snippet, /<mark>check<\/mark>-in/, hit.snippet);
  });

  test('release notes come after the page about what they mention, unless the query asks about a release', async () => {
    assert.equal((await push({ url: 'https://acme.test/docs/storage', title: 'Storage', content: '# Storage\n\nEach mailbox is kept in a folder of its own on the server. To see how much disk space a mailbox takes, open its settings: the quota it may grow to is shown beside it.' })).status, 201);
    // Notes of three releases, each short and about the very words searched.
    for (const version of ['2.1', '2.2', '2.3'])
      assert.equal((await push({ url: `https://acme.test/docs/release-${version}`, title: `Release ${version}`, content: `# Release ${version}\n\nThe disk space of a mailbox is shown correctly.` })).status, 201);
    const { hits } = (await search({ query: 'mailbox disk space' })).json;
    assert.equal(hits[0]?.url, 'https://acme.test/docs/storage', hits.map((hit: { url: string }) => hit.url).join('\n'));
    assert.equal((await search({ query: 'mailbox disk space in 2.2' })).json.hits[0]?.url, 'https://acme.test/docs/release-2.2');
    assert.equal((await search({ query: 'mailbox disk space release' })).json.hits[0]?.url.replace(/-\d\.\d$/, ''), 'https://acme.test/docs/release');
  });

  test('a table of contents is found by its title, not by the titles it lists: those are found on their own pages', async () => {
    // As long as a generator's: forty titles and more.
    const topics = ['Exporting the archive folder', 'Archive folder layout', 'Moving the archive folder', 'Archive folder permissions', 'Archive folder backups', 'Archive retention', 'Archive size', 'Archive schedules', 'Archive formats', 'Archive names'];
    const entries = ['', ' in version 2', ' in version 3', ' in version 4'].flatMap((version) => topics.map((topic) => `${topic}${version}`));
    assert.equal((await push({ url: 'https://acme.test/docs/archive', title: 'Archive', content: '# Archive\n\n## Exporting the archive folder\n\nEvery night the archive folder is exported to the directory you choose.' })).status, 201);
    // As a site's generator writes it: a list of links to every page, in markdown or in HTML.
    assert.equal((await push({ url: 'https://acme.test/docs/contents', title: 'Contents', content: `# Contents\n\n${entries.map((entry, index) => `- [${entry}](https://acme.test/docs/page-${index})`).join('\n')}` })).status, 201);
    const links = (from: number, to: number) => `<ul>${entries.slice(from, to).map((entry, index) => `<li><a href="/docs/page-${from + index}">${entry}</a></li>`).join('')}</ul>`;
    const html = `<html><head><title>Site map</title></head><body><main><h1>Site map</h1><ul>${[0, 1, 2, 3].map((part) => `<li><a href="/docs/part-${part}">Part ${part}</a>${links(10 * part, 10 * part + 10)}</li>`).join('')}</ul></main></body></html>`;
    assert.equal((await push({ url: 'https://acme.test/docs/site-map', title: 'Site map', content: html, format: 'html' })).status, 201);
    const { hits } = (await search({ query: 'archive folder', limit: 10 })).json;
    assert.equal(hits[0]?.url, 'https://acme.test/docs/archive#exporting-the-archive-folder');
    const listed = hits.map((hit: { url: string }) => hit.url).filter((url: string) => /\/docs\/(?:contents|site-map)/.test(url));
    assert.deepEqual(listed, []);
    // Each is still found by its own title.
    assert.equal((await search({ query: 'contents' })).json.hits[0]?.url, 'https://acme.test/docs/contents');
    assert.equal((await search({ query: 'site map' })).json.hits[0]?.url, 'https://acme.test/docs/site-map');
    // A list of the section's own, flat or nested, is what the section says: its words find it.
    const formats = ['CSV', 'JSON', 'Parquet', 'Avro', 'ORC', 'XML', 'YAML', 'TOML', 'NDJSON', 'Excel', 'ODS', 'SQLite'];
    const compressions = ['Gzip', 'Brotli', 'Zstandard', 'Snappy', 'Deflate', 'Bzip2', 'Lzma', 'Lzip', 'Zlib', 'Lzo', 'Lz4', 'Xz'];
    const nested = compressions.map((compression) => `- ${compression}\n  - ${compression} at its best ratio`).join('\n');
    assert.equal((await push({ url: 'https://acme.test/docs/export-formats', title: 'Export formats', content: `# Export formats\n\nThe archive can be exported in these formats:\n\n${formats.map((format) => `- ${format}`).join('\n')}\n\n## Compression\n\n${nested}` })).status, 201);
    assert.equal((await search({ query: 'parquet' })).json.hits[0]?.url, 'https://acme.test/docs/export-formats');
    assert.equal((await search({ query: 'zstandard ratio' })).json.hits[0]?.url, 'https://acme.test/docs/export-formats#compression');
  });

  test('a table of contents longer than a section holds is still found by its title alone, and a code example as long by what it holds', async () => {
    // Cut into pieces of plain text, as any section past 20,000 characters is.
    const titles = Array.from({ length: 800 }, (_, index) => `- Release ${index}\n  - Quarterly ledger report ${index}`).join('\n');
    assert.equal((await push({ url: 'https://acme.test/docs/all-releases', title: 'All releases', content: `# All releases\n\n${titles}` })).status, 201);
    const code = Array.from({ length: 1200 }, (_, index) => `total_${index} = reconcile_ledger(batch_${index}, strict=True)`).join('\n');
    assert.equal((await push({ url: 'https://acme.test/docs/big-example', title: 'A long example', content: `# A long example\n\n\`\`\`python\n${code}\n\`\`\`` })).status, 201);
    const ledger = (await search({ query: 'quarterly ledger report', limit: 10 })).json.hits;
    assert.ok(!ledger.some((hit: { url: string }) => hit.url.startsWith('https://acme.test/docs/all-releases')), ledger.map((hit: { url: string }) => hit.url).join('\n'));
    assert.equal((await search({ query: 'all releases' })).json.hits[0]?.url, 'https://acme.test/docs/all-releases');
    assert.match((await search({ query: 'reconcile_ledger' })).json.hits[0]?.url ?? '', /^https:\/\/acme\.test\/docs\/big-example/);
  });

  test('honours limit and keeps a session it is given', async () => {
    const response = await search({ query: 'linux windows', limit: 1, sessionId: 's_tab42' });
    assert.equal(response.json.hits.length, 1);
    assert.equal(response.json.sessionId, 's_tab42');
  });

  test('records the search, so a click with its query id counts in the funnel', async () => {
    const { sessionId, queryId, hits } = (await search({ query: 'accent colour', sessionId: 's_funnel' })).json;
    const click = await server.request('POST', '/api/v1/acme/widgets/find/events', {
      token: 'ws_test_find',
      body: { sessionId, events: [{ name: 'click', queryId, props: { url: hits[0].url, rank: 1, source: 'result' } }] },
    });
    assert.equal(click.status, 202);
    const [row] = await server.db.query<{ session_id: string; query: string; hit_count: number }>(
      'SELECT session_id, query, hit_count FROM search_queries WHERE id = $1',
      [queryId],
    );
    assert.deepEqual(row, { session_id: 's_funnel', query: 'accent colour', hit_count: hits.length });
    const analytics = await server.request('GET', '/api/v1/admin/organisations/acme/widgets/find/analytics', { token: 'admin_test' });
    assert.ok(analytics.json.searchesWithClicks >= 1);
    assert.ok(analytics.json.topQueries.some((entry: { query: string }) => entry.query === 'accent colour'));
  });

  test('a search that finds nothing is an empty list, counted among no-result queries', async () => {
    const response = await search({ query: 'xylophonequartz' });
    assert.equal(response.status, 200);
    assert.deepEqual(response.json.hits, []);
    const analytics = await server.request('GET', '/api/v1/admin/organisations/acme/widgets/find/analytics', { token: 'admin_test' });
    assert.ok(analytics.json.noResultQueries.some((entry: { query: string }) => entry.query === 'xylophonequartz'));
  });

  test('from a listed website, without any other credential', async () => {
    const response = await search({ query: 'proxy' }, { origin: 'https://acme.test' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), 'https://acme.test');
  });

  test('refuses what it cannot serve, clearly and without changing anything', async () => {
    const before = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM search_queries');
    assertInvalidField(await search({}), 'query');
    assertInvalidField(await search({ query: 42 }), 'query');
    assertInvalidField(await search({ query: 'proxy', limit: 0 }), 'limit');
    assertInvalidField(await search({ query: 'proxy', limit: 'ten' }), 'limit');
    assertInvalidField(await search({ query: 'proxy', sessionId: 'has spaces' }), 'sessionId');
    assertError(await search({ query: 'proxy' }, { token: 'ws_test_help' }), 401, 'unauthenticated');
    assertError(await server.request('POST', '/api/v1/acme/widgets/help/search', { token: 'ws_test_help', body: { query: 'x' } }), 403, 'wrong_widget_type');
    assertError(await search({ query: 'proxy' }, { token: 'ak_test_read' }), 403, 'permission_denied');
    assertError(await search({ query: 'proxy' }, { token: 'ak_test_blog' }), 403, 'source_forbidden');
    assertError(await search({ query: 'proxy' }, { origin: 'https://evil.example' }), 403, 'origin_not_allowed');
    const after = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM search_queries');
    assert.deepEqual(after, before);
  });
});
