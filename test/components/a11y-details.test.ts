/**
 * The smaller fixes: one banner landmark at most, 24 px source targets, the integrator's trigger
 * as a disclosure button, a summary announced once, a labelled remove control for recent
 * searches, a non-modal bubble panel on desktop, and key names in the UI language.
 */
import { expect } from '@esm-bundle/chai';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import { LOCALES } from '../../wire/contract.js';
import { en } from '../../src/i18n/translations/en.js';
import { de } from '../../src/i18n/translations/de.js';
import { stringsFor, loadStrings } from '../../src/components/shared/i18n.js';
import { WIDGET_KEY, useMockApi } from '../client/support.js';
import {
  SEARCH_CONFIG,
  SECTION_HITS,
  accessibilityTree,
  answeredChat,
  axeViolations,
  browserLanguages,
  cleanUp,
  findAll,
  mountChat,
  mountSearch,
  place,
  searchApi,
  summarisedSearch,
  summarizeApi,
  until,
  CITING_ANSWER,
  SECTION_SOURCES,
} from './a11y-support.js';

useMockApi();
afterEach(cleanUp);

describe('a11y: the smaller things', () => {
  it('the open bubble panel adds no banner landmark to the page', async () => {
    await answeredChat();
    const tree = await accessibilityTree();
    expect(findAll(tree, (node) => node.role === 'banner')).to.deep.equal([]);
    expect(findAll(tree, (node) => node.role === 'dialog' && node.name === 'Help')).to.have.length(1);
  });

  it('source links are targets of at least 24 px, and axe’s target-size rule agrees', async () => {
    const chat = await answeredChat();
    const search = await summarisedSearch();
    const links = [...chat.$$('[part="source-link"]'), ...search.$$('.summary-sources a')];
    expect(links).to.have.length(4);
    // The layout height: a panel still rising is scaled a little by its transform.
    for (const link of links) expect(link.offsetHeight, link.textContent!).to.be.at.least(24);
    const violations = [...(await axeViolations(chat.element)), ...(await axeViolations(search.element))];
    expect(violations.filter((line) => line.startsWith('target-size'))).to.deep.equal([]);
  });

  it('the page’s own trigger of the search modal says it opens a dialog and whether it is open', async () => {
    place('<button type="button" id="a11y-search-trigger">Search the docs</button>');
    const search = await mountSearch({ trigger: '#a11y-search-trigger' });
    const trigger = document.getElementById('a11y-search-trigger')!;
    expect(trigger.getAttribute('aria-haspopup')).to.equal('dialog');
    expect(trigger.getAttribute('aria-expanded')).to.equal('false');
    trigger.focus();
    await sendKeys({ press: 'Enter' });
    await search.element.updateComplete;
    expect(search.element.open).to.equal(true);
    expect(trigger.getAttribute('aria-expanded')).to.equal('true');
    await sendKeys({ press: 'Escape' });
    await search.element.updateComplete;
    expect(trigger.getAttribute('aria-expanded')).to.equal('false');
    const [node] = findAll(await accessibilityTree(), (candidate) => candidate.name === 'Search the docs');
    expect(node).to.include({ role: 'button', haspopup: 'dialog' });
    expect(node!.expanded ?? false).to.equal(false);
  });

  it('a summary arriving is announced politely, once', async () => {
    const announced: string[] = [];
    const observer = new MutationObserver(() => {
      const regions = [...(document.querySelector('assist-search')?.shadowRoot?.querySelectorAll('[role="status"]') ?? [])];
      for (const region of regions) if (region.textContent!.includes(en.searchSummaryReady)) announced.push(region.textContent!.trim());
    });
    searchApi(() => SECTION_HITS);
    summarizeApi(CITING_ANSWER, SECTION_SOURCES);
    const search = await mountSearch({ summary: true, debounce: 600_000 });
    observer.observe(search.element.shadowRoot!, { subtree: true, childList: true, characterData: true });
    search.element.show();
    await search.element.updateComplete;
    await search.type('ignition');
    await sendKeys({ press: 'Enter' });
    await until(() => expect(search.$$('.summary-sources a')).to.have.length(2));
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' });
    await search.element.updateComplete;
    observer.disconnect();
    const regions = search.$$('[role="status"]').filter((region) => region.textContent!.includes(en.searchSummaryReady));
    expect(regions, 'one polite status region says it').to.have.length(1);
    expect(regions[0]!.getAttribute('aria-live') ?? 'polite').to.equal('polite');
    expect(new Set(announced).size, `the text changed into the announcement once: ${JSON.stringify(announced)}`).to.equal(1);
  });

  it('each recent search has a visible remove button named after it, reached with Tab; the Delete key still works', async () => {
    browserLanguages(['de-DE']);
    localStorage.setItem(`assist:recent-searches:${WIDGET_KEY}`, JSON.stringify(['zündung', 'fehler e42']));
    const search = await mountSearch();
    search.element.show();
    await search.element.updateComplete;
    const removers = search.$$('.recent-removal button');
    expect(removers.map((button) => button.getAttribute('aria-label'))).to.deep.equal(['„zündung“ aus den letzten Suchen entfernen', '„fehler e42“ aus den letzten Suchen entfernen']);
    const options = search.$$('[role="option"]');
    removers.forEach((button, index) => {
      const box = button.getBoundingClientRect();
      const row = options[index]!.getBoundingClientRect();
      expect(box.width, 'visible').to.be.at.least(24);
      expect(box.height).to.be.at.least(24);
      expect(Math.abs(box.top - row.top), 'beside its option').to.be.below(2);
    });
    const names = findAll(await accessibilityTree(), (node) => node.role === 'button').map((node) => node.name);
    expect(names).to.include('„fehler e42“ aus den letzten Suchen entfernen');

    let pressed = 0;
    while (search.active() !== removers[1] && pressed++ < 6) await sendKeys({ press: 'Tab' });
    expect(search.active()).to.equal(removers[1]);
    await sendKeys({ press: 'Enter' });
    await search.element.updateComplete;
    expect(search.$$('[role="option"]').map((option) => option.textContent!.trim())).to.deep.equal(['zündung']);
    expect(search.active(), 'focus back in the field').to.equal(search.input());
  });

  it('with suggested questions below the recent searches, only the recent ones have remove buttons, each beside its own row', async () => {
    localStorage.setItem(`assist:recent-searches:${WIDGET_KEY}`, JSON.stringify(['ignition', 'error e42']));
    const suggestions = ['How do I clear error E42 after the engine stalled twice in one trip and the warning light stays on after a restart?', 'Why does the engine not start?'];
    const search = await mountSearch({}, { ...SEARCH_CONFIG, suggestions });
    search.element.show();
    await search.element.updateComplete;
    const removers = search.$$('.recent-removal button');
    expect(removers.map((button) => button.getAttribute('aria-label'))).to.deep.equal([en.searchRemoveRecentNamed.replace('{query}', 'ignition'), en.searchRemoveRecentNamed.replace('{query}', 'error e42')]);
    const options = search.$$('[role="option"]');
    expect(options.map((option) => option.textContent!.trim())).to.deep.equal(['ignition', 'error e42', ...suggestions]);
    removers.forEach((button, index) => {
      expect(Math.abs(button.getBoundingClientRect().top - options[index]!.getBoundingClientRect().top), 'beside its recent search').to.be.below(2);
    });
    const question = options[2]!.querySelector('span')!;
    expect(question.scrollWidth, 'a suggested question is shown whole, wrapping').to.be.at.most(question.clientWidth);
    // The last remove button ends above the first suggestion: none stands beside a suggestion.
    expect(removers[1]!.getBoundingClientRect().bottom).to.be.at.most(options[2]!.getBoundingClientRect().top + 1);

    removers[0]!.click();
    await search.element.updateComplete;
    expect(search.$$('[role="option"]').map((option) => option.textContent!.trim())).to.deep.equal(['error e42', ...suggestions]);
    expect(search.$$('.recent-removal button')).to.have.length(1);
  });

  it('on desktop the bubble panel is a non-modal dialog beside the usable page; full screen it is modal and keeps Tab inside', async () => {
    place('<button type="button">Page action</button>');
    const chat = await mountChat();
    chat.element.show();
    await chat.element.updateComplete;
    expect(chat.$('[part="panel"]')!.hasAttribute('aria-modal')).to.equal(false);
    const pageButton = () => findAll(tree, (node) => node.role === 'button' && node.name === 'Page action');
    const tree = await accessibilityTree();
    expect(pageButton(), 'the page behind stays reachable').to.have.length(1);
    chat.element.hide();
    await setViewport({ width: 375, height: 700 });
    try {
      chat.element.show();
      await chat.element.updateComplete;
      expect(chat.$('[part="panel"]')!.getAttribute('aria-modal')).to.equal('true');
      for (let press = 0; press < 8; press++) {
        await sendKeys({ press: 'Tab' });
        expect(chat.$('[part="panel"]')!.contains(chat.active()), 'Tab stays in the full-screen panel').to.equal(true);
      }
      chat.element.hide();
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('key names and branding follow the UI language in all 13 locales (German keyboards say Strg)', async () => {
    searchApi(() => SECTION_HITS);
    expect(de.keyControl).to.equal('Strg');
    for (const locale of LOCALES) {
      const strings = await loadStrings(locale);
      expect(strings('keyControl'), locale).to.not.equal('');
      if (locale === 'ja') expect(strings('poweredBy')).to.not.equal(en.poweredBy);
    }
    for (const tag of ['de-DE', 'ja-JP', 'th-TH', 'en-US']) {
      browserLanguages([tag]);
      place('<div id="a11y-box"></div>');
      const search = await mountSearch({ target: '#a11y-box' });
      const strings = stringsFor(search.element.lang as (typeof LOCALES)[number]);
      expect(search.$('.box kbd')!.textContent).to.equal(`${strings('keyControl')} K`);
      search.element.show();
      await search.element.updateComplete;
      const hints = search.$$('.hints kbd').map((key) => key.textContent);
      expect(hints, tag).to.include(`${strings('keyControl')} ↵`);
      expect(search.$('.branding')!.textContent).to.equal(strings('poweredBy'));
      search.element.hide();
      await cleanUp();
    }
  });
});
