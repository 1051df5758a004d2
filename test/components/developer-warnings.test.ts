/**
 * What a developer sees when the integration is wrong: one `[assist]` console warning naming
 * the fix, with a link to the troubleshooting page's section, and in preview mode (a preview
 * token) a small notice in place of the widget; on a public page, nothing is shown.
 */
import { expect } from '@esm-bundle/chai';
import { http, HttpResponse } from 'msw';
import { defaultConfig } from '../../wire/contract.js';
import '../../src/elements.js';
import type { AssistChat } from '../../src/components/assist-chat/assist-chat.js';
import type { AssistSearch } from '../../src/components/assist-search/assist-search.js';
import { createChatWidget } from '../../src/components/assist-chat/index.js';
import { createClient } from '../../src/client/client.js';
import { API, FAST_RETRY, WIDGET_KEY, errorBody, rejectionOf, until, useMockApi, worker } from '../client/support.js';

useMockApi();

/** Console output with the `[assist]` prefix while the test runs. */
function captureConsole(): { warnings: string[]; errors: string[] } {
  const seen = { warnings: [] as string[], errors: [] as string[] };
  const { warn, error } = console;
  console.warn = (...args: unknown[]) => void (String(args[0]).startsWith('[assist]') ? seen.warnings.push(args.map(String).join(' ')) : warn(...args));
  console.error = (...args: unknown[]) => void (String(args[0]).startsWith('[assist]') ? seen.errors.push(args.map(String).join(' ')) : error(...args));
  cleanups.push(() => Object.assign(console, { warn, error }));
  return seen;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});


const refusedOrigin = () =>
  worker.use(http.get(`${API}/config`, () => HttpResponse.json(errorBody('origin_not_allowed', 'This website is not on the widget\'s list.'), { status: 403 })));

/** An element made the way the script tag's preview makes it (with `token`), or as a public page has it. */
function placeElement<Tag extends 'assist-chat' | 'assist-search'>(tag: Tag, token?: string): HTMLElementTagNameMap[Tag] {
  const element = document.createElement(tag);
  element.client = createClient(WIDGET_KEY, { baseUrl: location.origin, retry: FAST_RETRY, token });
  element.setAttribute('widget', WIDGET_KEY);
  document.body.append(element);
  cleanups.push(() => element.remove());
  return element;
}

describe('development warnings', () => {
  it('a refused origin names the origin to add to the website list, once, with the troubleshooting link', async () => {
    const seen = captureConsole();
    refusedOrigin();
    const client = createClient(WIDGET_KEY, { baseUrl: location.origin, retry: FAST_RETRY });
    expect((await rejectionOf(client.fetchConfig())).code).to.equal('origin_not_allowed');
    await rejectionOf(client.fetchConfig());
    const warnings = seen.warnings.filter((warning) => warning.includes('website list'));
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain(`add "${location.host}" to the widget's website list`);
    expect(warnings[0]).to.contain(`${location.origin}/demo/docs/troubleshooting#origin-not-allowed`);
  });

  it('a widget of the other type says which element to use, with the troubleshooting link', async () => {
    const seen = captureConsole();
    worker.use(http.get(`${API}/config`, () => HttpResponse.json(defaultConfig('search', 'Docs'))));
    const chat = placeElement('assist-chat');
    await rejectionOf(chat.load());
    const warning = seen.warnings.find((text) => text.includes('#wrong-widget-type'));
    expect(warning).to.contain('is a search widget; use Assist.search() or <assist-search>');
  });

  it('a target that matches nothing names the selector, with the troubleshooting link', async () => {
    const seen = captureConsole();
    worker.use(http.get(`${API}/config`, () => HttpResponse.json({ ...defaultConfig('chatbot', 'Help'), variant: 'inline' })));
    const controller = await createChatWidget(WIDGET_KEY, { target: '#no-such-container', baseUrl: location.origin, retry: FAST_RETRY });
    await rejectionOf(Promise.resolve(controller.mount()));
    expect(seen.errors.some((text) => text.includes('"#no-such-container"') && text.includes(`${location.origin}/demo/docs/troubleshooting#missing-target`))).to.equal(true);
  });

  it('an unsigned visitor asking for history is told to pass { id, hash }, with the troubleshooting link', async () => {
    const seen = captureConsole();
    const client = createClient(WIDGET_KEY, { baseUrl: location.origin, retry: FAST_RETRY });
    expect((await rejectionOf(client.listConversations())).code).to.equal('invalid_identity');
    const warning = seen.warnings.find((text) => text.includes('#history-needs-a-signed-visitor'));
    expect(warning).to.contain('signed visitor');
  });
});

describe('a refused or broken config in the widget', () => {
  for (const tag of ['assist-chat', 'assist-search'] as const) {
    it(`<${tag}> in preview mode shows a small notice saying why`, async () => {
      captureConsole();
      refusedOrigin();
      const element: AssistChat | AssistSearch = placeElement(tag, 'pt_preview_token');
      await rejectionOf(element.load());
      await until(() => expect(element.shadowRoot!.querySelector('.preview-notice')).to.not.equal(null));
      const notice = element.shadowRoot!.querySelector('.preview-notice')!;
      expect(notice.getAttribute('role')).to.equal('alert');
      expect(notice.textContent).to.contain('This website is not on the widget\'s list.');
    });

    it(`<${tag}> on a public page shows nothing`, async () => {
      captureConsole();
      refusedOrigin();
      const element: AssistChat | AssistSearch = placeElement(tag);
      await rejectionOf(element.load());
      await element.updateComplete;
      expect(element.shadowRoot!.textContent!.trim()).to.equal('');
      expect(element.getBoundingClientRect().height).to.equal(0);
    });
  }
});
