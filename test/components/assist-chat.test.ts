import { expect } from '@esm-bundle/chai';
import { fakeSpeechRecognition } from './fake-speech.js';
import { emulateMedia, executeServerCommand, sendKeys, setViewport } from '@web/test-runner-commands';
import { http, HttpResponse } from 'msw';
import type { ConversationSummary, WidgetConfig } from '../../wire/contract.js';
import '../../src/assist.js';
import { createChatWidget } from '../../src/components/assist-chat/index.js';
import type { WidgetController, WidgetMountOptions } from '../../src/core/widget-handle.js';
import type { ClientOptions } from '../../src/client/types.js';
import { clearConfigCache } from '../../src/core/config-cache.js';
import { en } from '../../src/i18n/translations/en.js';
import { de } from '../../src/i18n/translations/de.js';
import { ja } from '../../src/i18n/translations/ja.js';
import { accessibilityTree, findAll, loadAxe, spokenText } from './a11y-support.js';
import { API, controlledStream, CONFIG, FAST_RETRY, REPLY, WIDGET_KEY, chatEvents, encodeEvents, errorBody, hit, tick, useMockApi, worker, captureBeacons, type StreamEvent } from '../client/support.js';

const requests = useMockApi();

/** Resolves when `check` passes, retrying until it does (or fails after a while). */
async function until(check: () => unknown, timeout = 3000): Promise<void> {
  const start = Date.now();
  for (;;) {
    try {
      if (check()) return;
    } catch (error) {
      if (Date.now() - start > timeout) throw error;
    }
    if (Date.now() - start > timeout) throw new Error(`Condition not met: ${check}`);
    await tick(10);
  }
}

let controllers: WidgetController[] = [];
const cleanups: (() => void)[] = [];

async function mountChat(options: WidgetMountOptions & ClientOptions = {}, config: WidgetConfig = CONFIG) {
  // Each mount answers with its own config, not the one cached by the previous mount.
  clearConfigCache();
  worker.use(http.get(`${API}/config`, () => HttpResponse.json(config)));
  const controller = await createChatWidget(WIDGET_KEY, { retry: FAST_RETRY, ...options });
  controllers.push(controller);
  await controller.mount();
  const element = [...document.querySelectorAll('assist-chat')].at(-1)!;
  await element.updateComplete;
  const root = element.shadowRoot!;
  const $ = <T extends Element = HTMLElement>(selector: string) => root.querySelector<T>(selector);
  const $$ = (selector: string) => [...root.querySelectorAll<HTMLElement>(selector)];
  return {
    controller,
    element,
    root,
    $,
    $$,
    panel: () => $('[part="panel"]')!,
    input: () => $<HTMLTextAreaElement>('textarea')!,
    button: (name: string) => $$('button').find((button) => (button.getAttribute('aria-label') ?? button.textContent!.trim()) === name),
    /** The messages' text, without the speaker names said only to screen readers. */
    messages: () =>
      $$('[part~="message"]').map(
        (message) => message.querySelector('.markdown')?.textContent?.trim() || message.textContent!.replace(message.querySelector('.speaker')?.textContent ?? '', '').trim(),
      ),
    live: () => $('[role="status"]')!.textContent!.trim(),
    async ask(question: string) {
      const input = $<HTMLTextAreaElement>('textarea')!;
      input.focus();
      input.value = question;
      input.dispatchEvent(new Event('input'));
      await sendKeys({ press: 'Enter' });
    },
  };
}

async function withShift(key: string): Promise<void> {
  await sendKeys({ down: 'Shift' });
  await sendKeys({ press: key });
  await sendKeys({ up: 'Shift' });
}

function events(element: EventTarget, ...names: string[]): CustomEvent[] {
  const seen: CustomEvent[] = [];
  for (const name of names) element.addEventListener(name, (event) => seen.push(event as CustomEvent));
  return seen;
}

function container(id: string, height = 400): HTMLElement {
  const box = document.createElement('div');
  box.id = id;
  box.style.height = `${height}px`;
  document.body.append(box);
  cleanups.push(() => box.remove());
  return box;
}

