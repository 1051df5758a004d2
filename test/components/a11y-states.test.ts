/**
 * axe with every rule (best practices and experimental ones included) over 25 states of both
 * widgets, in the light and the dark theme, on a host page with its own landmarks, heading and
 * language, as a website would have.
 */
import { expect } from '@esm-bundle/chai';
import { sendKeys } from '@web/test-runner-commands';
import { delay, http, HttpResponse } from 'msw';
import { API, controlledStream, errorBody, ownStorageKeys, useMockApi, worker } from '../client/support.js';
import { en } from '../../src/i18n/translations/en.js';
import { WIDGET_KEY } from '../client/support.js';
import {
  CHAT_CONFIG,
  CITING_ANSWER,
  SEARCH_CONFIG,
  SECTION_HITS,
  SECTION_SOURCES,
  answerEvents,
  axeViolations,
  chatApi,
  cleanUp,
  mountChat,
  mountSearch,
  place,
  searchApi,
  summarizeApi,
  until,
} from './a11y-support.js';

useMockApi();
afterEach(cleanUp);

type Theme = 'light' | 'dark';
type Chat = Awaited<ReturnType<typeof mountChat>>;
type Search = Awaited<ReturnType<typeof mountSearch>>;

/** A code block too, for its copy button. */
const ANSWER = `${CITING_ANSWER}\n\n\`\`\`sh\nengine reset\n\`\`\``;

async function chatIn(theme: Theme, variant: 'bubble' | 'inline', options: { user?: { id: string; hash: string } } = {}): Promise<Chat> {
  const inline = variant === 'inline' ? { variant, target: '#a11y-chat-slot' } : {};
  const chat = await mountChat({ theme, ...inline, ...options });
  chat.element.show();
  await chat.element.updateComplete;
  return chat;
}

async function asked(chat: Chat, question = 'Error E42?'): Promise<void> {
  await chat.ask(question);
  await sendKeys({ press: 'Enter' });
}

async function answeredChatIn(theme: Theme, variant: 'bubble' | 'inline'): Promise<Chat> {
  chatApi(() => answerEvents(ANSWER, SECTION_SOURCES));
  const chat = await chatIn(theme, variant);
  await asked(chat);
  await until(() => expect(chat.$$('[part="source-link"]')).to.have.length(2));
  await until(() => expect(chat.$('.copy-code')).to.exist);
  return chat;
}

async function streamingChat(theme: Theme, variant: 'bubble' | 'inline'): Promise<Chat> {
  const stream = controlledStream();
  chatApi(() => stream.response());
  const chat = await chatIn(theme, variant);
  await asked(chat);
  stream.send(['meta', { conversationId: 'c_1', answerId: 'a_1' }], ['status', { status: 'generating' }], ['token', { delta: 'Restart the ' }]);
  await until(() => expect(chat.$$('.message.assistant .markdown').at(-1)!.textContent).to.contain('Restart'));
  return chat;
}

async function failedChat(theme: Theme, variant: 'bubble' | 'inline'): Promise<Chat> {
  chatApi(() => [['meta', { conversationId: 'c_1', answerId: 'a_1' }], ['error', { error: { code: 'internal', message: 'boom' } }]]);
  const chat = await chatIn(theme, variant);
  await asked(chat);
  await until(() => expect(chat.$('.message.assistant .error')).to.exist);
  return chat;
}

async function stoppedChat(theme: Theme, variant: 'bubble' | 'inline'): Promise<Chat> {
  const chat = await streamingChat(theme, variant);
  chat.$('.send')!.click();
  await until(() => expect(chat.$('.note')?.textContent).to.equal(en.chatStopped));
  return chat;
}

async function outOfCreditsChat(theme: Theme, variant: 'bubble' | 'inline'): Promise<Chat> {
  worker.use(http.post(`${API}/chat`, () => HttpResponse.json({ ...errorBody('credits_exhausted'), hits: SECTION_HITS }, { status: 402 })));
  const chat = await chatIn(theme, variant);
  await asked(chat);
  await until(() => expect(chat.$$('.hits a')).to.have.length(2));
  return chat;
}

