import { expect } from '@esm-bundle/chai';
import { parseWidgetKey } from '../../wire/contract.js';

describe('widget keys', () => {
  it('accepts two public ids joined by one slash', () => {
    expect(parseWidgetKey('acme/help')).to.deep.equal({ organisation: 'acme', widget: 'help' });
  });
  it('refuses anything else', () => {
    for (const bad of ['acme', 'acme/help/x', '/help', 'acme/', 'ac me/help', 42, null]) {
      expect(parseWidgetKey(bad), String(bad)).to.equal(null);
    }
  });
});
