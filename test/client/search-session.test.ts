import { expect } from '@esm-bundle/chai';
import { http, HttpResponse, delay } from 'msw';
import { createClient } from '../../src/client/client.js';
import { SearchSession, navigationReducer, type SearchOption, type SearchSessionOptions } from '../../src/client/search-session.js';
import type { Hit } from '../../wire/contract.js';
import { API, WIDGET_KEY, errorBody, hit, sseResponse, tick, until, useMockApi, worker } from './support.js';

const api = useMockApi();

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function newSession(options: SearchSessionOptions = {}): SearchSession {
  const session = new SearchSession(createClient(WIDGET_KEY), { debounce: 20, ...options });
  cleanups.push(() => session.client.dispose());
  return session;
}

/** Answers every search with `hitsFor(query)`, after `delayFor(query)` ms. */
function searchApi(hitsFor: (query: string) => Hit[], delayFor: (query: string) => number = () => 0): void {
  worker.use(
    http.post(`${API}/search`, async ({ request }) => {
      const { query } = (await request.json()) as { query: string };
      await delay(delayFor(query));
      return HttpResponse.json({ sessionId: 's_1', queryId: `q_${query}`, hits: hitsFor(query) });
    }),
  );
}

function searchedQueries(): Promise<string[]> {
  return Promise.all(api.requests.filter((request) => request.url.endsWith('/search')).map(async (request) => ((await request.clone().json()) as { query: string }).query));
}

function pageHit(rank: number, pageId: string): Hit {
  return { ...hit(rank), pageId, title: `Page ${pageId}` };
}

describe('navigationReducer', () => {
  it('moves through the options and wraps around; typing and closing leave none active', () => {
    const none = { activeIndex: -1, isOpen: false };
    expect(navigationReducer(none, { type: 'move', step: 1, count: 3 })).to.deep.equal({ activeIndex: 0, isOpen: true });
    expect(navigationReducer(none, { type: 'move', step: -1, count: 3 })).to.deep.equal({ activeIndex: 2, isOpen: true });
    expect(navigationReducer({ activeIndex: 2, isOpen: true }, { type: 'move', step: 1, count: 3 }).activeIndex).to.equal(0);
    expect(navigationReducer({ activeIndex: 0, isOpen: true }, { type: 'move', step: -1, count: 3 }).activeIndex).to.equal(2);
    expect(navigationReducer(none, { type: 'move', step: 1, count: 0 })).to.equal(none);
    expect(navigationReducer({ activeIndex: 1, isOpen: false }, { type: 'input' })).to.deep.equal({ activeIndex: -1, isOpen: true });
    expect(navigationReducer({ activeIndex: 1, isOpen: true }, { type: 'close' })).to.deep.equal(none);
  });
});