async function historyChat(theme: Theme): Promise<Chat> {
  const summary = (id: string, title: string, kept: boolean) => ({ id, title, kept, createdAt: '2026-01-02T10:00:00Z', updatedAt: '2026-01-03T10:00:00Z', expiresAt: null, messageCount: 2 });
  worker.use(http.get(`${API}/conversations`, () => HttpResponse.json({ conversations: [summary('c_1', 'Error E42', true), summary('c_2', 'Ignition', false)] })));
  const chat = await chatIn(theme, 'bubble', { user: { id: 'u1', hash: 'f00d' } });
  chat.$$('button').find((button) => button.getAttribute('aria-label') === en.chatHistory)!.click();
  await until(() => expect(chat.$$('.history li')).to.have.length(2));
  return chat;
}

/** A chat widget for "Ask AI" to hand the query to. */
const CHAT_KEY = 'acme/help';

async function searchIn(theme: Theme, variant: 'modal' | 'inline', summary = false, options: { chat?: string; debounce?: number } = {}, config = SEARCH_CONFIG): Promise<Search> {
  // A long debounce: Enter searches at once, before results of a partial query could arrive (Enter then opens the first).
  const placement = variant === 'inline' ? { variant, target: '#a11y-search-slot' } : { target: '#a11y-search-box' };
  const search = await mountSearch({ theme, ...placement, summary, debounce: 600_000, ...options }, config);
  if (variant === 'modal') search.element.show();
  await search.element.updateComplete;
  search.input().focus();
  await search.element.updateComplete;
  return search;
}

async function searched(search: Search, query: string, ready: () => unknown): Promise<Search> {
  await search.type(query);
  await sendKeys({ press: 'Enter' });
  await until(ready);
  return search;
}

async function withResults(theme: Theme, variant: 'modal' | 'inline'): Promise<Search> {
  searchApi(() => SECTION_HITS);
  const search = await searchIn(theme, variant);
  await searched(search, 'ignition', () => expect(search.$$('[role="option"]')).to.have.length(2));
  await sendKeys({ press: 'ArrowDown' });
  return search;
}

async function withSummary(theme: Theme, variant: 'modal' | 'inline'): Promise<Search> {
  searchApi(() => SECTION_HITS);
  summarizeApi(CITING_ANSWER, SECTION_SOURCES);
  const search = await searchIn(theme, variant, true);
  await searched(search, 'ignition', () => expect(search.$$('.summary-sources a')).to.have.length(2));
  return search;
}

async function withoutResults(theme: Theme, variant: 'modal' | 'inline'): Promise<Search> {
  searchApi(() => []);
  const search = await searchIn(theme, variant);
  return searched(search, 'zzzz', () => expect(search.$('.state')?.textContent).to.contain('zzzz'));
}

async function withRecent(theme: Theme, variant: 'modal' | 'inline', config = SEARCH_CONFIG): Promise<Search> {
  localStorage.setItem(`assist:recent-searches:${WIDGET_KEY}`, JSON.stringify(['ignition', 'error e42']));
  return searchIn(theme, variant, false, {}, config);
}

/** Recent searches with their remove buttons, then the widget's suggested questions. */
function withSuggestions(theme: Theme, variant: 'modal' | 'inline'): Promise<Search> {
  return withRecent(theme, variant, { ...SEARCH_CONFIG, suggestions: ['How do I clear error E42?', 'Why does the engine not start?'] });
}

