import { expect } from '@esm-bundle/chai';
import { http, HttpResponse } from 'msw';
import { createClient } from '../../src/client/client.js';
import type { AssistClient } from '../../src/client/types.js';
import { clearConfigCache } from '../../src/core/config-cache.js';
import { AssistError } from '../../src/core/errors.js';
import { API, FAST_RETRY, WIDGET_KEY, errorBody, hit, rejectionOf, useMockApi, worker } from './support.js';

const api = useMockApi();

/** Every client function that reaches the network, with the request it makes. */
const CALLS: [name: string, call: (client: AssistClient) => Promise<unknown>][] = [
  ['search', (client) => client.search('reset')],
  ['chat', (client) => client.chat('reset')],
  ['chat (streaming)', (client) => client.chat('reset', { onToken: () => undefined })],
  ['summarize', (client) => client.summarize('reset')],
  ['summarize (streaming)', (client) => client.summarize('reset', { onToken: () => undefined })],
  ['fetchConfig', (client) => client.fetchConfig()],
  ['listConversations', (client) => client.listConversations()],
  ['getConversation', (client) => client.getConversation('c_1')],
  ['keepConversation', (client) => client.keepConversation('c_1')],
  ['deleteConversation', (client) => client.deleteConversation('c_1')],
  ['deleteConversations', (client) => client.deleteConversations()],
];

/** Each status the contract names, with the body and headers the server sends. */
const FAILURES: { status: number; code: string; headers?: Record<string, string>; retryAfter?: number }[] = [
  { status: 400, code: 'invalid_request' },
  { status: 401, code: 'unauthenticated', headers: { 'WWW-Authenticate': 'Bearer' } },
  { status: 403, code: 'wrong_organisation' },
  { status: 403, code: 'permission_denied' },
  { status: 403, code: 'source_forbidden' },
  { status: 403, code: 'origin_not_allowed' },
  { status: 403, code: 'invalid_identity' },
  { status: 403, code: 'wrong_widget_type' },
  { status: 404, code: 'not_found' },
  { status: 413, code: 'payload_too_large' },
  { status: 429, code: 'rate_limited', headers: { 'Retry-After': '30' }, retryAfter: 30 },
  { status: 500, code: 'internal' },
];

function signedClient(): AssistClient {
  return createClient(WIDGET_KEY, { user: { id: 'u1', hash: 'h1' }, retry: FAST_RETRY });
}

