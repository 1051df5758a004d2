/**
 * Forced colours (Windows high contrast) drop backgrounds and shadows: boundaries and the active
 * option must still show, in system colours (WCAG 1.4.11).
 */
import { expect } from '@esm-bundle/chai';
import { sendKeys } from '@web/test-runner-commands';
import { useMockApi } from '../client/support.js';
import { SECTION_HITS, answerEvents, backgroundBehind, chatApi, cleanUp, contrast, emulateColours, mountChat, mountSearch, searchApi, until } from './a11y-support.js';

useMockApi();
afterEach(cleanUp);

/** The border a forced-colours visitor sees around `element`: its width and contrast with what is behind. */
function boundary(element: Element): { width: number; contrast: number } {
  const style = getComputedStyle(element);
  const behind = backgroundBehind(element.parentElement ?? (element.getRootNode() as ShadowRoot).host);
  return { width: parseFloat(style.borderTopWidth) || 0, contrast: contrast(style.borderTopColor, behind) };
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
      // A long debounce and Enter: one search, so no later results reset the active option.
      const search = await mountSearch({ theme: 'auto', debounce: 5000 });
      await emulateColours({ forcedColors: 'active', colorScheme });
      search.element.show();
      await search.element.updateComplete;
      await search.type('ignition');
      await sendKeys({ press: 'Enter' });
      await until(() => expect(search.$$('[role="option"]')).to.have.length(2));
      await sendKeys({ press: 'ArrowDown' });
      await search.element.updateComplete;
      const [active, other] = search.$$('[role="option"]');
      expect(active!.getAttribute('aria-selected')).to.equal('true');
      const activeBackground = backgroundBehind(active!);
      expect(contrast(activeBackground, backgroundBehind(other!)), 'active against inactive').to.be.at.least(3);
      expect(contrast(getComputedStyle(active!).color, activeBackground), 'its text').to.be.at.least(4.5);
    });
  });
}
