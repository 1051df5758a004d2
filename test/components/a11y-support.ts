/**
 * Shared pieces of the accessibility tests: mounting both widgets against the mock API, axe with
 * every rule, Chromium's accessibility tree, colour emulation (light, dark, forced colours) and
 * contrast computed from computed styles.
 */
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import { http, HttpResponse } from 'msw';
import { defaultConfig, type Hit, type Locale, type Source, type WidgetConfig } from '../../wire/contract.js';
import { expect } from '@esm-bundle/chai';
import { en, type Translation } from '../../src/i18n/translations/en.js';
import { de } from '../../src/i18n/translations/de.js';
import { ja } from '../../src/i18n/translations/ja.js';
import { th } from '../../src/i18n/translations/th.js';
import '../../src/assist.js';
import { createChatWidget } from '../../src/components/assist-chat/index.js';
import { createSearchWidget } from '../../src/components/assist-search/index.js';
import type { AssistChat } from '../../src/components/assist-chat/assist-chat.js';
import type { AssistSearch } from '../../src/components/assist-search/assist-search.js';
import type { WidgetController, WidgetMountOptions } from '../../src/core/widget-handle.js';
import type { ClientOptions } from '../../src/client/types.js';
import { clearConfigCache } from '../../src/core/config-cache.js';
import { API, CONFIG, FAST_RETRY, WIDGET_KEY, encodeEvents, tick, until as untilPasses, worker, type StreamEvent } from '../client/support.js';

export const SEARCH_CONFIG: WidgetConfig = { ...defaultConfig('search', 'Docs'), debounce: 30 };
export const CHAT_CONFIG: WidgetConfig = { ...CONFIG, default_language: 'en' };

/** Two sections of one page, as the example cites them. */
export const SECTION_SOURCES: Source[] = [
  { url: 'https://acme.test/ignition#error-e42', title: 'Troubleshooting ignition', pageId: 'p_ign', section: 'Error E42' },
  { url: 'https://acme.test/ignition#error-e77', title: 'Troubleshooting ignition', pageId: 'p_ign', section: 'Error E77' },
];

export const SECTION_HITS: Hit[] = SECTION_SOURCES.map((source, index) => ({
  id: `h${index}`,
  pageId: source.pageId,
  url: source.url,
  title: source.title,
  section: source.section!,
  snippet: `Reset the <mark>ignition</mark> after error ${source.section}`,
  source: 'docs',
  score: 1 / (index + 1),
}));

/** The UI languages the tests cover (Latin, German keyboard names, Japanese and Thai scripts), with a browser language that picks each. */
export const LANGUAGES: [Locale, string, Translation][] = [
  ['en', 'en-GB', en],
  ['de', 'de-DE', de],
  ['ja', 'ja-JP', ja],
  ['th', 'th-TH', th],
];

/** What a summary and a chat answer citing SECTION_SOURCES say. */
export const CITING_ANSWER = 'Restart the engine [1], then clear the code [2].';

/** The browser tests' `until`, with a second more: these tests run axe and whole accessibility trees beside others. */
export function until(check: () => unknown, timeout = 4000): Promise<void> {
  return untilPasses(check, timeout);
}

const controllers: WidgetController[] = [];
const cleanups: (() => void)[] = [];

/** Removes every widget and element a test added; call from `afterEach`. */
export async function cleanUp(): Promise<void> {
  for (const controller of controllers.splice(0)) controller.destroy();
  for (const cleanup of cleanups.splice(0)) cleanup();
  await emulateColours({});
}

/** Adds markup to the page for one test. */
export function place(markup: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = markup;
  document.body.append(holder);
  cleanups.push(() => holder.remove());
  return holder;
}

/** Sets the page's own background (the widgets' launcher and box sit on it). */
export function pageBackground(colour: string): void {
  const before = document.body.style.background;
  document.body.style.background = colour;
  cleanups.push(() => (document.body.style.background = before));
}

