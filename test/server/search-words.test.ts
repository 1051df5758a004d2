/**
 * How search matches words on documentation: identifiers as written (`pg_hba.conf`,
 * `__init__`, `os.path.join`), found whole and ranked where they are defined; operators
 * (`->>`, `//`) as written; a heading's
 * dotted name by its last word ("exists" of `os.path.exists`); every
 * prefix of a word the pages use, letter by letter; and a misspelt word corrected.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './harness.js';
import { answerFixture } from './answer-helpers.js';

const SEARCH = '/api/v1/acme/widgets/find/search';
const PAGES = '/api/v1/acme/sources/docs/pages';

interface TestHit {
  url: string;
  title: string;
  section?: string;
  snippet?: string;
}

let server: TestServer;

const search = async (query: string): Promise<TestHit[]> => {
  const response = await server.request('POST', SEARCH, { token: 'ws_test_find', body: { query, limit: 10 } });
  assert.equal(response.status, 200, `"${query}" answers ${response.status}: ${response.text}`);
  return response.json.hits;
};

const addPage = async (slug: string, title: string, content: string) => {
  const response = await server.request('POST', PAGES, {
    token: 'ak_test_all',
    body: { url: `https://acme.test/docs/${slug}`, title, content },
  });
  assert.equal(response.status, 201, response.text);
};

const slugOf = (hit: TestHit | undefined) => hit?.url.replace('https://acme.test/docs/', '').split('#')[0];

/**
 * Per identifier: the page that defines it (in its title or a heading), pages that mention
 * it in passing, and a page holding its parts as separate words, which must not match.
 */
const IDENTIFIERS: { identifier: string; defines: [slug: string, title: string, content: string]; partsOnly: string; inText?: false }[] = [
  {
    identifier: 'pg_hba.conf',
    defines: ['auth-pg-hba-conf', 'The pg_hba.conf File', '# The pg_hba.conf File\n\nClient authentication is controlled by a configuration file, which records which hosts may connect.'],
    partsOnly: 'The pg tool reads hba rules from conf files of each host.',
  },
  {
    identifier: 'shared_buffers',
    defines: ['runtime-config-resource', 'Resource Consumption', '# Resource Consumption\n\n## Memory\n\nSettings of memory.\n\n## shared_buffers (integer)\n\nSets the amount of memory the database server uses for shared memory buffers.'],
    partsOnly: 'Buffers are shared between processes; shared memory holds the buffers.',
  },
  {
    identifier: 'work_mem',
    defines: ['runtime-config-memory', 'Memory settings', '# Memory settings\n\n## work_mem (integer)\n\nSets the base maximum amount of memory to be used by a query operation.'],
    partsOnly: 'Work with mem tables: each work item holds its own mem block.',
  },
  {
    identifier: 'json.dumps',
    defines: ['library-json', 'json — JSON encoder and decoder', '# json — JSON encoder and decoder\n\n## Basic usage\n\nThe module encodes objects.\n\n## json.dumps(obj, *, skipkeys=False)\n\nSerialize obj to a JSON formatted str.'],
    partsOnly: 'The json module dumps its state; a json dumps file is written.',
  },
  {
    identifier: 'os.path.join',
    defines: ['library-os-path', 'os.path — Common pathname manipulations', '# os.path — Common pathname manipulations\n\n## os.path.join(path, *paths)\n\nJoin one or more path segments intelligently.'],
    partsOnly: 'The os module lets a path join another path.',
  },
  {
    identifier: 'functools.lru_cache',
    defines: ['library-functools', 'functools — Higher-order functions', '# functools — Higher-order functions\n\n## functools.lru_cache(user_function)\n\nDecorator to wrap a function with a memoizing callable.'],
    partsOnly: 'The functools module has an lru list and a cache.',
  },
  {
    identifier: 'typing.Protocol',
    defines: ['library-typing', 'typing — Support for type hints', '# typing — Support for type hints\n\n## class typing.Protocol(Generic)\n\nBase class for protocol classes.'],
    partsOnly: 'Typing a protocol by hand is slow.',
  },
  {
    identifier: 'itertools.groupby',
    defines: ['library-itertools', 'itertools — Functions creating iterators', '# itertools — Functions creating iterators\n\n## itertools.groupby(iterable, key=None)\n\nMake an iterator that returns consecutive keys and groups.'],
    partsOnly: 'Itertools can group rows by key.',
  },
  {
    identifier: 'asyncio.gather',
    defines: ['library-asyncio-task', 'Coroutines and Tasks', '# Coroutines and Tasks\n\n## asyncio.gather(*aws, return_exceptions=False)\n\nRun awaitable objects in the aws sequence concurrently.'],
    partsOnly: 'With asyncio you gather results as they come.',
  },
  {
    identifier: '--max-connections',
    defines: ['app-server', 'assist-server options', '# assist-server options\n\n## --max-connections N\n\nThe most client connections the server accepts at once.'],
    partsOnly: 'Connections have a max count.',
  },
  // Markdown reads `__init__` as emphasis: only a page title keeps it as written.
  {
    identifier: '__init__',
    inText: false,
    defines: ['reference-datamodel-init', 'object.__init__(self[, ...])', 'Called after the instance has been created, before it is returned to the caller.'],
    partsOnly: 'The init file of the shell runs at start; init scripts run once.',
  },
  {
    identifier: '__slots__',
    inText: false,
    defines: ['reference-datamodel-slots', 'object.__slots__', 'This class variable can be assigned a string, iterable, or sequence of strings.'],
    partsOnly: 'Slots of the calendar are booked per hour; each slot lasts an hour.',
  },
];

