import { expect } from '@esm-bundle/chai';
import { fakeSpeechRecognition } from './fake-speech.js';
import { emulateMedia, sendKeys, setViewport } from '@web/test-runner-commands';
import { delay, http, HttpResponse } from 'msw';
import { defaultConfig, type Hit, type WidgetConfig } from '../../wire/contract.js';
import '../../src/assist.js';
import { AssistSearch } from '../../src/components/assist-search/assist-search.js';
import { createSearchWidget } from '../../src/components/assist-search/index.js';
import '../../src/components/assist-chat/assist-chat.js';
import type { WidgetController, WidgetMountOptions } from '../../src/core/widget-handle.js';
import type { ClientOptions } from '../../src/client/types.js';
import { clearConfigCache } from '../../src/core/config-cache.js';
import { en } from '../../src/i18n/translations/en.js';
import { de } from '../../src/i18n/translations/de.js';
import { loadAxe } from './a11y-support.js';
import { API, controlledStream, FAST_RETRY, WIDGET_KEY, encodeEvents, hit, ownStorageKeys, tick, until, useMockApi, worker, captureBeacons, type StreamEvent } from '../client/support.js';

const requests = useMockApi();

const SEARCH_CONFIG: WidgetConfig = { ...defaultConfig('search', 'Docs'), debounce: 30 };

/** Answers every search with `hitsFor(query)`, numbering queries q_1, q_2… */
function searchApi(hitsFor: (query: string) => Hit[] = () => [hit(1), hit(2)], wait: (query: string) => number = () => 0) {
  const queries: string[] = [];
  worker.use(
    http.post(`${API}/search`, async ({ request }) => {
      const { query } = (await request.json()) as { query: string };
      queries.push(query);
      const queryId = `q_${queries.length}`;
      await delay(wait(query));
      return HttpResponse.json({ sessionId: 's_1', queryId, hits: hitsFor(query) });
    }),
  );
  return queries;
}


let controllers: WidgetController[] = [];
const cleanups: (() => void)[] = [];

