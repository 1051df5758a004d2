/**
 * Sections keep their markdown as written, so an answer can quote a page's code example
 * byte for byte; on both databases the indexed section hands it back by id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SECTION_CHARS, splitSections } from '../../server/search/sections.js';
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

test('a section longer than a section may be is cut at its blocks, and every piece keeps its markdown', () => {
  const rows = Array.from({ length: 400 }, (_, index) => `| \`fn_${index}\` ( \`x\` ) → \`int\` | Returns value ${index} of the series, counted from the first. |`);
  const example = ['```python', 'def first():', '', '    return 0', '```'];
  const paragraphs = Array.from({ length: 200 }, (_, index) => `Paragraph ${index} says what \`thing_${index}\` is for, at some length.`);
  const page = ['# Reference', '', '## Functions', '', 'The table lists the functions.', '', '| Function | Description |', '| --- | --- |', ...rows, '', ...example, '', ...paragraphs.flatMap((paragraph) => [paragraph, ''])].join('\n');
  const pieces = splitSections(page, 'Reference').filter((section) => section.heading === 'Functions');
  assert.ok(pieces.length >= 3, `${pieces.length} pieces`);
  for (const piece of pieces) {
    assert.ok(piece.text.length <= MAX_SECTION_CHARS);
    assert.ok(piece.markdown.length > 0, 'each piece has its markdown');
  }
  // Every row is in one piece, as written; a piece that goes on with the table starts with its header, so it is still a table.
  for (const row of rows) assert.equal(pieces.filter((piece) => piece.markdown.includes(`${row}\n`) || piece.markdown.endsWith(row)).length, 1, row);
  for (const piece of pieces.slice(1)) if (piece.markdown.includes('| `fn_')) assert.match(piece.markdown, /^\| Function \| Description \|\n\| --- \| --- \|\n\| `fn_/);
  // The example stays whole, blank line and language, and so does every paragraph.
  assert.equal(pieces.filter((piece) => piece.markdown.includes(example.join('\n'))).length, 1);
  for (const paragraph of paragraphs) assert.equal(pieces.filter((piece) => piece.markdown.includes(paragraph)).length, 1, paragraph);
  assert.ok(pieces.some((piece) => piece.text.includes('Paragraph 199 says what thing_199 is for')), 'plain text as for any section');
});
