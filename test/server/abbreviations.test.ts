/**
 * How answers read an abbreviation the visitor asks about ("What is WAL?"): the long form a
 * page defines for it, in the ways real manuals write it, and never one it merely sits near.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { abbreviating, abbreviationsDefined } from '../../server/answer/text.js';

/** The long forms found, as written. */
const defined = (question: string, text: string, headings: string[] = []) => [...abbreviationsDefined(question, [text], headings).values()];

test('a long form before the abbreviation in parentheses, hyphenated words included', () => {
  assert.deepEqual(defined('What is WAL?', 'Write-Ahead Logging (WAL) is a standard method for ensuring data integrity.'), ['Write-Ahead Logging']);
  assert.deepEqual(defined('what is mvcc', 'by using a multiversion model (Multiversion Concurrency Control, MVCC). This means'), ['Multiversion Concurrency Control']);
  assert.deepEqual(defined('what is a CTE', 'Scans of common table expressions (CTEs) are never parallel.'), ['common table expressions']);
});

test('a long form after the abbreviation: in parentheses, "stands for", or the next line of a list of acronyms', () => {
  assert.deepEqual(defined('What is TOAST?', 'This section provides an overview of TOAST (The Oversized-Attribute Storage Technique).'), ['The Oversized-Attribute Storage Technique']);
  assert.deepEqual(defined('What is GIN?', 'GIN stands for Generalized Inverted Index. GIN is designed for'), ['Generalized Inverted Index']);
  assert.deepEqual(defined('what is a cte', 'CSV\nComma Separated Values\n\nCTE\nCommon Table Expression\n\nCVE'), ['Common Table Expression']);
  assert.deepEqual(defined('what is a cte', 'CTE\n: Common Table Expression'), ['Common Table Expression']);
});

test('a heading whose words start with its letters spells it out', () => {
  assert.deepEqual(defined('what is MRO', 'nothing here', ['method resolution order', 'Special Attributes']), ['method resolution order']);
  assert.deepEqual(defined('what is MRO', 'nothing here', ['module reload options list']), []);
});

test('words near an abbreviation that do not spell it define nothing', () => {
  assert.deepEqual(defined('what is gin', 'we build the index (GIN) here'), []);
  assert.deepEqual(defined('how do I copy a table', 'COPY (SELECT 1) TO STDOUT'), []);
  assert.deepEqual(defined('What is WAL?', 'the wal (lowercase) is not an abbreviation'), []);
});

test('a term set holding the long form holds the abbreviation instead, keeping the words the question asks for', () => {
  const spelledOut = abbreviating(new Map([['brin', 'Block Range Index']]), ['brin', 'index']);
  assert.deepEqual([...spelledOut(new Set(['block', 'rang', 'index', 'scan']))].sort(), ['brin', 'index', 'scan']);
  assert.deepEqual([...spelledOut(new Set(['block', 'size']))].sort(), ['block', 'size']);
});

test('a plural abbreviation is read as its singular', () => {
  assert.deepEqual(defined('What are CTEs?', 'Scans of common table expressions (CTEs) are never parallel.'), ['common table expressions']);
});

test('a heading spells out only a word written in capitals somewhere, and a long sentence under a bare word defines nothing', () => {
  assert.deepEqual(defined('How do I add a webhook?', 'Webhooks are called for each event.', ['Advanced Data Definitions']), []);
  assert.deepEqual(defined('where is the id?', 'every row has an id', ['Inline Documents']), []);
  assert.deepEqual(defined('what is mro', 'MRO\nSee method resolution order.', ['method resolution order']), ['method resolution order']);
  assert.deepEqual(defined('what is a DB', 'DB\nDatabase connection settings are read from the file at start.'), []);
});