afterEach(() => {
  for (const controller of controllers) controller.destroy();
  controllers = [];
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function place(html: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  document.body.append(holder);
  cleanups.push(() => holder.remove());
  return holder;
}

async function mountSearch(options: WidgetMountOptions & ClientOptions = {}, config: WidgetConfig = SEARCH_CONFIG) {
  worker.use(http.get(`${API}/config`, () => HttpResponse.json(config)));
  const controller = await createSearchWidget(WIDGET_KEY, { retry: FAST_RETRY, ...options });
  controllers.push(controller);
  await controller.mount();
  const element = [...document.querySelectorAll('assist-search')].at(-1)!;
  await element.updateComplete;
  return view(element, controller);
}

function view(element: AssistSearch, controller?: WidgetController) {
  const root: ParentNode = element.shadowRoot ?? element;
  const $ = <T extends Element = HTMLElement>(selector: string) => root.querySelector<T>(selector);
  const $$ = (selector: string) => [...root.querySelectorAll<HTMLElement>(selector)];
  const input = () => element.input ?? $<HTMLInputElement>('input')!;
  return {
    element,
    controller,
    $,
    $$,
    input,
    dialog: () => $<HTMLDialogElement>('dialog'),
    options: () => $$('[role="option"]'),
    titles: () => $$('[role="option"] .section').map((node) => node.textContent!.trim()),
    // The listbox's own group titles, not the blank one over the column of remove buttons.
    groups: () => $$('[role="listbox"] .group-title').map((node) => node.textContent!.trim()),
    live: () => $('[role="status"]')!.textContent!.trim(),
    active: () => {
      const id = input().getAttribute('aria-activedescendant');
      return id ? (input().getRootNode() as Document | ShadowRoot).getElementById(id) : null;
    },
    async type(text: string) {
      input().focus();
      await sendKeys({ type: text });
    },
  };
}

/** A key press with a modifier held (the test runner's keyboard takes one key per press). */
async function chord(modifier: 'Control' | 'Shift', key: string): Promise<void> {
  await sendKeys({ down: modifier });
  try {
    await sendKeys({ press: key });
  } finally {
    await sendKeys({ up: modifier });
  }
}

function events(element: EventTarget, ...names: string[]): CustomEvent[] {
  const seen: CustomEvent[] = [];
  for (const name of names) element.addEventListener(name, (event) => seen.push(event as CustomEvent));
  return seen;
}

/** Keeps a result from navigating away from the test page, and records what would have opened. */
function stopNavigation(element: EventTarget): CustomEvent[] {
  const selected: CustomEvent[] = [];
  element.addEventListener('assist-select', (event) => {
    event.preventDefault();
    selected.push(event as CustomEvent);
  });
  return selected;
}


describe('Assist.search() and the modal', () => {
  it('mounts through the global, opens with Ctrl+K into a labelled modal dialog, and closes with Escape', async () => {
    worker.use(http.get(`${API}/config`, () => HttpResponse.json(SEARCH_CONFIG)));
    const handle = window.Assist!.search(WIDGET_KEY, { retry: FAST_RETRY }).mount();
    handle.open(); // queued until ready
    await handle.ready;
    const element = document.querySelector('assist-search')!;
    cleanups.push(() => handle.destroy());
    await element.updateComplete;
    const search = view(element);
    expect(search.dialog()!.open).to.equal(true);
    handle.close();
    await element.updateComplete;
    expect(search.dialog()!.open).to.equal(false);

    const seen = events(element, 'assist-open', 'assist-close');
    await chord('Control', 'k');
    await element.updateComplete;
    const dialog = search.dialog()!;
    expect(dialog.open).to.equal(true);
    expect(dialog.getAttribute('aria-modal')).to.equal('true');
    expect(dialog.getAttribute('aria-label')).to.equal('Docs');
    expect(element.shadowRoot!.activeElement === search.input(), 'focus in the input').to.equal(true);
    expect(search.input().getAttribute('role')).to.equal('combobox');
    await sendKeys({ press: 'Escape' });
    await element.updateComplete;
    expect(dialog.open).to.equal(false);
    expect(seen.map((event) => event.type)).to.deep.equal(['assist-open', 'assist-close']);

    handle.destroy();
    expect(document.querySelector('assist-search')?.outerHTML ?? null).to.equal(null);
  });

  it('names a target or trigger selector that matches nothing in a console error, and still mounts the modal', async () => {
    const logged: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => logged.push(args.map(String).join(' '));
    try {
      const search = await mountSearch({ target: '#nowhere', trigger: '.no-such-button' });
      expect(logged.some((line) => line.includes('"#nowhere"') && line.includes('target'))).to.equal(true);
      expect(logged.some((line) => line.includes('".no-such-button"') && line.includes('trigger'))).to.equal(true);
      search.element.show();
      await search.element.updateComplete;
      expect(search.dialog()!.open).to.equal(true);
    } finally {
      console.error = original;
    }
  });

  it('renders a search box into the target and opens from the integrator’s trigger elements', async () => {
    place('<div id="box-here"></div><button id="own">Find</button>');
    const search = await mountSearch({ target: '#box-here', trigger: '#own' });
    expect(search.element.parentElement!.id).to.equal('box-here');
    const box = search.$('[part="box"]')!;
    expect(box.textContent).to.contain(en.searchPlaceholder);
    box.click();
    await search.element.updateComplete;
    expect(search.dialog()!.open).to.equal(true);
    search.element.hide();
    document.querySelector<HTMLButtonElement>('#own')!.click();
    await search.element.updateComplete;
    expect(search.dialog()!.open).to.equal(true);
  });

  it('does not open while the visitor types in another input, textarea or editable element', async () => {
    const search = await mountSearch();
    const holder = place('<input id="other"><textarea></textarea><div contenteditable="true">x</div>');
    for (const field of holder.querySelectorAll<HTMLElement>('input, textarea, [contenteditable]')) {
      field.focus();
      await chord('Control', 'k');
      await search.element.updateComplete;
      expect(search.dialog()!.open, field.tagName).to.equal(false);
    }
    (document.activeElement as HTMLElement).blur();
    await chord('Control', 'k');
    await search.element.updateComplete;
    expect(search.dialog()!.open).to.equal(true);
  });

  it('opens for a Ctrl+K pressed while its config is still loading, once the config has loaded', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    worker.use(
      http.get(`${API}/config`, async () => {
        await released;
        return HttpResponse.json(SEARCH_CONFIG);
      }),
    );
    place('<div id="box-while-loading"></div>');
    const controller = await createSearchWidget(WIDGET_KEY, { retry: FAST_RETRY, target: '#box-while-loading' });
    controllers.push(controller);
    const mounted = controller.mount();
    // The box, with its shortcut, is shown before the config arrives.
    await until(() => document.querySelector('#box-while-loading assist-search')?.shadowRoot?.querySelector('[part="box"]'));
    const element = document.querySelector<AssistSearch>('#box-while-loading assist-search')!;
    await chord('Control', 'k');
    release();
    await mounted;
    await element.updateComplete;
    await element.updateComplete;
    expect(view(element).dialog()!.open).to.equal(true);
  });

  it('with two search widgets on the page, Ctrl+K opens only one of them', async () => {
    const first = await mountSearch();
    const second = await mountSearch();
    await chord('Control', 'k');
    await first.element.updateComplete;
    await second.element.updateComplete;
    expect([first.dialog()!.open, second.dialog()!.open]).to.deep.equal([true, false]);
  });

  it('keeps Tab inside the modal and gives focus back to the search box on close', async () => {
    place('<div id="box-here"></div>');
    const search = await mountSearch({ target: '#box-here' }, { ...SEARCH_CONFIG, speech_input: true });
    const box = search.$<HTMLButtonElement>('[part="box"]')!;
    box.focus();
    box.click();
    await search.element.updateComplete;
    const panel = search.$('[part="panel"]')!;
    for (let press = 0; press < 6; press++) {
      if (press % 4 === 3) await chord('Shift', 'Tab');
      else await sendKeys({ press: 'Tab' });
      expect(panel.contains(search.element.shadowRoot!.activeElement), `press ${press}`).to.equal(true);
    }
    search.$<HTMLButtonElement>('[part="close-button"]')!.click();
    await search.element.updateComplete;
    expect(search.dialog()!.open).to.equal(false);
    expect(search.element.shadowRoot!.activeElement === box, 'focus back on the box').to.equal(true);
  });
});

describe('<assist-search> searching', () => {
  it('searches once the typing pauses for the debounce, not on every key', async () => {
    const queries = searchApi();
    const search = await mountSearch({}, { ...SEARCH_CONFIG, debounce: 250 });
    const seen = events(search.element, 'assist-search');
    search.element.show();
    await search.element.updateComplete;
    await search.type('reset');
    await tick(100);
    expect(queries).to.deep.equal([]);
    await until(() => expect(search.options()).to.have.length(2));
    expect(queries).to.deep.equal(['reset']);
    expect(seen.map((event) => event.detail.query)).to.deep.equal(['reset']);
    expect(seen[0]!.detail.queryId).to.equal('q_1');
  });

  it('searches at once on Enter', async () => {
    const queries = searchApi();
    const search = await mountSearch({}, { ...SEARCH_CONFIG, debounce: 5000 });
    search.element.show();
    await search.element.updateComplete;
    await search.type('reset');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(search.options()).to.have.length(2));
    expect(queries).to.deep.equal(['reset']);
  });

  it('never shows an older query’s results over a newer one’s', async () => {
    searchApi(
      (query) => (query === 'slow' ? [hit(9)] : [hit(1)]),
      (query) => (query === 'slow' ? 300 : 0),
    );
    const search = await mountSearch({}, { ...SEARCH_CONFIG, debounce: 5000 });
    search.element.show();
    await search.element.updateComplete;
    await search.type('slow');
    await sendKeys({ press: 'Enter' });
    await tick(50);
    for (let i = 0; i < 4; i++) await sendKeys({ press: 'Backspace' });
    await search.type('fast');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(search.groups()).to.deep.equal(['Page 1']));
    await tick(400);
    await search.element.updateComplete;
    expect(search.groups()).to.deep.equal(['Page 1']);
  });

  it('groups results by page with their section and a snippet in which only <mark> is markup', async () => {
    const page = (id: string, section: string, snippet: string): Hit => ({ ...hit(1), id, pageId: 'p_start', url: `https://acme.test/start#${id}`, title: 'Start', section, snippet });
    searchApi(() => [
      page('a', 'Start › Install', 'Add the <mark>script</mark> tag &amp; reload'),
      { ...hit(2), title: 'Colours', section: 'Colours' },
      page('b', 'Start › Configure', 'x <img src=x onerror="window.snippetRan=1"><script>window.snippetRan=1</script> y &lt;b&gt;'),
    ]);
    const search = await mountSearch();
    search.element.show();
    await search.element.updateComplete;
    await search.type('script');
    await until(() => expect(search.options()).to.have.length(3));
    expect(search.groups()).to.deep.equal(['Start', 'Colours']);
    expect(search.titles()).to.deep.equal(['Start › Install', 'Start › Configure', 'Colours']);
    const [first, second] = search.options();
    expect(first!.querySelector('.snippet')!.innerHTML.replace(/<!--[^>]*-->/g, '')).to.equal('Add the <mark>script</mark> tag &amp; reload');
    expect(second!.querySelector('img, script, b')?.outerHTML ?? null).to.equal(null);
    expect(second!.querySelector('.snippet')!.textContent).to.contain('y <b>');
    expect((window as { snippetRan?: number }).snippetRan).to.equal(undefined);
    expect(first!.getAttribute('href')).to.equal('https://acme.test/start#a');
  });

  it('shows skeleton rows while searching, then “no results”, and an error it announces, with an assist-error event', async () => {
    let fail = false;
    worker.use(
      http.post(`${API}/search`, async () => {
        await delay(100);
        return fail ? HttpResponse.json({ error: { code: 'internal', message: 'boom' } }, { status: 500 }) : HttpResponse.json({ sessionId: 's_1', queryId: 'q_1', hits: [] });
      }),
    );
    const search = await mountSearch();
    const errors = events(search.element, 'assist-error');
    search.element.show();
    await search.element.updateComplete;
    await search.type('zxqv');
    await until(() => expect(search.$$('.skeleton-row')).to.have.length(3));
    expect(search.$('.skeleton')!.getAttribute('aria-hidden')).to.equal('true');
    expect(search.$('.body')!.textContent).to.contain(en.searchLoading);
    await until(() => expect(search.$('.state')!.textContent).to.equal('No results for “zxqv”'));
    expect(search.$$('.skeleton-row')).to.have.length(0);
    expect(search.live()).to.equal('No results for “zxqv”');
    expect(search.input().getAttribute('aria-expanded')).to.equal('false');

    fail = true;
    await sendKeys({ type: 'z' });
    await until(() => expect(search.$('.state.error')!.textContent).to.equal(en.errorGeneric));
    expect(search.live()).to.equal(en.errorGeneric);
    expect(errors).to.have.length(1);
    expect(errors[0]!.detail.error.code).to.equal('internal');
  });

  it('announces the number of results politely, with the plural form', async () => {
    searchApi((query) => (query === 'one' ? [hit(1)] : [hit(1), hit(2), hit(3)]));
    const search = await mountSearch();
    search.element.show();
    await search.element.updateComplete;
    expect(search.$('[role="status"]')!.closest('[aria-live="off"]') === null).to.equal(true);
    await search.type('one');
    await until(() => expect(search.live()).to.equal('1 result'));
    await sendKeys({ type: 's' });
    await until(() => expect(search.live()).to.equal('3 results'));
  });
});

