import { expect } from '@esm-bundle/chai';
import { LocalHistory, MAX_LOCAL_MESSAGES, historyStorageKey, type LocalMessage } from '../../src/core/history.js';
import { visitorFingerprint } from '../../src/core/identity.js';

// Parallel test pages share localStorage: own keys only, never clear().
const WIDGET = `history-${Math.random().toString(36).slice(2, 10)}`;
const KEY = historyStorageKey('acme', WIDGET);
const message = (text: string, role: LocalMessage['role'] = 'user'): LocalMessage => ({ role, text, createdAt: '2025-01-01T00:00:00.000Z' });

describe('LocalHistory', () => {
  beforeEach(() => {
    for (const key of Object.keys(localStorage)) if (key.includes(WIDGET)) localStorage.removeItem(key);
  });

  it('saves and loads the conversation', () => {
    const history = new LocalHistory(KEY, () => 'anonymous');
    history.save({ conversationId: 'c_1', messages: [message('hi'), message('hello', 'assistant')] });
    expect(new LocalHistory(KEY, () => 'anonymous').load()).to.deep.equal({ conversationId: 'c_1', messages: [message('hi'), message('hello', 'assistant')] });
  });

  it('stores only known fields', () => {
    const history = new LocalHistory(KEY, () => 'anonymous');
    history.save({ conversationId: 'c_1', messages: [{ ...message('hi'), hash: 'secret', token: 'pt_x' } as LocalMessage] });
    expect(localStorage.getItem(KEY)).to.not.contain('secret');
    expect(localStorage.getItem(KEY)).to.not.contain('pt_x');
  });

  it("discards another visitor's conversation instead of showing it", () => {
    new LocalHistory(KEY, () => visitorFingerprint({ id: 'alice' })).save({ conversationId: 'c_1', messages: [message('private')] });
    expect(new LocalHistory(KEY, () => visitorFingerprint({ id: 'bob' })).load()).to.equal(null);
    expect(localStorage.getItem(KEY)).to.equal(null);
  });

  it('survives corrupt storage', () => {
    localStorage.setItem(KEY, '{not json');
    expect(new LocalHistory(KEY, () => 'anonymous').load()).to.equal(null);
    localStorage.setItem(KEY, JSON.stringify({ version: 1, owner: 'anonymous', conversationId: 'c', messages: [{ role: 'robot' }] }));
    expect(new LocalHistory(KEY, () => 'anonymous').load()).to.equal(null);
  });

  it('keeps the latest messages only', () => {
    const history = new LocalHistory(KEY, () => 'anonymous');
    history.save({ conversationId: 'c_1', messages: Array.from({ length: MAX_LOCAL_MESSAGES + 10 }, (_, index) => message(String(index))) });
    const loaded = history.load()!;
    expect(loaded.messages).to.have.length(MAX_LOCAL_MESSAGES);
    expect(loaded.messages[0]!.text).to.equal('10');
  });

  it('keeps working in memory when the quota is full', () => {
    const original = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    try {
      const history = new LocalHistory(KEY, () => 'anonymous');
      history.save({ conversationId: 'c_1', messages: [message('hi')] });
      expect(history.load()?.conversationId).to.equal('c_1');
      history.clear();
      expect(history.load()).to.equal(null);
    } finally {
      Storage.prototype.setItem = original;
    }
  });

  it('keeps widgets apart', () => {
    new LocalHistory(historyStorageKey('acme', `${WIDGET}-a`), () => 'anonymous').save({ conversationId: 'c_a', messages: [] });
    expect(new LocalHistory(historyStorageKey('acme', `${WIDGET}-b`), () => 'anonymous').load()).to.equal(null);
  });
});

describe('visitorFingerprint', () => {
  it('is stable, distinct per id and does not contain the id', () => {
    expect(visitorFingerprint({ id: 'alice@example.com' })).to.equal(visitorFingerprint({ id: 'alice@example.com', hash: 'x' }));
    expect(visitorFingerprint({ id: 'alice@example.com' })).to.not.equal(visitorFingerprint({ id: 'alice@example.co' }));
    expect(visitorFingerprint({ id: 'alice@example.com' })).to.not.contain('alice');
    expect(visitorFingerprint(null)).to.equal('anonymous');
  });
});
