import { expect } from '@esm-bundle/chai';
import { http, HttpResponse } from 'msw';
import '../../src/assist.js';
import { AssistError } from '../../src/core/errors.js';
import { API, WIDGET_KEY, hit, useMockApi, worker } from './support.js';

useMockApi();

describe('the global Assist (script-tag entry)', () => {
  it('defines chat, search, headless and markdown', () => {
    const Assist = window.Assist!;
    expect(Assist.version).to.equal('1');
    for (const name of ['chat', 'search', 'headless', 'markdown'] as const) expect(Assist[name]).to.be.a('function');
    expect(Assist.AssistError).to.equal(AssistError);
  });

  it('headless() is ready at once and talks to the API origin', async () => {
    worker.use(http.post(`${API}/search`, () => HttpResponse.json({ sessionId: 's_1', queryId: 'q_1', hits: [hit(1)] })));
    const client = window.Assist!.headless(WIDGET_KEY);
    expect(client.widgetKey).to.equal(WIDGET_KEY);
    const { hits } = await client.search('reset');
    expect(hits).to.deep.equal([hit(1)]);
  });

  it('refuses a malformed key at once, naming the expected form', () => {
    for (const call of [() => window.Assist!.headless('acme'), () => window.Assist!.chat('a/b/c'), () => window.Assist!.search('')]) {
      let thrown: unknown;
      try {
        call();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(AssistError);
      expect((thrown as AssistError).code).to.equal('invalid_key');
      expect((thrown as AssistError).message).to.contain('{organisation}/{widget}');
    }
  });

  it('markdown() returns sanitised HTML', () => {
    expect(window.Assist!.markdown('**Hi** <img src=x onerror=alert(1)>')).to.equal('<p><strong>Hi</strong> </p>\n');
  });

  it('chat() and search() return handles usable before mount, whose methods chain', () => {
    const originalError = console.error;
    console.error = () => undefined;
    try {
      for (const create of [() => window.Assist!.chat(WIDGET_KEY), () => window.Assist!.search('acme/docs')]) {
        const handle = create();
        expect(handle.state).to.equal('created');
        expect(handle.open().close().toggle()).to.equal(handle);
        handle.destroy();
        expect(handle.state).to.equal('destroyed');
      }
    } finally {
      console.error = originalError;
    }
  });
});