describe('<assist-search> opening results', () => {
  async function withResults(options: WidgetMountOptions = {}) {
    searchApi(() => [hit(1), hit(2), hit(3)]);
    // One search only (Enter), so no later answer resets the active option mid-test.
    const search = await mountSearch({ debounce: 5000, ...options });
    search.element.show();
    await search.element.updateComplete;
    await search.type('reset');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(search.options()).to.have.length(3));
    return search;
  }

  it('arrow keys move the active option (aria-activedescendant); Enter opens it and tracks the click with the search’s query', async () => {
    const beacons = captureBeacons(cleanups);
    const search = await withResults();
    const selected = stopNavigation(search.element);
    expect(search.input().getAttribute('aria-expanded')).to.equal('true');
    expect(search.element.shadowRoot!.getElementById(search.input().getAttribute('aria-controls')!)!.getAttribute('role')).to.equal('listbox');
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' });
    await search.element.updateComplete;
    expect(search.active()!.getAttribute('href')).to.equal('https://acme.test/p2#s');
    expect(search.active()!.getAttribute('aria-selected')).to.equal('true');
    await sendKeys({ press: 'ArrowUp' });
    await sendKeys({ press: 'ArrowUp' });
    await search.element.updateComplete;
    expect(search.active()!.getAttribute('href')).to.equal('https://acme.test/p3#s');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(beacons).to.have.length(1));
    expect(selected.map((event) => event.detail)).to.deep.equal([{ url: 'https://acme.test/p3#s', rank: 3, source: 'result', newTab: false, queryId: 'q_1' }]);
    expect(beacons[0]!.url).to.equal(`${API}/events`);
    expect(beacons[0]!.body.sessionId).to.equal('s_1');
    expect(beacons[0]!.body.events).to.have.length(1);
    expect(beacons[0]!.body.events[0]).to.include({ name: 'click', queryId: 'q_1' });
    expect(beacons[0]!.body.events[0].props).to.deep.equal({ url: 'https://acme.test/p3#s', rank: 3, source: 'result' });
  });

  it('Ctrl+Enter opens the active result in a new tab', async () => {
    captureBeacons(cleanups);
    const search = await withResults();
    const opened: unknown[][] = [];
    const original = window.open;
    window.open = (...args: unknown[]) => (opened.push(args), null);
    cleanups.push(() => (window.open = original));
    await sendKeys({ press: 'ArrowDown' });
    await chord('Control', 'Enter');
    expect(opened).to.have.length(1);
    expect(opened[0]!.slice(0, 2)).to.deep.equal(['https://acme.test/p1#s', '_blank']);
    expect(search.dialog()!.open).to.equal(true);
  });

  it('a click on a result opens it and is tracked', async () => {
    const beacons = captureBeacons(cleanups);
    const search = await withResults();
    const selected = stopNavigation(search.element);
    search.options()[1]!.click();
    await until(() => expect(beacons).to.have.length(1));
    expect(beacons[0]!.body.events[0].props).to.deep.equal({ url: 'https://acme.test/p2#s', rank: 2, source: 'result' });
    expect(selected[0]!.detail.newTab).to.equal(false);
  });
});