describe('SearchSession', () => {
  it('searches once typing pauses, for what the field holds then', async () => {
    searchApi(() => [hit(1)]);
    const session = newSession();
    session.onInput('r');
    session.onInput('re');
    session.onInput('reset');
    expect(session.state.phase).to.equal('idle');
    await until(() => session.state.phase === 'results');
    expect(await searchedQueries()).to.deep.equal(['reset']);
    expect(session.state).to.include({ searchedQuery: 'reset', queryId: 'q_reset' });
  });

  it('a slow answer to an older query never replaces the newer query\'s results', async () => {
    searchApi(
      (query) => (query === 'old' ? [hit(1), hit(2)] : [hit(3)]),
      (query) => (query === 'old' ? 300 : 0),
    );
    const session = newSession();
    const announced: string[] = [];
    session.on('results', ({ query }) => announced.push(query));
    session.onInput('old');
    session.searchNow();
    await until(async () => (await searchedQueries()).length === 1);
    session.onInput('new');
    session.searchNow();
    await until(() => session.state.phase === 'results');
    await tick(400);
    expect(session.state.hits.map((one) => one.id)).to.deep.equal(['h3']);
    expect(session.state.searchedQuery).to.equal('new');
    expect(announced).to.deep.equal(['new']);
  });

  it('emptying the field drops the search under way: its results never land', async () => {
    searchApi(() => [hit(1)], () => 200);
    const session = newSession();
    session.onInput('reset');
    session.searchNow();
    expect(session.state.phase).to.equal('loading');
    session.clear();
    await tick(300);
    expect(session.state).to.include({ phase: 'idle', query: '' });
    expect(session.state.hits).to.deep.equal([]);
  });

  it('a failed search shows the error', async () => {
    worker.use(http.post(`${API}/search`, () => HttpResponse.json(errorBody('rate_limited'), { status: 429, headers: { 'Retry-After': '3' } })));
    const session = newSession();
    session.onInput('reset');
    session.searchNow();
    await until(() => session.state.phase === 'error');
    expect(session.state.error?.code).to.equal('rate_limited');
  });

  it('groups the results by page, in the order pages first appear, ranked as shown', async () => {
    searchApi(() => [pageHit(1, 'a'), pageHit(2, 'b'), pageHit(3, 'a')]);
    const session = newSession({ idPrefix: 'box' });
    session.onInput('reset');
    session.searchNow();
    await until(() => session.state.phase === 'results');
    expect(session.state.groups.map((group) => [group.title, group.options.map((option) => [option.hit.id, option.rank])])).to.deep.equal([
      ['Page a', [['h1', 1], ['h3', 2]]],
      ['Page b', [['h2', 3]]],
    ]);
    expect(session.state.options.map((option) => option.id)).to.deep.equal(['box-result-1', 'box-result-2', 'box-result-3']);
  });

  it('Enter with no active option opens the first; the arrows choose another', async () => {
    searchApi(() => [hit(1), hit(2)]);
    const chosen: [SearchOption, boolean][] = [];
    const session = newSession({ onChoose: (option, newTab) => chosen.push([option, newTab]) });
    session.onInput('reset');
    await until(() => session.state.phase === 'results');

    expect(session.onKeyDown({ key: 'Enter' })).to.equal(true);
    expect(chosen.map(([option, newTab]) => [option.kind === 'result' && option.hit.id, newTab])).to.deep.equal([['h1', false]]);

    expect(session.onKeyDown({ key: 'ArrowUp' })).to.equal(true);
    expect(session.state.activeOption?.id).to.equal('assist-search-result-2');
    session.onKeyDown({ key: 'Enter', ctrlKey: true });
    expect(chosen.map(([option, newTab]) => [option.kind === 'result' && option.hit.id, newTab])).to.deep.equal([['h1', false], ['h2', true]]);
  });

  it('Enter before the results of what was typed are in searches at once instead of opening an older result', async () => {
    searchApi((query) => (query === 'reset' ? [hit(1)] : [hit(2)]));
    const chosen: SearchOption[] = [];
    const session = newSession({ debounce: 5000, onChoose: (option) => chosen.push(option) });
    session.onInput('reset');
    session.searchNow();
    await until(() => session.state.phase === 'results');
    session.onInput('reset password');
    session.onKeyDown({ key: 'Enter' });
    expect(chosen).to.deep.equal([]);
    await until(() => session.state.searchedQuery === 'reset password');
    expect(await searchedQueries()).to.deep.equal(['reset', 'reset password']);
  });

  it('offers "Ask AI" first when there is a chat to ask, and Enter asks it', async () => {
    searchApi(() => [hit(1)]);
    const chosen: SearchOption[] = [];
    const session = newSession({ canAsk: () => true, onChoose: (option) => chosen.push(option) });
    session.onInput('proxy');
    expect(session.state.options.map((option) => option.kind)).to.deep.equal(['ask']);
    session.onKeyDown({ key: 'Enter' });
    expect(chosen).to.deep.equal([{ kind: 'ask', id: 'assist-search-ask', query: 'proxy' }]);
  });

  it('with an empty field offers recent searches, then suggestions not among them; Delete forgets a recent one', async () => {
    searchApi(() => [hit(1)]);
    const first = newSession({ suggestions: ['How do I reset?', 'colours'] });
    first.onInput('colours');
    first.searchNow();
    await until(() => first.state.phase === 'results');

    const session = newSession({ suggestions: ['How do I reset?', 'colours'] });
    expect(session.state.options.map((option) => [option.kind, 'query' in option && option.query])).to.deep.equal([
      ['recent', 'colours'],
      ['suggestion', 'How do I reset?'],
    ]);
    session.onKeyDown({ key: 'ArrowDown' });
    expect(session.onKeyDown({ key: 'Delete' })).to.equal(true);
    expect(session.state.options.map((option) => option.kind)).to.deep.equal(['suggestion', 'suggestion']);
    expect(newSession().state.options).to.deep.equal([]);
  });

  it('choosing a suggestion searches for it', async () => {
    searchApi(() => [hit(1)]);
    const session = newSession({ suggestions: ['How do I reset?'] });
    session.choose(session.state.options[0]!);
    expect(session.state.query).to.equal('How do I reset?');
    await until(() => session.state.phase === 'results');
    expect(await searchedQueries()).to.deep.equal(['How do I reset?']);
  });

  it('Escape closes the options that show, and is left alone when none do', async () => {
    searchApi(() => [hit(1)]);
    const session = newSession();
    expect(session.onKeyDown({ key: 'Escape' })).to.equal(false);
    session.onInput('reset');
    await until(() => session.state.phase === 'results');
    expect(session.state.isOpen).to.equal(true);
    expect(session.onKeyDown({ key: 'Escape' })).to.equal(true);
    expect(session.state.isOpen).to.equal(false);
  });

  it('streams the summary of the newest query; an older query\'s summary never shows over it', async () => {
    searchApi(() => [hit(1)]);
    worker.use(
      http.post(`${API}/summarize`, async ({ request }) => {
        const { query } = (await request.json()) as { query: string };
        const text = `About ${query}.`;
        return sseResponse([['meta', { answerId: `a_${query}` }], ['token', { delta: text }], ['done', { summarized: true, text, sources: [] }]], { delayMs: query === 'old' ? 300 : 0 });
      }),
    );
    const session = newSession({ summary: true });
    session.onInput('old');
    session.searchNow();
    expect(session.state.summary.phase).to.equal('loading');
    await tick(50);
    session.onInput('new');
    session.searchNow();
    await until(() => session.state.summary.phase === 'done');
    await tick(400);
    expect(session.state.summary).to.deep.include({ text: 'About new.', answerId: 'a_new', phase: 'done' });
  });

  it('hides the summary when the server made none', async () => {
    searchApi(() => [hit(1)]);
    worker.use(http.post(`${API}/summarize`, () => HttpResponse.json({ summarized: false, text: '', sources: [] })));
    const session = newSession({ summary: true });
    session.onInput('reset');
    session.searchNow();
    await until(() => session.state.phase === 'results');
    await until(() => session.state.summary.phase === 'hidden');
  });
});
