import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.js';
import { CHAT, SUMMARIZE, answerFixture, streamRequest } from './answer-helpers.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: answerFixture() });
});
after(() => server.stop());

/** The section a search names for a url, as the search widget shows it. */
async function sectionsBySearch(query: string): Promise<Map<string, string>> {
  const response = await server.request('POST', '/api/v1/acme/widgets/find/search', { token: 'ws_test_find', body: { query } });
  assert.equal(response.status, 200);
  return new Map(response.json.hits.filter((hit: { section?: string }) => hit.section).map((hit: { url: string; section: string }) => [hit.url, hit.section]));
}

describe('sources name the section they cite', () => {
  test('a chat answer grounded in one section of a page names that section beside the page title', async () => {
    const response = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'How do I set the proxy on Linux?' } });
    assert.equal(response.status, 200);
    const cited = response.json.sources.find((source: { url: string }) => source.url.startsWith('https://acme.test/docs/proxy#'));
    assert.ok(cited, `a section of the proxy page is cited: ${JSON.stringify(response.json.sources)}`);
    assert.equal(cited.title, 'Proxy settings');
    assert.match(cited.section, /Linux/);
    const searched = await sectionsBySearch('proxy Linux');
    assert.equal(cited.section, searched.get(cited.url), 'the same section name a search shows for that address');
  });

  test('streamed sources (the sources event and done) and summaries carry it too', async () => {
    const chat = await streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message: 'How do I set the proxy on Windows?' } });
    const sourcesEvent = chat.events.find((event) => event.event === 'sources')!.data.sources;
    const done = chat.events.at(-1)!.data;
    assert.deepEqual(done.sources, sourcesEvent);
    assert.ok(done.sources.some((source: { section?: string }) => /Windows/.test(source.section ?? '')), JSON.stringify(done.sources));

    const summary = await server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query: 'proxy Windows registry' } });
    assert.equal(summary.status, 200);
    assert.ok(summary.json.sources.some((source: { section?: string }) => /Windows/.test(source.section ?? '')), JSON.stringify(summary.json.sources));
  });

  test('a source without a section (a page with no headings inside) has no section field', async () => {
    const response = await server.request('POST', CHAT, { token: 'ws_test_help', body: { message: 'What happens when the credits run out?' } });
    assert.equal(response.status, 200);
    for (const source of response.json.sources) {
      if (!source.url.includes('#')) assert.equal('section' in source, false, JSON.stringify(source));
      else assert.equal(typeof source.section, 'string');
    }
  });
});