describe('<assist-search> result links', () => {
  it('never makes a link of, or navigates to, a result URL that is not http(s)', async () => {
    captureBeacons(cleanups);
    const ran = window as unknown as { assistScriptRan?: boolean };
    ran.assistScriptRan = false;
    searchApi(() => [{ ...hit(1), url: 'javascript:window.assistScriptRan=true' }]);
    const search = await mountSearch({ debounce: 5000 });
    search.element.show();
    await search.element.updateComplete;
    await search.type('reset');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(search.options()).to.have.length(1));
    expect(search.options()[0]!.hasAttribute('href')).to.equal(false);
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'Enter' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ran.assistScriptRan).to.equal(false);
  });
});

describe('<assist-search> AI summary', () => {
  it('streams the summary above the results as markdown with its sources; a click on one is tracked as a summary click', async () => {
    const beacons = captureBeacons(cleanups);
    const stream = controlledStream();
    searchApi();
    worker.use(http.post(`${API}/summarize`, () => stream.response()));
    const search = await mountSearch({ summary: true, debounce: 5000 });
    const selected = stopNavigation(search.element);
    search.element.show();
    await search.element.updateComplete;
    await search.type('reset');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(search.$('[part="summary"]')!.textContent).to.contain(en.searchSummaryLoading));
    const sources = [{ url: 'https://acme.test/start', title: 'Start', pageId: 'p1' }];
    stream.send(['meta', { answerId: 'a_1' }], ['sources', { sources }], ['token', { delta: 'Open **Settings**' }]);
    await until(() => expect(search.$('[part="summary"] .markdown strong')!.textContent).to.equal('Settings'));
    await until(() => expect(search.options()).to.have.length(2));
    const summary = search.$('[part="summary"]')!;
    expect(summary.compareDocumentPosition(search.$('[role="listbox"]')!) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
    stream.send(['token', { delta: ' then [Start](https://acme.test/start).' }], ['done', { summarized: true, text: 'Open **Settings** then [Start](https://acme.test/start).', sources }]);
    stream.close();
    await until(() => expect(search.$$('.summary-sources a').map((a) => a.textContent)).to.deep.equal(['[1] Start']));

    search.$('[part="summary"] .markdown a')!.click();
    await until(() => expect(beacons).to.have.length(1));
    expect(beacons[0]!.body.events[0]).to.deep.include({ queryId: 'q_1' });
    expect(beacons[0]!.body.events[0].props).to.deep.equal({ url: 'https://acme.test/start', rank: 1, source: 'summary' });
    expect(selected[0]!.detail.source).to.equal('summary');
  });

  it('is hidden when the server produced no summary (summarized: false)', async () => {
    searchApi();
    worker.use(http.post(`${API}/summarize`, () => HttpResponse.json({ summarized: false, text: '', sources: [] })));
    const search = await mountSearch({ summary: true });
    search.element.show();
    await search.element.updateComplete;
    await search.type('reset');
    await until(() => expect(search.options()).to.have.length(2));
    await until(() => expect(requests.requests.some((request) => request.url.endsWith('/summarize'))).to.equal(true));
    // The card shows while the summary is on its way, and goes once the answer says there is none.
    await until(() => expect(search.$('[part="summary"]')?.outerHTML ?? null).to.equal(null));
  });

  it('is not requested when the widget has no summary', async () => {
    searchApi();
    const search = await mountSearch();
    search.element.show();
    await search.element.updateComplete;
    await search.type('reset');
    await until(() => expect(search.options()).to.have.length(2));
    expect(requests.requests.some((request) => request.url.endsWith('/summarize'))).to.equal(false);
  });
});

describe('<assist-search> recent searches', () => {
  it('offers recent searches on an empty input, runs one when chosen, and forgets one on Delete or its remove control', async () => {
    const queries = searchApi();
    const search = await mountSearch({}, { ...SEARCH_CONFIG, debounce: 5000 });
    search.element.show();
    await search.element.updateComplete;
    for (const query of ['install', 'colours']) {
      search.input().select();
      await sendKeys({ type: query });
      await sendKeys({ press: 'Enter' });
      await until(() => expect(queries.at(-1)).to.equal(query));
    }
    search.input().select();
    await sendKeys({ press: 'Backspace' });
    await search.element.updateComplete;
    expect(search.options().map((option) => option.textContent!.trim())).to.deep.equal(['colours', 'install']);
    expect(search.$('.group-title')!.textContent).to.equal(en.searchRecent);
    expect(ownStorageKeys().length).to.be.greaterThan(0);

    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'Enter' });
    await until(() => expect(queries).to.deep.equal(['install', 'colours', 'install']));
    expect(search.input().value).to.equal('install');

    search.input().select();
    await sendKeys({ press: 'Backspace' });
    await search.element.updateComplete;
    expect(search.options().map((option) => option.textContent!.trim())).to.deep.equal(['install', 'colours']);
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'Delete' });
    await search.element.updateComplete;
    expect(search.options().map((option) => option.textContent!.trim())).to.deep.equal(['colours']);
    search.$('.remove')!.click();
    await search.element.updateComplete;
    expect(search.options()).to.have.length(0);
    expect(search.$('[role="listbox"]')!.hidden).to.equal(true);
  });
});

