import { expect } from '@esm-bundle/chai';
import { matchLocale, resolveLocale } from '../../src/core/locale.js';
import { LOCALES } from '../../wire/contract.js';

describe('matchLocale', () => {
  const table: [string, string | null][] = [
    ['en', 'en'],
    ['en-US', 'en'],
    ['en-GB', 'en'],
    ['EN-us', 'en'],
    ['nl', 'nl'],
    ['nl-BE', 'nl'],
    ['de', 'de'],
    ['de-AT', 'de'],
    ['de-CH', 'de'],
    ['fr-CA', 'fr'],
    ['es-419', 'es'],
    ['es-MX', 'es'],
    ['it-IT', 'it'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['pt-BR', 'pt-BR'],
    ['pt_br', 'pt-BR'],
    ['zh', 'zh-Hans'],
    ['zh-CN', 'zh-Hans'],
    ['zh-SG', 'zh-Hans'],
    ['zh-Hans', 'zh-Hans'],
    ['zh-hans-cn', 'zh-Hans'],
    ['zh-TW', 'zh-Hant'],
    ['zh-Hant', 'zh-Hant'],
    ['zh-Hant-TW', 'zh-Hant'],
    ['zh-HK', 'zh-HK'],
    ['zh-hk', 'zh-HK'],
    ['zh-MO', 'zh-HK'],
    ['zh-Hant-HK', 'zh-HK'],
    ['zh-Hans-HK', 'zh-Hans'],
    ['yue', 'zh-HK'],
    ['ja', 'ja'],
    ['ja-JP', 'ja'],
    ['ko-KR', 'ko'],
    ['th-TH', 'th'],
    ['sv-SE', null],
    ['*', null],
    ['', null],
  ];
  for (const [tag, expected] of table) {
    it(`${JSON.stringify(tag)} → ${expected}`, () => expect(matchLocale(tag)).to.equal(expected));
  }

  it('matches every built-in locale to itself', () => {
    for (const locale of LOCALES) expect(matchLocale(locale)).to.equal(locale);
  });
});

describe('resolveLocale', () => {
  it('takes the first browser language with a built-in locale', () => {
    expect(resolveLocale(['sv-SE', 'da', 'de-AT', 'fr'], 'ja')).to.equal('de');
  });
  it("falls back to the widget's default_language", () => {
    expect(resolveLocale(['sv-SE'], 'ja')).to.equal('ja');
    expect(resolveLocale([], 'zh-TW')).to.equal('zh-Hant');
  });
  it('falls back to English when neither fits', () => {
    expect(resolveLocale(['sv-SE'], 'xx')).to.equal('en');
    expect(resolveLocale([], null)).to.equal('en');
  });
});
