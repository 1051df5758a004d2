/**
 * Every attribute and property docs/reference.md documents for the two elements, set the way
 * React 19 and Vue 3 set them: a name the element has as a property (`name in element`) is
 * assigned as a property, any other name is set as an attribute. A private member under a
 * documented attribute's name would then receive the page's string (`summary=""` once made every
 * search throw `this.summary.reset is not a function`), so the elements must expose only the
 * documented properties under those names, and must still search and chat with all of them set.
 */
import { expect } from '@esm-bundle/chai';
import { http, HttpResponse } from 'msw';
import { defaultConfig, type WidgetConfig } from '../../wire/contract.js';
import '../../src/elements.js';
import { createClient } from '../../src/client/client.js';
import { API, FAST_RETRY, WIDGET_KEY, chatEvents, hit, sseResponse, until, useMockApi, worker } from '../client/support.js';

useMockApi();

interface DocumentedElement {
  /** Attribute names, e.g. `base-url`. */
  attributes: string[];
  /** Property names, e.g. `baseUrl`. */
  properties: string[];
}

/** The attribute and property columns of the element's table in docs/reference.md. */
async function documented(tag: 'assist-chat' | 'assist-search'): Promise<DocumentedElement> {
  const reference = await (await fetch('/docs/reference.md')).text();
  const section = reference.split(`### \`<${tag}>\``)[1]!.split('\n### ')[0]!.split('\n## ')[0]!;
  const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
  const attributes: string[] = [];
  const properties: string[] = [];
  for (const row of section.split('\n').filter((line) => line.startsWith('| ') || line.startsWith('| |'))) {
    const cells = row.split('|').slice(1, -1);
    if (cells.length < 3 || cells[0]!.includes('---') || cells[0]!.trim() === 'Attribute') continue;
    attributes.push(...names(cells[0]!));
    properties.push(...names(cells[1]!));
  }
  return { attributes, properties };
}

const camelCase = (name: string) => name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());

/** A value for each documented attribute, as a page would write it. */
const ATTRIBUTE_VALUES: Record<string, string> = {
  widget: WIDGET_KEY,
  'base-url': location.origin,
  trigger: '#no-such-trigger-is-fine',
  variant: 'inline',
  open: '',
  box: '',
  theme: 'dark',
  'accent-light': '#2557d6',
  'accent-dark': '#8fb0ff',
  placeholder: 'Ask the docs',
  greeting: 'Hello from the attribute',
  avatar: 'https://acme.test/avatar.png',
  'default-language': 'en',
  'speech-input': 'false',
  summary: '',
  debounce: '20',
  chat: WIDGET_KEY,
};

/** Sets `name` as React 19 and Vue 3 do: as a property when the element has one of that name, otherwise as an attribute. */
function setLikeAFramework(element: HTMLElement, name: string, value: unknown): 'property' | 'attribute' {
  if (name in element) {
    (element as unknown as Record<string, unknown>)[name] = value;
    return 'property';
  }
  element.setAttribute(name, String(value));
  return 'attribute';
}


/**
 * Makes `tag` with every documented attribute and property set as a framework sets them (the
 * properties after the attributes, as JSX and templates list them), listening for `listen` and
 * `assist-error`, and adds it to the page. `config` is the element's output, not set.
 */
async function placeWithEverythingSet<Tag extends 'assist-chat' | 'assist-search'>(tag: Tag, propertyValues: Record<string, unknown>, listen: string) {
  const { attributes, properties } = await documented(tag);
  const element = document.createElement(tag);
  const errors: unknown[] = [];
  element.addEventListener('assist-error', (event) => errors.push((event as CustomEvent).detail.error));
  const events: CustomEvent[] = [];
  element.addEventListener(listen, (event) => events.push(event as CustomEvent));
  for (const name of attributes) setLikeAFramework(element, name, ATTRIBUTE_VALUES[name]);
  for (const name of properties.filter((name) => name !== 'config')) {
    expect(propertyValues, `a value for ${name}`).to.have.property(name);
    setLikeAFramework(element, name, propertyValues[name]);
  }
  document.body.append(element);
  placed.push(element);
  return { element, errors, events };
}

const placed: HTMLElement[] = [];
afterEach(() => {
  for (const element of placed.splice(0)) element.remove();
});

