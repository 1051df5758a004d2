/**
 * Search in an organisation of several sources: a widget's search weighs each word by how
 * rare it is among the pages of the sources it searches, not among every page of the
 * organisation, so another source that uses a word everywhere does not change what ranks first.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { baseFixture, startTestServer, type TestServer } from './harness.js';

let server: TestServer;

const addPage = async (source: string, slug: string, title: string, content: string) => {
  const response = await server.request('POST', `/api/v1/acme/sources/${source}/pages`, {
    token: 'ak_test_all',
    body: { url: `https://acme.test/${source}/${slug}`, title, content },
  });
  assert.equal(response.status, 201, response.text);
};

const firstHit = async (query: string): Promise<string> => {
  const response = await server.request('POST', '/api/v1/acme/widgets/find/search', { token: 'ws_test_find', body: { query, limit: 10 } });
  assert.equal(response.status, 200, response.text);
  return response.json.hits[0]?.url.split('#')[0];
};

before(async () => {
  server = await startTestServer({ fixture: baseFixture() });
  // In the docs, "refund" is on two pages and "card" on three: "refund" tells the pages apart more.
  await addPage('docs', 'refunds', 'Refunds', '# Refunds\n\nA refund is paid back to the card it came from.');
  await addPage('docs', 'cards', 'Cards', '# Cards\n\nA card that was charged twice gets a refund within a week.');
  await addPage('docs', 'card-types', 'Card types', '# Card types\n\nEvery card type is accepted.');
});

after(async () => {
  await server?.close();
});

describe('word weights per source', () => {
  test('the pages of another source do not change which page of the searched source ranks first', async () => {
    assert.equal(await firstHit('refund card'), 'https://acme.test/docs/refunds');
    // The blog, which the widget does not search, says "refund" on every page.
    for (let index = 0; index < 30; index++) await addPage('blog', `post-${index}`, `Post ${index}`, `# Post ${index}\n\nOur refund policy, week ${index}.`);
    assert.equal(await firstHit('refund card'), 'https://acme.test/docs/refunds');
  });
});