describe('every call maps every error status to an AssistError', () => {
  for (const [name, call] of CALLS) {
    describe(name, () => {
      for (const failure of FAILURES) {
        it(`${failure.status} ${failure.code}`, async () => {
          worker.use(http.all(`${API}/*`, () => HttpResponse.json(errorBody(failure.code, `Because ${failure.code}.`), { status: failure.status, headers: failure.headers })));
          const client = signedClient();
          const reported: string[] = [];
          client.on('error', ({ error }) => reported.push(error.code));
          const error = await rejectionOf(call(client));
          expect(error).to.be.instanceOf(AssistError);
          expect(error.status).to.equal(failure.status);
          expect(error.code).to.equal(failure.code);
          expect(error.message).to.equal(`Because ${failure.code}.`);
          expect(error.retryAfter).to.equal(failure.retryAfter);
          expect(reported).to.deep.equal([failure.code]);
        });
      }

      it('a 5xx without the contract body (a proxy page)', async () => {
        worker.use(http.all(`${API}/*`, () => new HttpResponse('<html>Bad gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } })));
        const error = await rejectionOf(call(signedClient()));
        expect(error).to.include({ status: 502, code: 'internal' });
      });

      it('a network failure', async () => {
        worker.use(http.all(`${API}/*`, () => HttpResponse.error()));
        const error = await rejectionOf(call(signedClient()));
        expect(error).to.be.instanceOf(AssistError);
        expect(error).to.include({ status: 0, code: 'network' });
      });

      it('an abort through its signal', async () => {
        const controller = new AbortController();
        controller.abort();
        const client = signedClient();
        const invoke = (target: AssistClient) => {
          // Hand the aborted signal to whichever call this is.
          const withSignal = new Proxy(target, {
            get: (object, property) => {
              const value = Reflect.get(object, property);
              if (typeof value !== 'function') return value;
              return (...args: unknown[]) => {
                const last = args.length && typeof args[args.length - 1] === 'object' ? args.pop() : {};
                const padded = property === 'keepConversation' && args.length === 1 ? [...args, true] : args;
                return value.call(object, ...padded, { ...(last as object), signal: controller.signal });
              };
            },
          });
          return call(withSignal);
        };
        const error = await rejectionOf(invoke(client));
        expect(error).to.include({ code: 'aborted', status: 0 });
        expect(api.requests).to.have.length(0);
      });
    });
  }
});

describe('402 credits_exhausted', () => {
  it('carries the fallback hits on the error', async () => {
    worker.use(http.post(`${API}/chat`, () => HttpResponse.json({ ...errorBody('credits_exhausted'), hits: [hit(3)] }, { status: 402 })));
    const error = await rejectionOf(createClient(WIDGET_KEY).chat('reset'));
    expect(error).to.include({ status: 402, code: 'credits_exhausted' });
    expect(error.hits).to.deep.equal([hit(3)]);
  });
});

describe('Retry-After', () => {
  it('also reads an HTTP date', async () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    worker.use(http.post(`${API}/search`, () => HttpResponse.json(errorBody('rate_limited'), { status: 429, headers: { 'Retry-After': inTenSeconds } })));
    const error = await rejectionOf(createClient(WIDGET_KEY).search('x'));
    expect(error.retryAfter).to.be.within(8, 11);
  });
});

describe('malformed answers', () => {
  it('a 200 that is not JSON is invalid_response', async () => {
    worker.use(http.post(`${API}/search`, () => new HttpResponse('<html>hi</html>', { headers: { 'Content-Type': 'text/html' } })));
    expect(await rejectionOf(createClient(WIDGET_KEY).search('x'))).to.include({ code: 'invalid_response', status: 200 });
  });

  it('a 200 of the wrong shape is invalid_response', async () => {
    const shapes = [{ hits: 'none' }, { sessionId: 's', queryId: 'q', hits: [{ id: 1 }] }, [], null, 'text'];
    for (const shape of shapes) {
      worker.use(http.post(`${API}/search`, () => HttpResponse.json(shape)));
      expect(await rejectionOf(createClient(WIDGET_KEY).search('x')), JSON.stringify(shape)).to.include({ code: 'invalid_response' });
    }
  });

  it('an unknown error code keeps the status and falls back to its code', async () => {
    worker.use(http.post(`${API}/search`, () => HttpResponse.json(errorBody('teapot' as never, 'I am a teapot.'), { status: 418 })));
    expect(await rejectionOf(createClient(WIDGET_KEY).search('x'))).to.include({ status: 418, code: 'http_error', message: 'I am a teapot.' });
  });
});

describe('retries', () => {
  function countingConfig(responses: (() => Response)[]) {
    let attempts = 0;
    const times: number[] = [];
    worker.use(
      http.get(`${API}/config`, () => {
        times.push(performance.now());
        return responses[Math.min(attempts++, responses.length - 1)]!();
      }),
    );
    return { attempts: () => attempts, times };
  }
  const ok = () => HttpResponse.json({ type: 'chatbot', name: 'Help' });
  const unavailable = () => HttpResponse.json(errorBody('internal'), { status: 503 });

  it('retries an idempotent GET after 5xx and succeeds', async () => {
    const server = countingConfig([unavailable, unavailable, ok]);
    const config = await createClient(WIDGET_KEY, { retry: FAST_RETRY }).fetchConfig();
    expect(config.name).to.equal('Help');
    expect(server.attempts()).to.equal(3);
  });

  it('waits longer before each retry (exponential backoff)', async () => {
    const server = countingConfig([unavailable, unavailable, ok]);
    await createClient(WIDGET_KEY, { retry: { retries: 2, baseDelayMs: 40, maxDelayMs: 1000 } }).fetchConfig();
    const [first, second, third] = server.times as [number, number, number];
    expect(second - first).to.be.at.least(18);
    expect(third - second).to.be.at.least(38);
  });

  it('gives up after the configured retries with the last error', async () => {
    const server = countingConfig([unavailable]);
    const error = await rejectionOf(createClient(WIDGET_KEY, { retry: FAST_RETRY }).fetchConfig());
    expect(error).to.include({ status: 503, code: 'internal' });
    expect(server.attempts()).to.equal(3);
  });

  it('retries after a network failure', async () => {
    const server = countingConfig([() => HttpResponse.error(), ok]);
    await createClient(WIDGET_KEY, { retry: FAST_RETRY }).fetchConfig();
    expect(server.attempts()).to.equal(2);
  });

  it('retries a 429 after its Retry-After when that is short, and not when it is long', async () => {
    const short = countingConfig([() => HttpResponse.json(errorBody('rate_limited'), { status: 429, headers: { 'Retry-After': '0' } }), ok]);
    await createClient(WIDGET_KEY, { retry: FAST_RETRY }).fetchConfig();
    expect(short.attempts()).to.equal(2);
    const long = countingConfig([() => HttpResponse.json(errorBody('rate_limited'), { status: 429, headers: { 'Retry-After': '60' } }), ok]);
    clearConfigCache();
    const error = await rejectionOf(createClient(WIDGET_KEY, { retry: FAST_RETRY }).fetchConfig());
    expect(error).to.include({ status: 429, retryAfter: 60 });
    expect(long.attempts()).to.equal(1);
  });

  it('does not retry a 4xx', async () => {
    const server = countingConfig([() => HttpResponse.json(errorBody('not_found'), { status: 404 }), ok]);
    await rejectionOf(createClient(WIDGET_KEY, { retry: FAST_RETRY }).fetchConfig());
    expect(server.attempts()).to.equal(1);
  });

  it('does not retry a POST', async () => {
    let attempts = 0;
    worker.use(
      http.post(`${API}/search`, () => {
        attempts++;
        return HttpResponse.json(errorBody('internal'), { status: 500 });
      }),
    );
    await rejectionOf(createClient(WIDGET_KEY, { retry: FAST_RETRY }).search('x'));
    expect(attempts).to.equal(1);
  });

  it('stops waiting for a retry when aborted', async () => {
    countingConfig([unavailable]);
    const controller = new AbortController();
    const pending = createClient(WIDGET_KEY, { retry: { retries: 3, baseDelayMs: 5000, maxDelayMs: 5000 } }).fetchConfig({ signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    expect(await rejectionOf(pending)).to.include({ code: 'aborted' });
    expect(performance.now() - started).to.be.below(1000);
  });
});