describe('<assist-search> inline', () => {
  it('renders the field into the target with results beneath', async () => {
    searchApi();
    place('<div id="inline-here"></div>');
    const search = await mountSearch({ variant: 'inline', target: '#inline-here' });
    expect(search.element.parentElement!.id).to.equal('inline-here');
    expect(search.dialog()?.outerHTML ?? null).to.equal(null);
    await search.type('reset');
    await until(() => expect(search.options()).to.have.length(2));
    expect(search.$('.popup')!.hidden).to.equal(false);
    await sendKeys({ press: 'Escape' });
    await search.element.updateComplete;
    expect(search.$('.popup')!.hidden).to.equal(true);
    expect(search.input().getAttribute('aria-expanded')).to.equal('false');
  });

  it('on an existing input, puts the results right after it with valid combobox references in the page', async () => {
    const beacons = captureBeacons(cleanups);
    searchApi();
    const holder = place('<label for="site-q">Search the site</label><input id="site-q"><p id="after">after</p>');
    const search = await mountSearch({ variant: 'inline', trigger: '#site-q' });
    const input = holder.querySelector<HTMLInputElement>('#site-q')!;
    expect(input.nextElementSibling === search.element, 'results right after the input').to.equal(true);
    expect(search.element.shadowRoot === null).to.equal(true);
    expect(input.getAttribute('role')).to.equal('combobox');
    await search.type('reset');
    await until(() => expect(search.options()).to.have.length(2));
    const listbox = document.getElementById(input.getAttribute('aria-controls')!)!;
    expect(listbox.getAttribute('role')).to.equal('listbox');
    expect(input.getAttribute('aria-expanded')).to.equal('true');
    await sendKeys({ press: 'ArrowDown' });
    const active = document.getElementById(input.getAttribute('aria-activedescendant')!)!;
    expect(active.getAttribute('role')).to.equal('option');
    expect(listbox.contains(active)).to.equal(true);
    // The element's styles reach its results, and nothing else on the page.
    expect(getComputedStyle(search.$('.popup')!).borderTopStyle).to.equal('solid');
    expect(getComputedStyle(holder.querySelector('#after')!).boxSizing).to.equal('content-box');

    const selected = stopNavigation(search.element);
    await sendKeys({ press: 'Enter' });
    await until(() => expect(beacons).to.have.length(1));
    expect(selected[0]!.detail).to.deep.include({ url: 'https://acme.test/p1#s', rank: 1 });

    search.controller!.destroy();
    controllers = controllers.filter((controller) => controller !== search.controller);
    expect(input.hasAttribute('role')).to.equal(false);
    expect(input.hasAttribute('aria-controls')).to.equal(false);
  });

  it('puts the results for an existing input into the target when one is given', async () => {
    searchApi();
    place('<input id="site-q2"><div id="results-here"></div>');
    const search = await mountSearch({ variant: 'inline', trigger: '#site-q2', target: '#results-here' });
    expect(search.element.parentElement!.id).to.equal('results-here');
  });
});

