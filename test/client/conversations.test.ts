import { expect } from '@esm-bundle/chai';
import { http, HttpResponse } from 'msw';
import { createClient } from '../../src/client/client.js';
import { AssistError } from '../../src/core/errors.js';
import type { Conversation, ConversationSummary } from '../../wire/contract.js';
import { API, REPLY, WIDGET_ID, WIDGET_KEY, rejectionOf, useMockApi, worker } from './support.js';

const api = useMockApi();

const SUMMARY: ConversationSummary = {
  id: 'c_1',
  title: 'Reset password',
  kept: false,
  createdAt: '2025-01-01T10:00:00.000Z',
  updatedAt: '2025-01-01T10:01:00.000Z',
  expiresAt: '2025-01-31T10:01:00.000Z',
  messageCount: 2,
};
const CONVERSATION: Conversation = {
  ...SUMMARY,
  messages: [
    { role: 'user', text: 'How?', createdAt: SUMMARY.createdAt },
    { role: 'assistant', text: 'Like this.', answerId: 'a_1', sources: REPLY.sources, createdAt: SUMMARY.updatedAt },
  ],
};
const USER = { id: 'user 42', hash: '0a1b2c' };

function identityOf(request: Request) {
  const url = new URL(request.url);
  return { user: url.searchParams.get('user'), hash: url.searchParams.get('hash') };
}

describe('conversation routes without a signed visitor', () => {
  const calls: [string, (client: ReturnType<typeof createClient>) => Promise<unknown>][] = [
    ['listConversations', (client) => client.listConversations()],
    ['getConversation', (client) => client.getConversation('c_1')],
    ['keepConversation', (client) => client.keepConversation('c_1')],
    ['deleteConversation', (client) => client.deleteConversation('c_1')],
    ['deleteConversations', (client) => client.deleteConversations()],
  ];
  for (const [name, call] of calls) {
    it(`${name} rejects with invalid_identity and sends nothing`, async () => {
      for (const user of [undefined, { id: 'u1' }]) {
        const error = await rejectionOf(call(createClient(WIDGET_KEY, { user })));
        expect(error).to.be.instanceOf(AssistError);
        expect(error.code).to.equal('invalid_identity');
      }
      expect(api.requests).to.have.length(0);
    });
  }
});

describe('conversation routes for a signed visitor', () => {
  it('listConversations sends user and hash as query parameters and returns the list', async () => {
    let identity: unknown;
    worker.use(
      http.get(`${API}/conversations`, ({ request }) => {
        identity = identityOf(request);
        return HttpResponse.json({ conversations: [SUMMARY, { ...SUMMARY, id: 'c_0', kept: true, expiresAt: null }] });
      }),
    );
    const list = await createClient(WIDGET_KEY, { user: USER }).listConversations();
    expect(identity).to.deep.equal({ user: 'user 42', hash: '0a1b2c' });
    expect(list.map((summary) => summary.id)).to.deep.equal(['c_1', 'c_0']);
    expect(list[1]!.expiresAt).to.equal(null);
  });

  it('getConversation returns the transcript', async () => {
    let identity: unknown;
    worker.use(
      http.get(`${API}/conversations/:id`, ({ request, params }) => {
        identity = { ...identityOf(request), id: params.id };
        return HttpResponse.json(CONVERSATION);
      }),
    );
    expect(await createClient(WIDGET_KEY, { user: USER }).getConversation('c_1')).to.deep.equal(CONVERSATION);
    expect(identity).to.deep.equal({ user: 'user 42', hash: '0a1b2c', id: 'c_1' });
  });

  it('keepConversation posts {user, hash, kept}, kept by default and false to release', async () => {
    const bodies: unknown[] = [];
    worker.use(
      http.post(`${API}/conversations/c_1/keep`, async ({ request }) => {
        const body = (await request.json()) as { kept: boolean };
        bodies.push(body);
        return HttpResponse.json({ ...SUMMARY, kept: body.kept, expiresAt: body.kept ? null : SUMMARY.expiresAt });
      }),
    );
    const client = createClient(WIDGET_KEY, { user: USER });
    expect((await client.keepConversation('c_1')).kept).to.equal(true);
    expect((await client.keepConversation('c_1', false)).kept).to.equal(false);
    expect(bodies).to.deep.equal([
      { user: 'user 42', hash: '0a1b2c', kept: true },
      { user: 'user 42', hash: '0a1b2c', kept: false },
    ]);
  });

  it('deleteConversation deletes one and forgets it locally when it is the current one', async () => {
    let deleted: unknown;
    worker.use(
      http.post(`${API}/chat`, () => HttpResponse.json(REPLY)),
      http.delete(`${API}/conversations/:id`, ({ request, params }) => {
        deleted = { ...identityOf(request), id: params.id };
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const client = createClient(WIDGET_KEY, { user: USER });
    await client.chat('hi');
    expect(await client.deleteConversation('c_other')).to.equal(undefined);
    expect(client.history.load()?.conversationId).to.equal('c_1');
    await client.deleteConversation('c_1');
    expect(deleted).to.deep.equal({ user: 'user 42', hash: '0a1b2c', id: 'c_1' });
    expect(client.history.load()).to.equal(null);
  });

  it('deleteConversations deletes all and clears the local history', async () => {
    let identity: unknown;
    worker.use(
      http.post(`${API}/chat`, () => HttpResponse.json(REPLY)),
      http.delete(`${API}/conversations`, ({ request }) => {
        identity = identityOf(request);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const client = createClient(WIDGET_KEY, { user: USER });
    await client.chat('hi');
    await client.deleteConversations();
    expect(identity).to.deep.equal({ user: 'user 42', hash: '0a1b2c' });
    expect(client.history.load()).to.equal(null);
  });

  it('encodes the conversation id into the path', async () => {
    let path = '';
    worker.use(
      http.get(`${API}/conversations/*`, ({ request }) => {
        path = new URL(request.url).pathname;
        return HttpResponse.json(CONVERSATION);
      }),
    );
    await createClient(WIDGET_KEY, { user: USER }).getConversation('../config');
    expect(path).to.equal(`/api/v1/acme/widgets/${WIDGET_ID}/conversations/..%2Fconfig`);
  });

  it('uses the identity set later through identify()', async () => {
    let identity: unknown;
    worker.use(
      http.get(`${API}/conversations`, ({ request }) => {
        identity = identityOf(request);
        return HttpResponse.json({ conversations: [] });
      }),
    );
    const client = createClient(WIDGET_KEY);
    client.identify({ id: 'later', hash: 'ffee' });
    await client.listConversations();
    expect(identity).to.deep.equal({ user: 'later', hash: 'ffee' });
  });

  it('rejects answers of the wrong shape as invalid_response', async () => {
    worker.use(
      http.get(`${API}/conversations`, () => HttpResponse.json({ conversations: [{ id: 'c_1' }] })),
      http.get(`${API}/conversations/:id`, () => HttpResponse.json({ ...SUMMARY, messages: [{ role: 'robot', text: 'x', createdAt: 'y' }] })),
    );
    const client = createClient(WIDGET_KEY, { user: USER });
    expect(await rejectionOf(client.listConversations())).to.include({ code: 'invalid_response' });
    expect(await rejectionOf(client.getConversation('c_1'))).to.include({ code: 'invalid_response' });
  });
});