function answerConfig(config: WidgetConfig): void {
  clearConfigCache();
  worker.use(http.get(`${API}/config`, () => HttpResponse.json(config)));
}

export async function mountChat(options: WidgetMountOptions & ClientOptions = {}, config: WidgetConfig = CHAT_CONFIG) {
  answerConfig(config);
  const controller = await createChatWidget(WIDGET_KEY, { retry: FAST_RETRY, ...options });
  controllers.push(controller);
  await controller.mount();
  const element = [...document.querySelectorAll('assist-chat')].at(-1) as AssistChat;
  await element.updateComplete;
  const root = element.shadowRoot!;
  return {
    element,
    root,
    $: <T extends Element = HTMLElement>(selector: string) => root.querySelector<T>(selector),
    $$: (selector: string) => [...root.querySelectorAll<HTMLElement>(selector)],
    input: () => root.querySelector('textarea')!,
    active: () => root.activeElement,
    async ask(question: string) {
      const input = root.querySelector('textarea')!;
      input.focus();
      input.value = question;
      input.dispatchEvent(new Event('input'));
      await element.updateComplete;
    },
  };
}

export async function mountSearch(options: WidgetMountOptions & ClientOptions = {}, config: WidgetConfig = SEARCH_CONFIG) {
  answerConfig(config);
  const controller = await createSearchWidget(WIDGET_KEY, { retry: FAST_RETRY, ...options });
  controllers.push(controller);
  await controller.mount();
  const element = [...document.querySelectorAll('assist-search')].at(-1) as AssistSearch;
  // These tests look at states; one that would leave the page (Enter on a result that arrived first) must not end the file.
  element.addEventListener('assist-select', (event) => event.preventDefault());
  await element.updateComplete;
  const root: ParentNode = element.shadowRoot ?? element;
  const input = () => element.input ?? root.querySelector<HTMLInputElement>('input')!;
  return {
    element,
    root,
    $: <T extends Element = HTMLElement>(selector: string) => root.querySelector<T>(selector),
    $$: (selector: string) => [...root.querySelectorAll<HTMLElement>(selector)],
    input,
    /** The focused element, inside the shadow root or out. */
    active: () => (element.shadowRoot?.activeElement ?? document.activeElement) as HTMLElement | null,
    async type(text: string) {
      input().focus();
      await sendKeys({ type: text });
    },
    /** Puts `text` in the field at once, as a paste does: one search, no results of a part of it arriving later. */
    async fill(text: string) {
      const field = input();
      field.focus();
      field.value = text;
      field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      await element.updateComplete;
    },
  };
}

/** Answers searches with `hits`. */
export function searchApi(hits: (query: string) => Hit[]): void {
  worker.use(http.post(`${API}/search`, async ({ request }) => {
    const { query } = (await request.json()) as { query: string };
    return HttpResponse.json({ sessionId: 's_1', queryId: 'q_1', hits: hits(query) });
  }));
}

/** Answers summaries with `text` citing `sources`, streamed; `answerId` makes them ratable. */
export function summarizeApi(text: string, sources: Source[], answerId?: string): void {
  // With an answer id (sent first, as the server does) the summary can be rated.
  const meta: StreamEvent[] = answerId ? [['meta', { answerId }]] : [];
  worker.use(
    http.post(`${API}/summarize`, () =>
      new HttpResponse(encodeEvents([...meta, ['sources', { sources }], ['token', { delta: text }], ['done', { summarized: true, text, sources }]]), {
        headers: { 'Content-Type': 'text/event-stream' },
      }),
    ),
  );
}

/** Answers chat messages with the events `events(message)` gives, streamed. */
export function chatApi(events: (message: string) => StreamEvent[] | Response): void {
  worker.use(
    http.post(`${API}/chat`, async ({ request }) => {
      const { message } = (await request.json()) as { message: string };
      const reply = events(message);
      if (reply instanceof Response) return reply;
      return new HttpResponse(encodeEvents(reply), { headers: { 'Content-Type': 'text/event-stream' } });
    }),
  );
}