/** "Ask AI: ignition" first, active, above the results. */
async function withAskAi(theme: Theme, variant: 'modal' | 'inline'): Promise<Search> {
  searchApi(() => SECTION_HITS);
  const search = await searchIn(theme, variant, false, { chat: CHAT_KEY, debounce: 30 });
  // Searched after the debounce, not with Enter, which would ask the chat.
  await search.fill('ignition');
  await until(() => expect(search.$$('[role="option"]')).to.have.length(3));
  await sendKeys({ press: 'ArrowDown' });
  await until(() => expect(search.$('.option.ask')!.getAttribute('aria-selected')).to.equal('true'));
  return search;
}

async function withoutResultsAskAi(theme: Theme): Promise<Search> {
  searchApi(() => []);
  const search = await searchIn(theme, 'modal', false, { chat: CHAT_KEY, debounce: 30 });
  await search.fill('zzzz');
  await until(() => expect(search.$('.state')?.textContent).to.contain('zzzz'));
  await until(() => expect(search.$$('.option.ask')).to.have.length(1));
  return search;
}

/** Skeleton rows while the search is under way (it answers only after the check). */
async function searching(theme: Theme): Promise<Search> {
  worker.use(http.post(`${API}/search`, async () => (await delay(10_000), HttpResponse.json({ sessionId: 's_1', queryId: 'q_1', hits: [] }))));
  const search = await searchIn(theme, 'modal');
  return searched(search, 'ignition', () => expect(search.$$('.skeleton-row')).to.have.length(3));
}

/** Results in, the summary's shimmer while it is being written. */
async function summaryBeingWritten(theme: Theme): Promise<Search> {
  searchApi(() => SECTION_HITS);
  worker.use(http.post(`${API}/summarize`, async () => (await delay(10_000), HttpResponse.json({ summarized: false, text: '', sources: [] }))));
  const search = await searchIn(theme, 'modal', true);
  return searched(search, 'ignition', () => expect(search.$$('.summary .shimmer')).to.have.length(3));
}

/** A finished summary rated "Not helpful", its comment field open. */
async function summaryRated(theme: Theme): Promise<Search> {
  searchApi(() => SECTION_HITS);
  summarizeApi(CITING_ANSWER, SECTION_SOURCES, 'a_sum');
  const search = await searchIn(theme, 'modal', true);
  await searched(search, 'ignition', () => expect(search.$$('[part="feedback"] button')).to.have.length(2));
  search.$$('[part="feedback"] button')[1]!.click();
  await until(() => expect(search.$('[part="feedback"] input')).to.exist);
  return search;
}

/** An empty conversation offering the widget's suggested questions under the greeting. */
async function chatWithSuggestions(theme: Theme): Promise<Chat> {
  const chat = await mountChat({ theme }, { ...CHAT_CONFIG, suggestions: ['How do I clear error E42?', 'Why does the engine not start?'] });
  chat.element.show();
  await until(() => expect(chat.$$('.suggestion')).to.have.length(2));
  return chat;
}

/** An answer rated "Not helpful", its comment field open. */
async function answerRated(theme: Theme, variant: 'bubble' | 'inline'): Promise<Chat> {
  const chat = await answeredChatIn(theme, variant);
  await until(() => expect(chat.$$('[part="feedback"] button')).to.have.length(2));
  chat.$$('[part="feedback"] button')[1]!.click();
  await until(() => expect(chat.$('[part="feedback"] input')).to.exist);
  return chat;
}

