/**
 * Forced colours (Windows high contrast) drop backgrounds and shadows: boundaries and the active
 * option (Ask AI included), the chosen rating and the skeleton rows must still show, in system
 * colours (WCAG 1.4.11).
 */
import { expect } from '@esm-bundle/chai';
import { sendKeys } from '@web/test-runner-commands';
import { delay, http, HttpResponse } from 'msw';
import { API, useMockApi, worker } from '../client/support.js';
import { SECTION_HITS, SECTION_SOURCES, CITING_ANSWER, summarizeApi, answerEvents, backgroundBehind, chatApi, cleanUp, contrast, emulateColours, mountChat, mountSearch, searchApi, until } from './a11y-support.js';

useMockApi();
afterEach(cleanUp);

/** The border a forced-colours visitor sees around `element`: its width and contrast with what is behind. */
function boundary(element: Element): { width: number; contrast: number } {
  const style = getComputedStyle(element);
  const behind = backgroundBehind(element.parentElement ?? (element.getRootNode() as ShadowRoot).host);
  return { width: parseFloat(style.borderTopWidth) || 0, contrast: contrast(style.borderTopColor, behind) };
}

/**
 * The search modal under forced colours with "ignition" searched: at once with Enter (a long
 * debounce, one search, so no later results reset the active option), or after the debounce when
 * there is a chat, which Enter would ask.
 */
async function searchedInForcedColours(colorScheme: 'light' | 'dark', options: { chat?: string; summary?: boolean }) {
  const search = await mountSearch({ theme: 'auto', ...(options.chat ? options : { ...options, debounce: 600_000 }) });
  await emulateColours({ forcedColors: 'active', colorScheme });
  search.element.show();
  await search.element.updateComplete;
  await search.fill('ignition');
  if (!options.chat) await sendKeys({ press: 'Enter' });
  return search;
}

for (const colorScheme of ['light', 'dark'] as const) {
  describe(`a11y: forced colours, ${colorScheme} scheme`, () => {
    it('the launcher, the send button and both speakers’ message bubbles keep a visible border', async () => {
      chatApi(() => answerEvents('Open the settings.'));
      const chat = await mountChat({ theme: 'auto' });
      await emulateColours({ forcedColors: 'active', colorScheme });
      expect(matchMedia('(forced-colors: active)').matches).to.equal(true);
      chat.element.show();
      await chat.ask('How do I reset?');
      await sendKeys({ press: 'Enter' });
      await until(() => expect(chat.$$('.message.assistant .markdown').at(-1)!.textContent).to.contain('Open the settings.'));
      const parts = { launcher: chat.$('[part="launcher"]')!, send: chat.$('.send')!, user: chat.$('.message.user')!, assistant: chat.$$('.message.assistant').at(-1)! };
      for (const [name, element] of Object.entries(parts)) {
        const { width, contrast: ratio } = boundary(element);
        expect(width, `${name} has a border`).to.be.at.least(1);
        expect(ratio, `${name}’s border stands out`).to.be.at.least(3);
      }
    });

    it('the active result is told apart from the others by system colours (Highlight)', async () => {
      searchApi(() => SECTION_HITS);
      const search = await searchedInForcedColours(colorScheme, {});
      await until(() => expect(search.$$('[role="option"]')).to.have.length(2));
      await sendKeys({ press: 'ArrowDown' });
      await search.element.updateComplete;
      const [active, other] = search.$$('[role="option"]');
      expect(active!.getAttribute('aria-selected')).to.equal('true');
      const activeBackground = backgroundBehind(active!);
      expect(contrast(activeBackground, backgroundBehind(other!)), 'active against inactive').to.be.at.least(3);
      expect(contrast(getComputedStyle(active!).color, activeBackground), 'its text').to.be.at.least(4.5);
    });

    it('the active Ask AI option is drawn in Highlight too, and the chosen rating of a summary stands out', async () => {
      searchApi(() => SECTION_HITS);
      summarizeApi(CITING_ANSWER, SECTION_SOURCES, 'a_sum');
      const search = await searchedInForcedColours(colorScheme, { chat: 'acme/help', summary: true });
      await until(() => expect(search.$$('[role="option"]')).to.have.length(3));
      await until(() => expect(search.$$('[part="feedback"] button')).to.have.length(2));
      await sendKeys({ press: 'ArrowDown' });
      const [ask, result] = search.$$('[role="option"]');
      await until(() => expect(ask!.getAttribute('aria-selected')).to.equal('true'));
      const askBackground = backgroundBehind(ask!);
      expect(contrast(askBackground, backgroundBehind(result!)), 'Ask AI against a result').to.be.at.least(3);
      expect(contrast(getComputedStyle(ask!).color, askBackground), 'its text').to.be.at.least(4.5);

      const [helpful, unhelpful] = search.$$('[part="feedback"] button');
      helpful!.click();
      await until(() => expect(helpful!.getAttribute('aria-pressed')).to.equal('true'));
      const chosen = backgroundBehind(helpful!);
      expect(contrast(chosen, backgroundBehind(unhelpful!)), 'the chosen rating against the other').to.be.at.least(3);
      expect(contrast(getComputedStyle(helpful!).color, chosen), 'its text').to.be.at.least(4.5);
    });

    it('the skeleton rows keep their shapes while searching', async () => {
      worker.use(http.post(`${API}/search`, async () => (await delay(10_000), HttpResponse.json({ sessionId: 's_1', queryId: 'q_1', hits: [] }))));
      const search = await searchedInForcedColours(colorScheme, {});
      await until(() => expect(search.$$('.skeleton-row')).to.have.length(3));
      for (const shape of search.$$('.skeleton .shimmer')) {
        expect(contrast(getComputedStyle(shape).backgroundColor, backgroundBehind(shape.parentElement!)), 'a placeholder line against the panel').to.be.at.least(3);
      }
    });
  });
}