export function answerEvents(text: string, sources: Source[] = []): StreamEvent[] {
  const reply = { text, conversationId: 'c_1', answerId: 'a_1', sources };
  return [
    ['meta', { conversationId: 'c_1', answerId: 'a_1' }],
    ['sources', { sources }],
    ['token', { delta: text }],
    ['done', reply],
  ];
}

/** An open bubble chat that answered a question citing two sections of one page. */
export async function answeredChat(options: WidgetMountOptions & ClientOptions = {}) {
  chatApi(() => answerEvents(CITING_ANSWER, SECTION_SOURCES));
  const chat = await mountChat(options);
  chat.element.show();
  await chat.ask('Error E42?');
  await sendKeys({ press: 'Enter' });
  await until(() => expect(chat.$$('[part="source-link"]')).to.have.length(2));
  return chat;
}

/** An open search modal showing results and a summary citing two sections of one page. */
export async function summarisedSearch(options: WidgetMountOptions & ClientOptions = {}) {
  searchApi(() => SECTION_HITS);
  summarizeApi(CITING_ANSWER, SECTION_SOURCES);
  const search = await mountSearch({ summary: true, ...options });
  search.element.show();
  await search.element.updateComplete;
  // Searched after the debounce: Enter would ask the chat instead when one is on the page.
  await search.fill('ignition');
  await until(() => expect(search.$$('.summary-sources a')).to.have.length(2));
  return search;
}

/** Emulates the visitor's colour preferences: dark or light scheme, forced colours on or off. */
export async function emulateColours(options: { colorScheme?: 'light' | 'dark'; forcedColors?: 'active' | 'none' }): Promise<void> {
  await executeServerCommand('emulate-forced-colors', options);
}

interface AxeResult {
  violations: { id: string; impact: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
}
interface Axe {
  run(context: unknown, options: unknown): Promise<AxeResult>;
  getRules(): { ruleId: string; tags: string[] }[];
}

/** axe-core, loaded into the page once. */
export async function loadAxe(): Promise<Axe> {
  const global = window as unknown as { axe?: Axe };
  if (!global.axe) {
    await new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = '/node_modules/axe-core/axe.min.js';
      script.onload = () => resolve();
      script.onerror = () => reject(new Error('axe-core did not load'));
      document.head.append(script);
    });
  }
  return global.axe!;
}

/**
 * axe's findings with every rule of the target on (WCAG 2.0–2.2 A and AA, best practices and
 * experimental rules included; the AAA rules, such as 7:1 contrast, are beyond the target and
 * left out), one line per failing element: `rule-id: target`.
 */
