/**
 * How a visitor's question is read for search: the names it holds, and, when it is told in
 * several clauses, the clauses it is looked up by, those that ask first, never a pasted error
 * message or code cut apart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionAsked, askedAndTold, headingOpensAs, askFirst, inPagesWords, askingClauses, headingAsksAs, pageTerms, asQuestion, comparedNames, contentQuery, errorMessageIn, headedBy, isSettingEntry, namedApis, nameAsTyped, questionAsked, questionClauses, terms, withoutSubject } from '../../server/answer/text.js';

test('an operator is a term as written: "what does ->> do?" asks about `->>`, and a link\'s slashes or a comment\'s dashes are none', () => {
  assert.deepEqual(askedAndTold('what does ->> do?').asked, ['->>']);
  assert.deepEqual(terms('a := b, x == y?'), [':=', '==']);
  assert.equal(contentQuery('Why is -7 // 2 equal to -4?'), '7 // 2 equal 4');
  assert.deepEqual(terms('see https://acme.test/x -- or c++'), terms('see https acme test x or c'));
});

test('a greeting before a question and thanks or a plea after it are not what it asks', () => {
  assert.equal(questionAsked('hi, how do I read a file line by line?'), 'how do I read a file line by line?');
  assert.equal(questionAsked('Hey there - what is the GIL? pls help'), 'what is the GIL?');
  assert.equal(questionAsked('ok so what is TOAST? any help appreciated, thanks in advance!'), 'what is TOAST?');
  // An exclamation mark says thanks where no punctuation before it does: after a pasted error, say.
  assert.equal(questionAsked('ERROR: relation "orders" does not exist thanks!'), 'ERROR: relation "orders" does not exist');
  assert.equal(questionAsked('How do I add a thank you'), 'How do I add a thank you');
  assert.equal(questionAsked('Was heißt Ledger merci!'), 'Was heißt Ledger');
  assert.equal(questionAsked('How do I say thank you!'), 'How do I say thank you!');
  // Words that only look like them are kept: a program's name, help that is asked for, a question of thanks alone.
  assert.equal(questionAsked('Hello world program in C?'), 'Hello world program in C?');
  assert.equal(questionAsked('How do I get help'), 'How do I get help');
  assert.equal(questionAsked('thanks'), 'thanks');
  // "quick q", "quick one": a chat's opener, not a question about speed.
  assert.equal(questionAsked('hey, quick one: how do I load a csv into a table?'), 'how do I load a csv into a table?');
  assert.equal(questionAsked('quick q - how can I find which session holds a lock?'), 'how can I find which session holds a lock?');
  assert.equal(questionAsked('Quick question: what is TOAST?'), 'what is TOAST?');
  assert.equal(questionAsked('quick sort in python?'), 'quick sort in python?');
});

test('an adverb of a chat\'s tone ("honestly", "roughly", "clearly") is not asked', () => {
  assert.deepEqual(askedAndTold('I honestly don\'t get what @property does').asked, askedAndTold('I don\'t get what @property does').asked);
  assert.deepEqual(terms('roughly as many rows as we insert, clearly'), terms('as many rows as we insert'));
});

test('a plea that asks nothing after the question ("any ideas?", ", thoughts?", "Can anyone help?") is not what it asks; "any ideas for a name", a word of a name, are', () => {
  assert.equal(questionAsked('How do I read a file line by line? Any ideas?'), 'How do I read a file line by line?');
  assert.equal(questionAsked('how to get the current date and time, thoughts?'), 'how to get the current date and time');
  assert.equal(questionAsked('My ledger total is wrong.\nCan anyone help?'), 'My ledger total is wrong.');
  assert.equal(questionAsked('What is a ledger? any suggestions welcome!'), 'What is a ledger?');
  for (const question of ['any ideas for naming a ledger?', 'What are ideas?', 'how do I disable editor.suggestions', 'Where do I propose a feature, python-ideas?', 'thoughts?'])
    assert.equal(questionAsked(question), question);
});

test('a question told after what led to it is asked first; one that leans on what was told, a clause that only tells, a pasted error or code are read as typed', () => {
  assert.equal(askFirst("I'm new to python. What is a list comprehension?"), "What is a list comprehension? I'm new to python.");
  assert.equal(askFirst('so our app keeps dying with too many connections errors, how can i raise the connection limit?'), 'how can i raise the connection limit? so our app keeps dying with too many connections errors.');
  // "So how do I …?" goes on from what was told: asked first, it opens as the question it is.
  assert.equal(askFirst('We moved to Acme last week. So how do I close a ledger?'), 'how do I close a ledger? We moved to Acme last week.');
  // Asked within what is told, in the order of a statement: asked in the order of a question; what is left of its sentence is told when it says anything.
  assert.equal(askFirst("I've been trying to figure out how I can read a file line by line, my code loads the whole file."), "how can I read a file line by line? I've been trying to. my code loads the whole file.");
  assert.equal(askFirst('I was wondering what a ledger is.'), 'what is a ledger?');
  assert.equal(askFirst('Wondering what a ledger is'), 'what is a ledger?');
  assert.equal(askFirst("I don't get why my ledger total is negative"), 'why my ledger total is negative?');
  // A clause that opens with a question's words but tells (", which takes hours", "What I did was …", "Can't …") is not asked first: the question after it is.
  assert.equal(askFirst('I have a big orders table, which takes hours to vacuum. How do I speed up vacuum?'), 'How do I speed up vacuum? I have a big orders table. which takes hours to vacuum.');
  assert.equal(askFirst('What I did was run the migration twice. How do I undo a migration?'), 'How do I undo a migration? What I did was run the migration twice.');
  assert.equal(askFirst('apt keeps asking whether to overwrite pg_hba.conf during upgrade, how do I answer automatically?'), 'how do I answer automatically? apt keeps asking whether to overwrite pg_hba.conf during upgrade.');
  for (const question of [
    // Already first, whatever it asks next.
    'How do I read a file line by line? I tried the docs but got lost.',
    'What is a ledger, and how do I close a ledger?',
    // Leaning on what was told ("it", "them"), or asking in no question's words.
    'psql keeps asking me for a password every time. can I store it somewhere?',
    'I have a list of ledgers. How do I sort them by date?',
    // Or on one of the things told ("which one", "either", "the latter").
    'I have the 2023 and 2024 ledgers open, how do I choose which one gets the payments?',
    'Ledgers and journals both hold payments. Can either be closed twice?',
    'I need a secure random token for a password reset link. random module ok?',
    // Or on what the visitor did ("what … am I missing?", "what did I forget?").
    'The widget loads on my laptop but from my phone I get a blank box. what setting am I missing?',
    'I exported the ledger and imported it again but the totals differ. which step did I forget?',
    // Telling only.
    'I know how to read a file. I tried the docs.',
    "I set up a server. Can't connect from the host.",
    // A pasted error, code, many lines.
    'TypeError: unhashable type: list\nI add a list to a set. How do I fix this error?',
    'My loop:\n```python\nfor line in f:\n    print(line)\n```\nHow do I skip blank lines?',
    'line one\nline two\nline three\nline four\nHow do I close a ledger?',
  ])
    assert.equal(askFirst(question), question);
  // "Both … and", "either … or" name their own things.
  assert.equal(askFirst("I'm new to acme. How do I grant both read and write access to a ledger?"), "How do I grant both read and write access to a ledger? I'm new to acme.");
  // So what reads how a question opens reads what it asks: "What is …?" asks for a definition.
  assert.equal(questionAsked('So at work we moved to Acme. What is a ledger?', ['Acme', 'Docs']), 'What is a ledger? So at work we moved to Acme.');
});

test('to stop or keep something from happening asks how to prevent it; to stop a thing that runs does not', () => {
  assert.equal(questionAsked('How can I stop two bookings for the same room from overlapping in time?'), 'How can I prevent two bookings for the same room from overlapping in time?');
  assert.equal(questionAsked('how do I keep users from signing in?'), 'how do I prevent users from signing in?');
  assert.equal(questionAsked('How do I keep a mapping from string keys to values?'), 'How do I keep a mapping from string keys to values?');
  assert.equal(questionAsked('how can I stop copying files from staging?'), 'how can I stop copying files from staging?');
  assert.equal(questionAsked('How do I stop a query that another session is running?'), 'How do I stop a query that another session is running?');
  assert.equal(questionAsked('stop the worker from the dashboard'), 'stop the worker from the dashboard');
});

test('the name of what the documentation is about, where it only says where a question belongs, is not what it asks', () => {
  const python = ['Acme', 'Python 3.11 docs'];
  assert.equal(withoutSubject('What does zip() do in python?', python), 'What does zip() do?');
  // The start of a name ("postgres" of "PostgreSQL"), with a version, before the question goes on.
  assert.equal(withoutSubject('how to generate a random uuid in postgres 15, do i need an extension?', ['Acme', 'PostgreSQL 15 manual']), 'how to generate a random uuid, do i need an extension?');
  assert.equal(withoutSubject('How do I cancel a plan in Acme?', python), 'How do I cancel a plan?');
  // Elsewhere it is what the question is about, and so is a word that is no name of it.
  assert.equal(withoutSubject('How can I stop Python from writing .pyc files?', python), 'How can I stop Python from writing .pyc files?');
  assert.equal(withoutSubject('reading a pyproject.toml in python 3.11 without pip, possible?', python), 'reading a pyproject.toml in python 3.11 without pip, possible?');
  assert.equal(withoutSubject('How do I run it in docker?', python), 'How do I run it in docker?');
  assert.equal(withoutSubject('How do I read it in postgres?', []), 'How do I read it in postgres?');
  // A word that tells the sources apart says which one is asked about.
  assert.equal(withoutSubject('How do I install the SDK for node?', ['Acme', 'Python SDK', 'Node SDK']), 'How do I install the SDK for node?');
  assert.equal(withoutSubject('How do I install it with the SDK?', ['Acme', 'Python SDK', 'Node SDK']), 'How do I install it?');
  // A question about releases asks about the version it names.
  assert.equal(questionAsked('What changed in postgres 16?', ['Acme', 'PostgreSQL 15 manual']), 'What changed in postgres 16?');
});

test('what a question asks, when it also tells, is its asking clauses', () => {
  assert.equal(askingClauses('How do I read a file line by line?\n\nI tried the docs but got lost.'), 'How do I read a file line by line?');
  assert.equal(askingClauses('How do I call `zip()` on two lists? The docs confuse me.'), 'How do I call `zip()` on two lists?');
  // What it tells first is what it is about, when what it asks names nothing more ("can I store it somewhere?").
  assert.equal(askingClauses('psql keeps asking me for a password every time. can I store it somewhere?'), undefined);
  // What asks first may ask about what is told after it: "this", or a word that names nothing ("wrong").
  assert.equal(askingClauses('How do I fix this? My worker prints show up late in the docker logs when there is no terminal.'), undefined);
  assert.equal(askingClauses('What am I doing wrong? json.dumps writes my datetime fields as errors.'), undefined);
  // So does one that asks what the visitor missed, in more words ("what setting am I missing?").
  assert.equal(askingClauses('What setting am I missing? The widget loads on my laptop but from my phone I get a blank box.'), undefined);
  assert.equal(askingClauses('Which setting controls the colour? The widget loads on my laptop.'), 'Which setting controls the colour?');
  assert.equal(askingClauses('What is a decorator? I tried the docs but got lost.'), 'What is a decorator?');
  // A question that only asks, or only tells, has nothing to set apart.
  assert.equal(askingClauses('What is a list and how do I sort it?'), undefined);
  assert.equal(askingClauses('What is a list? How do I sort it?'), undefined);
  // A question asked after a conjunction asks too ("… and what's a namespace package").
  assert.equal(askingClauses("do I still need __init__.py files? and what's a namespace package"), undefined);
  assert.equal(askingClauses('Is a list sorted in place? But how do I keep the original? I tried the docs.'), 'Is a list sorted in place? But how do I keep the original?');
  assert.equal(askingClauses('TypeError: unhashable type: list when I add a list to a set'), undefined);
});

test('an example a question ends with ("like Europe/Berlin", "such as pg_trgm") is told, not asked; "would like", "LIKE" and "like this" are not examples', () => {
  assert.deepEqual(askedAndTold('convert a datetime to a different timezone like Europe/Berlin'), { asking: 'convert a datetime to a different timezone', asked: ['convert', 'datetim', 'different', 'timezon'], told: ['europ', 'berlin'] });
  // The place "What is …?" ends by naming is told too (below).
  assert.equal(askedAndTold('what does the slash mean in a function signature like def f(a, b, /, c)').asking, 'what does the slash mean');
  assert.equal(askedAndTold('How do I install an extension such as pg_trgm?').asking, 'How do I install an extension');
  assert.equal(askedAndTold('How do I read a file line by line? I tried the docs, e.g. the tutorial').asking, 'How do I read a file line by line?');
  for (const question of ['I would like to sort a list of ledgers', "why doesn't my index get used for LIKE '%smith' searches", 'how do I sort ledgers like this']) {
    assert.equal(askedAndTold(question).told.length, 0, question);
  }
});

test('an aside in parentheses tells what the visitor has, outside a pasted message; a call\'s arguments and a short note are asked', () => {
  const { asked, told } = askedAndTold("I've got a csv export (first line is the column names) and want to load it into a ledger. what's the fastest way?");
  assert.deepEqual(asked, terms('csv export load ledger fastest'));
  assert.deepEqual(told, terms('first line column names'));
  // The server's own words in a pasted message are what the pages quote.
  assert.ok(askedAndTold('LOG:  checkpoints are occurring too frequently (9 seconds apart)').asked.includes('apart'));
  // Nor are code, a list, SQL, what the visitor wants of the answer, or the lines of a pasted traceback.
  for (const question of [
    'How do I call refund(order, amount, reason) twice?',
    'How do I call refund (order, amount, reason) twice?',
    'What does the -Fc (custom) format hold?',
    'How do I fix `INSERT INTO ledger (payer, payee, amount) VALUES (1, 2, 3)`?',
    'How do I CREATE TABLE ledgers (id serial primary key) in acme?',
    'How do I move a ledger (without any downtime)?',
    'How do I export a ledger to csv (including the column headers)?',
    'Traceback (most recent call last):\n  File "run.py", line 3\nLedgerError: closed ledger',
  ])
    assert.equal(askedAndTold(question).told.length, 0, question);
});

test('what "How do I …?" asks to do is the word after it, past an adverb; not a name, nor "How does …"', () => {
  const [restore] = terms('restore');
  assert.equal(actionAsked('how to restore a dump made with pg_dump -Fc'), restore);
  assert.equal(actionAsked('How do I quickly restore a dump?'), restore);
  for (const question of ['How do I pg_restore a dump?', 'How does restoring a dump work?', 'How do I get a dump back?', 'What does pg_restore do?'])
    assert.equal(actionAsked(question), undefined, question);
});

test('a limit of time the visitor names is read as the amount of time the pages set; a second of something else is not', () => {
  assert.equal(inPagesWords('log queries over half a second'), 'log queries more than the specified amount of time');
  assert.equal(inPagesWords('stop runs longer than 30 seconds'), 'stop runs more than the specified amount of time');
  assert.equal(inPagesWords('cancel jobs running over half an hour, and retry'), 'cancel jobs running more than the specified amount of time, and retry');
  for (const question of ['run it a second time', 'why does it take a second pass?', 'wait 5 seconds between runs', 'run it more than a second time', 'how do I add at least a second standby?'])
    assert.equal(inPagesWords(question), undefined, question);
});

test('to stop, prevent or keep something from happening is read as to avoid it; to keep it happening, or to stop what runs, is not', () => {
  assert.equal(inPagesWords('what causes it and how do we stop it happening?'), 'what causes it and how do we avoid it?');
  assert.equal(inPagesWords('how do I keep this error from coming back'), 'how do I avoid this error');
  assert.equal(inPagesWords('can I prevent that from happening again?'), 'can I avoid that?');
  for (const question of ['how do I keep it happening every night?', 'how do I stop a query that is running?', 'stop it from running the export twice'])
    assert.equal(inPagesWords(question), undefined, question);
});

test('words that only carry the tone of a chat ("even", "stuff", "kinda", "lol") are not asked', () => {
  assert.deepEqual(askedAndTold('how do I restore a ledger dump lol, kinda stuck').asked, askedAndTold('how do I restore a ledger dump, stuck').asked);
  // "Even" is a word of its own elsewhere ("round half to even"); "What's even the point of …?" asks what it is for, as "What's the point of …?" does.
  assert.deepEqual(askedAndTold("what's even the point of a ledger? kinda lost lol").asked, askedAndTold("what's the point of a ledger? lost").asked);
});

test('"What is …?" asks what the thing is, not where: the place it ends by naming ("in logical replication") is told; "in it", "in general", "What is stored in …" and other questions are read whole', () => {
  assert.deepEqual(askedAndTold('What is a remittance in batch payouts?'), { asking: 'What is a remittance', asked: terms('remittance'), told: terms('batch payouts') });
  assert.equal(askedAndTold('what does a lock mean within a transaction').asking, 'what does a lock mean');
  for (const question of [
    'what is the point of a ledger folder that has no index.md in it',
    'What is a ledger in general?',
    'How do I close a remittance in batch payouts?',
    // No thing is named: what is stored, what is new, is asked.
    'What is stored in ledger_control?',
    "What's new in Acme 16?",
    'What is the order in which refunds are sent?',
    'What is the difference between a ledger in Acme and a journal?',
  ]) {
    assert.equal(askedAndTold(question).told.length, 0, question);
  }
});

test('a call names its function, written with its arguments too ("round(2.5)", "sorted(items, key=len)", "count(*)"); words in parentheses after a space, or a plural\'s "(s)", do not', () => {
  assert.deepEqual(namedApis('why does round(2.5) give 2 and not 3?'), ['round()']);
  assert.deepEqual(namedApis('I call sorted(items, key=len) and nothing changes'), ['sorted()']);
  assert.deepEqual(namedApis('can I put count(*) in the where clause?'), ['count()']);
  assert.deepEqual(namedApis('What does os.path.join() do?'), ['os.path.join()']);
  assert.deepEqual(namedApis('my ledger (the old one) is slow'), []);
  assert.deepEqual(namedApis('where are the log file(s) written after I rebuild the index(es)?'), []);
});

test('a name is handed on in the letter case the visitor wrote it, a call with its arguments too: "Breakpoint(x)" asks for the class, "breakpoint()" the built-in', () => {
  const asTyped = (question: string) => namedApis(question).map((name) => nameAsTyped(name, question));
  assert.deepEqual(asTyped('Why does Breakpoint(x) never stop?'), ['Breakpoint()']);
  assert.deepEqual(asTyped('Why does Breakpoint() never stop?'), ['Breakpoint()']);
  assert.deepEqual(asTyped('why does breakpoint(x) never stop?'), ['breakpoint()']);
  assert.deepEqual(asTyped('What does Collections.OrderedDict do?'), ['Collections.OrderedDict']);
  // Only the name itself: not the same letters ending a longer name ("mybreakpoint(x)" names `mybreakpoint()`).
  assert.equal(nameAsTyped('breakpoint()', 'mybreakpoint(x) or Breakpoint(y)?'), 'Breakpoint()');
  // Named by what it is asked to do, not as a call: as read.
  assert.deepEqual(asTyped('What does enumerate do?'), ['enumerate()']);
  // The call read, not the same letters elsewhere: a plural's "(s)", a call inside another's arguments, a path.
  assert.deepEqual(asTyped('Which Log(s) does log(x) write to?'), ['log()']);
  assert.deepEqual(asTyped('Why does Settle(f(x)) differ from settle(y)?'), ['f()', 'settle()']);
  assert.deepEqual(asTyped('Is a/Settle(x) the same as settle(y)?'), ['settle()']);
  // A name as a whole word: not the start of a longer one.
  assert.deepEqual(asTyped('MAX_CONNECTIONS_PER_USER vs max_connections?'), ['MAX_CONNECTIONS_PER_USER', 'max_connections']);
});

test('a call of a function named by a stop word ("now()", "any(iterable)") is content; the word alone is not', () => {
  assert.equal(contentQuery('What does now() return?'), 'now() return');
  assert.equal(contentQuery('all() vs any(iterable)'), 'all() any()');
  assert.equal(contentQuery('is there any way to get all rows now'), 'rows');
  assert.deepEqual(terms('What does now() return?'), terms('`now` ( ) → `timestamp`: what it returns').filter((term) => ['now_', 'return'].includes(term)));
  assert.deepEqual(terms('now, any and all'), []);
  // Only those names: a call of another function that starts or ends like one is that function's.
  assert.deepEqual(terms('company(x), anyhow(), offset (), payoff(n)'), terms('company anyhow offset payoff'));
  // In capitals it is the keyword of SQL, not a function.
  assert.ok(!contentQuery('WHERE id = ANY(ids)').includes('any()'));
  assert.ok(!terms('WHERE id = ANY(ids)').includes('any_'));
});

test('a letter joined by a hyphen to a word ("f-strings", "B-tree", "x-axis") is one word with it; a page holds the word alone too', () => {
  assert.deepEqual(terms('f-strings'), terms('fstrings'));
  assert.deepEqual(terms('B-tree indexes'), terms('btree indexes'));
  assert.deepEqual(terms('f\u2011strings'), terms('fstrings'));
  // A page about the x-axis is about an axis, not about the y-axis.
  assert.deepEqual(pageTerms('x-axis labels'), [...terms('xaxis'), ...terms('axis labels')]);
  assert.ok(!pageTerms('y-axis').includes(terms('x-axis')[0]!));
  // Not a letter between two others, nor after a word, a digit, a dot, an apostrophe or another script's letter; nor before a letter alone.
  assert.deepEqual(terms('pre-b-tree'), terms('pre b tree'));
  assert.deepEqual(terms('1e-10'), terms('1e 10'));
  assert.deepEqual(pageTerms('3.x-compatible'), terms('3 x compatible'));
  assert.deepEqual(terms('ב-PostgreSQL'), terms('PostgreSQL'));
  assert.deepEqual(terms('a-b'), []);
  assert.deepEqual(terms('read-only'), terms('read only'));
  assert.deepEqual(terms('x - total'), terms('x total'));
});

test('the noun of a verb ("occurrences", "existence", "inheritance") is read as the verb; a short stem is not cut ("instance", "sentence")', () => {
  assert.deepEqual(terms('occurrences of each word'), terms('occurs each word'));
  assert.deepEqual(terms('existence'), terms('exists'));
  assert.deepEqual(terms('inheritance'), terms('inherits'));
  assert.deepEqual(terms('dependence'), terms('depends'));
  // Not a short stem, nor one that is another word: "importance" is not about `import`, "experience" not about experiments.
  for (const [noun, other] of [['instance', 'inst'], ['sentence', 'sent'], ['importance', 'import'], ['experience', 'experiment'], ['performance', 'perform']])
    assert.notDeepEqual(terms(noun), terms(other), noun);
});

test('a verb in "-ate" meets its noun in "-ation" ("replicate", "replication"); "repeat" and "format" keep their "at"', () => {
  for (const [verb, noun] of [['replicate', 'replication'], ['generated', 'generation'], ['iterating', 'iteration'], ['create', 'creation'], ['associates', 'association'], ['authenticate', 'authentication']])
    assert.deepEqual(terms(verb), terms(noun), verb);
  assert.deepEqual(terms('repeated'), terms('repeat'));
  assert.deepEqual(terms('formatted'), terms('format'));
  assert.notDeepEqual(terms('format'), terms('form'));
  // A word of a synonym group is not another word that now shares its stem: a terminal is not to stop, "active" not to enable.
  assert.deepEqual(terms('terminate'), terms('stop'));
  assert.notDeepEqual(terms('terminal'), terms('stop'));
  assert.deepEqual(terms('activate'), terms('enable'));
  assert.notDeepEqual(terms('active'), terms('enable'));
});

test('"specified", "emptied", "busier" meet "specify", "empty", "busy"; "specification" meets "specify"; "apply" is no adverb', () => {
  for (const [one, other] of [['specified', 'specify'], ['queried', 'query'], ['emptied', 'empty'], ['busier', 'busy'], ['specification', 'specifies'], ['notification', 'notify'], ['apply', 'applied'], ['replies', 'reply']])
    assert.deepEqual(terms(one), terms(other), one);
  assert.notDeepEqual(terms('specific'), terms('specify'));
  assert.deepEqual(terms('deeply'), terms('deep'));
  assert.deepEqual(terms('modified'), terms('change'));
});

test('a short phrase before the question that says where ("After an INSERT,", "In psql,") is asked with it; what the visitor did is told', () => {
  assert.equal(questionAsked('In psql, how do I list tables?'), 'In psql, how do I list tables?');
  assert.deepEqual(askedAndTold('In psql, how do I list tables?').asked, terms('psql list tables'));
  assert.deepEqual(askedAndTold(questionAsked('For string formatting, how do I pad a number?')).asked, terms('string formatting pad number'));
  assert.ok(askedAndTold('After an INSERT, how do I get the new id without a second query?').asked.includes(terms('INSERT')[0]!));
  // A clause with someone doing something in it tells.
  assert.deepEqual(askedAndTold(questionAsked('When I run my script, how do I see the output?')).told, terms('run script'));
  assert.deepEqual(askedAndTold(questionAsked('After I upgraded to the new release of the ledger app last week, how do I see the output?')).asked, terms('see output'));
  assert.deepEqual(askedAndTold(questionAsked('After upgrading to 16, how do I see the output?')).asked, terms('see output'));
  // Nor a word of the visitor's talk.
  assert.deepEqual(askedAndTold(questionAsked('For example, how do I list tables?')).asked, terms('list tables'));
  assert.deepEqual(askedAndTold(questionAsked('In general, what is a tablespace?')).asked, terms('tablespace'));
});

test('a heading that asks as the question does and opens with its words, two of them content words, is its entry', () => {
  assert.ok(headingOpensAs('Why does Python use indentation for grouping of statements?', 'why does python use indentation instead of curly braces'));
  // Only the words of a question in common, or the heading does not ask.
  assert.ok(!headingOpensAs('How do I make an executable from a Python script?', 'how do I make a thread stop?'));
  assert.ok(!headingOpensAs('Why does Python use indentation', 'why does python use indentation instead of braces'));
  assert.ok(!headingOpensAs('How does Python use indentation?', 'why does python use indentation instead of braces'));
  // Nor where the question goes on naming the same thing.
  assert.ok(!headingOpensAs('What is the difference between a list and a tuple?', 'what is the difference between a list comprehension and map'));
});

test('a heading asks what a question asks when it opens with the same question word and ends with a question mark', () => {
  assert.ok(headingAsksAs('Why must dictionary keys be immutable?', "Why can't I use a list as a dictionary key?"));
  assert.ok(headingAsksAs('How can I sort a list? (in place)', 'how do I sort a list'));
  assert.ok(headingAsksAs("What's new in 3.11？", 'What is new?'));
  assert.ok(headingAsksAs('1.2. Why is my query slow? (see `EXPLAIN()`)', "Why isn't my query using the index?"));
  assert.ok(headingAsksAs("Doesn't VACUUM lock the table?", 'does vacuum lock tables?'));
  // Another question, a heading that asks nothing, or a name that ends with a question mark.
  assert.ok(!headingAsksAs('What is a virtual environment?', 'How do I create a virtual environment?'));
  assert.ok(!headingAsksAs('Why keys are immutable', 'Why must keys be immutable?'));
  assert.ok(!headingAsksAs('empty?', 'Is the list empty?'));
  assert.ok(!headingAsksAs('Why must keys be immutable?', 'dictionary keys'));
});

test('a stop word contracted ("don\'t", "isn\'t", "can\'t") asks no more than written out: an answer need not say it', () => {
  assert.deepEqual(askedAndTold("Why doesn't my query use the index?").asked, askedAndTold('Why does my query not use the index?').asked);
  assert.deepEqual(askedAndTold("How can I memoize a function so repeated calls don't recompute?").asked, askedAndTold('How can I memoize a function so repeated calls do not recompute?').asked);
  assert.deepEqual(terms("I don't, can't, won't; it isn't, wasn't, didn't, shouldn't"), []);
  assert.deepEqual(terms('I don’t, can’t; it isn’t'), []);
  // Possessives and names keep their words.
  assert.deepEqual(terms("the user's file"), terms('user file'));
  assert.equal(terms("O'Reilly").length, 1);
});

test('"the others", "the old ones" ask no more than "the other", "the old one": an answer need not say them', () => {
  assert.deepEqual(askedAndTold('char vs varchar: is one faster than the others?').asked, askedAndTold('char vs varchar: is one faster than the other?').asked);
  assert.deepEqual(terms('keep the new ones, drop the old ones'), terms('keep the new one, drop the old one'));
});

test('"e.g." and "i.e." are written with dots, like `os.path`, but name nothing to look up', () => {
  const question = 'how do I sort a list of dicts, e.g. by a key (i.e. by one field), like os.path does?';
  assert.deepEqual(namedApis(question), ['os.path']);
  assert.equal(contentQuery(question), 'sort list dicts key field os.path');
});

test('a file named after an identifier (`__init__.py`) is searched for as one word, and "what\'s the point of" asks what a thing is for', () => {
  // As two words, `__init__` and "py", the search finds every class's `__init__()` method, not packages.
  assert.equal(contentQuery("what's the point of a package folder that has no __init__.py in it"), 'package folder __init__.py');
  assert.equal(contentQuery('run a __main__.py file'), 'run __main__.py file');
  assert.deepEqual(askedAndTold('What is the point of the nonlocal statement?').asked, askedAndTold('What is the purpose of the nonlocal statement?').asked);
  // "Point" that names something stays.
  assert.equal(contentQuery('floating point rounding'), 'floating point rounding');
  assert.equal(contentQuery('What is the point in time recovery in postgres?'), 'point time recovery postgres');
  // A long run of underscores is read at once, not tried every way.
  const started = performance.now();
  contentQuery(`why does a${'__a'.repeat(40)}-b fail`);
  assert.ok(performance.now() - started < 1000);
});

test('"WHERE" in capitals before "do", "is" … asks where; before anything else it is the keyword', () => {
  assert.equal(contentQuery('WHERE do I find my API key?'), contentQuery('where do I find my API key?'));
  assert.deepEqual(terms('WHERE is the log written?'), terms('where is the log written?'));
  assert.ok(contentQuery('Why does WHERE x = NULL return nothing?').split(' ').includes('WHERE'));
  assert.ok(terms('Why does WHERE x = NULL return nothing?').includes('where_'));
});

test('the circumstances told first and the question asked after are each a clause, the question first', () => {
  assert.deepEqual(questionClauses('my worker prints show up late in the docker logs when there is no terminal. how do I make the output unbuffered?', 3), [
    'output unbuffered',
    'worker prints show late docker logs terminal',
  ]);
  // In any language: a clause ending with a question mark asks.
  assert.deepEqual(questionClauses('Ich habe viele alte Dateien. Wie kann ich sie löschen?', 3), ['löschen', 'viele alte dateien']);
});

test('a comma before a further question ends a clause; a comma in a sentence, "e.g." and a decimal do not', () => {
  assert.deepEqual(questionClauses('How do I print a number with commas as thousands separators, and can I round it to 2 decimals?', 3), [
    'print number commas thousands separators',
    'round 2 decimals',
  ]);
  assert.deepEqual(questionClauses('When I run the script with python3.11, e.g. from cron, it fails. what changed?', 3), ['changed', 'run script python3.11 cron fails']);
});

test('a pasted error message and code in backticks are not cut into clauses', () => {
  // The message runs to the end of the question, which is looked up as it is.
  assert.deepEqual(questionClauses('ValueError: Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit. how do I fix it?', 3), []);
  assert.deepEqual(questionClauses('I call `connect(host, port)` in a loop. how do I stop it?', 3), ['stop', 'call loop']);
});

test('a question of one clause has none to ask on its own, and a long one at most as many as asked for', () => {
  assert.deepEqual(questionClauses('How do I make the worker output unbuffered when it runs in docker without a terminal?', 3), []);
  assert.deepEqual(questionClauses('I have a big table. It has many rows. Vacuum runs often. Autovacuum logs warnings. Why is it slow?', 3), ['slow', 'big table', 'vacuum runs often']);
});

test('a request put as one is read as the question it is', () => {
  assert.equal(asQuestion('show me how to read a file line by line'), 'How do I read a file line by line');
  assert.equal(asQuestion('Can you show me how I can sort a list?'), 'How do I sort a list?');
  assert.equal(asQuestion("I'm trying to read a file line by line, how?"), 'How do I read a file line by line');
  assert.equal(asQuestion('I need to stop it somehow'), 'How do I stop it somehow');
  assert.equal(asQuestion('I need to parse a date.'), 'How do I parse a date.');
  assert.equal(asQuestion("What's the best way to read a file?"), 'How do I read a file?');
  assert.equal(asQuestion('which function should I use to sort a list?'), 'How do I sort a list?');
  assert.equal(asQuestion('what is the way of life'), 'what is the way of life');
  assert.equal(asQuestion('can you explain decorators'), 'What is decorators');
  assert.equal(asQuestion('explain how imports work'), 'how imports work');
  assert.equal(asQuestion("I'd like to rename a column"), 'How do I rename a column');
  assert.equal(asQuestion('I wanna rename a column'), 'How do I rename a column');
  // What the visitor wants to know, and a request with nothing after it, are read as written.
  assert.equal(asQuestion('I want to know what a decorator is'), 'I want to know what a decorator is');
  assert.equal(asQuestion("I'm trying to understand why my query is slow"), "I'm trying to understand why my query is slow");
  assert.equal(asQuestion('I want to'), 'I want to');
  // PostgreSQL's EXPLAIN is not a request to explain.
  assert.equal(asQuestion('EXPLAIN ANALYZE output: what does loops mean?'), 'EXPLAIN ANALYZE output: what does loops mean?');
  assert.equal(asQuestion('explain analyze shows a seq scan, why?'), 'explain analyze shows a seq scan, why?');
  assert.equal(asQuestion('How do I show my work?'), 'How do I show my work?');
});

test('a pasted error message is read from its own line: the last that holds one, without the lines the visitor writes after it', () => {
  assert.equal(errorMessageIn('TypeError: Object of type datetime is not JSON serializable\n\nI tried the docs but got lost.'), 'Object of type datetime is not JSON serializable');
  assert.equal(errorMessageIn("Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nValueError: invalid literal for int() with base 10: 'x'"), "invalid literal for int() with base 10: 'x'");
  assert.equal(errorMessageIn('ERROR:  canceling statement due to conflict with recovery\nDETAIL:  User query might have needed to see row versions'), 'canceling statement due to conflict with recovery');
  // A line of the server's log is pasted with its level, and its prefix; an error pasted with it is what is asked about.
  assert.equal(errorMessageIn('LOG:  checkpoints are occurring too frequently (9 seconds apart)'), 'checkpoints are occurring too frequently (9 seconds apart)');
  assert.equal(errorMessageIn('2024-05-01 10:00:00.123 UTC [123] LOG:  checkpoints are occurring too frequently'), 'checkpoints are occurring too frequently');
  assert.equal(errorMessageIn('NOTICE:  relation "orders" already exists, skipping'), 'relation "orders" already exists, skipping');
  assert.ok(!askedAndTold('LOG:  checkpoints are occurring too frequently').asked.includes(terms('log')[0]!));
  assert.equal(errorMessageIn('[123] ERROR:  deadlock detected\nDETAIL:  Process 1 waits for ShareLock\n[99] LOG:  checkpoint starting: time'), 'deadlock detected');
  // A level named in a sentence, or another program's log format, is no pasted line.
  assert.equal(errorMessageIn('What does the LOG: prefix mean in my server output?'), undefined);
  assert.ok(askedAndTold('What does the LOG: prefix mean in my server output?').asked.includes(terms('log')[0]!));
  assert.equal(errorMessageIn('INFO:root:hello world, how do I change the format?'), undefined);
  // It asks what it means; what is written after it tells.
  assert.equal(askingClauses('TypeError: Object of type datetime is not JSON serializable\n\nI tried the docs but got lost.'), 'Object of type datetime is not JSON serializable');
  assert.equal(askingClauses('TypeError: Object of type datetime is not JSON serializable'), undefined);
  assert.equal(askingClauses('ERROR: value too long for type character varying(5) -- how do I fix it?'), undefined);
});

test('the things a question compares are read as written, each up to where something is said of it', () => {
  assert.deepEqual(comparedNames('staticmethod vs classmethod: what is the difference and when should I use which'), ['staticmethod', 'classmethod']);
  assert.deepEqual(comparedNames('char vs varchar vs text — which one is faster?'), ['char', 'varchar', 'text']);
  assert.deepEqual(comparedNames('pg_dump vs. pg_dumpall - what does dumpall give me?'), ['pg_dump', 'pg_dumpall']);
  assert.deepEqual(comparedNames("What's the difference between a list and a tuple, and when should I use each?"), ['list', 'tuple']);
  assert.deepEqual(comparedNames('whats the differnce between a function and a procedure in postgres'), ['function', 'procedure']);
  assert.deepEqual(comparedNames('Should I use threads or processes for number crunching?'), ['threads', 'processes']);
  assert.deepEqual(comparedNames('btree versus hash index, when is hash better?'), ['btree', 'hash index']);
  // Nothing compared, or one thing twice, or a thing of question words only ("is"), is no comparison.
  assert.deepEqual(comparedNames('How do I read a file?'), []);
  assert.deepEqual(comparedNames('Is json faster or slower than pickle?'), []);
  assert.deepEqual(comparedNames('union vs unions'), []);
  assert.deepEqual(comparedNames("What's the difference between is and ==?"), []);
});

test('a heading is the entry of a name when it names just that, as an entry, a plural or without the kind the name adds', () => {
  assert.ok(headedBy('staticmethod', '@staticmethod'));
  assert.ok(headedBy('append', 'list.append(x)'));
  assert.ok(headedBy('list', 'Lists'));
  assert.ok(headedBy('hash index', '11.2.2. Hash'));
  assert.ok(headedBy('pg_dumpall', 'Using pg_dumpall'));
  assert.ok(headedBy('function', 'Function'));
  assert.ok(!headedBy('list', 'Nested List Comprehensions'));
  assert.ok(!headedBy('list', 'Linked lists'));
  // A plural heading of a kind word heads a list of such things ("Functions"), not what one is.
  assert.ok(!headedBy('function', 'F.33.1. Functions'));
});

test('the names a pasted error quotes are the visitor\'s own: they tell, and are not asked; a keyword in capitals and quoted words outside the error are', () => {
  assert.ok(!askedAndTold('ERROR:  database "test" is being accessed by other users').asked.includes(terms('test')[0]!));
  // The error itself in quotes: its names still go, its words stay.
  const quoted = askedAndTold('I get "ERROR: database "test" is being accessed by other users" when dropping');
  assert.deepEqual(quoted.told.sort(), terms('error test').sort());
  for (const word of ['database', 'accessed', 'users', 'dropping']) assert.ok(quoted.asked.includes(terms(word)[0]!), word);
  assert.ok(askedAndTold('ERROR:  database “test” is being accessed by other users').told.includes(terms('test')[0]!));
  assert.ok(askedAndTold('ERROR:  syntax error at or near "RETURNING"').asked.includes(terms('returning')[0]!));
  assert.ok(askedAndTold('I set "statement_timeout" but get ERROR:  canceling statement due to statement timeout').asked.includes('statement_timeout'));
  // The severity it opens with tells too: every page showing a message says "ERROR".
  assert.deepEqual(askedAndTold('ERROR:  database "test" is being accessed by other users').told.sort(), terms('error test').sort());
  assert.ok(!askedAndTold('createdb fails with FATAL: role "joe" does not exist').asked.includes(terms('fatal')[0]!));
  assert.ok(askedAndTold('TypeError: unhashable type').asked.includes(terms('TypeError')[0]!));
  // Each severity of a tool's line that quotes the server's ("createdb: error: … failed: FATAL: …"); not one the question also asks about.
  const tool = askedAndTold('createdb: error: connection to server failed: FATAL:  role "joe" does not exist');
  for (const word of ['error', 'fatal']) assert.ok(!tool.asked.includes(terms(word)[0]!) && tool.told.includes(terms(word)[0]!), word);
  assert.ok(askedAndTold('I see FATAL: role "joe" does not exist in the log. What does FATAL mean?').asked.includes(terms('fatal')[0]!));
  assert.ok(askedAndTold('ERROR: syntax error at or near "RETURNING"').asked.includes(terms('error')[0]!));
  // Without an error, quotes are the visitor's way of naming what they ask about.
  assert.ok(askedAndTold('What does "test" mean in a ledger?').asked.includes(terms('test')[0]!));
});

test('a name in capitals is an environment variable\'s entry only under a heading or on a page about the environment', () => {
  assert.ok(isSettingEntry('1.2. Environment variables › PYTHONOPTIMIZE'));
  assert.ok(isSettingEntry('PYTHONOPTIMIZE', '1. Command line and environment'));
  assert.ok(!isSettingEntry('PYTHONOPTIMIZE'));
  assert.ok(!isSettingEntry('Parameters › UNLOGGED', 'CREATE TABLE'));
  assert.ok(isSettingEntry('20.4.1. Memory › work_mem (integer)'));
  assert.ok(isSettingEntry('Options › --schema-only'));
});

test('a name written with a slash after a short prefix in capitals is one name: PL/pgSQL is not PL/Perl; words that are alternatives stay two', () => {
  assert.deepEqual(terms('a trigger in PL/pgSQL'), [...terms('trigger'), 'plpgsql']);
  assert.ok(!terms('PL/Perl Triggers').some((term) => terms('PL/pgSQL').includes(term)));
  assert.deepEqual(terms('Binary I/O'), [...terms('binary'), 'io'], 'the name the io module is named after');
  for (const alternatives of ['read/write', 'CSV/JSON', 'TCP/UDP']) assert.deepEqual(terms(alternatives), terms(alternatives.replace('/', ' ')), alternatives);
});