/** The 25 states of the accessibility audit and those of the search and feedback work: what each shows, and how to get there. */
const STATES: [string, (theme: Theme) => Promise<unknown>][] = [
  ['chat bubble closed', (theme) => mountChat({ theme })],
  ['chat bubble open', (theme) => chatIn(theme, 'bubble')],
  ['chat bubble streaming', (theme) => streamingChat(theme, 'bubble')],
  ['chat bubble answered', (theme) => answeredChatIn(theme, 'bubble')],
  ['chat bubble error', (theme) => failedChat(theme, 'bubble')],
  ['chat bubble stopped', (theme) => stoppedChat(theme, 'bubble')],
  ['chat bubble out of credits', (theme) => outOfCreditsChat(theme, 'bubble')],
  ['chat bubble history', (theme) => historyChat(theme)],
  ['chat inline open', (theme) => chatIn(theme, 'inline')],
  ['chat inline streaming', (theme) => streamingChat(theme, 'inline')],
  ['chat inline answered', (theme) => answeredChatIn(theme, 'inline')],
  ['chat inline error', (theme) => failedChat(theme, 'inline')],
  ['chat inline stopped', (theme) => stoppedChat(theme, 'inline')],
  ['chat inline out of credits', (theme) => outOfCreditsChat(theme, 'inline')],
  ['search box closed', (theme) => mountSearch({ theme, target: '#a11y-search-box' })],
  ['search modal empty', (theme) => searchIn(theme, 'modal')],
  ['search modal recent searches', (theme) => withRecent(theme, 'modal')],
  ['search modal results', (theme) => withResults(theme, 'modal')],
  ['search modal summary', (theme) => withSummary(theme, 'modal')],
  ['search modal no results', (theme) => withoutResults(theme, 'modal')],
  [
    'search modal error',
    async (theme) => {
      worker.use(http.post(`${API}/search`, () => HttpResponse.json(errorBody('invalid_request'), { status: 400 })));
      const search = await searchIn(theme, 'modal');
      return searched(search, 'ignition', () => expect(search.$('.state.error')).to.exist);
    },
  ],
  ['search inline recent searches', (theme) => withRecent(theme, 'inline')],
  ['search inline results', (theme) => withResults(theme, 'inline')],
  ['search inline summary', (theme) => withSummary(theme, 'inline')],
  ['search inline no results', (theme) => withoutResults(theme, 'inline')],
  ['chat bubble suggestions', (theme) => chatWithSuggestions(theme)],
  ['chat bubble answer rated not helpful', (theme) => answerRated(theme, 'bubble')],
  ['chat inline answer rated not helpful', (theme) => answerRated(theme, 'inline')],
  ['search modal suggestions', (theme) => withSuggestions(theme, 'modal')],
  ['search modal Ask AI', (theme) => withAskAi(theme, 'modal')],
  ['search modal no results, Ask AI', (theme) => withoutResultsAskAi(theme)],
  ['search modal searching (skeleton)', (theme) => searching(theme)],
  ['search modal summary being written', (theme) => summaryBeingWritten(theme)],
  ['search modal summary rated not helpful', (theme) => summaryRated(theme)],
  ['search inline suggestions', (theme) => withSuggestions(theme, 'inline')],
  ['search inline Ask AI', (theme) => withAskAi(theme, 'inline')],
];

describe('a11y: axe with every rule over 36 states of both widgets', () => {
  it('finds nothing, in the light and the dark theme', async function () {
    this.timeout(240_000);
    expect(STATES).to.have.length(36);
    const language = document.documentElement.lang;
    const title = document.title;
    document.documentElement.lang = 'en';
    document.title = 'Product documentation';
    const found: string[] = [];
    try {
      for (const theme of ['light', 'dark'] as const) {
        for (const [name, reach] of STATES) {
          // The host page: a skip-free single page with its own landmarks and heading, the widgets in their places.
          place('<header><div id="a11y-search-box"></div></header><main><h1>Ignition</h1><div id="a11y-chat-slot" style="height: 520px"></div><div id="a11y-search-slot"></div></main>');
          await reach(theme);
          await new Promise((resolve) => setTimeout(resolve, 250)); // animations (the panel rising) settled
          for (const violation of await axeViolations(document)) found.push(`${theme} · ${name} · ${violation}`);
          await cleanUp();
          // Only this file's keys: other test files run beside it in the same origin.
          for (const key of ownStorageKeys()) localStorage.removeItem(key);
        }
      }
    } finally {
      document.documentElement.lang = language;
      document.title = title;
    }
    expect(found).to.deep.equal([]);
  });
});