afterEach(() => {
  for (const controller of controllers) controller.destroy();
  controllers = [];
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('<assist-chat> bubble', () => {
  it('shows a launcher that opens a named dialog, greeting first, with focus in the message field', async () => {
    const chat = await mountChat();
    const seen = events(chat.element, 'assist-open');
    const launcher = chat.$('[part="launcher"]')!;
    expect(launcher.getAttribute('aria-label')).to.equal(en.chatOpen);
    expect(launcher.getAttribute('aria-expanded')).to.equal('false');
    expect(chat.panel().hidden).to.equal(true);

    launcher.click();
    await chat.element.updateComplete;
    await tick();
    const panel = chat.panel();
    expect(panel.hidden).to.equal(false);
    expect(panel.getAttribute('role')).to.equal('dialog');
    // Beside the page, which stays usable on desktop: a non-modal dialog.
    expect(panel.getAttribute('aria-modal')).to.equal(null);
    expect(chat.root.getElementById(panel.getAttribute('aria-labelledby')!)!.textContent).to.equal('Help');
    expect(launcher.getAttribute('aria-expanded')).to.equal('true');
    expect(chat.messages()).to.deep.equal(['Hi!']);
    expect(chat.root.activeElement).to.equal(chat.input());
    expect(seen.map((event) => event.type)).to.deep.equal(['assist-open']);
  });

  it('full screen, keeps Tab inside the panel and gives focus back to the launcher on Escape', async () => {
    await setViewport({ width: 375, height: 700 });
    cleanups.push(() => void setViewport({ width: 800, height: 600 }));
    const chat = await mountChat();
    const seen = events(chat.element, 'assist-close');
    chat.$('[part="launcher"]')!.click();
    await tick();
    for (let press = 0; press < 8; press++) {
      if (press % 3 === 2) await withShift('Tab');
      else await sendKeys({ press: 'Tab' });
      expect(chat.panel().contains(chat.root.activeElement)).to.equal(true);
    }
    await sendKeys({ press: 'Escape' });
    await chat.element.updateComplete;
    expect(chat.panel().hidden).to.equal(true);
    expect(chat.root.activeElement).to.equal(chat.$('[part="launcher"]'));
    expect(seen).to.have.length(1);
  });

  it('every control has an accessible name', async () => {
    const chat = await mountChat({ user: { id: 'u1', hash: 'f00d' } });
    chat.element.show();
    await chat.element.updateComplete;
    for (const button of chat.$$('button')) expect(button.getAttribute('aria-label') || button.textContent!.trim(), button.outerHTML).to.not.equal('');
    expect(chat.input().getAttribute('aria-label')).to.equal(en.chatInputLabel);
  });

  it('with trigger elements hides the launcher; the triggers open the panel and get focus back', async () => {
    const trigger = document.createElement('button');
    trigger.className = 'help-trigger';
    trigger.textContent = 'Help';
    document.body.append(trigger);
    cleanups.push(() => trigger.remove());
    const chat = await mountChat({ trigger: '.help-trigger' });
    expect(chat.$('[part="launcher"]')).to.equal(null);
    expect(trigger.getAttribute('aria-haspopup')).to.equal('dialog');
    expect(trigger.getAttribute('aria-expanded')).to.equal('false');

    trigger.focus();
    trigger.click();
    await chat.element.updateComplete;
    expect(chat.panel().hidden).to.equal(false);
    expect(trigger.getAttribute('aria-expanded')).to.equal('true');
    chat.button(en.chatClose)!.click();
    await chat.element.updateComplete;
    expect(chat.panel().hidden).to.equal(true);
    expect(document.activeElement).to.equal(trigger);
    expect(trigger.getAttribute('aria-expanded')).to.equal('false');
  });

  it('a target or trigger that matches nothing is reported by selector and nothing is added', async () => {
    worker.use(http.get(`${API}/config`, () => HttpResponse.json(CONFIG)));
    const logged: string[] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) => logged.push(args.map(String).join(' '));
    try {
      for (const options of [{ trigger: '#no-such-button' }, { target: '.no-such-box', variant: 'inline' as const }]) {
        const handle = window.Assist!.chat(WIDGET_KEY, options).mount();
        let failed = false;
        await handle.ready.catch(() => (failed = true));
        expect(failed).to.equal(true);
        expect(handle.state).to.equal('failed');
      }
    } finally {
      console.error = originalError;
    }
    expect(logged.some((line) => line.includes('"#no-such-button"'))).to.equal(true);
    expect(logged.some((line) => line.includes('".no-such-box"'))).to.equal(true);
    expect(document.querySelector('assist-chat')).to.equal(null);
  });

  it('Assist.chat() handles open, close and toggle the panel, queued until mounted', async () => {
    worker.use(http.get(`${API}/config`, () => HttpResponse.json(CONFIG)));
    const handle = window.Assist!.chat(WIDGET_KEY).mount().open();
    await handle.ready;
    const element = document.querySelector('assist-chat')!;
    cleanups.push(() => handle.destroy());
    await element.updateComplete;
    expect(element.open).to.equal(true);
    handle.toggle();
    expect(element.open).to.equal(false);
    handle.destroy();
    expect(document.querySelector('assist-chat')).to.equal(null);
  });
});

describe('<assist-chat> inline and in markup', () => {
  it('fills its target as a region, without launcher or dialog', async () => {
    const box = container('help-box', 420);
    const chat = await mountChat({ variant: 'inline', target: '#help-box' });
    expect(chat.element.parentElement).to.equal(box);
    expect(chat.$('[part="launcher"]')).to.equal(null);
    expect(chat.panel().getAttribute('role')).to.equal('region');
    expect(Math.round(chat.panel().getBoundingClientRect().height)).to.equal(420);
  });

  it('works on its own in markup from its attributes', async () => {
    worker.use(http.get(`${API}/config`, () => HttpResponse.json(CONFIG)));
    const box = container('markup-box');
    const ready = new Promise<CustomEvent>((resolve) => box.addEventListener('assist-ready', (event) => resolve(event as CustomEvent), { once: true }));
    box.innerHTML = `<assist-chat widget="${WIDGET_KEY}" base-url="${location.origin}" variant="inline" greeting="Welcome aboard"></assist-chat>`;
    const { config } = (await ready).detail as { config: WidgetConfig };
    expect(config.variant).to.equal('inline');
    const element = box.querySelector('assist-chat')!;
    cleanups.push(() => element.destroy());
    await element.updateComplete;
    expect(element.shadowRoot!.querySelector('[part="panel"]')!.getAttribute('role')).to.equal('region');
    expect(element.shadowRoot!.querySelector('.markdown')!.textContent!.trim()).to.equal('Welcome aboard');
  });
});

describe('<assist-chat> answers', () => {
  it('streams the answer as markdown with status, then its sources; a source click is tracked', async () => {
    const stream = controlledStream();
    let body: any;
    worker.use(
      http.post(`${API}/chat`, async ({ request }) => {
        body = await request.json();
        return stream.response();
      }),
    );
    const chat = await mountChat();
    const seen = events(chat.element, 'assist-message');
    chat.element.show();
    await chat.ask('How do I start?');
    await until(() => expect(body?.message).to.equal('How do I start?'));
    expect(body.conversationId).to.equal(undefined);
    expect(chat.messages()).to.deep.equal(['Hi!', 'How do I start?', en.chatSearching]);

    stream.send(['meta', { conversationId: 'c_1', answerId: 'a_1' }], ['status', { status: 'searching' }]);
    await until(() => expect(chat.live()).to.equal(en.chatSearching));
    expect(chat.$('[role="status"]')!.getAttribute('aria-live')).to.equal('polite');
    stream.send(['sources', { sources: REPLY.sources }], ['status', { status: 'generating' }]);
    await until(() => expect(chat.live()).to.equal(en.chatGenerating));
    expect(chat.$('[part="status"]')!.textContent).to.equal(en.chatGenerating);

    stream.send(['token', { delta: 'First paragraph.\n\nOpen ' }], ['token', { delta: '**Settings**\n' }]);
    await until(() => expect(chat.$('.assistant:last-child strong')?.textContent).to.equal('Settings'));
    const firstParagraph = chat.$('.assistant:last-child .markdown p')!;
    expect(chat.button(en.chatStop)).to.not.equal(undefined);
    expect(chat.button(en.chatSend)).to.equal(undefined);

    stream.send(['token', { delta: 'and more.' }], ['done', { ...REPLY, text: 'First paragraph.\n\nOpen **Settings**\nand more.' }]);
    stream.close();
    await until(() => expect(chat.live()).to.contain(en.chatAnswerReady));
    expect(chat.live()).to.contain('Open Settings\nand more.');
    // The finished paragraph was rendered once and kept while the rest streamed in.
    expect(chat.$('.assistant:last-child .markdown p')).to.equal(firstParagraph);
    expect(chat.button(en.chatSend)).to.not.equal(undefined);
    const link = chat.$<HTMLAnchorElement>('[part="source-link"]')!;
    // The citation number is part of the link's name, read with it.
    expect(link.textContent).to.equal('[1] Start');
    expect(link.href).to.equal('https://acme.test/start');
    // Sources are numbered as the answer cites them ([1], [2], …).
    expect(chat.$('ol[part="sources"] li')!.textContent!.trim()).to.match(/^\[1\]\s+Start$/);
    expect(seen.map((event) => event.detail)).to.deep.equal([
      { role: 'user', text: 'How do I start?', conversationId: null },
      { role: 'assistant', text: 'First paragraph.\n\nOpen **Settings**\nand more.', conversationId: 'c_1', sources: REPLY.sources },
    ]);

    const beacons: string[] = [];
    const originalBeacon = navigator.sendBeacon;
    navigator.sendBeacon = (_url: string | URL, data?: BodyInit | null) => (void (data as Blob).text().then((text) => beacons.push(text)), true);
    chat.element.addEventListener('click', (event) => event.preventDefault());
    try {
      link.click();
      await until(() => beacons.length === 1);
    } finally {
      navigator.sendBeacon = originalBeacon;
    }
    const [event] = JSON.parse(beacons[0]!).events;
    expect(event.props).to.deep.equal({ url: 'https://acme.test/start', rank: 1, source: 'chat' });

    // The next question continues the conversation.
    worker.use(http.post(`${API}/chat`, async ({ request }) => ((body = await request.json()), HttpResponse.json(REPLY))));
    await chat.ask('And then?');
    await until(() => expect(body.message).to.equal('And then?'));
    expect(body.conversationId).to.equal('c_1');
  });

  it('announces a finished answer as its text, markup gone and characters as written', async () => {
    const text = 'Compare `a < b && c > "d"` with it.\n\nThen **stop** [1].';
    worker.use(http.post(`${API}/chat`, () => HttpResponse.json({ ...REPLY, text })));
    const chat = await mountChat();
    chat.element.show();
    await chat.ask('How?');
    await until(() => expect(chat.live()).to.contain(en.chatAnswerReady));
    expect(chat.live()).to.equal(`${en.chatAnswerReady} Compare a < b && c > "d" with it.\nThen stop [1].`);
  });

  it('Enter sends; Shift+Enter breaks the line', async () => {
    let body: any;
    worker.use(http.post(`${API}/chat`, async ({ request }) => ((body = await request.json()), HttpResponse.json(REPLY))));
    const chat = await mountChat();
    chat.element.show();
    await chat.element.updateComplete;
    chat.input().focus();
    await sendKeys({ type: 'line one' });
    await withShift('Enter');
    await sendKeys({ type: 'line two' });
    expect(chat.input().value).to.equal('line one\nline two');
    await tick(50);
    expect(requests.requests.filter((request) => request.url.endsWith('/chat'))).to.have.length(0);
    await sendKeys({ press: 'Enter' });
    await until(() => expect(body?.message).to.equal('line one\nline two'));
    expect(chat.input().value).to.equal('');
  });

  it('the part still being written grows in place: its paragraph stays the same element as tokens arrive, and an open code block keeps one copy button', async () => {
    const stream = controlledStream();
    worker.use(http.post(`${API}/chat`, () => stream.response()));
    const chat = await mountChat();
    chat.element.show();
    await chat.ask('How do I start?');
    stream.send(...chatEvents(REPLY, []).slice(0, 4), ['token', { delta: 'Intro.\n\nRun the **server** with' }]);
    await until(() => expect(chat.$('.assistant:last-child .markdown p:last-of-type')?.textContent).to.equal('Run the server with'));
    const paragraph = chat.$('.assistant:last-child .markdown p:last-of-type')!;
    const words = paragraph.firstChild!;

    stream.send(['token', { delta: ' one command:' }]);
    await until(() => paragraph.textContent === 'Run the server with one command:');
    // What the visitor may be selecting or reading is not replaced under them.
    expect(chat.$('.assistant:last-child .markdown p:last-of-type') === paragraph).to.equal(true);
    expect(paragraph.firstChild === words).to.equal(true);

    stream.send(['token', { delta: '\n\n```sh\nnpm ' }]);
    await until(() => chat.$('.assistant:last-child pre code')?.textContent === 'npm \n');
    const pre = chat.$('.assistant:last-child pre')!;
    stream.send(['token', { delta: 'start\nnpm test' }]);
    await until(() => chat.$('.assistant:last-child pre code')?.textContent === 'npm start\nnpm test\n');
    expect(chat.$('.assistant:last-child pre') === pre).to.equal(true);
    expect(pre.querySelectorAll('[part="copy-code-button"]')).to.have.length(1);
    stream.close();
  });

  it('the stop button cancels the answer and keeps what arrived', async () => {
    const stream = controlledStream();
    worker.use(http.post(`${API}/chat`, () => stream.response()));
    const chat = await mountChat();
    chat.element.show();
    await chat.ask('Tell me everything');
    stream.send(...chatEvents(REPLY, ['Partial answer']).slice(0, 5));
    await until(() => expect(chat.messages().at(-1)).to.equal('Partial answer'));
    chat.button(en.chatStop)!.click();
    await until(() => expect(chat.live()).to.equal(en.chatStopped));
    expect(chat.$('.assistant:last-child .note')!.textContent).to.equal(en.chatStopped);
    expect(chat.$('.assistant:last-child .markdown')!.textContent!.trim()).to.equal('Partial answer');
    expect(chat.button(en.chatSend)).to.not.equal(undefined);
  });

  it('after an error offers to try again, which asks the same question once more', async () => {
    let calls = 0;
    worker.use(
      http.post(`${API}/chat`, () => {
        calls++;
        return calls === 1 ? HttpResponse.json(errorBody('internal'), { status: 500 }) : HttpResponse.json(REPLY);
      }),
    );
    const chat = await mountChat();
    const errors = events(chat.element, 'assist-error');
    chat.element.show();
    await chat.ask('Why?');
    await until(() => expect(chat.$('.assistant:last-child .error')?.textContent).to.equal(en.errorGeneric));
    expect(errors[0]!.detail.error.code).to.equal('internal');
    chat.button(en.retry)!.click();
    await until(() => expect(chat.messages().at(-1)).to.equal('Open Settings.'));
    expect(chat.messages()).to.deep.equal(['Hi!', 'Why?', 'Open Settings.']);
    expect(calls).to.equal(2);
  });

  it('out of credits: says so kindly and links the fallback search results', async () => {
    worker.use(http.post(`${API}/chat`, () => HttpResponse.json({ ...errorBody('credits_exhausted'), hits: [hit(1), hit(2)] }, { status: 402 })));
    const chat = await mountChat();
    chat.element.show();
    await chat.ask('reset password');
    await until(() => expect(chat.$('.assistant:last-child .error')?.textContent).to.equal(en.chatOutOfCredits));
    const links = chat.$$('.assistant:last-child .hits a') as HTMLAnchorElement[];
    expect(links.map((link) => [link.textContent, link.href])).to.deep.equal([
      ['Page 1 › Intro', 'https://acme.test/p1#s'],
      ['Page 2 › Intro', 'https://acme.test/p2#s'],
    ]);
    expect(chat.button(en.retry)).to.equal(undefined);

    worker.use(http.post(`${API}/chat`, () => HttpResponse.json({ ...errorBody('credits_exhausted'), hits: [] }, { status: 402 })));
    await chat.ask('anything else');
    await until(() => expect(chat.$('.assistant:last-child .error')?.textContent).to.equal(en.chatOutOfCreditsNoResults));
  });

  it('copies an answer and a code block', async () => {
    const text = 'Run this:\n\n```sh\nnpm start\n```\n';
    worker.use(http.post(`${API}/chat`, () => HttpResponse.json({ ...REPLY, text })));
    const copied: string[] = [];
    const originalWrite = navigator.clipboard.writeText;
    navigator.clipboard.writeText = async (value: string) => void copied.push(value);
    cleanups.push(() => (navigator.clipboard.writeText = originalWrite));
    const chat = await mountChat();
    chat.element.show();
    await chat.ask('How to start?');
    await until(() => chat.button(en.chatCopy));
    chat.button(en.chatCopy)!.click();
    await until(() => chat.button(en.chatCopied));
    const codeButton = chat.$('[part="copy-code-button"]')!;
    expect(codeButton.getAttribute('aria-label')).to.equal(en.chatCopyCode);
    codeButton.click();
    await until(() => expect(codeButton.getAttribute('aria-label')).to.equal(en.chatCopied));
    expect(copied).to.deep.equal([text, 'npm start\n']);
    expect(chat.live()).to.equal(en.chatCopied);
  });

  /** An inline chat in a 300 px box, its answer streaming `count` paragraphs made by `paragraph`, all shown. */
  async function streamParagraphs(count: number, paragraph: (index: number) => string) {
    container('scroll-box', 300);
    const stream = controlledStream();
    worker.use(http.post(`${API}/chat`, () => stream.response()));
    const chat = await mountChat({ variant: 'inline', target: '#scroll-box' });
    await chat.ask('Long answer please');
    stream.send(...chatEvents(REPLY, []).slice(0, 4));
    for (let index = 0; index < count; index++) stream.send(['token', { delta: `${paragraph(index)}\n\n` }]);
    await until(() => expect(chat.$$('.assistant:last-child .markdown > p')).to.have.length(count));
    await chat.element.updateComplete;
    return { chat, stream, log: chat.$('.log')! };
  }

  it('follows the answer to the bottom until the visitor scrolls up', async () => {
    const { chat, stream, log } = await streamParagraphs(15, (line) => `Line ${line} of a long answer.`);
    expect(chat.messages().at(-1)).to.contain('Line 14');
    expect(log.scrollHeight).to.be.greaterThan(log.clientHeight);
    expect(log.scrollHeight - log.scrollTop - log.clientHeight).to.be.lessThan(2);

    log.scrollTop = 0;
    log.dispatchEvent(new Event('scroll'));
    for (let line = 15; line < 20; line++) stream.send(['token', { delta: `Line ${line}.\n\n` }]);
    await until(() => expect(chat.messages().at(-1)).to.contain('Line 19'));
    await chat.element.updateComplete;
    expect(log.scrollTop).to.equal(0);
  });

  it('skips laying out and painting the blocks of a long answer out of view, which stay read, found and focusable', async () => {
    const { chat, log } = await streamParagraphs(60, (block) => `Block ${block}, with [a link](https://acme.test/b${block}).`);
    await executeServerCommand('bring-to-front');
    const blocks = chat.$$('.assistant:last-child .markdown > p');
    const [first, last] = [blocks[0]!, blocks.at(-1)!];
    const link = first.querySelector('a')!;
    const rendered = (element: Element) => element.checkVisibility({ contentVisibilityAuto: true });
    // Skipped: what the browser does not lay out again while the answer grows.
    await until(() => expect([rendered(link), rendered(last.querySelector('a')!)]).to.deep.equal([false, true]));
    expect(first.textContent).to.equal('Block 0, with a link.');
    // A screen reader reads all of it: every block's text and link are in the accessibility tree.
    const [logNode] = findAll(await accessibilityTree(), (node) => node.role === 'log');
    expect(spokenText(logNode!)).to.contain('Block 0, with a link.');
    expect(findAll(logNode!, (node) => node.role === 'link' && node.name === 'a link')).to.have.length(60);
    // A keyboard visitor reaches its link: it is laid out again, in view, when focused.
    link.focus();
    expect(chat.element.shadowRoot!.activeElement).to.equal(link);
    await until(() => expect(rendered(link)).to.equal(true));
    const [box, view] = [link.getBoundingClientRect(), log.getBoundingClientRect()];
    expect(box.top).to.be.at.least(view.top);
    expect(box.bottom).to.be.at.most(view.bottom);
  });
});

describe('<assist-chat> history', () => {
  it('an anonymous visitor’s conversation survives a reload, and New conversation clears it', async () => {
    worker.use(http.post(`${API}/chat`, () => HttpResponse.json(REPLY)));
    const first = await mountChat();
    expect(first.button(en.chatHistory)).to.equal(undefined);
    first.element.show();
    await first.ask('Where are the settings?');
    await until(() => expect(first.messages().at(-1)).to.equal('Open Settings.'));
    first.controller.destroy();

    let body: any;
    worker.use(http.post(`${API}/chat`, async ({ request }) => ((body = await request.json()), HttpResponse.json(REPLY))));
    const second = await mountChat();
    second.element.show();
    expect(second.messages()).to.deep.equal(['Hi!', 'Where are the settings?', 'Open Settings.']);
    expect(second.$('[part="source-link"]')!.textContent).to.equal('[1] Start');
    await second.ask('More?');
    await until(() => expect(body?.conversationId).to.equal('c_1'));
    await until(() => expect(second.messages()).to.have.length(5));

    second.button(en.chatNew)!.click();
    await second.element.updateComplete;
    expect(second.messages()).to.deep.equal(['Hi!']);
    second.controller.destroy();
    const third = await mountChat();
    expect(third.messages()).to.deep.equal(['Hi!']);
  });

  it('a signed visitor lists, opens, keeps, releases and deletes past conversations', async () => {
    const summary = (id: string, title: string, kept = false): ConversationSummary => ({
      id, title, kept, createdAt: '2025-03-01T10:00:00Z', updatedAt: '2025-03-02T10:00:00Z', expiresAt: kept ? null : '2025-04-01T10:00:00Z', messageCount: 2,
    });
    let stored = [summary('c_1', 'Invoices'), summary('c_2', 'Passwords')];
    const calls: string[] = [];
    worker.use(
      http.get(`${API}/conversations`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        calls.push(`list ${query.get('user')} ${query.get('hash')}`);
        return HttpResponse.json({ conversations: stored });
      }),
      http.get(`${API}/conversations/c_2`, () =>
        HttpResponse.json({
          ...stored[1],
          messages: [
            { role: 'user', text: 'Reset my password', createdAt: '2025-03-02T10:00:00Z' },
            { role: 'assistant', text: 'Use **Forgot password**.', sources: REPLY.sources, createdAt: '2025-03-02T10:00:01Z' },
          ],
        }),
      ),
      http.post(`${API}/conversations/c_1/keep`, async ({ request }) => {
        const { kept } = (await request.json()) as { kept: boolean };
        calls.push(`keep ${kept}`);
        stored = stored.map((item) => (item.id === 'c_1' ? summary('c_1', 'Invoices', kept) : item));
        return HttpResponse.json(stored[0]);
      }),
      http.delete(`${API}/conversations/c_2`, () => (calls.push('delete c_2'), new HttpResponse(null, { status: 204 }))),
      http.delete(`${API}/conversations`, () => (calls.push('delete all'), new HttpResponse(null, { status: 204 }))),
    );
    const chat = await mountChat({ user: { id: 'u1', hash: 'f00d' } });
    chat.element.show();
    chat.button(en.chatHistory)!.click();
    await until(() => expect(chat.$$('.history .title').map((title) => title.textContent)).to.deep.equal(['Invoices', 'Passwords']));
    expect(calls).to.deep.equal(['list u1 f00d']);
    expect(chat.$('.history h3')!.textContent).to.equal(en.chatHistoryTitle);

    chat.button(en.chatKeep)!.click();
    await until(() => expect(chat.$$('.history li')[0]!.textContent).to.contain(en.chatKept));
    chat.$$('.history li')[0]!.querySelectorAll('button')[1]!.click();
    await until(() => expect(calls).to.include('keep false'));
    expect(calls.filter((call) => call.startsWith('keep'))).to.deep.equal(['keep true', 'keep false']);

    chat.$$('.history .open')[1]!.click();
    await until(() => expect(chat.messages()).to.deep.equal(['Hi!', 'Reset my password', 'Use Forgot password.']));

    chat.button(en.chatHistory)!.click();
    await until(() => chat.$$('.history li').length === 2);
    const deleteButtons = chat.$$('.history li button[aria-label]');
    expect(deleteButtons.map((button) => button.getAttribute('aria-label'))).to.deep.equal([en.chatDelete, en.chatDelete]);
    deleteButtons[1]!.click();
    await until(() => expect(chat.$$('.history .title').map((title) => title.textContent)).to.deep.equal(['Invoices']));

    const originalConfirm = window.confirm;
    let asked = '';
    window.confirm = (question?: string) => ((asked = question ?? ''), true);
    try {
      chat.button(en.chatDeleteAll)!.click();
      await until(() => expect(chat.$('.history .note')?.textContent).to.equal(en.chatHistoryEmpty));
    } finally {
      window.confirm = originalConfirm;
    }
    expect(asked).to.equal(en.chatConfirmDeleteAll);
    expect(calls.slice(-2)).to.deep.equal(['delete c_2', 'delete all']);
    // The opened conversation was deleted, so the chat starts afresh.
    chat.button(en.chatBack)!.click();
    await chat.element.updateComplete;
    expect(chat.messages()).to.deep.equal(['Hi!']);
  });

  it('another visitor signing in never sees the previous one’s conversation', async () => {
    worker.use(http.post(`${API}/chat`, () => HttpResponse.json(REPLY)));
    const chat = await mountChat({ user: { id: 'u1', hash: 'f00d' } });
    chat.element.show();
    await chat.ask('My private question');
    await until(() => expect(chat.messages()).to.have.length(3));
    chat.element.client!.identify({ id: 'u2', hash: 'beef' });
    await chat.element.updateComplete;
    expect(chat.messages()).to.deep.equal(['Hi!']);
    chat.element.client!.identify();
    await chat.element.updateComplete;
    expect(chat.button(en.chatHistory)).to.equal(undefined);
  });

  it('a wrong identity hash shows a clear error and no conversations', async () => {
    worker.use(http.get(`${API}/conversations`, () => HttpResponse.json(errorBody('invalid_identity'), { status: 403 })));
    const chat = await mountChat({ user: { id: 'u1', hash: 'wrong' } });
    const errors = events(chat.element, 'assist-error');
    chat.element.show();
    chat.button(en.chatHistory)!.click();
    await until(() => expect(chat.$('.history [role="alert"]')?.textContent).to.equal(en.errorIdentity));
    expect(chat.$$('.history li')).to.have.length(0);
    expect(errors[0]!.detail.error.code).to.equal('invalid_identity');
  });
});

