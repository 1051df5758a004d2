import { expect } from '@esm-bundle/chai';
import { http, HttpResponse, delay } from 'msw';
import { createClient } from '../../src/client/client.js';
import { CONFIG_MAX_AGE_MS, fetchConfigCached, parseWidgetConfig } from '../../src/core/config-cache.js';
import { Transport } from '../../src/core/transport.js';
import { defaultConfig } from '../../wire/contract.js';
import { API, CONFIG, WIDGET_ID, WIDGET_KEY, rejectionOf, useMockApi, worker } from './support.js';

const api = useMockApi();

/** A config endpoint with an ETag that honours If-None-Match; `version` changes the config. */
function configServer(options: { maxAge?: number; base?: string } = {}) {
  const state = { version: 1, requests: [] as Request[] };
  worker.use(
    http.get(`${options.base ?? API}/config`, ({ request }) => {
      state.requests.push(request);
      const etag = `"v${state.version}"`;
      const headers = { ETag: etag, 'Cache-Control': `public, max-age=${options.maxAge ?? 300}` };
      if (request.headers.get('If-None-Match') === etag) return new HttpResponse(null, { status: 304, headers });
      return HttpResponse.json({ ...CONFIG, name: `Help v${state.version}` }, { headers });
    }),
  );
  return state;
}

describe('fetchConfig', () => {
  it('returns the config and emits it', async () => {
    configServer();
    const client = createClient(WIDGET_KEY);
    const seen: unknown[] = [];
    client.on('config', ({ config }) => seen.push(config));
    const config = await client.fetchConfig();
    expect(config).to.deep.equal({ ...CONFIG, name: 'Help v1' });
    expect(seen).to.deep.equal([config]);
  });

  it('serves a fresh config from memory to every client of the widget key', async () => {
    const server = configServer();
    await createClient(WIDGET_KEY).fetchConfig();
    await createClient(WIDGET_KEY).fetchConfig();
    expect(server.requests).to.have.length(1);
  });

  it('shares one request between concurrent callers', async () => {
    let requests = 0;
    worker.use(
      http.get(`${API}/config`, async () => {
        requests++;
        await delay(30);
        return HttpResponse.json(CONFIG);
      }),
    );
    const client = createClient(WIDGET_KEY);
    const [a, b] = await Promise.all([client.fetchConfig(), client.fetchConfig()]);
    expect(a).to.deep.equal(b);
    expect(requests).to.equal(1);
  });

  it('keeps configs of different widget keys apart', async () => {
    configServer();
    worker.use(http.get(`${location.origin}/api/v1/acme/widgets/docs/config`, () => HttpResponse.json({ ...defaultConfig('search', 'Docs') })));
    expect((await createClient('acme/docs').fetchConfig()).type).to.equal('search');
    expect((await createClient(WIDGET_KEY).fetchConfig()).type).to.equal('chatbot');
  });

  it('revalidates a stale config with If-None-Match and reuses it on 304', async () => {
    const server = configServer({ maxAge: 0 });
    const client = createClient(WIDGET_KEY);
    const first = await client.fetchConfig();
    const second = await client.fetchConfig();
    expect(server.requests).to.have.length(2);
    expect(server.requests[0]!.headers.get('If-None-Match')).to.equal(null);
    expect(server.requests[1]!.headers.get('If-None-Match')).to.equal('"v1"');
    expect(second).to.deep.equal(first);
  });

  it('takes the new config when the ETag no longer matches', async () => {
    const server = configServer({ maxAge: 0 });
    const client = createClient(WIDGET_KEY);
    await client.fetchConfig();
    server.version = 2;
    expect((await client.fetchConfig()).name).to.equal('Help v2');
    expect((await client.fetchConfig()).name).to.equal('Help v2');
    expect(server.requests.at(-1)!.headers.get('If-None-Match')).to.equal('"v2"');
  });

  it('keeps a config at most five minutes, even when the server allows longer', async () => {
    const server = configServer({ maxAge: 3600 });
    const transport = new Transport({ endpoint: API });
    let now = 1_000_000;
    await fetchConfigCached(transport, undefined, () => now);
    now += CONFIG_MAX_AGE_MS - 1000;
    await fetchConfigCached(transport, undefined, () => now);
    expect(server.requests).to.have.length(1);
    now += 2000;
    await fetchConfigCached(transport, undefined, () => now);
    expect(server.requests).to.have.length(2);
    expect(server.requests[1]!.headers.get('If-None-Match')).to.equal('"v1"');
  });

  it('cross-origin, revalidates through the browser cache instead of a header the preflight would refuse', async () => {
    const base = 'https://assist.example.test';
    const server = configServer({ maxAge: 0, base: `${base}/api/v1/acme/widgets/${WIDGET_ID}` });
    const client = createClient(WIDGET_KEY, { baseUrl: base });
    await client.fetchConfig();
    await client.fetchConfig();
    expect(server.requests).to.have.length(2);
    expect(server.requests.map((request) => request.headers.get('If-None-Match'))).to.deep.equal([null, null]);
    expect(server.requests[1]!.cache).to.equal('no-cache');
  });

  it('sends no header that would need a CORS preflight', async () => {
    configServer();
    await createClient(WIDGET_KEY).fetchConfig();
    const names = [...api.requests[0]!.headers.keys()];
    expect(names.filter((name) => !['accept', 'user-agent', 'referer', 'sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform'].includes(name))).to.deep.equal([]);
  });

  it('rejects what is not a config as invalid_response', async () => {
    worker.use(http.get(`${API}/config`, () => HttpResponse.json({ type: 'carousel' })));
    expect(await rejectionOf(createClient(WIDGET_KEY).fetchConfig())).to.include({ code: 'invalid_response' });
  });
});

describe('parseWidgetConfig', () => {
  it('fills missing or ill-typed fields with their defaults', () => {
    const parsed = parseWidgetConfig({ type: 'search', name: 'Docs', debounce: '300', theme: 'neon', variant: 'bubble', avatar: '', summary: true, extra: 1 });
    expect(parsed).to.deep.equal({ ...defaultConfig('search', 'Docs'), summary: true });
  });

  it('keeps valid values', () => {
    expect(parseWidgetConfig(CONFIG)).to.deep.equal(CONFIG);
    expect(parseWidgetConfig({ ...CONFIG, avatar: 'https://acme.test/a.png' })!.avatar).to.equal('https://acme.test/a.png');
  });

  it('refuses non-objects and unknown widget types', () => {
    for (const body of [null, [], 'config', { name: 'x' }, { type: 'carousel' }]) expect(parseWidgetConfig(body)).to.equal(null);
  });
});