export async function axeViolations(context: Element | Document = document): Promise<string[]> {
  const axe = await loadAxe();
  const rules = Object.fromEntries(axe.getRules().map((rule) => [rule.ruleId, { enabled: !rule.tags.includes('wcag2aaa') }]));
  const result = await axe.run(context, { rules, resultTypes: ['violations'] });
  return result.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${JSON.stringify(node.target)} ${node.failureSummary ?? ''}`));
}

export interface AXNode {
  role: string;
  name?: string;
  focused?: boolean;
  children?: AXNode[];
  [key: string]: unknown;
}

/** Chromium's accessibility tree of the whole page (shadow roots included). */
export async function accessibilityTree(): Promise<AXNode> {
  return (await executeServerCommand('accessibility-tree')) as AXNode;
}

/** Every node of `tree` that `test` accepts, in document order. */
export function findAll(tree: AXNode, test: (node: AXNode) => boolean): AXNode[] {
  const found: AXNode[] = [];
  const visit = (node: AXNode) => {
    if (test(node)) found.push(node);
    for (const child of node.children ?? []) visit(child);
  };
  visit(tree);
  return found;
}

/** The outermost nodes of `role` below `node` (not those nested in another of the same role). */
export function outermost(node: AXNode, role: string): AXNode[] {
  return (node.children ?? []).flatMap((child) => (child.role === role ? [child] : outermost(child, role)));
}

/** The text of a node and its descendants, as assistive technology reads it in browse mode. */
export function spokenText(node: AXNode): string {
  const own = node.role === 'StaticText' || node.role === 'text' ? (node.name ?? '') : '';
  return [own, ...(node.children ?? []).map(spokenText)].join('');
}

type RGBA = [number, number, number, number];

/** An `rgb()`/`rgba()` colour as computed styles give it. */
export function parseColour(value: string): RGBA {
  const numbers = value.match(/[\d.]+/g)?.map(Number) ?? [];
  if (!value.startsWith('rgb') || numbers.length < 3) throw new Error(`Not an rgb colour: ${value}`);
  return [numbers[0]!, numbers[1]!, numbers[2]!, numbers[3] ?? 1];
}

function luminance([r, g, b]: RGBA): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** `top` laid over `bottom` (alpha compositing). */
function over(top: RGBA, bottom: RGBA): RGBA {
  const alpha = top[3];
  return [0, 1, 2].map((i) => top[i]! * alpha + bottom[i]! * (1 - alpha)).concat(1) as RGBA;
}

/** WCAG contrast ratio of two colours (translucent ones laid over white). */
export function contrast(a: string | RGBA, b: string | RGBA): number {
  const white: RGBA = [255, 255, 255, 1];
  const [x, y] = [a, b].map((colour) => over(typeof colour === 'string' ? parseColour(colour) : colour, white));
  const [light, dark] = [luminance(x!), luminance(y!)].sort((p, q) => q - p);
  return (light! + 0.05) / (dark! + 0.05);
}

/** The colour of the page's canvas where nothing paints a background (white, or black in a dark forced palette). */
function canvasColour(): string {
  const probe = document.createElement('div');
  probe.style.backgroundColor = 'Canvas';
  document.body.append(probe);
  const colour = getComputedStyle(probe).backgroundColor;
  probe.remove();
  return colour;
}

/** The colour behind `element`: the first opaque-enough background up its (flat) tree, the page's last. */
export function backgroundBehind(element: Element): string {
  const layers: RGBA[] = [];
  for (let node: Element | null = element; node; node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host ?? null)) {
    const colour = parseColour(getComputedStyle(node).backgroundColor);
    if (colour[3] > 0) layers.push(colour);
    if (colour[3] === 1) break;
  }
  let result = parseColour(canvasColour());
  for (const layer of layers.reverse()) result = over(layer, result);
  return `rgb(${result.slice(0, 3).join(', ')})`;
}

/** The colours of a focus indicator, from the inside out: the halo (box-shadow) where there is one, then the outline. */
export function focusRing(element: Element): { outline: string; outlineWidth: number; halo: string | null } {
  const style = getComputedStyle(element);
  const shadow = style.boxShadow;
  const halo = shadow && shadow !== 'none' ? (shadow.match(/rgba?\([^)]*\)/)?.[0] ?? null) : null;
  return { outline: style.outlineColor, outlineWidth: parseFloat(style.outlineWidth) || 0, halo };
}

/**
 * The contrast a focus ring keeps against what is around it (WCAG 1.4.11): the outline against
 * the halo it sits on and, where the halo blends into the page, the outline against the page.
 */
export function focusRingContrast(element: Element, page: string): number {
  const ring = focusRing(element);
  if (ring.outlineWidth < 2) return 1;
  const surround = ring.halo ?? page;
  const own = contrast(ring.outline, surround);
  // The ring and its halo together must stand out from the page: either of them may do it.
  const againstPage = Math.max(contrast(surround, page), contrast(ring.outline, page));
  return Math.min(own, againstPage);
}

export { tick };

/** The visitor's browser languages for one test (the UI language follows them). */
export function browserLanguages(languages: string[]): void {
  const original = Object.getOwnPropertyDescriptor(navigator, 'languages');
  Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
  cleanups.push(() => {
    if (original) Object.defineProperty(navigator, 'languages', original);
    else delete (navigator as { languages?: unknown }).languages;
  });
}