before(async () => {
  server = await startTestServer({ fixture: answerFixture() });
  for (const [index, { identifier, defines, partsOnly }] of IDENTIFIERS.entries()) {
    await addPage(...defines);
    // Two pages mention the identifier, more often than its definition does.
    for (const mention of [1, 2]) {
      await addPage(
        `mention-${index}-${mention}`,
        `Notes ${index}.${mention}`,
        `# Notes ${index}.${mention}\n\nWe set ${identifier} on every host. Later ${identifier} was changed again, and ${identifier} was logged.`,
      );
    }
    await addPage(`parts-${index}`, `Glossary ${index}`, `# Glossary ${index}\n\n${partsOnly}`);
  }
  const pages: [slug: string, title: string, content: string][] = [
    ['metals', 'Metals', '# Metals\n\nIron and copper oxidize in damp air: the oxidized surface is brown.'],
    ['python-in-c', 'Embedding Python', '# Embedding Python\n\nEmbedding the interpreter in an application is described here.'],
    ['partitioning', 'Table partitioning', '# Table partitioning\n\n## Partition pruning\n\nPartition pruning skips partitions a query cannot need.'],
    // SQL keywords are English stop words: only where the page writes them in capitals are they the keyword.
    ['grouping', 'Grouping rows', '# Grouping rows\n\n## The HAVING clause\n\n`HAVING` keeps the groups whose condition is true, after `GROUP BY`; `WHERE` filters rows before grouping.'],
    ['subqueries', 'Subqueries', '# Subqueries\n\nA row is kept when its value is `NOT IN` the list the subquery returns.'],
    ['windows', 'Window functions', '# Window functions\n\nA window function is called with `rank() OVER(PARTITION BY depname)`: the rows of each department are ranked on their own.'],
    ['report-as-pdf', 'Report as PDF', '# Report as PDF\n\nEach report can be saved as a PDF file from its menu.'],
    ['column-aliases', 'Column aliases', '# Column aliases\n\nName an output column with `AS`: `SELECT total AS report_total`, shown as the report PDF column.'],
    ['overview', 'Overview', '# Overview\n\nThis overview lists what the dashboard shows.'],
    ['clauses', 'Clauses', '# Clauses\n\n## The LIMIT clause\n\nThe LIMIT clause caps the rows a query returns; each clause of a query is optional.'],
    ['subquery-expressions', 'Subquery expressions', '# Subquery expressions\n\nA subquery returns rows; the subquery may use the outer query. Each subquery is run once.'],
    ['reports', 'Reports', '# Reports\n\nHaving grouped the orders, the report shows where each one went and what is not in stock, in any format.'],
    // An entry's name is its heading's last word ("exists" of `os.path.exists`), which its text need not say again.
    ['library-pathnames', 'pathnames — Pathname manipulations', '# pathnames — Pathname manipulations\n\n## pathnames.exists(path)\n\nReturn `True` if path refers to a path that is there, or to an open file descriptor.'],
    ['locks', 'Locks', '# Locks\n\nA lock file exists while the server runs, and the file is removed when it stops.'],
    // Functions named by English stop words, as an entry's heading and as a function table's row; then prose of the same words.
    ['library-builtins', 'Built-in checks', '# Built-in checks\n\n## any(iterable)\n\nReturn `True` if any element of the iterable is true.\n\n## all(iterable)\n\nReturn `True` if all elements of the iterable are true.'],
    ['ledger-time-functions', 'Ledger time functions', '# Ledger time functions\n\nThese functions return the current date and time.\n\n| Function | Description |\n| --- | --- |\n| `now` ( ) → `timestamp` | Current date and time (start of the current ledger transaction) |\n| `today` ( ) → `date` | Current date |'],
    ['now-and-then', 'Now and then', '# Now and then\n\nNow any ledger can be closed at any time, and all (or some) entries are kept.'],
    // Operators, in an operator table and in prose; then signs that are no operator (a link, a comment's dashes).
    [
      'ledger-json',
      'Ledger JSON operators',
      '# Ledger JSON operators\n\n| Operator | Description |\n| --- | --- |\n| `ledgerdoc` `->>` `text` → `text` | Extracts the field with the given key, as text. |\n| `ledgerdoc` `@>` `ledgerdoc` → `boolean` | Does the first document contain the second? |',
    ],
    ['ledger-arithmetic', 'Ledger arithmetic', '# Ledger arithmetic\n\n## Floor division\n\nThe `//` operator divides two amounts and rounds down: `-7 // 2` is `-4`.'],
    ['ledger-links', 'Ledger links', '# Ledger links\n\nA ledger is linked as https://acme.test/ledgers/7 and divides its pages into fields, -- one per key.'],
  ];
  for (const page of pages) await addPage(...page);
});
after(() => server.stop());

