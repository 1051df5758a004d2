import { expect } from '@esm-bundle/chai';
import { SESSION_STORAGE_KEY, adoptSessionId, getSessionId, newSessionId, peekSessionId } from '../../src/core/session.js';

describe('session', () => {
  beforeEach(() => sessionStorage.clear());

  it('creates the id on first use only', () => {
    expect(peekSessionId()).to.equal(null);
    const id = getSessionId();
    expect(id).to.match(/^s_[0-9a-f]{32}$/);
    expect(getSessionId()).to.equal(id);
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).to.equal(id);
  });

  it('reuses an id the beacon (or another copy) stored', () => {
    sessionStorage.setItem(SESSION_STORAGE_KEY, 's_from_beacon');
    expect(getSessionId()).to.equal('s_from_beacon');
  });

  it('replaces a stored value that is not an id', () => {
    sessionStorage.setItem(SESSION_STORAGE_KEY, '<script>');
    expect(getSessionId()).to.match(/^s_[0-9a-f]{32}$/);
  });

  it('adopts a server id and ignores junk', () => {
    getSessionId();
    adoptSessionId('s_server-1');
    expect(getSessionId()).to.equal('s_server-1');
    adoptSessionId(undefined);
    adoptSessionId(42);
    adoptSessionId('');
    adoptSessionId('a b');
    expect(getSessionId()).to.equal('s_server-1');
  });

  it('makes distinct ids', () => {
    expect(new Set(Array.from({ length: 100 }, newSessionId)).size).to.equal(100);
  });

  describe('when sessionStorage throws (sandboxed frame, storage blocked)', () => {
    const own = Object.getOwnPropertyDescriptor(window, 'sessionStorage');
    beforeEach(() => {
      Object.defineProperty(window, 'sessionStorage', {
        configurable: true,
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        },
      });
    });
    afterEach(() => {
      if (own) Object.defineProperty(window, 'sessionStorage', own);
      else delete (window as { sessionStorage?: unknown }).sessionStorage;
    });

    it('keeps the id in memory for the life of the page', () => {
      const id = getSessionId();
      expect(id).to.match(/^s_/);
      expect(getSessionId()).to.equal(id);
      adoptSessionId('s_server');
      expect(getSessionId()).to.equal('s_server');
    });
  });
});
