import { expect } from '@esm-bundle/chai';
import { AssistError, codeForStatus, isAssistError, parseRetryAfter, toAssistError } from '../../src/core/errors.js';

describe('AssistError', () => {
  it('carries status, code, message and the optional retryAfter and hits', () => {
    const error = new AssistError('rate_limited', 'Slow down.', { status: 429, retryAfter: 12 });
    expect(error).to.be.instanceOf(Error);
    expect(error).to.include({ name: 'AssistError', status: 429, code: 'rate_limited', message: 'Slow down.', retryAfter: 12 });
    expect(error).to.not.have.property('hits');
    expect(new AssistError('network', 'Offline.').status).to.equal(0);
  });

  it('is recognised across copies of the SDK by name and fields', () => {
    const foreign = Object.assign(new Error('x'), { name: 'AssistError', code: 'network', status: 0 });
    expect(isAssistError(foreign)).to.equal(true);
    expect(isAssistError(new Error('x'))).to.equal(false);
    expect(isAssistError({ code: 'network' })).to.equal(false);
  });
});

describe('toAssistError', () => {
  it('keeps an AssistError as it is, also one from another copy of the SDK', () => {
    const own = new AssistError('rate_limited', 'Slow down.', { status: 429 });
    expect(toAssistError(own, 'network')).to.equal(own);
    const foreign = Object.assign(new Error('Offline.'), { name: 'AssistError', code: 'network', status: 0 });
    expect(toAssistError(foreign)).to.equal(foreign);
  });

  it('makes anything else internal by default: in the elements it can only be a fault', () => {
    const fault = new RangeError('Invalid time value');
    const error = toAssistError(fault);
    expect(error).to.be.instanceOf(AssistError);
    expect(error).to.include({ code: 'internal', status: 0, message: 'Invalid time value' });
    expect(error.cause).to.equal(fault);
    expect(toAssistError('boom').message).to.equal('boom');
    expect(toAssistError(undefined).message).to.equal('Something went wrong.');
  });

  it('makes it network where the client caught it around fetch', () => {
    const refused = new TypeError('Failed to fetch');
    const error = toAssistError(refused, 'network');
    expect(error).to.include({ code: 'network', status: 0, message: 'Failed to fetch' });
    expect(error.cause).to.equal(refused);
    expect(toAssistError(null, 'network').message).to.equal('The request failed.');
  });
});

describe('codeForStatus', () => {
  it("uses the contract's code for a listed status", () => {
    expect([400, 401, 402, 403, 404, 405, 409, 413, 415, 429, 500].map(codeForStatus)).to.deep.equal([
      'invalid_request',
      'unauthenticated',
      'credits_exhausted',
      'wrong_organisation',
      'not_found',
      'method_not_allowed',
      'conflict',
      'payload_too_large',
      'unsupported_media_type',
      'rate_limited',
      'internal',
    ]);
  });
  it('uses internal for any 5xx and http_error for anything else', () => {
    expect(codeForStatus(503)).to.equal('internal');
    expect(codeForStatus(418)).to.equal('http_error');
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).to.equal(120);
    expect(parseRetryAfter(' 5 ', now)).to.equal(5);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).to.equal(30);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:30 GMT', now)).to.equal(0);
  });
  it('is undefined when absent or unreadable', () => {
    expect(parseRetryAfter(null)).to.equal(undefined);
    expect(parseRetryAfter('soon')).to.equal(undefined);
    expect(parseRetryAfter('-3')).to.equal(undefined);
  });
});
