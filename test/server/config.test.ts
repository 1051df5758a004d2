/**
 * `GET …/config`: every field of spec 2.4 with its default, overrides from the widget's
 * settings, branding by plan, caching (Cache-Control, ETag, 304), and validation of widget
 * settings through the admin API.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { baseFixture, startTestServer, type TestServer } from './harness.js';
import { assertError, assertInvalidField } from './expect.js';

const ADMIN_TOKEN = 'admin-token-for-config-tests';
const SPEC_FIELDS = [
  'type', 'name', 'variant', 'accent_light', 'accent_dark', 'theme', 'branding', 'summary', 'speech_input',
  'placeholder', 'greeting', 'avatar', 'debounce', 'default_language', 'suggestions',
].sort();
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

function fixture() {
  const setup = baseFixture();
  const [acme, other] = setup.organisations;
  acme!.widgets.push(
    { id: 'plainchat', type: 'chatbot', name: 'Plain chat', sources: ['docs'], websites: ['acme.test'], secret: 'ws_test_plainchat', signingSecret: 'sig_1', config: {} } as never,
    { id: 'plainsearch', type: 'search', name: 'Plain search', sources: ['docs'], websites: ['acme.test'], secret: 'ws_test_plainsearch', signingSecret: 'sig_2' } as never,
    {
      id: 'styled', type: 'search', name: 'Styled', sources: ['docs', 'blog'], websites: ['acme.test'], secret: 'ws_test_styled', signingSecret: 'sig_3',
      config: {
        variant: 'inline', accent_light: '#112233', accent_dark: '#abc', theme: 'dark', branding: false, summary: true,
        speech_input: true, placeholder: 'Search the docs…', debounce: 250, default_language: 'nl',
      },
    } as never,
    {
      id: 'styledchat', type: 'chatbot', name: 'Styled chat', sources: ['docs'], websites: ['acme.test'], secret: 'ws_test_styledchat', signingSecret: 'sig_4',
      config: { variant: 'inline', greeting: 'Hello there', avatar: 'https://acme.test/bot.png', theme: 'light' },
    } as never,
  );
  other!.widgets.push({
    id: 'unbranded', type: 'chatbot', name: 'Unbranded', sources: ['kb'], websites: ['other.test'], secret: 'ws_other_unbranded', signingSecret: 'sig_5',
    config: { branding: false },
  } as never);
  return setup;
}

let server: TestServer;
const config = (organisation: string, widget: string, headers?: Record<string, string>) =>
  server.request('GET', `/api/v1/${organisation}/widgets/${widget}/config`, { origin: organisation === 'acme' ? 'https://acme.test' : 'https://other.test', headers });
const admin = (method: string, path: string, body?: unknown) => server.request(method, `/api/v1/admin${path}`, { token: ADMIN_TOKEN, body });

before(async () => {
  server = await startTestServer({ fixture: fixture(), adminToken: ADMIN_TOKEN });
});
after(() => server?.stop());

describe('fields and defaults', () => {
  test('a chat widget without settings: every field of spec 2.4 with its default', async () => {
    const response = await config('acme', 'plainchat');
    assert.equal(response.status, 200, response.text);
    const body = response.json;
    assert.deepEqual(Object.keys(body).sort(), SPEC_FIELDS);
    const { accent_light, accent_dark, ...rest } = body;
    assert.match(accent_light, HEX);
    assert.match(accent_dark, HEX);
    assert.deepEqual(rest, {
      type: 'chatbot',
      name: 'Plain chat',
      variant: 'bubble',
      theme: 'auto',
      branding: true,
      summary: false,
      speech_input: false,
      placeholder: '',
      greeting: '',
      avatar: null,
      debounce: 1000,
      default_language: 'en',
      suggestions: [],
    });
  });

  test('a search widget without settings defaults to the modal variant', async () => {
    const body = (await config('acme', 'plainsearch')).json;
    assert.deepEqual(Object.keys(body).sort(), SPEC_FIELDS);
    assert.equal(body.type, 'search');
    assert.equal(body.variant, 'modal');
    assert.equal(body.debounce, 1000);
    assert.equal(body.theme, 'auto');
    assert.equal(body.placeholder, '');
    assert.equal(body.default_language, 'en');
    assert.equal(body.summary, false);
  });

  test('settings override the defaults, field by field', async () => {
    const body = (await config('acme', 'styled')).json;
    assert.deepEqual(body, {
      type: 'search',
      name: 'Styled',
      variant: 'inline',
      accent_light: '#112233',
      accent_dark: '#abc',
      theme: 'dark',
      branding: false,
      summary: true,
      speech_input: true,
      placeholder: 'Search the docs…',
      greeting: '',
      avatar: null,
      debounce: 250,
      default_language: 'nl',
      suggestions: [],
    });
    const chat = (await config('acme', 'styledchat')).json;
    assert.equal(chat.variant, 'inline');
    assert.equal(chat.greeting, 'Hello there');
    assert.equal(chat.avatar, 'https://acme.test/bot.png');
    assert.equal(chat.theme, 'light');
    assert.equal(chat.debounce, 1000, 'what is not set keeps its default');
  });

  test('the fixture\'s greeting and variant show on the help widget', async () => {
    const body = (await config('acme', 'help')).json;
    assert.equal(body.greeting, 'Hi!');
    assert.equal(body.variant, 'bubble');
    assert.equal(body.name, 'Help');
  });

  test('the config never carries a secret', async () => {
    const text = (await config('acme', 'help')).text;
    for (const secret of ['ws_test_help', 'sig_test_help', 'secret', 'signing']) assert.ok(!text.includes(secret), `config mentions ${secret}`);
  });
});

describe('branding by plan', () => {
  test('on the free plan branding is always on, even when the widget turns it off', async () => {
    assert.equal((await config('other', 'unbranded')).json.branding, true);
  });

  test('on the pro plan a widget may turn branding off', async () => {
    assert.equal((await config('acme', 'styled')).json.branding, false);
    assert.equal((await config('acme', 'plainchat')).json.branding, true, 'branding defaults to on on a paid plan too');
  });

  test('moving an organisation between plans changes branding at once', async () => {
    assert.equal((await admin('PATCH', '/organisations/other', { plan: 'pro' })).status, 200);
    assert.equal((await config('other', 'unbranded')).json.branding, false);
    assert.equal((await admin('PATCH', '/organisations/other', { plan: 'free' })).status, 200);
    assert.equal((await config('other', 'unbranded')).json.branding, true);
  });
});

describe('caching', () => {
  test('Cache-Control public for five minutes, an ETag, Vary: Origin', async () => {
    const response = await config('acme', 'help');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=300');
    assert.match(response.headers.get('etag') ?? '', /^(W\/)?"[^"]+"$/);
    assert.match(response.headers.get('vary') ?? '', /\bOrigin\b/i);
  });

  test('the same config gives the same ETag; If-None-Match with it is 304 without a body', async () => {
    const first = await config('acme', 'help');
    const second = await config('acme', 'help');
    const etag = first.headers.get('etag')!;
    assert.equal(second.headers.get('etag'), etag);
    const cached = await config('acme', 'help', { 'If-None-Match': etag });
    assert.equal(cached.status, 304);
    assert.equal(cached.text, '');
    assert.equal(cached.headers.get('etag'), etag);
    assert.equal(cached.headers.get('cache-control'), 'public, max-age=300');
    const listed = await config('acme', 'help', { 'If-None-Match': `"something-else", ${etag}` });
    assert.equal(listed.status, 304, 'a list of tags containing the current one');
    const weak = await config('acme', 'help', { 'If-None-Match': `W/${etag}` });
    assert.equal(weak.status, 304, 'If-None-Match compares weakly');
  });

  test('a stale or foreign ETag gets the full config', async () => {
    const response = await config('acme', 'help', { 'If-None-Match': '"stale"' });
    assert.equal(response.status, 200);
    assert.equal(response.json.type, 'chatbot');
  });

  test('different widgets have different ETags', async () => {
    const help = (await config('acme', 'help')).headers.get('etag');
    const plain = (await config('acme', 'plainchat')).headers.get('etag');
    assert.notEqual(help, plain);
  });

  test('changing the widget\'s settings changes the ETag, and the old one no longer answers 304', async () => {
    const before = (await config('acme', 'styledchat')).headers.get('etag')!;
    const patched = await admin('PATCH', '/organisations/acme/widgets/styledchat', { config: { variant: 'inline', greeting: 'Changed greeting' } });
    assert.equal(patched.status, 200, patched.text);
    const after = await config('acme', 'styledchat', { 'If-None-Match': before });
    assert.equal(after.status, 200);
    assert.equal(after.json.greeting, 'Changed greeting');
    assert.notEqual(after.headers.get('etag'), before);
    const renamed = await admin('PATCH', '/organisations/acme/widgets/styledchat', { name: 'Renamed chat' });
    assert.equal(renamed.status, 200);
    const again = await config('acme', 'styledchat', { 'If-None-Match': after.headers.get('etag')! });
    assert.equal(again.status, 200);
    assert.equal(again.json.name, 'Renamed chat');
  });

  test('a plan change that flips branding changes the ETag', async () => {
    const before = (await config('other', 'unbranded')).headers.get('etag')!;
    await admin('PATCH', '/organisations/other', { plan: 'pro' });
    const after = await config('other', 'unbranded', { 'If-None-Match': before });
    await admin('PATCH', '/organisations/other', { plan: 'free' });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.get('etag'), before);
  });

  test('a refused config request is not cacheable as a success', async () => {
    const response = await server.request('GET', '/api/v1/acme/widgets/help/config', { origin: 'https://evil.test' });
    assertError(response, 403, 'origin_not_allowed');
    assert.equal(response.headers.get('etag'), null);
    assert.doesNotMatch(response.headers.get('cache-control') ?? '', /public/);
  });
});

describe('validating widget settings through the admin API', () => {
  const invalid: { name: string; type?: 'chatbot' | 'search'; config: Record<string, unknown>; field: string }[] = [
    { name: 'a colour that is no hex colour', config: { accent_light: 'red' }, field: 'config.accent_light' },
    { name: 'a hex colour of the wrong length', config: { accent_dark: '#12345' }, field: 'config.accent_dark' },
    { name: 'a colour that is not a string', config: { accent_dark: 0x112233 }, field: 'config.accent_dark' },
    { name: 'an unknown field', config: { colour: '#112233' }, field: 'config.colour' },
    { name: 'type cannot be set through config', config: { type: 'search' }, field: 'config.type' },
    { name: 'a search variant on a chat widget', type: 'chatbot', config: { variant: 'modal' }, field: 'config.variant' },
    { name: 'a chat variant on a search widget', type: 'search', config: { variant: 'bubble' }, field: 'config.variant' },
    { name: 'an unknown theme', config: { theme: 'neon' }, field: 'config.theme' },
    { name: 'branding that is not a boolean', config: { branding: 'no' }, field: 'config.branding' },
    { name: 'a negative debounce', config: { debounce: -1 }, field: 'config.debounce' },
    { name: 'a fractional debounce', config: { debounce: 1.5 }, field: 'config.debounce' },
    { name: 'an unknown language', config: { default_language: 'xx' }, field: 'config.default_language' },
    { name: 'a javascript: avatar', config: { avatar: 'javascript:alert(1)' }, field: 'config.avatar' },
    { name: 'a placeholder that is not a string', config: { placeholder: 5 }, field: 'config.placeholder' },
    { name: 'suggestions that are not a list', config: { suggestions: 'How?' }, field: 'config.suggestions' },
    { name: 'more than 6 suggestions', config: { suggestions: Array.from({ length: 7 }, (_, index) => `Question ${index}?`) }, field: 'config.suggestions' },
    { name: 'a suggestion over 120 characters', config: { suggestions: ['x'.repeat(121)] }, field: 'config.suggestions' },
    { name: 'an empty suggestion', config: { suggestions: ['  '] }, field: 'config.suggestions' },
  ];
  let counter = 0;
  for (const entry of invalid) {
    test(`creating a widget with ${entry.name} is 400 naming ${entry.field}`, async () => {
      const response = await admin('POST', '/organisations/acme/widgets', {
        id: `invalid${++counter}`,
        type: entry.type ?? 'chatbot',
        sources: ['docs'],
        config: entry.config,
      });
      assertInvalidField(response, entry.field);
    });
  }

  test('an invalid change leaves the widget\'s config as it was', async () => {
    const before = await config('acme', 'help');
    assertInvalidField(await admin('PATCH', '/organisations/acme/widgets/help', { config: { variant: 'modal' } }), 'config.variant');
    assertInvalidField(await admin('PATCH', '/organisations/acme/widgets/help', { config: 'dark' }), 'config');
    const after = await config('acme', 'help');
    assert.deepEqual(after.json, before.json);
    assert.equal(after.headers.get('etag'), before.headers.get('etag'));
  });

  test('a valid settings object is accepted and served', async () => {
    const created = await admin('POST', '/organisations/acme/widgets', {
      id: 'validsettings',
      type: 'search',
      sources: ['docs'],
      websites: ['acme.test'],
      config: { variant: 'inline', accent_light: '#ABCDEF', debounce: 0, default_language: 'pt-BR', avatar: null },
    });
    assert.equal(created.status, 201, created.text);
    const body = (await config('acme', 'validsettings')).json;
    assert.equal(body.variant, 'inline');
    assert.equal(body.accent_light, '#ABCDEF');
    assert.equal(body.debounce, 0);
    assert.equal(body.default_language, 'pt-BR');
  });

  test('suggestions: up to six questions, served trimmed in order', async () => {
    const questions = ['How do I install the widget? ', 'Can I change the colours?', 'x'.repeat(120)];
    const created = await admin('POST', '/organisations/acme/widgets', { id: 'suggesting', type: 'search', sources: ['docs'], websites: ['acme.test'], config: { suggestions: questions } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual((await config('acme', 'suggesting')).json.suggestions, ['How do I install the widget?', 'Can I change the colours?', 'x'.repeat(120)]);
  });
});
