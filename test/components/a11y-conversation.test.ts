/**
 * Who said what, and which source is which, for a screen reader (WCAG 1.3.1, 2.4.4): messages as
 * a list in a named log, each with its speaker; sources named by page and section, with their
 * citation number read as part of the link.
 */
import { expect } from '@esm-bundle/chai';
import { en } from '../../src/i18n/translations/en.js';
import { useMockApi } from '../client/support.js';
import { CHAT_CONFIG, LANGUAGES, accessibilityTree, answeredChat, browserLanguages, cleanUp, findAll, mountChat, outermost, spokenText, summarisedSearch, until } from './a11y-support.js';

useMockApi();
afterEach(cleanUp);

for (const [locale, browserTag, strings] of LANGUAGES) {
  describe(`a11y: the conversation for a screen reader, UI in ${locale}`, () => {
    beforeEach(() => browserLanguages([browserTag]));

    it('messages are items of a list inside a named log, each starting with its speaker', async () => {
      const chat = await answeredChat();
      const log = chat.$('[part="messages"]')!;
      expect(log.getAttribute('role')).to.equal('log');
      expect(log.getAttribute('aria-label')).to.equal(strings.chatLog);
      // One announcement per answer comes from the status region, never token by token from the log.
      expect(log.getAttribute('aria-live')).to.equal('off');

      const [logNode] = findAll(await accessibilityTree(), (node) => node.role === 'log');
      expect(logNode?.name).to.equal(strings.chatLog);
      const [list] = findAll(logNode!, (node) => node.role === 'list');
      const items = outermost(list!, 'listitem').map(spokenText);
      expect(items).to.have.length(3);
      expect(items[0]).to.match(new RegExp(`^Help:`), 'the greeting, by the widget');
      expect(items[1]).to.match(new RegExp(`^${strings.chatYou}:.*Error E42\\?`));
      expect(items[2]).to.match(/^Help:.*Restart the engine/);
    });
  });
}

describe('a11y: suggested questions and feedback buttons in the conversation', () => {
  it('an answer’s item holds its speaker, its text and its named Helpful / Not helpful buttons; the suggestions stay outside the list', async () => {
    const suggestions = ['How do I clear error E42?'];
    const empty = await mountChat({}, { ...CHAT_CONFIG, suggestions });
    empty.element.show();
    await empty.element.updateComplete;
    let [log] = findAll(await accessibilityTree(), (node) => node.role === 'log');
    let [list] = findAll(log!, (node) => node.role === 'list');
    expect((list!.children ?? []).map((node) => node.role)).to.deep.equal(['listitem'], 'only the greeting in the list');
    expect(findAll(log!, (node) => node.role === 'group' && node.name === en.suggestions)).to.have.length(1);
    expect(findAll(list!, (node) => node.role === 'button')).to.deep.equal([]);
    await cleanUp();

    const chat = await answeredChat();
    await until(() => expect(chat.$('[part="feedback"]')).to.exist);
    [log] = findAll(await accessibilityTree(), (node) => node.role === 'log');
    [list] = findAll(log!, (node) => node.role === 'list');
    const answer = outermost(list!, 'listitem').at(-1)!;
    expect(spokenText(answer)).to.match(/^Help:.*Restart the engine/);
    const [feedback] = findAll(answer, (node) => node.role === 'group' && node.name === en.feedbackQuestion);
    expect(feedback, 'the rating belongs to its answer').to.exist;
    expect(findAll(feedback!, (node) => node.role === 'button').map((node) => node.name)).to.deep.equal([en.feedbackHelpful, en.feedbackUnhelpful]);
    for (const button of chat.$$('[part="feedback"] button')) expect(button.getBoundingClientRect().height, '24 px targets').to.be.at.least(24);
  });
});

describe('a11y: sources name their section and carry their number', () => {
  it('chat: two sections of one page get two different link names, “[n] page › section”', async () => {
    const chat = await answeredChat();
    const links = findAll(await accessibilityTree(), (node) => node.role === 'link').map((node) => node.name);
    expect(links).to.include.members(['[1] Troubleshooting ignition › Error E42', '[2] Troubleshooting ignition › Error E77']);
    expect(chat.$('.sources [aria-hidden="true"]'), 'no citation number hidden').to.equal(null);
  });

  it('chat: the names survive a reload (the conversation kept in this browser keeps the sections)', async () => {
    await answeredChat();
    const reloaded = await mountChat();
    reloaded.element.show();
    await reloaded.element.updateComplete;
    expect(reloaded.$$('[part="source-link"]').map((link) => link.textContent)).to.deep.equal(['[1] Troubleshooting ignition › Error E42', '[2] Troubleshooting ignition › Error E77']);
  });

  it('search: the summary’s sources too', async () => {
    const search = await summarisedSearch();
    const links = findAll(await accessibilityTree(), (node) => node.role === 'link').map((node) => node.name);
    expect(links).to.include.members(['[1] Troubleshooting ignition › Error E42', '[2] Troubleshooting ignition › Error E77']);
    expect(search.$('.summary-sources [aria-hidden="true"]')).to.equal(null);
  });
});
