/**
 * A misspelt word in a question is read as the pages spell it, for the answer as for the
 * search: "How do I instlal the widget?" is answered as "How do I install the widget?". Only a
 * word the pages never use, one edit from one they do, and only when the rest of the question
 * is in their words: a question about something else ("Who painted the Mona Lisa?") is not
 * turned into one the pages answer. The conversation keeps the question as it was typed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_ANSWER } from '../../server/answer/embedded.js';
import { respelled } from '../../server/answer/retrieval.js';
import { startTestServer, type TestServer } from './harness.js';
import { CHAT, CONVERSATIONS, SUMMARIZE, answerFixture, signed, visitorQuery } from './answer-helpers.js';

let server: TestServer;
before(async () => {
  const fixture = answerFixture();
  (fixture.organisations[0]!.sources[0]!.pages as { url: string; title: string; content: string }[]).push({
    url: 'https://acme.test/docs/printing',
    title: 'Printing',
    content: '# Printing\n\nThe printed list of orders holds one line per order. Print it from the dashboard.',
  });
  // "free" is on more pages than "freeze": of the two corrections of "freze", the commoner is not the one a question about projects means.
  (fixture.organisations[0]!.sources[0]!.pages as { url: string; title: string; content: string }[]).push(
    { url: 'https://acme.test/docs/plans', title: 'Plans', content: '# Plans\n\nThe free plan answers 100 questions a month. Upgrade from the free plan at any time.' },
    { url: 'https://acme.test/docs/trial', title: 'Trial', content: '# Trial\n\nEvery paid plan starts with a free trial of 14 days.' },
    { url: 'https://acme.test/docs/support', title: 'Support', content: '# Support\n\nCall our toll-free number, or write to support for free.' },
    { url: 'https://acme.test/docs/freezing', title: 'Freezing a project', content: '# Freezing a project\n\nTo freeze a project, open its settings and choose Freeze. A frozen project keeps its pages but takes no changes.' },
    { url: 'https://acme.test/docs/reports', title: 'Reports', content: '# Reports\n\nRead the orders list to make a monthly report.' },
    { url: 'https://acme.test/docs/memory', title: 'Memory', content: '# Memory\n\nFix a leaking widget by calling `destroy()` when the page unloads.' },
    { url: 'https://acme.test/docs/time', title: 'Time', content: '# Time\n\nChange the time printed on a flat invoice from the invoice settings.' },
    { url: 'https://acme.test/docs/sessions', title: 'Idle sessions', content: '# Idle sessions\n\nSet session_timeout to end a session after it has been idle for that many minutes.' },
    { url: 'https://acme.test/docs/exports', title: 'Exports', content: '# Exports\n\nPrecompute the totals of a report before exporting it, and the export is faster.' },
    { url: 'https://acme.test/docs/async-exports', title: 'Async exports', content: '# Async exports\n\nRun an async export for a report of more than 10,000 rows.' },
    { url: 'https://acme.test/docs/downloads', title: 'Downloads', content: '# Downloads\n\nWait for the export to finish, then download the file from the reports list.' },
    // Words a visitor may write as one: the pages write them apart or hyphenated.
    { url: 'https://acme.test/docs/dark-mode', title: 'Dark mode', content: "# Dark mode\n\nThe colour scheme follows the visitor's system. Change the colour scheme from the theme settings." },
    { url: 'https://acme.test/docs/kiosk', title: 'Kiosk', content: '# Kiosk\n\nThe check-in kiosk prints a badge for each guest.' },
    { url: 'https://acme.test/docs/palette', title: 'Palette', content: '# Palette\n\nEach colour of the palette has a name. The naming scheme is shown beside the badge.' },
    // "sit" only in another form: the pages use the word.
    { url: 'https://acme.test/docs/queue', title: 'Queue', content: '# Queue\n\nA job sits in the queue until a worker takes it.' },
    // Documentation of hundreds of pages: a word none of them uses says something then.
    ...Array.from({ length: 200 }, (_, index) => ({ url: `https://acme.test/docs/changelog/${index}`, title: `Changelog ${index}`, content: `# Changelog ${index}\n\nNothing else changed in this release.` })),
  );
  server = await startTestServer({ fixture });
});
after(() => server.stop());

const ask = (message: string, user?: { id: string; hash: string }) =>
  server.request('POST', CHAT, { token: 'ws_test_help', body: { message, ...(user && { user }) } });

test('a misspelt word is read as the word of the pages one edit away, and the conversation keeps it as typed', async () => {
  const visitor = signed('speller');
  // "whats", typed without its apostrophe, is a question word like "what's", not a second word the pages never use.
  for (const question of ['How do I instlal the widget?', 'How do I intsall the widget?', 'whats the way to instlal the widget']) {
    const { status, json } = await ask(question, visitor);
    assert.equal(status, 200);
    assert.match(json.text, /^Add one script tag to your page to install the widget/, `${question}\n${json.text}`);
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/install');
    const conversation = await server.request('GET', `${CONVERSATIONS}/${json.conversationId}${visitorQuery('speller')}`, { token: 'ws_test_help' });
    assert.equal(conversation.json.messages.find((message: { role: string }) => message.role === 'user')?.text, question);
  }
});

test('a question in words the pages never use is not turned into one they answer ("painted" is not "printed")', async () => {
  const { json } = await ask('Who painted the Mona Lisa?');
  assert.equal(json.text, NO_ANSWER.en);
  assert.deepEqual(json.sources, []);
});

test('a word that is misspelt only as the pages spell it: not a name, nor what is quoted, written as code, pasted as an error or a file name', () => {
  assert.equal(respelled('How do I instlal the widget?', 'instlal', 'install'), 'How do I install the widget?');
  assert.equal(respelled("Instlal the widget, what's the way?", 'instlal', 'install'), "Install the widget, what's the way?");
  for (const question of ['Does it work with Instlal?', 'INSTLAL the widget', "I typed 'instlal' and it failed", 'run `instlal` now', 'open instlal.exe', 'ModuleNotFoundError: No module named instlal'])
    assert.equal(respelled(question, 'instlal', 'install'), undefined, question);
});

test('a misspelt word beside another word the pages never use is not respelled either', async () => {
  // Read as "Who printed the order list Guernica?", three of its four words would be the Printing page's.
  const { json } = await ask('Who painted the order list Guernica?');
  assert.equal(json.text, NO_ANSWER.en);
  assert.deepEqual(json.sources, []);
});

test('a search summary reads a misspelt query as the search does, so the results it sits above are summarised', async () => {
  for (const query of ['instlal the widget', 'instlal']) {
    const search = await server.request('POST', '/api/v1/acme/widgets/find/search', { token: 'ws_test_find', body: { query } });
    assert.match(search.json.hits[0]?.url, /^https:\/\/acme\.test\/docs\/install\b/, query);
    const { status, json } = await server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query } });
    assert.equal(status, 200);
    assert.equal(json.summarized, true, query);
    assert.match(json.text, /install the widget/, query);
    assert.match(json.sources[0]?.url, /^https:\/\/acme\.test\/docs\/install\b/, query);
  }
  // A name is left as typed, as in a question, and so is a misspelt word beside another the pages never use: nothing of the pages is said about them.
  for (const query of ['does it run on Instlal', 'Who painted the order list Guernica?']) {
    const { json } = await server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query } });
    assert.equal(json.summarized, false, `${query}\n${json.text}`);
  }
});

test('of two corrections equally near, the one the pages found for the rest of the question hold is read, not the commoner', async () => {
  // "freze" is one edit from "free" (on three pages) and from "freeze" (on one): beside "project", it is "freeze".
  const { json } = await ask('How do I freze a project?');
  assert.match(json.text, /^To freeze a project, open its settings and choose Freeze/, json.text);
  assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/freezing']);
  const summary = await server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query: 'freze a project' } });
  assert.equal(summary.json.summarized, true, summary.json.text);
  assert.match(summary.json.text, /To freeze a project/);
});

test('two misspelt words are read as the pages spell them, and so is a question word typed with its letters swapped', async () => {
  for (const question of ['How do I instlal the wdiget on my page?', 'how do I instlal the widget on yuor page']) {
    const { json } = await ask(question);
    assert.match(json.text, /^Add one script tag to your page to install the widget/, `${question}\n${json.text}`);
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/install');
  }
});

test('a word a letter away from a question word is another word, not a typo: "bake bread" is not read as "make read"', async () => {
  const { json } = await ask('How do I bake bread for my monthly report?');
  assert.equal(json.text, NO_ANSWER.en);
  assert.deepEqual(json.sources, []);
});

test('a short word with one letter of a word of the pages changed for one not next to it on the keyboard is another word, not a typo: "flat tire" is not read as "flat time"', async () => {
  const { json } = await ask('How do I change a flat tire?');
  assert.equal(json.text, NO_ANSWER.en, json.text);
  assert.deepEqual(json.sources, []);
  // A longer word so changed is a typo, and so is a short one with two letters swapped, or with a letter changed for the key next to it.
  for (const question of ['How do I change the time on a flat invoise?', 'How do I change the tiem on a flat invoice?', 'How do I change the tume on a flat invoice?']) {
    const typo = await ask(question);
    assert.match(typo.json.text, /^Change the time printed on a flat invoice/, `${question}\n${typo.json.text}`);
  }
});

test('a word of the pages with a letter more at its start, or one less before a prefix or from a short word, is another word, not a typo: "recompute" is not "precompute", "await" not "wait", "sync" not "async"', async () => {
  for (const question of ['How do I recompute the totals of a report?', 'How do I await the export of a report?', 'How do I sync a report?']) {
    const { json } = await ask(question);
    assert.equal(json.text, NO_ANSWER.en, `${question}\n${json.text}`);
    assert.deepEqual(json.sources, []);
  }
  // A typo keeps the word's first letter.
  const typo = await ask('How do I precomute the totals of a report?');
  assert.match(typo.json.text, /^Precompute the totals of a report before exporting it/, typo.json.text);
});

test('a first letter dropped off a longer word that starts with no prefix is a typo: "xport" is "export"', async () => {
  const { json } = await ask('How do I xport the totals of a report?');
  assert.match(json.text, /^Precompute the totals of a report before exporting it/, json.text);
});

test('a word the pages never use is what the question is about: no page that lacks it answers, whatever else it shares', async () => {
  const { json } = await ask('How do I fix a leaking faucet?');
  assert.equal(json.text, NO_ANSWER.en, json.text);
  assert.deepEqual(json.sources, []);
  // The same page answers the question about what it does hold.
  const widget = await ask('How do I fix a leaking widget?');
  assert.match(widget.json.text, /^Fix a leaking widget by calling `destroy\(\)`/, widget.json.text);
  // A name the pages never use is the visitor's own tool, not the subject.
  const named = await ask('How do I fix a leaking widget in Shopify?');
  assert.match(named.json.text, /^Fix a leaking widget by calling `destroy\(\)`/, named.json.text);
});

test('a word the pages use only in another form ("sits" for "sit") is a word they use: the page that answers need not hold it', async () => {
  const { json } = await ask('How do I end sessions that sit idle?');
  assert.match(json.text, /session_timeout/, json.text);
  assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/sessions']);
});

test('a search summary leaves out a hit that lacks the word the pages never use, and reads the word still being typed as the start of one', async () => {
  const search = await server.request('POST', '/api/v1/acme/widgets/find/search', { token: 'ws_test_find', body: { query: 'fix a leaking faucet' } });
  assert.equal(search.json.hits[0]?.url, 'https://acme.test/docs/memory');
  for (const query of ['fix a leaking faucet', 'How do I fix a leaking faucet?']) {
    const faucet = await server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query } });
    assert.equal(faucet.json.summarized, false, `${query}\n${faucet.json.text}`);
    assert.deepEqual(faucet.json.sources, []);
  }
  // "wid", still being typed, is the start of "widget": the memory page is about it.
  for (const query of ['fix a leaking widget', 'fix a leaking wid', 'fix a leaking widget in Shopify']) {
    const { json } = await server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query } });
    assert.equal(json.summarized, true, query);
    assert.match(json.text, /Fix a leaking widget by calling `destroy\(\)`/, query);
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/memory', query);
  }
});

test('a word the pages never use that they write apart or hyphenated ("colourscheme", "checkin") is answered and summarised from the passage writing it so, as search finds it', async () => {
  for (const [query, url, said] of [
    ['change the colourscheme', 'https://acme.test/docs/dark-mode', /colour scheme/],
    ['checkin kiosk badge', 'https://acme.test/docs/kiosk', /check-in kiosk/],
  ] as const) {
    const search = await server.request('POST', '/api/v1/acme/widgets/find/search', { token: 'ws_test_find', body: { query } });
    assert.equal(search.json.hits[0]?.url, url, query);
    const summary = await server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query } });
    assert.equal(summary.json.summarized, true, `${query}\n${summary.json.text}`);
    assert.match(summary.json.text, said, query);
    assert.equal(summary.json.sources[0]?.url, url, query);
    const question = `How do I ${query}?`;
    const { json } = await ask(question);
    assert.match(json.text, said, `${question}\n${json.text}`);
    assert.equal(json.sources[0]?.url, url, question);
  }
  // The palette holds "colour" and "scheme" apart, about other things: the question is still refused.
  const { json } = await ask('How do I export the colourscheme palette?');
  assert.ok(!json.sources.some((source: { url: string }) => source.url === 'https://acme.test/docs/palette'), json.text);
});
