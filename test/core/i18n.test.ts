import { expect } from '@esm-bundle/chai';
import { createTranslator, formatMessage, type MessageCatalog, type Messages } from '../../src/i18n/index.js';

const en = {
  send: 'Send',
  greeting: 'Hello, {name}!',
  results: ({ count }) => (count === 1 ? '1 result' : `${count} results`),
} satisfies MessageCatalog;

const de: Messages<typeof en> = {
  send: 'Senden',
  greeting: 'Hallo, {name}!',
  results: ({ count }) => (count === 1 ? '1 Ergebnis' : `${count} Ergebnisse`),
};

const zhHant: Messages<typeof en> = { send: '傳送', greeting: '你好，{name}！', results: ({ count }) => `${count} 個結果` };

describe('createTranslator', () => {
  it('looks up messages of the locale, filling placeholders and calling functions', () => {
    const t = createTranslator({ en, de }, 'de');
    expect(t('send')).to.equal('Senden');
    expect(t('greeting', { name: 'Ada' })).to.equal('Hallo, Ada!');
    expect(t('results', { count: 3 })).to.equal('3 Ergebnisse');
  });

  it('falls back to English for a locale without a catalog', () => {
    expect(createTranslator({ en, de }, 'ja')('send')).to.equal('Send');
  });

  it('lets Hong Kong borrow Traditional Chinese before English', () => {
    expect(createTranslator({ en, 'zh-Hant': zhHant }, 'zh-HK')('send')).to.equal('傳送');
  });

  it('falls back to English for a key missing at run time', () => {
    const partial = { send: 'Senden' } as unknown as Messages<typeof en>;
    expect(createTranslator({ en, de: partial }, 'de')('greeting', { name: 'Ada' })).to.equal('Hello, Ada!');
  });
});

describe('formatMessage', () => {
  it('leaves unknown placeholders visible', () => {
    expect(formatMessage('{a} and {b}', { a: 1 })).to.equal('1 and {b}');
  });
});