for (const tag of ['assist-chat', 'assist-search'] as const) {
  describe(`<${tag}> documented attributes and properties`, () => {
    it('the reference documents the attributes and properties this test sets', async () => {
      const { attributes, properties } = await documented(tag);
      expect(attributes).to.include.members(['widget', 'base-url', 'variant', 'open', 'theme', 'placeholder']);
      expect(properties).to.include.members(['widget', 'baseUrl', 'options', 'client', 'config']);
      for (const name of attributes) expect(ATTRIBUTE_VALUES, `a value for ${name}`).to.have.property(name);
    });

    it('an attribute without a documented property of its name is no property of the element, so frameworks set it as an attribute', async () => {
      const { attributes, properties } = await documented(tag);
      const element = document.createElement(tag);
      const shadowing = [...new Set(attributes.flatMap((name) => [name, camelCase(name)]))].filter((name) => !properties.includes(name) && name in element);
      expect(shadowing).to.deep.equal([]);
      for (const name of properties) expect(name in element, `${name} is a property`).to.equal(true);
    });
  });
}

describe('<assist-search> with every documented attribute and property set as a framework sets them', () => {
  it('searches and streams the summary (summary="" as React writes it)', async () => {
    const config: WidgetConfig = { ...defaultConfig('search', 'Docs'), debounce: 20 };
    worker.use(
      http.get(`${API}/config`, () => HttpResponse.json(config)),
      http.post(`${API}/search`, () => HttpResponse.json({ sessionId: 's_1', queryId: 'q_1', hits: [hit(1), hit(2)] })),
      http.post(`${API}/summarize`, () =>
        sseResponse([
          ['sources', { sources: [{ url: 'https://acme.test/p1', title: 'Page 1', pageId: 'p1' }] }],
          ['token', { delta: 'Open **Settings**.' }],
          ['done', { summarized: true, text: 'Open **Settings**.', sources: [{ url: 'https://acme.test/p1', title: 'Page 1', pageId: 'p1' }] }],
        ]),
      ),
    );
    const { element, errors, events: searched } = await placeWithEverythingSet(
      'assist-search',
      {
        client: createClient(WIDGET_KEY, { baseUrl: location.origin, retry: FAST_RETRY }),
        options: { variant: 'inline', summary: true, debounce: 20 },
        input: null,
        widget: WIDGET_KEY,
        baseUrl: location.origin,
        variant: 'inline',
        box: true,
        open: false,
      },
      'assist-search',
    );
    await until(() => expect(element.config?.summary).to.equal(true));
    const input = element.shadowRoot!.querySelector('input')!;
    input.focus();
    input.value = 'reset';
    input.dispatchEvent(new Event('input'));
    await until(() => expect(searched).to.have.length(1));
    await until(() => expect(element.shadowRoot!.querySelector('[part="summary"] .markdown strong')?.textContent).to.equal('Settings'));
    expect(element.shadowRoot!.querySelectorAll('[part~="result"]')).to.have.length(2);
    expect(errors).to.deep.equal([]);
  });
});

describe('<assist-chat> with every documented attribute and property set as a framework sets them', () => {
  it('streams an answer and dispatches assist-message', async () => {
    const config: WidgetConfig = { ...defaultConfig('chatbot', 'Help') };
    worker.use(
      http.get(`${API}/config`, () => HttpResponse.json(config)),
      http.post(`${API}/chat`, () => sseResponse(chatEvents())),
    );
    const { element, errors, events: messages } = await placeWithEverythingSet(
      'assist-chat',
      {
        client: createClient(WIDGET_KEY, { baseUrl: location.origin, retry: FAST_RETRY }),
        user: null,
        options: { variant: 'inline', greeting: 'Hello from the options' },
        widget: WIDGET_KEY,
        baseUrl: location.origin,
        trigger: '',
        variant: 'inline',
        open: false,
      },
      'assist-message',
    );
    await until(() => expect(element.config?.greeting).to.equal('Hello from the options'));
    await element.updateComplete;
    const textarea = element.shadowRoot!.querySelector('textarea')!;
    textarea.value = 'How do I reset it?';
    textarea.dispatchEvent(new Event('input'));
    element.shadowRoot!.querySelector('form')!.requestSubmit();
    await until(() => expect(messages.map((event) => event.detail.role)).to.deep.equal(['user', 'assistant']));
    expect(messages[1]!.detail.text).to.equal('Open **Settings**.');
    await until(() => expect(element.shadowRoot!.querySelector('[part~="assistant"] .markdown strong')?.textContent).to.equal('Settings'));
    expect(errors).to.deep.equal([]);
  });
});