describe('<assist-chat> look and language', () => {
  it('takes theme and accents from the config; options override them but never branding', async () => {
    const config: WidgetConfig = { ...CONFIG, theme: 'dark', accent_light: '#112233', accent_dark: '#445566' };
    const chat = await mountChat({}, config);
    expect(chat.element.dataset.theme).to.equal('dark');
    expect(chat.element.style.getPropertyValue('--assist-accent-dark')).to.equal('#445566');
    expect(getComputedStyle(chat.$('[part="launcher"]')!).backgroundColor).to.equal('rgb(68, 85, 102)');
    expect(chat.$('[part="branding"]')!.textContent).to.equal(en.poweredBy);
    chat.controller.destroy();

    const overridden = await mountChat({ theme: 'light', accent_light: '#ff0000', branding: false } as WidgetMountOptions, config);
    expect(overridden.element.dataset.theme).to.equal('light');
    expect(getComputedStyle(overridden.$('[part="launcher"]')!).backgroundColor).to.equal('rgb(255, 0, 0)');
    expect(overridden.$('[part="branding"]')).to.not.equal(null);
    overridden.controller.destroy();

    const paid = await mountChat({}, { ...CONFIG, branding: false });
    expect(paid.$('[part="branding"]')).to.equal(null);
  });

  it('auto theme follows the visitor’s colour scheme', async () => {
    const chat = await mountChat({}, { ...CONFIG, theme: 'auto', accent_light: '#112233', accent_dark: '#445566' });
    const launcher = chat.$('[part="launcher"]')!;
    try {
      await emulateMedia({ colorScheme: 'dark' });
      expect(getComputedStyle(launcher).backgroundColor).to.equal('rgb(68, 85, 102)');
      await emulateMedia({ colorScheme: 'light' });
      expect(getComputedStyle(launcher).backgroundColor).to.equal('rgb(17, 34, 51)');
    } finally {
      await emulateMedia({ colorScheme: 'no-preference' as 'light' });
    }
  });

  it('speaks the browser’s language, else the widget’s default language, else English', async () => {
    const original = Object.getOwnPropertyDescriptor(navigator, 'languages');
    const prefer = (languages: string[]) => Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
    try {
      prefer(['de-AT', 'en']);
      const german = await mountChat({}, { ...CONFIG, default_language: 'ja' });
      expect(german.$('[part="launcher"]')!.getAttribute('aria-label')).to.equal(de.chatOpen);
      expect(german.panel().getAttribute('lang')).to.equal('de');
      expect(german.input().placeholder).to.equal(de.chatPlaceholder);
      german.controller.destroy();

      prefer(['sv-SE']);
      const japanese = await mountChat({}, { ...CONFIG, default_language: 'ja' });
      expect(japanese.$('[part="launcher"]')!.getAttribute('aria-label')).to.equal(ja.chatOpen);
      expect(japanese.button(ja.chatSend)).to.not.equal(undefined);
      japanese.controller.destroy();

      const english = await mountChat({}, { ...CONFIG, default_language: 'xx' });
      expect(english.$('[part="launcher"]')!.getAttribute('aria-label')).to.equal(en.chatOpen);
    } finally {
      if (original) Object.defineProperty(navigator, 'languages', original);
      else delete (navigator as { languages?: unknown }).languages;
    }
  });

  it('on a phone the panel takes the whole screen, the input is 16px and the page does not scroll', async () => {
    await setViewport({ width: 375, height: 700 });
    try {
      const chat = await mountChat({ placeholder: 'Ask us' });
      expect(chat.input().placeholder).to.equal('Ask us');
      chat.element.show();
      await chat.element.updateComplete;
      for (const animation of chat.panel().getAnimations()) animation.finish();
      const rect = chat.panel().getBoundingClientRect();
      expect([rect.left, rect.top, rect.width, rect.height]).to.deep.equal([0, 0, 375, 700]);
      expect(getComputedStyle(chat.input()).fontSize).to.equal('16px');
      expect(document.body.style.overflow).to.equal('hidden');
      chat.element.hide();
      expect(document.body.style.overflow).to.equal('');
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('respects reduced motion', async () => {
    const chat = await mountChat();
    chat.element.show();
    await chat.element.updateComplete;
    expect(parseFloat(getComputedStyle(chat.panel()).animationDuration)).to.be.greaterThan(0.1);
    await emulateMedia({ reducedMotion: 'reduce' });
    try {
      expect(parseFloat(getComputedStyle(chat.panel()).animationDuration)).to.be.lessThan(0.001);
    } finally {
      await emulateMedia({ reducedMotion: 'no-preference' });
    }
  });

  it('offers voice input in the UI language where the browser has speech recognition', async () => {
    const withoutSpeech = await mountChat({}, { ...CONFIG, speech_input: false });
    expect(withoutSpeech.$('[part="mic-button"]')).to.equal(null);
    withoutSpeech.controller.destroy();

    const speech = fakeSpeechRecognition('reset my password');
    try {
      const chat = await mountChat({}, { ...CONFIG, speech_input: true });
      const mic = chat.$('[part="mic-button"]')!;
      expect(mic.getAttribute('aria-label')).to.equal(en.speechStart);
      mic.click();
      await until(() => expect(chat.input().value).to.equal('reset my password'));
      expect(speech.started).to.deep.equal(['en']);
    } finally {
      speech.restore();
    }
  });
});

describe('<assist-chat> feedback, suggestions and focus', () => {

  it('every finished answer has Helpful / Not helpful; each choice, and the comment after Not helpful, is sent as feedback for that answer', async () => {
    const beacons = captureBeacons(cleanups);
    let answer = 0;
    worker.use(http.post(`${API}/chat`, () => HttpResponse.json({ ...REPLY, answerId: `a_${++answer}` })));
    container('feedback');
    const chat = await mountChat({ variant: 'inline', target: '#feedback' });
    await chat.ask('First question');
    await until(() => chat.$$('[part="feedback"]').length === 1);
    await chat.ask('Second question');
    await until(() => chat.$$('[part="feedback"]').length === 2);
    const [first, second] = chat.$$('[part="feedback"]');
    expect(first!.getAttribute('aria-label')).to.equal(en.feedbackQuestion);
    const buttons = (group: HTMLElement) => [...group.querySelectorAll('button')];
    expect(buttons(second!).map((button) => button.textContent!.trim())).to.deep.equal([en.feedbackHelpful, en.feedbackUnhelpful]);

    buttons(second!)[1]!.click();
    await until(() => beacons.length === 1);
    expect(beacons[0]!.body.events[0]).to.deep.include({ name: 'feedback', props: { answerId: 'a_2', value: 'unhelpful' } });
    await chat.element.updateComplete;
    expect(buttons(second!)[1]!.getAttribute('aria-pressed')).to.equal('true');
    const comment = second!.querySelector('input')!;
    comment.focus();
    await sendKeys({ type: 'Too vague' });
    await sendKeys({ press: 'Enter' });
    await until(() => beacons.length === 2);
    expect(beacons[1]!.body.events[0].props).to.deep.equal({ answerId: 'a_2', value: 'unhelpful', comment: 'Too vague' });
    // The comment's Enter sends the comment, never a chat message.
    expect(requests.requests.filter((request) => request.url.endsWith('/chat'))).to.have.length(2);
    await chat.element.updateComplete;
    expect(second!.querySelector('.feedback-thanks')!.textContent).to.equal(en.feedbackThanks);

    buttons(first!)[0]!.click();
    await until(() => beacons.length === 3);
    expect(beacons[2]!.body.events[0].props).to.deep.equal({ answerId: 'a_1', value: 'helpful' });
  });

  it('an answer still streaming, stopped or failed has no feedback buttons', async () => {
    const stream = controlledStream();
    worker.use(http.post(`${API}/chat`, () => stream.response()));
    container('feedback');
    const chat = await mountChat({ variant: 'inline', target: '#feedback' });
    await chat.ask('How?');
    stream.send(...chatEvents(REPLY, ['Partial answer']).slice(0, 5));
    await until(() => chat.messages().includes('Partial answer'));
    expect(chat.$('[part="feedback"]')).to.equal(null);
    chat.button(en.chatStop)!.click();
    await until(() => chat.$('.note'));
    expect(chat.$('[part="feedback"]')).to.equal(null);
  });

  it('an empty conversation offers the widget’s suggested questions; one click asks it', async () => {
    let body: any;
    worker.use(http.post(`${API}/chat`, async ({ request }) => ((body = await request.json()), HttpResponse.json(REPLY))));
    container('feedback');
    const chat = await mountChat({ variant: 'inline', target: '#feedback' }, { ...CONFIG, suggestions: ['How do I install the widget?', 'Can I change the colours?'] });
    const group = chat.$('[part="suggestions"]')!;
    expect(group.getAttribute('aria-label')).to.equal(en.suggestions);
    expect([...group.querySelectorAll('button')].map((button) => button.textContent)).to.deep.equal(['How do I install the widget?', 'Can I change the colours?']);
    group.querySelectorAll('button')[1]!.click();
    await until(() => body?.message === 'Can I change the colours?');
    await chat.element.updateComplete;
    expect(chat.$('[part="suggestions"]')).to.equal(null);
  });

  it('sendMessage() opens the panel and asks, as the search widget’s Ask AI does', async () => {
    let body: any;
    worker.use(http.post(`${API}/chat`, async ({ request }) => ((body = await request.json()), HttpResponse.json(REPLY))));
    const chat = await mountChat();
    expect(chat.element.open).to.equal(false);
    await chat.element.sendMessage('reset password');
    expect(chat.element.open).to.equal(true);
    await until(() => body?.message === 'reset password');
    await until(() => chat.messages().includes('Open Settings.'));
  });

  it('the message field shows one focus ring: the form’s, not also the field’s outline', async () => {
    container('feedback');
    const chat = await mountChat({ variant: 'inline', target: '#feedback' });
    chat.input().focus();
    await sendKeys({ press: 'a' });
    const field = getComputedStyle(chat.input());
    expect(field.outlineStyle).to.equal('none');
    const form = getComputedStyle(chat.$('form')!);
    expect(form.boxShadow).to.not.equal('none');
  });

  it('has no serious or critical axe violations with feedback and its comment showing, and with suggestions', async () => {
    const axe = await loadAxe();
    worker.use(http.post(`${API}/chat`, () => HttpResponse.json(REPLY)));
    for (const theme of ['light', 'dark'] as const) {
      container('feedback');
    const chat = await mountChat({ variant: 'inline', target: '#feedback', theme }, { ...CONFIG, suggestions: ['How do I install the widget?'] });
      const suggested = await axe.run(chat.element, { resultTypes: ['violations'] });
      expect(suggested.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${theme}: ${violation.id}`)).to.deep.equal([]);
      await chat.ask('How?');
      await until(() => chat.$('[part="feedback"]'));
      chat.$$('[part="feedback"] button')[1]!.click();
      await chat.element.updateComplete;
      const rated = await axe.run(chat.element, { resultTypes: ['violations'] });
      expect(rated.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${theme}: ${violation.id}`)).to.deep.equal([]);
      chat.controller.destroy();
      chat.element.client?.history.clear();
    }
  });
});
