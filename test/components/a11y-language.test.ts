/**
 * Languages for assistive technology (WCAG 3.1.1, 3.1.2): every part of both widgets sits inside
 * the UI language, and a message in another language says so when its language is known.
 */
import { expect } from '@esm-bundle/chai';
import { sendKeys } from '@web/test-runner-commands';
import { useMockApi } from '../client/support.js';
import { LANGUAGES, answerEvents, browserLanguages, chatApi, cleanUp, mountChat, mountSearch, place, until } from './a11y-support.js';

useMockApi();
afterEach(cleanUp);

/** The language a screen reader reads `element` in: the nearest `lang`, through shadow roots. */
function languageOf(element: Element): string | null {
  for (let node: Element | null = element; node; node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host ?? null)) {
    if (node.hasAttribute('lang')) return node.getAttribute('lang');
  }
  return null;
}

const ANSWERS = {
  en: 'Open the settings and choose a new password for your account.',
  de: 'Öffnen Sie die Einstellungen und wählen Sie ein neues Passwort für Ihr Konto.',
  ja: '設定を開いて、新しいパスワードを選んでください。',
  th: 'เปิดการตั้งค่าแล้วเลือกรหัสผ่านใหม่สำหรับบัญชีของคุณ',
};

for (const [locale, browserTag, strings] of LANGUAGES) {
  describe(`a11y: languages, UI in ${locale}`, () => {
    beforeEach(() => browserLanguages([browserTag]));

    it('the chat launcher and panel, the search box, modal and inline search all sit inside the UI language', async () => {
      const chat = await mountChat();
      const launcher = chat.$('[part="launcher"]')!;
      expect(launcher.getAttribute('aria-label')).to.equal(strings.chatOpen);
      expect(languageOf(launcher)).to.equal(locale);
      expect(launcher.matches(`:lang(${locale})`)).to.equal(true);
      expect(languageOf(chat.$('[part="panel"]')!)).to.equal(locale);

      place('<div id="a11y-box"></div><main><div id="a11y-inline"></div></main>');
      const modal = await mountSearch({ target: '#a11y-box' });
      const box = modal.$('.box')!;
      expect(box.textContent).to.contain(strings.searchPlaceholder);
      expect(languageOf(box)).to.equal(locale);
      const inline = await mountSearch({ variant: 'inline', target: '#a11y-inline' });
      expect(inline.input().placeholder).to.equal(strings.searchPlaceholder);
      expect(languageOf(inline.input())).to.equal(locale);
      expect(inline.input().matches(`:lang(${locale})`)).to.equal(true);
    });

    for (const [answerLanguage, text] of Object.entries(ANSWERS)) {
      it(`an answer in ${answerLanguage} is marked ${answerLanguage === locale ? 'with nothing (it is in the UI language)' : `lang="${answerLanguage}"`}`, async () => {
        chatApi(() => answerEvents(text));
        const chat = await mountChat();
        chat.element.show();
        await chat.ask(ANSWERS[answerLanguage as keyof typeof ANSWERS]);
        await sendKeys({ press: 'Enter' });
        await until(() => expect(chat.$$('.message.assistant .markdown').at(-1)!.textContent).to.contain(text.slice(0, 6)));
        await until(() => expect(chat.$('.send')!.getAttribute('aria-label')).to.equal(strings.chatSend));
        const answer = chat.$$('.message.assistant .markdown').at(-1)!;
        const question = chat.$('.message.user > span:last-child')!;
        expect(answer.hasAttribute('lang')).to.equal(answerLanguage !== locale);
        expect(languageOf(answer)).to.equal(answerLanguage);
        expect(languageOf(question), 'the question, in the same language').to.equal(answerLanguage);
      });
    }

    it('an answer whose language cannot be told gets no lang of its own, rather than a wrong one', async () => {
      chatApi(() => answerEvents('OK: E42.'));
      const chat = await mountChat();
      chat.element.show();
      await chat.ask('E42?');
      await sendKeys({ press: 'Enter' });
      await until(() => expect(chat.$$('.message.assistant .markdown').at(-1)!.textContent).to.contain('OK'));
      expect(chat.$$('.message.assistant .markdown').at(-1)!.hasAttribute('lang')).to.equal(false);
      expect(chat.$('.message.user [lang]')).to.equal(null);
    });
  });
}
