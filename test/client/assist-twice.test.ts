import { expect } from '@esm-bundle/chai';

describe('loading assist.js twice', () => {
  it('keeps the first Assist and warns once', async () => {
    const first = { version: '1', marker: 'first copy' };
    (window as unknown as { Assist: unknown }).Assist = first;
    const warnings: string[] = [];
    const originalWarn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      await import('../../src/assist.js');
    } finally {
      console.warn = originalWarn;
    }
    expect(window.Assist).to.equal(first);
    // Only the SDK's own warnings: libraries it loads may print theirs (Lit's dev-mode notice).
    expect(warnings.filter((warning) => warning.startsWith('[assist]'))).to.deep.equal(['[assist] assist.js was loaded more than once; the first copy is kept.']);
  });
});
