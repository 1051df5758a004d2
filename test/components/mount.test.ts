import { expect } from '@esm-bundle/chai';
import { attributeOptions, mergeConfig } from '../../src/components/shared/mount.js';
import { defaultConfig } from '../../wire/contract.js';

/** What an integrator writes in markup reaches the widget's settings; what is unusable is ignored. */
describe('mount options from attributes', () => {
  const names = { text: ['variant', 'accent-light', 'default-language'], flags: ['summary', 'speech-input'], numbers: ['debounce'] };

  it('reads text, flags and numbers, naming them as the options are named', () => {
    const element = document.createElement('assist-search');
    element.setAttribute('variant', 'inline');
    element.setAttribute('accent-light', '#112233');
    element.setAttribute('default-language', 'de');
    element.setAttribute('summary', '');
    element.setAttribute('speech-input', 'false');
    element.setAttribute('debounce', '250');
    expect(attributeOptions(element, names)).to.deep.equal({
      variant: 'inline',
      accent_light: '#112233',
      default_language: 'de',
      summary: true,
      speech_input: false,
      debounce: 250,
    });
  });

  it('leaves out what is not written, and an unusable value falls back to the dashboard with a warning', () => {
    const element = document.createElement('assist-search');
    element.setAttribute('debounce', 'soon');
    const options = attributeOptions(element, names);
    expect(options).to.deep.equal({ debounce: Number.NaN });
    const warnings: string[] = [];
    const merged = mergeConfig(defaultConfig('search', 'Find'), options, ['modal', 'inline'], (message) => warnings.push(message));
    expect(merged.debounce).to.equal(1000);
    expect(warnings.join()).to.contain('debounce');
  });
});