/** Lists the serious and critical violations inside `element`. */
async function seriousAxeViolations(element: Element, label: string): Promise<string[]> {
  const axe = await loadAxe();
  const result = await axe.run(element, { resultTypes: ['violations'] });
  return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${label}: ${violation.id}`);
}

const CHAT_ID = `ask-${Math.random().toString(36).slice(2, 10)}`;
const CHAT_KEY = `acme/${CHAT_ID}`;
const CHAT_API = `${location.origin}/api/v1/acme/widgets/${CHAT_ID}`;

/** The chat widget "Ask AI" talks to, with its questions recorded. */
function chatWidgetApi() {
  const asked: string[] = [];
  worker.use(
    http.get(`${CHAT_API}/config`, () => HttpResponse.json({ ...defaultConfig('chatbot', 'Help'), variant: 'bubble' })),
    http.post(`${CHAT_API}/chat`, async ({ request }) => {
      const { message } = (await request.json()) as { message: string };
      asked.push(message);
      return HttpResponse.json({ text: `About ${message}.`, conversationId: 'c_1', answerId: 'a_chat', sources: [] });
    }),
  );
  cleanups.push(() => document.querySelectorAll('assist-chat').forEach((chat) => chat.remove()));
  return asked;
}

describe('<assist-search> Ask AI', () => {
  it('offers “Ask AI: ‹query›” first; choosing it by keyboard closes the modal, opens the chat and sends the query', async () => {
    searchApi();
    const asked = chatWidgetApi();
    const search = await mountSearch({ chat: CHAT_KEY, debounce: 30 });
    search.element.show();
    await search.element.updateComplete;
    await search.type('reset password');
    await until(() => expect(search.options()).to.have.length(3));
    const ask = search.options()[0]!;
    expect(ask.textContent!.trim()).to.equal('Ask AI: reset password');
    expect(ask.getAttribute('part')).to.equal('ask');
    await sendKeys({ press: 'ArrowDown' });
    await search.element.updateComplete;
    expect(search.active()).to.equal(ask);
    expect(ask.getAttribute('aria-selected')).to.equal('true');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(asked).to.deep.equal(['reset password']));
    expect(search.dialog()!.open).to.equal(false);
    const chat = document.querySelector('assist-chat')!;
    expect(chat.widget).to.equal(CHAT_KEY);
    await until(() => expect(chat.open).to.equal(true));
    await until(() => expect(chat.shadowRoot!.querySelector('.message.user > :not(.speaker)')!.textContent).to.equal('reset password'));
    await until(() => expect(chat.shadowRoot!.querySelector('.message.assistant .markdown')!.textContent).to.contain('About reset password.'));
  });

  it('uses an <assist-chat> already on the page, without being told, and works from a click', async () => {
    searchApi();
    const asked = chatWidgetApi();
    const holder = place(`<assist-chat widget="${CHAT_KEY}"></assist-chat>`);
    const chat = holder.querySelector('assist-chat')!;
    await chat.load();
    const search = await mountSearch({ debounce: 30 });
    search.element.show();
    await search.element.updateComplete;
    await search.type('proxy');
    await until(() => expect(search.options()[0]!.textContent!.trim()).to.equal('Ask AI: proxy'));
    search.options()[0]!.click();
    await until(() => expect(asked).to.deep.equal(['proxy']));
    expect(document.querySelectorAll('assist-chat')).to.have.length(1);
    expect(chat.open).to.equal(true);
  });

  it('offers no Ask AI without a chat widget', async () => {
    searchApi();
    const search = await mountSearch({ debounce: 5000 });
    search.element.show();
    await search.element.updateComplete;
    await search.type('reset');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(search.options()).to.have.length(2));
    expect(search.$('[part~="ask"]')).to.equal(null);
  });

  it('“no results” offers Ask AI, announced, and reachable with the keys', async () => {
    searchApi(() => []);
    const asked = chatWidgetApi();
    const search = await mountSearch({ chat: CHAT_KEY, debounce: 30 });
    search.element.show();
    await search.element.updateComplete;
    await search.type('zxqv');
    await until(() => expect(search.$('.state')!.textContent).to.equal('No results for “zxqv”. Ask the assistant instead.'));
    expect(search.live()).to.equal('No results for “zxqv”. Ask the assistant instead.');
    expect(search.input().getAttribute('aria-expanded')).to.equal('true');
    expect(search.options().map((option) => option.textContent!.trim())).to.deep.equal(['Ask AI: zxqv']);
    // Enter with no option active opens the first: here, Ask AI.
    expect(search.active()).to.equal(null);
    await sendKeys({ press: 'Enter' });
    await until(() => expect(asked).to.deep.equal(['zxqv']));
  });
});

describe('<assist-search> keys and states', () => {
  it('Enter with no active option opens the first result', async () => {
    captureBeacons(cleanups);
    const queries = searchApi(() => [hit(1), hit(2)]);
    const search = await mountSearch({}, { ...SEARCH_CONFIG, debounce: 300 });
    const selected = stopNavigation(search.element);
    search.element.show();
    await search.element.updateComplete;
    await search.type('reset');
    await until(() => expect(search.options()).to.have.length(2));
    expect(queries).to.deep.equal(['reset']);
    expect(search.active()).to.equal(null);
    await sendKeys({ press: 'Enter' });
    await until(() => expect(selected).to.have.length(1));
    expect(selected[0]!.detail).to.deep.include({ url: 'https://acme.test/p1#s', rank: 1, source: 'result' });
  });

  it('Enter on a query whose results are not in yet searches at once instead of opening an older result', async () => {
    const queries = searchApi(() => [hit(1)]);
    const search = await mountSearch({}, { ...SEARCH_CONFIG, debounce: 5000 });
    const selected = stopNavigation(search.element);
    search.element.show();
    await search.element.updateComplete;
    await search.type('one');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(search.options()).to.have.length(1));
    await search.type(' two');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(queries).to.deep.equal(['one', 'one two']));
    expect(selected).to.have.length(0);
  });

  it('the empty modal offers recent searches, then the widget’s suggested questions; choosing a suggestion searches it', async () => {
    const queries = searchApi();
    const suggestions = ['How do I install the widget?', 'Can I change the colours?'];
    const search = await mountSearch({}, { ...SEARCH_CONFIG, debounce: 5000, suggestions });
    search.element.show();
    await search.element.updateComplete;
    expect(search.groups()).to.deep.equal([en.suggestions]);
    expect(search.options().map((option) => option.textContent!.trim())).to.deep.equal(suggestions);
    await search.type('reset');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(search.options()).to.have.length(2));
    search.$<HTMLButtonElement>('[part="clear-button"]')!.click();
    await search.element.updateComplete;
    expect(search.input().value).to.equal('');
    expect(search.groups()).to.deep.equal([en.searchRecent, en.suggestions]);
    expect(search.options().map((option) => option.textContent!.trim())).to.deep.equal(['reset', ...suggestions]);
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'Enter' });
    await until(() => expect(queries).to.deep.equal(['reset', suggestions[0]]));
    expect(search.input().value).to.equal(suggestions[0]);
  });

  it('one clear control: a "Clear" button while there is text, no native "×" beside the close button', async () => {
    const search = await mountSearch();
    search.element.show();
    await search.element.updateComplete;
    expect(search.$('[part="clear-button"]')).to.equal(null);
    await search.type('re');
    await search.element.updateComplete;
    expect(search.$$('.field button').map((button) => button.getAttribute('part'))).to.deep.equal(['clear-button', 'close-button']);
    expect(search.$('[part="clear-button"]')!.textContent!.trim()).to.equal(en.searchClear);
    // Chromium draws its own "×" in a search input unless the cancel button is turned off.
    const sheetText = [...search.element.shadowRoot!.adoptedStyleSheets].flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)).join('\n');
    expect(sheetText).to.match(/::-webkit-search-cancel-button[^{]*\{\s*appearance: none/);
  });

  it('a shimmer line while the summary is written, none once done; still with reduced motion', async () => {
    searchApi();
    const stream = controlledStream();
    worker.use(http.post(`${API}/summarize`, () => stream.response()));
    const search = await mountSearch({ summary: true, debounce: 5000 });
    search.element.show();
    await search.element.updateComplete;
    await search.type('reset');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(search.$$('[part="summary"] .shimmer')).to.have.length(3));
    expect(getComputedStyle(search.$('[part="summary"] .shimmer')!).animationName).to.equal('assist-shimmer');
    await emulateMedia({ reducedMotion: 'reduce' });
    try {
      expect(getComputedStyle(search.$('[part="summary"] .shimmer')!).animationName).to.equal('none');
    } finally {
      await emulateMedia({ reducedMotion: 'no-preference' });
    }
    stream.send(['meta', { answerId: 'a_1' }], ['token', { delta: 'Open **Settings**' }]);
    await until(() => expect(search.$$('[part="summary"] .shimmer')).to.have.length(1));
    stream.send(['done', { summarized: true, text: 'Open **Settings**', sources: [] }]);
    stream.close();
    await until(() => expect(search.$$('[part="summary"] .shimmer')).to.have.length(0));
  });

  it('reserves the box before the config arrives, so the page does not shift', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    worker.use(http.get(`${API}/config`, async () => (await released, HttpResponse.json(SEARCH_CONFIG))));
    const holder = place(`<header style="display:flex;align-items:center"><strong>Acme</strong><div id="reserved"></div></header><p id="below">Content</p>`);
    const controller = await createSearchWidget(WIDGET_KEY, { retry: FAST_RETRY, target: '#reserved' });
    controllers.push(controller);
    const mounted = controller.mount();
    await tick(50);
    const element = holder.querySelector('assist-search')!;
    expect(element, 'the element is placed before its config arrives').to.not.equal(null);
    await element.updateComplete;
    const before = holder.querySelector('#below')!.getBoundingClientRect().top;
    const boxBefore = element.getBoundingClientRect();
    release();
    await mounted;
    await element.updateComplete;
    expect(element.shadowRoot!.querySelector('[part="box"]')!.hasAttribute('disabled')).to.equal(false);
    expect(holder.querySelector('#below')!.getBoundingClientRect().top).to.equal(before);
    expect(element.getBoundingClientRect().height).to.equal(boxBefore.height);
  });
});

describe('<assist-search> holding its place', () => {
  it('Assist.search() with a target holds the box’s place from mount() on, so nothing below moves when the widget arrives', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    worker.use(http.get(`${API}/config`, async () => (await released, HttpResponse.json(SEARCH_CONFIG))));
    const holder = place(`<header style="display:flex;align-items:center;font:16px/1.5 sans-serif"><strong>Acme</strong><div id="held"></div></header><p id="after-header">Content</p>`);
    const below = () => holder.querySelector('#after-header')!.getBoundingClientRect().top;
    const before = below();
    const handle = window.Assist!.search(WIDGET_KEY, { target: '#held', retry: FAST_RETRY }).mount();
    cleanups.push(() => handle.destroy());
    // At once, before any code or config arrived.
    const held = below();
    expect(held).to.be.greaterThan(before);
    release();
    await handle.ready;
    const element = holder.querySelector('assist-search')!;
    await element.updateComplete;
    expect(holder.querySelector('#held')!.children).to.have.length(1);
    expect(below()).to.equal(held);
  });
});

describe('<assist-search> summary feedback', () => {
  it('rates a finished summary helpful or not, with an optional comment; each choice is sent as feedback', async () => {
    const beacons = captureBeacons(cleanups);
    searchApi();
    worker.use(
      http.post(`${API}/summarize`, () =>
        new HttpResponse(encodeEvents([['meta', { answerId: 'a_sum' }], ['token', { delta: 'Open **Settings**.' }], ['done', { summarized: true, text: 'Open **Settings**.', sources: [] }]]), {
          headers: { 'Content-Type': 'text/event-stream' },
        }),
      ),
    );
    const search = await mountSearch({ summary: true, debounce: 5000 });
    search.element.show();
    await search.element.updateComplete;
    await search.type('reset');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(search.$$('[part="feedback"] button')).to.have.length(2));
    const [helpful, unhelpful] = search.$$('[part="feedback"] button');
    expect([helpful!.textContent!.trim(), unhelpful!.textContent!.trim()]).to.deep.equal([en.feedbackHelpful, en.feedbackUnhelpful]);
    expect(search.$('[part="feedback"]')!.getAttribute('aria-label')).to.equal(en.feedbackQuestion);
    helpful!.click();
    await until(() => expect(beacons).to.have.length(1));
    expect(beacons[0]!.body.events[0]).to.deep.include({ name: 'feedback', props: { answerId: 'a_sum', value: 'helpful' } });
    await search.element.updateComplete;
    expect(helpful!.getAttribute('aria-pressed')).to.equal('true');
    expect(search.$('[part="feedback"] .feedback-thanks')!.textContent).to.equal(en.feedbackThanks);

    unhelpful!.click();
    await until(() => expect(beacons).to.have.length(2));
    expect(beacons[1]!.body.events[0].props).to.deep.equal({ answerId: 'a_sum', value: 'unhelpful' });
    await search.element.updateComplete;
    const comment = search.$<HTMLInputElement>('[part="feedback"] input')!;
    expect(comment.getAttribute('aria-label')).to.equal(en.feedbackCommentLabel);
    comment.focus();
    await sendKeys({ type: 'Says nothing about proxies' });
    await sendKeys({ press: 'Enter' });
    await until(() => expect(beacons).to.have.length(3));
    expect(beacons[2]!.body.events[0].props).to.deep.equal({ answerId: 'a_sum', value: 'unhelpful', comment: 'Says nothing about proxies' });
    // Enter in the comment is not the combobox's Enter: the modal stays open.
    expect(search.dialog()!.open).to.equal(true);
    await search.element.updateComplete;
    expect(search.$('[part="feedback"] input')).to.equal(null);
    expect(search.$('[part="feedback"] .feedback-thanks')!.textContent).to.equal(en.feedbackThanks);
  });
});

describe('<assist-search> look and language', () => {
  it('follows the visitor’s language', async () => {
    const original = Object.getOwnPropertyDescriptor(navigator, 'languages');
    Object.defineProperty(navigator, 'languages', { value: ['de-DE', 'en'], configurable: true });
    try {
      searchApi((query) => (query === 'eins' ? [hit(1)] : [hit(1), hit(2)]));
      const search = await mountSearch();
      search.element.show();
      await search.element.updateComplete;
      expect(search.input().placeholder).to.equal(de.searchPlaceholder);
      expect(search.input().getAttribute('aria-label')).to.equal(de.searchLabel);
      expect(search.dialog()!.lang).to.equal('de');
      await search.type('zwei');
      await until(() => expect(search.live()).to.equal('2 Ergebnisse'));
    } finally {
      if (original) Object.defineProperty(navigator, 'languages', original);
      else delete (navigator as { languages?: unknown }).languages;
    }
  });

  it('takes theme and accents from the config, options override them, and branding follows the plan', async () => {
    const search = await mountSearch({ theme: 'dark', accent_dark: '#ff0000' }, { ...SEARCH_CONFIG, branding: true });
    expect(search.element.dataset.theme).to.equal('dark');
    expect(search.element.style.getPropertyValue('--assist-accent-dark')).to.equal('#ff0000');
    search.element.show();
    await search.element.updateComplete;
    expect(search.$('[part="branding"]')!.textContent).to.equal(en.poweredBy);
    search.controller!.destroy();
    clearConfigCache();
    const unbranded = await mountSearch({}, { ...SEARCH_CONFIG, branding: false });
    unbranded.element.show();
    await unbranded.element.updateComplete;
    expect(unbranded.$('[part="branding"]')?.outerHTML ?? null).to.equal(null);
  });

  it('searches what the visitor says into the microphone, in the UI language', async () => {
    const queries = searchApi();
    const speech = fakeSpeechRecognition('reset password');
    cleanups.push(speech.restore);
    const search = await mountSearch({}, { ...SEARCH_CONFIG, speech_input: true, debounce: 5000 });
    search.element.show();
    await search.element.updateComplete;
    const mic = search.$<HTMLButtonElement>('[part="mic-button"]')!;
    expect(mic.getAttribute('aria-label')).to.equal(en.speechStart);
    mic.click();
    await until(() => expect(queries).to.deep.equal(['reset password']));
    expect(speech.started).to.deep.equal(['en']);
    expect(search.input().value).to.equal('reset password');
  });

  it('works on its own in markup', async () => {
    worker.use(http.get(`${API}/config`, () => HttpResponse.json({ ...SEARCH_CONFIG, placeholder: 'Search the docs' })));
    const holder = place(`<assist-search widget="${WIDGET_KEY}"></assist-search>`);
    const element = holder.querySelector('assist-search')!;
    cleanups.push(() => element.destroy());
    await until(() => expect(element.shadowRoot!.querySelector('[part="box"]')!.textContent).to.contain('Search the docs'));
  });

  it('below 640 px the modal fills the screen with a 16 px input, and the page does not scroll or shift', async () => {
    await setViewport({ width: 375, height: 700 });
    try {
      const tall = place('<div style="height: 3000px">tall</div>');
      const search = await mountSearch();
      const widthBefore = tall.getBoundingClientRect().width;
      search.element.show();
      await search.element.updateComplete;
      const panel = search.$('[part="panel"]')!.getBoundingClientRect();
      expect([panel.width, panel.height]).to.deep.equal([375, 700]);
      expect(getComputedStyle(search.input()).fontSize).to.equal('16px');
      expect(getComputedStyle(document.body).overflow).to.equal('hidden');
      expect(tall.getBoundingClientRect().width).to.equal(widthBefore);
      search.element.hide();
      expect(getComputedStyle(document.body).overflow).to.not.equal('hidden');
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('has no serious or critical axe violations with results and a summary showing', async () => {
    searchApi();
    worker.use(
      http.post(`${API}/summarize`, () =>
        new HttpResponse(encodeEvents([['token', { delta: 'Open **Settings**.' }], ['done', { summarized: true, text: 'Open **Settings**.', sources: [{ url: 'https://acme.test/start', title: 'Start', pageId: 'p1' }] }]]), {
          headers: { 'Content-Type': 'text/event-stream' },
        }),
      ),
    );
    for (const theme of ['light', 'dark'] as const) {
      const search = await mountSearch({ summary: true, theme, debounce: 5000 });
      search.element.show();
      await search.element.updateComplete;
      await search.type('reset');
      await sendKeys({ press: 'Enter' });
      await until(() => expect(search.$$('.summary-sources a')).to.have.length(1));
      await sendKeys({ press: 'ArrowDown' });
      expect(await seriousAxeViolations(search.element, theme)).to.deep.equal([]);
      search.controller!.destroy();
    }
  });

  it('has no serious or critical axe violations in the new states: suggestions, skeleton, no results with Ask AI, feedback with its comment', async () => {
    chatWidgetApi();
    let hits: Hit[] = [];
    let wait = 0;
    searchApi(() => hits, () => wait);
    worker.use(
      http.post(`${API}/summarize`, () =>
        new HttpResponse(encodeEvents([['meta', { answerId: 'a_sum' }], ['token', { delta: 'Open **Settings**.' }], ['done', { summarized: true, text: 'Open **Settings**.', sources: [] }]]), {
          headers: { 'Content-Type': 'text/event-stream' },
        }),
      ),
    );
    for (const theme of ['light', 'dark'] as const) {
      clearConfigCache();
      const search = await mountSearch({ theme, chat: CHAT_KEY }, { ...SEARCH_CONFIG, suggestions: ['How do I install the widget?'] });
      search.element.show();
      await search.element.updateComplete;
      expect(await seriousAxeViolations(search.element, `${theme} suggestions`)).to.deep.equal([]);
      wait = 400;
      hits = [];
      await search.type('zxqv');
      await until(() => expect(search.$$('.skeleton-row')).to.have.length(3));
      expect(await seriousAxeViolations(search.element, `${theme} skeleton`)).to.deep.equal([]);
      await until(() => expect(search.$('.state')).to.not.equal(null));
      await sendKeys({ press: 'ArrowDown' });
      expect(await seriousAxeViolations(search.element, `${theme} no results`)).to.deep.equal([]);
      search.controller!.destroy();
      clearConfigCache();
      wait = 0;
      hits = [hit(1)];
      const summarized = await mountSearch({ theme, summary: true, debounce: 5000 });
      summarized.element.show();
      await summarized.element.updateComplete;
      await summarized.type('reset');
      await sendKeys({ press: 'Enter' });
      await until(() => expect(summarized.$$('[part="feedback"] button')).to.have.length(2));
      summarized.$$('[part="feedback"] button')[1]!.click();
      await summarized.element.updateComplete;
      expect(await seriousAxeViolations(summarized.element, `${theme} feedback`)).to.deep.equal([]);
      summarized.controller!.destroy();
    }
  });
});
