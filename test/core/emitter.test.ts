import { expect } from '@esm-bundle/chai';
import { Emitter } from '../../src/core/emitter.js';

type Events = { ping: number; pong: string };

describe('Emitter', () => {
  it('delivers typed payloads to subscribers in order', () => {
    const emitter = new Emitter<Events>();
    const seen: string[] = [];
    emitter.on('ping', (value) => seen.push(`a${value}`));
    emitter.on('ping', (value) => seen.push(`b${value}`));
    emitter.on('pong', (value) => seen.push(value));
    emitter.emit('ping', 1);
    emitter.emit('pong', 'x');
    expect(seen).to.deep.equal(['a1', 'b1', 'x']);
  });

  it('unsubscribes through off() and through the function on() returns', () => {
    const emitter = new Emitter<Events>();
    const seen: number[] = [];
    const handler = (value: number) => seen.push(value);
    emitter.on('ping', handler);
    const stop = emitter.on('ping', (value) => seen.push(value * 10));
    emitter.emit('ping', 1);
    emitter.off('ping', handler);
    stop();
    emitter.emit('ping', 2);
    expect(seen).to.deep.equal([1, 10]);
  });

  it('lets a handler unsubscribe itself during emit without skipping the next one', () => {
    const emitter = new Emitter<Events>();
    const seen: string[] = [];
    const stop = emitter.on('ping', () => {
      seen.push('once');
      stop();
    });
    emitter.on('ping', () => seen.push('always'));
    emitter.emit('ping', 1);
    emitter.emit('ping', 2);
    expect(seen).to.deep.equal(['once', 'always', 'always']);
  });

  it('lets a handler unsubscribe a later one: the current emit still reaches it (a snapshot), the next does not', () => {
    const emitter = new Emitter<Events>();
    const seen: string[] = [];
    const later = () => seen.push('later');
    emitter.on('ping', () => {
      seen.push('first');
      emitter.off('ping', later);
    });
    emitter.on('ping', later);
    emitter.emit('ping', 1);
    emitter.emit('ping', 2);
    expect(seen).to.deep.equal(['first', 'later', 'first']);
  });

  it('does not call a handler added during emit until the next emit', () => {
    const emitter = new Emitter<Events>();
    const seen: string[] = [];
    emitter.on('ping', () => {
      seen.push('outer');
      if (seen.length === 1) emitter.on('ping', () => seen.push('added'));
    });
    emitter.emit('ping', 1);
    emitter.emit('ping', 2);
    expect(seen).to.deep.equal(['outer', 'outer', 'added']);
  });

  it('reports a throwing handler and still calls the others', () => {
    const original = window.reportError;
    const reported: unknown[] = [];
    window.reportError = (error: unknown) => reported.push(error);
    try {
      const emitter = new Emitter<Events>();
      const seen: number[] = [];
      emitter.on('ping', () => {
        throw new Error('bad handler');
      });
      emitter.on('ping', (value) => seen.push(value));
      emitter.emit('ping', 3);
      expect(seen).to.deep.equal([3]);
      expect((reported[0] as Error).message).to.equal('bad handler');
    } finally {
      window.reportError = original;
    }
  });

  it('clear() drops every subscription', () => {
    const emitter = new Emitter<Events>();
    let calls = 0;
    emitter.on('ping', () => calls++);
    emitter.clear();
    emitter.emit('ping', 1);
    expect(calls).to.equal(0);
  });
});
