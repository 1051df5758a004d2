/**
 * Sections keep their markdown as written, so an answer can quote a page's code example
 * byte for byte; on both databases the indexed section hands it back by id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitSections } from '../../server/search/sections.js';
import { searchSections } from '../../server/search/search.js';
import { createPage } from '../../server/store/pages.js';
import { readSectionMarkdown } from '../../server/store/sections.js';
import { baseFixture, startTestServer } from './harness.js';

const PAGE = [
  '# Context managers',
  '',
  'Write `__enter__` and `__exit__` on the class.',
  '',
  '```python',
  'class Timer:',
  '    def __enter__(self):',
  '        return self',
  '```',
  '',
  '## Async',
  '',
  'Use `__aenter__`.',
].join('\n');

test('a section keeps its body as written: fences with their language, inline code and indentation', () => {
  const [intro, async] = splitSections(PAGE, 'Context managers');
  assert.equal(
    intro!.markdown,
    'Write `__enter__` and `__exit__` on the class.\n\n```python\nclass Timer:\n    def __enter__(self):\n        return self\n```',
  );
  assert.equal(async!.markdown, 'Use `__aenter__`.');
});

test('the markdown of a section found by search is read back by its id', async () => {
  const server = await startTestServer({ fixture: baseFixture() });
  try {
    await createPage(server.db, 'acme', 'docs', { url: 'https://acme.test/ctx', title: 'Context managers', content: PAGE, format: 'markdown' });
    const [hit] = await searchSections(server.db, { organisationId: 'acme', sources: ['docs'], query: 'Timer', limit: 3 });
    assert.ok(hit, 'the page is found');
    const markdown = await readSectionMarkdown(server.db, [hit.id]);
    assert.match(markdown.get(hit.id) ?? '', /```python\nclass Timer:\n {4}def __enter__\(self\):/);
  } finally {
    await server.stop();
  }
});