describe('functions named by stop words', () => {
  test('`any()`, `all()` and `now()` find the function, in a heading or a function table, not prose that uses the word', async () => {
    const cases: [string, string, string | undefined][] = [
      ['any()', 'library-builtins', 'any(iterable)'],
      ['all() ', 'library-builtins', 'all(iterable)'],
      ['now() ', 'ledger-time-functions', undefined],
      ['any(iterable)', 'library-builtins', 'any(iterable)'],
    ];
    for (const [query, slug, section] of cases) {
      const hits = await search(query);
      assert.equal(slugOf(hits[0]), slug, `"${query}" should find ${slug} first, got ${hits.map(slugOf).join(', ')}`);
      assert.equal(hits[0]!.section, section, query);
      assert.ok(!hits.some((hit) => slugOf(hit) === 'now-and-then'), `"${query}" should not find prose that says the word`);
    }
  });

  test('"What does now() return?" is answered from the function\'s row', async () => {
    const response = await server.request('POST', '/api/v1/acme/widgets/help/chat', { token: 'ws_test_help', body: { message: 'What does now() return?' } });
    assert.match(response.json.text, /Current date and time \(start of the current ledger transaction\)/);
    assert.deepEqual(response.json.sources.map((source: TestHit) => slugOf(source)), ['ledger-time-functions']);
  });
});

describe('operators as written', () => {
  test('an operator (`->>`, `@>`, `//`) finds where the pages write it, alone or beside words, and not signs that are none', async () => {
    const cases: [query: string, slug: string][] = [
      ['->> ', 'ledger-json'],
      ['@>', 'ledger-json'],
      ['ledgerdoc ->> text ', 'ledger-json'],
      ['`//`', 'ledger-arithmetic'],
      ['-7 // 2 ', 'ledger-arithmetic'],
    ];
    for (const [query, slug] of cases) {
      const hits = await search(query);
      assert.equal(slugOf(hits[0]), slug, `"${query}" should find ${slug} first, got ${hits.map(slugOf).join(', ')}`);
      assert.ok(!hits.some((hit) => slugOf(hit) === 'ledger-links'), `"${query}" should not find a link's slashes or a comment's dashes`);
    }
    // The snippet shows the operator where the page writes it, marked.
    assert.match((await search('->> '))[0]!.snippet ?? '', /<mark>-&gt;&gt;<\/mark>/);
  });

  test('"What does ->> do?" and "what does // do?" are answered from where the operator is written', async () => {
    const ask = async (message: string) => (await server.request('POST', '/api/v1/acme/widgets/help/chat', { token: 'ws_test_help', body: { message } })).json;
    const field = await ask('What does ->> do?');
    assert.match(field.text, /Extracts the field with the given key, as text/);
    assert.deepEqual(field.sources.map((source: TestHit) => slugOf(source)), ['ledger-json']);
    const division = await ask('what does // do?');
    assert.match(division.text, /divides two amounts and rounds down/);
    assert.deepEqual(division.sources.map((source: TestHit) => slugOf(source)), ['ledger-arithmetic']);
  });
});

