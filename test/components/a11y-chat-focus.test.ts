/**
 * Focus through sending, stopping and retrying in the chat (APG dialog pattern): it stays on one
 * control, or moves to the new one on purpose, and Escape still closes the panel.
 */
import { expect } from '@esm-bundle/chai';
import { sendKeys } from '@web/test-runner-commands';
import { en } from '../../src/i18n/translations/en.js';
import { controlledStream, useMockApi } from '../client/support.js';
import { accessibilityTree, answerEvents, chatApi, cleanUp, findAll, mountChat, tick, until } from './a11y-support.js';

useMockApi();
afterEach(cleanUp);

/** The focused node of Chromium's accessibility tree: what a screen reader says has focus. */
async function focusedNode() {
  const [node] = findAll(await accessibilityTree(), (candidate) => candidate.focused === true);
  return node ? { role: node.role, name: node.name } : null;
}

async function openWithKeyboard(chat: Awaited<ReturnType<typeof mountChat>>) {
  chat.$('[part="launcher"]')!.focus();
  await sendKeys({ press: 'Enter' });
  await until(() => chat.active() === chat.input());
}

async function expectEscapeCloses(chat: Awaited<ReturnType<typeof mountChat>>) {
  await sendKeys({ press: 'Escape' });
  await chat.element.updateComplete;
  expect(chat.$('[part="panel"]')!.hidden, 'Escape closes the panel').to.equal(true);
  expect(chat.active()).to.equal(chat.$('[part="launcher"]'));
}

/** An open panel with a question typed and focus on Send, the answer to come from `stream`. */
async function typedWithSendFocused() {
  const stream = controlledStream();
  chatApi(() => stream.response());
  const chat = await mountChat();
  await openWithKeyboard(chat);
  await sendKeys({ type: 'How do I reset?' });
  await sendKeys({ press: 'Tab' });
  return { stream, chat, button: chat.active() as HTMLButtonElement };
}

describe('a11y: focus through send, stop and retry in the chat', () => {
  it('Enter on Send keeps focus on that button, which says Stop while the answer streams and Send after it', async () => {
    const { stream, chat, button: send } = await typedWithSendFocused();
    expect(send.getAttribute('aria-label')).to.equal(en.chatSend);

    await sendKeys({ press: 'Enter' });
    await until(() => expect(chat.$$('.message.user')).to.have.length(1));
    await chat.element.updateComplete;
    expect(chat.active(), 'focus stays on the button while the answer streams').to.equal(send);
    expect(send.getAttribute('aria-label')).to.equal(en.chatStop);
    expect(await focusedNode()).to.deep.equal({ role: 'button', name: en.chatStop });

    for (const event of answerEvents('Open the settings.')) stream.send(event);
    stream.close();
    await until(() => expect(send.getAttribute('aria-label')).to.equal(en.chatSend));
    expect(chat.active(), 'and after it ends').to.equal(send);
    expect(await focusedNode()).to.deep.equal({ role: 'button', name: en.chatSend });
    await expectEscapeCloses(chat);
  });

  it('Enter on Stop stops the answer and leaves focus on the same button, now Send', async () => {
    const { stream, chat, button } = await typedWithSendFocused();
    await sendKeys({ press: 'Enter' });
    stream.send(['meta', { conversationId: 'c_1', answerId: 'a_1' }], ['token', { delta: 'Open ' }]);
    await until(() => expect(button.getAttribute('aria-label')).to.equal(en.chatStop));

    await sendKeys({ press: 'Enter' });
    await until(() => expect(chat.$('.note')?.textContent).to.equal(en.chatStopped));
    await chat.element.updateComplete;
    expect(chat.active()).to.equal(button);
    expect(button.getAttribute('aria-label')).to.equal(en.chatSend);
    expect(await focusedNode()).to.deep.equal({ role: 'button', name: en.chatSend });
    await expectEscapeCloses(chat);
  });

  it('Try again moves focus on purpose to the button that can stop the new answer, and Escape still closes', async () => {
    let calls = 0;
    const second = controlledStream();
    chatApi(() => (++calls === 1 ? [['meta', { conversationId: 'c_1', answerId: 'a_1' }], ['error', { error: { code: 'internal', message: 'boom' } }]] : second.response()));
    const chat = await mountChat();
    await openWithKeyboard(chat);
    await sendKeys({ type: 'How do I reset?' });
    await sendKeys({ press: 'Enter' });
    const retry = () => chat.$$('.actions button').find((button) => button.textContent!.includes(en.retry));
    await until(() => expect(retry()).to.exist);
    retry()!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => expect(calls).to.equal(2));
    await chat.element.updateComplete;
    await tick();
    const send = chat.$('.send')!;
    expect(chat.active(), 'focus did not fall to the page').to.equal(send);
    expect(await focusedNode()).to.deep.equal({ role: 'button', name: en.chatStop });
    for (const event of answerEvents('Open the settings.')) second.send(event);
    second.close();
    await until(() => expect(send.getAttribute('aria-label')).to.equal(en.chatSend));
    expect(chat.active()).to.equal(send);
    await expectEscapeCloses(chat);
  });
});
