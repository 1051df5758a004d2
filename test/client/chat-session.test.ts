import { expect } from '@esm-bundle/chai';
import { http, HttpResponse } from 'msw';
import { ChatSession, type ChatSessionEvents } from '../../src/client/chat-session.js';
import { createClient } from '../../src/client/client.js';
import type { Conversation } from '../../wire/contract.js';
import { API, REPLY, WIDGET_KEY, chatEvents, controlledStream, errorBody, sseResponse, until, useMockApi, worker } from './support.js';

const api = useMockApi();

const USER = { id: 'user-42', hash: '0a1b2c' };
const SECOND_REPLY = { ...REPLY, text: 'Then **Save**.', answerId: 'a_2' };

/** Chat requests' bodies, in order. */
async function chatBodies(): Promise<any[]> {
  return Promise.all(api.requests.filter((request) => request.url.endsWith('/chat')).map((request) => request.clone().json()));
}

function newSession(options: Parameters<typeof createClient>[1] = {}): ChatSession {
  const session = new ChatSession(createClient(WIDGET_KEY, options));
  cleanups.push(() => session.client.dispose());
  return session;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('ChatSession', () => {
  it('sends a question and streams the answer into the conversation, then continues it', async () => {
    worker.use(http.post(`${API}/chat`, () => sseResponse(chatEvents())));
    const session = newSession();
    const sent: ChatSessionEvents['message'][] = [];
    session.on('message', (event) => sent.push(event));
    const streamed: string[] = [];
    session.on('token', ({ message }) => streamed.push(message.text));

    expect(session.send('  How do I reset it?  ')).to.equal(true);
    expect(session.state.messages.map((message) => [message.role, message.text, message.state])).to.deep.equal([
      ['user', 'How do I reset it?', 'done'],
      ['assistant', '', 'streaming'],
    ]);
    await until(() => session.state.messages[1]!.state === 'done');

    const answer = session.state.messages[1]!;
    expect(answer).to.include({ text: REPLY.text, answerId: REPLY.answerId, question: 'How do I reset it?' });
    expect(answer.sources).to.deep.equal(REPLY.sources);
    expect(streamed).to.deep.equal(['Open ', 'Open **Settings**', 'Open **Settings**.']);
    expect(session.state.conversationId).to.equal(REPLY.conversationId);
    expect(sent.map(({ message, conversationId }) => [message.role, conversationId])).to.deep.equal([
      ['user', null],
      ['assistant', REPLY.conversationId],
    ]);

    worker.use(http.post(`${API}/chat`, () => sseResponse(chatEvents(SECOND_REPLY))));
    session.send('And then?');
    await until(() => session.state.messages[3]?.state === 'done');
    const bodies = await chatBodies();
    expect(bodies.map((body) => [body.message, body.conversationId])).to.deep.equal([
      ['How do I reset it?', undefined],
      ['And then?', REPLY.conversationId],
    ]);
  });

  it('sends nothing for an empty question, nor while an answer is being written', async () => {
    const stream = controlledStream();
    worker.use(http.post(`${API}/chat`, () => stream.response()));
    const session = newSession();
    expect(session.send('   ')).to.equal(false);
    expect(session.send('First?')).to.equal(true);
    await until(() => session.busy);
    expect(session.send('Second?')).to.equal(false);
    stream.send(...chatEvents());
    stream.close();
    await until(() => !session.busy);
    expect(session.state.messages.map((message) => message.text)).to.deep.equal(['First?', REPLY.text]);
    expect(await chatBodies()).to.have.length(1);
  });

  it('retry asks the failed question again, the new answer in the failed one\'s place', async () => {
    worker.use(http.post(`${API}/chat`, () => HttpResponse.json(errorBody('internal'), { status: 500 }), { once: true }));
    const session = newSession();
    const errors: string[] = [];
    session.on('error', ({ error }) => errors.push(error.code));
    session.send('How do I reset it?');
    await until(() => session.state.messages[1]!.state === 'failed');
    const failed = session.state.messages[1]!;
    expect(failed.error?.code).to.equal('internal');
    expect(errors).to.deep.equal(['internal']);

    worker.use(http.post(`${API}/chat`, () => sseResponse(chatEvents())));
    session.retry(failed);
    await until(() => session.state.messages[1]!.state === 'done');
    expect(session.state.messages.map((message) => [message.role, message.text])).to.deep.equal([
      ['user', 'How do I reset it?'],
      ['assistant', REPLY.text],
    ]);
    expect((await chatBodies()).map((body) => body.message)).to.deep.equal(['How do I reset it?', 'How do I reset it?']);
  });

  it('stop keeps the answer as far as it got, marked stopped, without an error', async () => {
    const stream = controlledStream();
    worker.use(http.post(`${API}/chat`, () => stream.response()));
    const session = newSession();
    const errors: unknown[] = [];
    session.on('error', (event) => errors.push(event));
    session.send('How?');
    stream.send(['meta', { conversationId: 'c_1', answerId: 'a_1' }], ['token', { delta: 'Open the' }]);
    await until(() => session.state.messages[1]!.text === 'Open the');
    session.stop();
    await until(() => session.state.messages[1]!.state === 'stopped');
    expect(session.state.messages[1]!.text).to.equal('Open the');
    expect(errors).to.deep.equal([]);
  });

  it('starts over when another visitor is identified, and keeps the conversation when the same one signs', async () => {
    worker.use(http.post(`${API}/chat`, () => sseResponse(chatEvents())));
    const session = newSession({ user: { id: USER.id } });
    session.send('How?');
    await until(() => session.state.messages[1]?.state === 'done');

    session.client.identify(USER);
    expect(session.state.messages).to.have.length(2, 'the same visitor, now signed, keeps the conversation');

    session.client.identify({ id: 'someone-else' });
    expect(session.state.messages).to.deep.equal([]);
    expect(session.state.conversationId).to.equal(null);
    expect(session.client.history.load()).to.equal(null);
  });

  it('an answer still arriving after starting over never comes back', async () => {
    const stream = controlledStream();
    worker.use(http.post(`${API}/chat`, () => stream.response()));
    const session = newSession();
    session.send('How?');
    await until(() => session.busy);
    session.startOver();
    stream.send(...chatEvents());
    stream.close();
    await until(() => !session.busy);
    expect(session.state.messages).to.deep.equal([]);
    expect(session.state.conversationId).to.equal(null);
  });

  it('restores the conversation kept in this browser, an unfinished answer as stopped', () => {
    createClient(WIDGET_KEY).history.save({
      conversationId: 'c_9',
      messages: [
        { role: 'user', text: 'How?', createdAt: '2025-01-01T10:00:00.000Z' },
        { role: 'assistant', text: 'Like this.', answerId: 'a_9', createdAt: '2025-01-01T10:00:01.000Z' },
      ],
    });
    const session = newSession();
    expect(session.state.conversationId).to.equal('c_9');
    expect(session.state.messages.map((message) => [message.role, message.text, message.question, message.answerId])).to.deep.equal([
      ['user', 'How?', 'How?', undefined],
      ['assistant', 'Like this.', 'How?', 'a_9'],
    ]);

    session.restore([{ role: 'user', text: 'Why?', createdAt: '' }, { role: 'assistant', text: 'Because', complete: false, createdAt: '' }], 'c_8');
    expect(session.state.messages[1]!.state).to.equal('stopped');
  });

  it('opens a past conversation of a signed visitor and continues it', async () => {
    const conversation: Conversation = {
      id: 'c_7',
      title: 'Reset',
      kept: false,
      createdAt: '2025-01-01T10:00:00.000Z',
      updatedAt: '2025-01-01T10:01:00.000Z',
      expiresAt: '2025-01-31T10:01:00.000Z',
      messageCount: 2,
      messages: [
        { role: 'user', text: 'How?', createdAt: '2025-01-01T10:00:00.000Z' },
        { role: 'assistant', text: 'Like this.', createdAt: '2025-01-01T10:01:00.000Z' },
      ],
    };
    const { messages, ...summary } = conversation;
    worker.use(
      http.get(`${API}/conversations`, () => HttpResponse.json({ conversations: [summary] })),
      http.get(`${API}/conversations/c_7`, () => HttpResponse.json(conversation)),
      http.post(`${API}/chat`, () => sseResponse(chatEvents({ ...REPLY, conversationId: 'c_7' }))),
    );
    const session = newSession({ user: USER });
    expect(await session.loadConversations()).to.equal(true);
    expect(session.state.conversations).to.deep.equal([summary]);
    expect(await session.openConversation('c_7')).to.equal(true);
    expect(session.state.messages.map((message) => message.text)).to.deep.equal(['How?', 'Like this.']);
    expect(session.client.history.load()?.conversationId).to.equal('c_7');

    session.send('And then?');
    await until(() => session.state.messages[3]?.state === 'done');
    expect((await chatBodies()).find((body) => body.message === 'And then?')?.conversationId).to.equal('c_7');
  });

  it('a history action that fails says why in historyError and as an error event', async () => {
    const session = newSession({ user: { id: 'unsigned' } });
    const errors: string[] = [];
    session.on('error', ({ error }) => errors.push(error.code));
    expect(await session.loadConversations()).to.equal(false);
    expect(session.state.historyError?.code).to.equal('invalid_identity');
    expect(errors).to.deep.equal(['invalid_identity']);
  });

  it('while the history loads again, neither the old list nor the old error shows', async () => {
    worker.use(http.get(`${API}/conversations`, () => HttpResponse.json(errorBody('invalid_identity'), { status: 403 }), { once: true }));
    const session = newSession({ user: USER });
    expect(await session.loadConversations()).to.equal(false);
    expect(session.state.historyError?.code).to.equal('invalid_identity');

    let answer!: () => void;
    worker.use(http.get(`${API}/conversations`, () => new Promise<Response>((resolve) => (answer = () => resolve(HttpResponse.json({ conversations: [] }))))));
    const loading = session.loadConversations();
    expect(session.state.historyError).to.equal(null);
    expect(session.state.conversations).to.equal(null);
    await until(() => answer !== undefined);
    answer();
    expect(await loading).to.equal(true);
    expect(session.state.conversations).to.deep.equal([]);
  });

  it('deleting the conversation on screen starts over; deleting another keeps it', async () => {
    worker.use(
      http.post(`${API}/chat`, () => sseResponse(chatEvents())),
      http.delete(`${API}/conversations/:id`, () => new HttpResponse(null, { status: 204 })),
    );
    const session = newSession({ user: USER });
    session.send('How?');
    await until(() => session.state.messages[1]?.state === 'done');
    await session.deleteConversations('c_other');
    expect(session.state.messages).to.have.length(2);
    await session.deleteConversations(REPLY.conversationId);
    expect(session.state.messages).to.deep.equal([]);
    expect(session.state.conversationId).to.equal(null);
  });

  it('hands every change to subscribers as a new state, and stops after unsubscribing', async () => {
    worker.use(http.post(`${API}/chat`, () => sseResponse(chatEvents())));
    const session = newSession();
    const states: unknown[] = [];
    const unsubscribe = session.subscribe((state) => states.push(state));
    session.send('How?');
    await until(() => session.state.messages[1]?.state === 'done');
    expect(states.length).to.be.greaterThan(1);
    expect(new Set(states).size).to.equal(states.length);
    expect(states.at(-1)).to.equal(session.state);
    unsubscribe();
    session.startOver();
    expect(states.at(-1)).to.not.equal(session.state);
  });
});
