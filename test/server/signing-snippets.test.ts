/**
 * The signing snippets of docs/identity.md, run as an integrator would run them (Node and
 * Python child processes), produce hashes the server accepts: a visitor signed by them
 * chats and lists their conversations; a tampered hash is refused with invalid_identity.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { baseFixture, startTestServer, type TestServer } from './harness.js';

const docsFile = (path: string) => fileURLToPath(new URL(`../../docs/${path}`, import.meta.url));

interface Snippet {
  file: string;
  /** The fence language the doc shows the snippet under. */
  fence: string;
  command: string;
}

const SNIPPETS: Snippet[] = [
  { file: 'snippets/sign.mjs', fence: 'js', command: process.execPath },
  { file: 'snippets/sign.py', fence: 'python', command: 'python3' },
];

/** Runs a snippet from the command line, as its header comment tells an integrator to. */
function runSnippet(snippet: Snippet, visitorId: string, signingSecret: string): string {
  return execFileSync(snippet.command, [docsFile(snippet.file), visitorId], {
    env: { ...process.env, ASSIST_SIGNING_SECRET: signingSecret },
    encoding: 'utf8',
  }).trim();
}

const SIGNING_SECRET = 'sig_test_help';
const CONVERSATIONS = '/api/v1/acme/widgets/help/conversations';
const token = 'ws_test_help';

let server: TestServer;
before(async () => {
  const python = spawnSync('python3', ['--version']);
  if (python.error || python.status !== 0) {
    throw new Error('python3 is needed to run docs/snippets/sign.py in this test; install Python 3 (e.g. apt-get install python3) and run again.');
  }
  server = await startTestServer({ fixture: baseFixture() });
});
after(() => server?.stop());

describe('signing snippets in the docs', () => {
  test('docs/identity.md shows each snippet file exactly as it is', () => {
    const doc = readFileSync(docsFile('identity.md'), 'utf8');
    for (const snippet of SNIPPETS) {
      const text = readFileSync(docsFile(snippet.file), 'utf8');
      assert.ok(doc.includes('```' + snippet.fence + '\n' + text + '```'), `docs/identity.md does not show docs/${snippet.file} verbatim`);
    }
  });

  for (const snippet of SNIPPETS) {
    test(`${snippet.file}: its hash signs a visitor in; a tampered one is refused`, async () => {
      // An id with non-ASCII characters checks that both sides hash the same UTF-8 bytes.
      for (const visitorId of [`visitor-${snippet.fence}`, `zoë ✓ ${snippet.fence}`]) {
        const hash = runSnippet(snippet, visitorId, SIGNING_SECRET);
        assert.match(hash, /^[0-9a-f]{64}$/);

        const chat = await server.request('POST', '/api/v1/acme/widgets/help/chat', {
          token,
          body: { message: 'How do I install the widget?', user: { id: visitorId, hash } },
        });
        assert.equal(chat.status, 200, chat.text);

        const query = `?user=${encodeURIComponent(visitorId)}&hash=${hash}`;
        const listed = await server.request('GET', CONVERSATIONS + query, { token });
        assert.equal(listed.status, 200, listed.text);
        assert.deepEqual(listed.json.conversations.map((conversation: { id: string }) => conversation.id), [chat.json.conversationId]);

        const tampered = hash.slice(0, -1) + (hash.endsWith('0') ? '1' : '0');
        const refused = await server.request('GET', `${CONVERSATIONS}?user=${encodeURIComponent(visitorId)}&hash=${tampered}`, { token });
        assert.equal(refused.status, 403);
        assert.equal(refused.json.error.code, 'invalid_identity');
        const refusedChat = await server.request('POST', '/api/v1/acme/widgets/help/chat', {
          token,
          body: { message: 'Hello', user: { id: visitorId, hash: tampered } },
        });
        assert.equal(refusedChat.status, 403);
        assert.equal(refusedChat.json.error.code, 'invalid_identity');
      }
    });
  }

  test('a hash made with another secret is refused', async () => {
    const hash = runSnippet(SNIPPETS[1]!, 'mallory', 'not-the-signing-secret');
    const refused = await server.request('GET', `${CONVERSATIONS}?user=mallory&hash=${hash}`, { token });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error.code, 'invalid_identity');
  });
});
