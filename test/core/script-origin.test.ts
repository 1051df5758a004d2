import { expect } from '@esm-bundle/chai';
import { apiOriginFromScript } from '../../src/core/script-origin.js';

function script(src: string): HTMLScriptElement {
  const element = document.createElement('script');
  element.src = src;
  return element;
}

describe('apiOriginFromScript', () => {
  it("takes the current script's origin", () => {
    expect(apiOriginFromScript(script('https://assist.example.com/widget/v1/assist.js'), 'https://page.test')).to.equal('https://assist.example.com');
    expect(apiOriginFromScript(script('http://localhost:8787/widget/v1/assist.js?v=2'), 'https://page.test')).to.equal('http://localhost:8787');
  });

  it('without a current script, finds the SDK script on the page', () => {
    const scripts = [script('https://cdn.test/jquery.js'), script('https://assist.example.com/widget/v1/assist.js')];
    expect(apiOriginFromScript(null, 'https://page.test', scripts)).to.equal('https://assist.example.com');
  });

  it('falls back to the given origin', () => {
    expect(apiOriginFromScript(null, 'https://page.test', [script('https://cdn.test/other.js')])).to.equal('https://page.test');
    expect(apiOriginFromScript(document.createElement('script'), 'https://page.test')).to.equal('https://page.test');
  });
});