describe('identifiers as written', () => {
  test('an identifier finds the section that defines it first, typed whole or still being typed, and never its parts alone', async () => {
    for (const { identifier, defines, partsOnly, inText } of IDENTIFIERS) {
      const [slug] = defines;
      for (const query of [`${identifier} `, identifier]) {
        const hits = await search(query);
        assert.equal(slugOf(hits[0]), slug, `"${query}" should find ${slug} first, got ${hits.map(slugOf).join(', ')}`);
        const mentions = hits.filter((hit) => slugOf(hit)!.startsWith('mention-'));
        assert.ok(inText === false || mentions.length >= 2, `"${query}" should also find the pages that mention it, got ${hits.map(slugOf).join(', ')}`);
        assert.ok(!hits.some((hit) => slugOf(hit)!.startsWith('parts-')), `"${query}" should not match "${partsOnly}"`);
      }
    }
  });

  test('a heading that defines an identifier is the hit, with its section', async () => {
    const [hit] = await search('shared_buffers');
    assert.equal(hit?.section, 'shared_buffers (integer)');
    assert.match(hit!.url, /#shared_buffers-integer$/);
  });

  test('an identifier being typed finds those it begins', async () => {
    const cases: [string, string][] = [
      ['pg_hba.c', 'auth-pg-hba-conf'],
      ['shared_buf', 'runtime-config-resource'],
      ['os.path.jo', 'library-os-path'],
      ['functools.lru_', 'library-functools'],
      ['--max-conn', 'app-server'],
      ['asyncio.gat', 'library-asyncio-task'],
    ];
    for (const [query, slug] of cases) {
      const hits = await search(query);
      assert.equal(slugOf(hits[0]), slug, `"${query}" should find ${slug} first, got ${hits.map(slugOf).join(', ')}`);
    }
  });

  test('the last part of a dotted name in a heading is a word of it: "file exists" finds `pathnames.exists(path)`', async () => {
    for (const query of ['file exists', 'exists']) {
      const hits = await search(query);
      assert.equal(hits[0]?.url, 'https://acme.test/docs/library-pathnames#pathnamesexistspath', `"${query}": ${hits.map((hit) => hit.url).join(', ')}`);
    }
  });

  test('an identifier written differently from any page still finds the words it is made of', async () => {
    // No page holds `memory_buffers`: its words do.
    const hits = await search('shared memory_buffers ');
    assert.ok(hits.length > 0);
  });
});

describe('search as you type', () => {
  test('every prefix of three letters or more finds the word, letter by letter', async () => {
    for (const [word, slug] of [
      ['oxidize', 'metals'],
      ['oxidized', 'metals'],
      ['embedding', 'python-in-c'],
      ['interpreter', 'python-in-c'],
      ['partition', 'partitioning'],
    ]) {
      for (let length = 3; length <= word.length; length++) {
        const typed = word.slice(0, length);
        const hits = await search(typed);
        assert.ok(hits.some((hit) => slugOf(hit) === slug), `"${typed}" should find ${slug}, got ${hits.map(slugOf).join(', ') || 'nothing'}`);
        const after = await search(`iron ${typed}`);
        if (slug === 'metals') assert.equal(slugOf(after[0]), slug, `"iron ${typed}" should find ${slug} first`);
      }
    }
  });
});

describe('typos', () => {
  test('a misspelt word is corrected, alone or beside others', async () => {
    assert.equal(slugOf((await search('partion pruning'))[0]), 'partitioning');
    assert.equal(slugOf((await search('embeding python'))[0]), 'python-in-c');
    assert.equal(slugOf((await search('oxidise '))[0]), 'metals');
  });
});

describe('keywords in capitals', () => {
  test('a keyword that is an English stop word ("HAVING", "NOT IN") finds the pages that write it in capitals', async () => {
    for (const query of ['HAVING', 'HAVING clause', 'WHERE and HAVING', 'GROUP BY HAVING', 'having ']) {
      const hits = await search(query);
      assert.equal(slugOf(hits[0]), 'grouping', `"${query}" should find the HAVING clause first, got ${hits.map(slugOf).join(', ') || 'nothing'}`);
    }
    // Not "having" as an English word.
    for (const query of ['HAVING', 'having ']) assert.deepEqual((await search(query)).map(slugOf), ['grouping'], query);
    // Written against the punctuation of code: "OVER(PARTITION BY …)".
    assert.equal(slugOf((await search('OVER PARTITION'))[0]), 'windows');
    assert.equal(slugOf((await search('NOT IN subquery'))[0]), 'subqueries');
  });

  test('in lower case among other words, or typed in capitals throughout, they are stop words as before', async () => {
    for (const query of ['what is not in stock', 'report where orders went']) assert.equal(slugOf((await search(query))[0]), 'reports', query);
    // Typed with caps lock on, "NOT" alone in capitals, which may be shouted, or "WHERE" asking where: the same hits as in lower case.
    for (const query of ['WHERE DID THE ORDERS GO IN THE REPORT', 'which report is NOT grouped by where it went', 'WHERE did the orders go in the report'])
      assert.deepEqual((await search(query)).map(slugOf), (await search(query.toLowerCase())).map(slugOf), query);
    // Beside an acronym ("AS PDF"), not a word of SQL, "AS" is the English word: the page that saves a report as a PDF, not one that writes `AS`.
    assert.equal(slugOf((await search('report AS PDF '))[0]), 'report-as-pdf');
    // One still being typed may be the start of a word: "FOR" of "FORMAT", "over" of "overview".
    assert.ok((await search('FOR')).some((hit) => slugOf(hit) === 'reports'));
    assert.equal(slugOf((await search('over'))[0]), 'overview');
  });
});
