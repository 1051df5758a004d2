/**
 * Contrast computed from computed styles (WCAG 1.4.3, 1.4.11): text at least 4.5:1, focus rings at
 * least 3:1, in both themes, with `auto` following either scheme, on a light and a dark page.
 */
import { expect } from '@esm-bundle/chai';
import { sendKeys } from '@web/test-runner-commands';
import { useMockApi } from '../client/support.js';
import { backgroundBehind, cleanUp, contrast, emulateColours, focusRingContrast, mountChat, mountSearch, pageBackground, place } from './a11y-support.js';

useMockApi();
afterEach(cleanUp);

/** Focus as a keyboard gives it, so `:focus-visible` applies. */
async function keyboardFocus(element: HTMLElement): Promise<void> {
  await sendKeys({ press: 'Shift' });
  element.focus();
  expect(element.matches(':focus-visible'), `${element.outerHTML.slice(0, 80)} shows keyboard focus`).to.equal(true);
}

const THEMES = [
  { theme: 'light', colorScheme: 'light' },
  { theme: 'dark', colorScheme: 'light' },
  { theme: 'auto', colorScheme: 'light' },
  { theme: 'auto', colorScheme: 'dark' },
] as const;
const PAGES = { light: 'rgb(255, 255, 255)', dark: 'rgb(0, 0, 0)' };

for (const { theme, colorScheme } of THEMES) {
  for (const [pageName, page] of Object.entries(PAGES)) {
    describe(`a11y: contrast, theme ${theme} (visitor prefers ${colorScheme}) on a ${pageName} page`, () => {
      beforeEach(async () => {
        pageBackground(page);
        await emulateColours({ colorScheme });
      });

      it('focus rings of the launcher, the search box and the controls inside keep 3:1', async () => {
        const chat = await mountChat({ theme });
        const launcher = chat.$('[part="launcher"]')!;
        await keyboardFocus(launcher);
        expect(focusRingContrast(launcher, page), 'launcher').to.be.at.least(3);
        chat.element.show();
        await chat.element.updateComplete;
        const send = chat.$('.send')!;
        await keyboardFocus(send);
        expect(focusRingContrast(send, backgroundBehind(send.parentElement!)), 'send button').to.be.at.least(3);

        place('<div id="a11y-box"></div>');
        const search = await mountSearch({ theme, target: '#a11y-box' });
        const box = search.$('.box')!;
        await keyboardFocus(box);
        expect(focusRingContrast(box, page), 'search box').to.be.at.least(3);
      });

      it('the search input shows focus visibly: a ring of 3:1 inside its field, inline and in the modal', async () => {
        place('<main><div id="a11y-inline"></div></main>');
        const inline = await mountSearch({ theme, variant: 'inline', target: '#a11y-inline' });
        const modal = await mountSearch({ theme });
        modal.element.show();
        await modal.element.updateComplete;
        for (const search of [inline, modal]) {
          search.input().focus();
          const field = search.$('.field')!;
          expect(focusRingContrast(field, backgroundBehind(field)), `${search.element.variant} field`).to.be.at.least(3);
        }
      });

      it('placeholder and secondary text keep 4.5:1', async () => {
        place('<div id="a11y-box"></div>');
        const search = await mountSearch({ theme, target: '#a11y-box' });
        search.element.show();
        await search.element.updateComplete;
        const input = search.input();
        const texts: [string, string, string][] = [
          ['search placeholder', getComputedStyle(input, '::placeholder').color, backgroundBehind(input)],
          ['search box label', getComputedStyle(search.$('.box span')!).color, backgroundBehind(search.$('.box')!)],
          ['keyboard hints', getComputedStyle(search.$('.footer')!).color, backgroundBehind(search.$('.footer')!)],
        ];
        search.element.hide();
        const chat = await mountChat({ theme });
        chat.element.show();
        await chat.element.updateComplete;
        texts.push(['chat placeholder', getComputedStyle(chat.input(), '::placeholder').color, backgroundBehind(chat.input())]);
        for (const [name, colour, behind] of texts) expect(contrast(colour, behind), `${name}: ${colour} on ${behind}`).to.be.at.least(4.5);
      });
    });
  }
}
