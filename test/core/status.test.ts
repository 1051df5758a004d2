import { expect } from '@esm-bundle/chai';
import { CLIENT_STATUSES, nextStatus, type ClientStatus, type StatusTransition } from '../../src/core/status.js';

describe('client status transitions', () => {
  it('walks the happy path', () => {
    const path: StatusTransition[] = ['submit', 'receive', 'receive', 'finish'];
    const history: ClientStatus[] = [];
    let status: ClientStatus = 'idle';
    for (const transition of path) {
      status = nextStatus(status, transition)!;
      history.push(status);
    }
    expect(history).to.deep.equal(['submitted', 'streaming', 'streaming', 'ready']);
  });

  it('allows submit from any status', () => {
    for (const status of CLIENT_STATUSES) expect(nextStatus(status, 'submit')).to.equal('submitted');
  });

  it('refuses transitions that do not apply', () => {
    for (const status of ['idle', 'ready', 'error'] as const) {
      for (const transition of ['receive', 'finish', 'fail', 'stop'] as const) expect(nextStatus(status, transition), `${transition} from ${status}`).to.equal(null);
    }
  });

  it('ends in error on fail and in ready on stop', () => {
    expect(nextStatus('streaming', 'fail')).to.equal('error');
    expect(nextStatus('submitted', 'stop')).to.equal('ready');
  });
});
