import { expect } from '@esm-bundle/chai';
import { http, HttpResponse } from 'msw';
import { WIDGET_ID, WIDGET_KEY, hit, useMockApi, worker } from './support.js';

/*
 * The built script-tag file, loaded the way a website loads it, from another origin than the
 * page (127.0.0.1 vs localhost, same test server). Needs `npm run build:widget` first, which
 * `npm test` does; skipped when the file is not there.
 */
const BUNDLE_PATH = '/dist/widget/v1/assist.js';
const scriptOrigin = location.hostname === 'localhost' ? `${location.protocol}//127.0.0.1:${location.port}` : `${location.protocol}//localhost:${location.port}`;

useMockApi();

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(script);
  });
}

describe('the built assist.js', () => {
  before(async function () {
    const available = await fetch(BUNDLE_PATH, { method: 'HEAD' }).then((response) => response.ok, () => false);
    if (!available) this.skip();
    await loadScript(`${scriptOrigin}${BUNDLE_PATH}`);
  });

  it('defines Assist and takes the API origin from its own URL', async () => {
    let requested = '';
    worker.use(
      http.post(`${scriptOrigin}/api/v1/acme/widgets/${WIDGET_ID}/search`, ({ request }) => {
        requested = request.url;
        return HttpResponse.json({ sessionId: 's_1', queryId: 'q_1', hits: [hit(1)] });
      }),
    );
    const client = window.Assist!.headless(WIDGET_KEY);
    const { hits } = await client.search('reset');
    expect(requested).to.equal(`${scriptOrigin}/api/v1/acme/widgets/${WIDGET_ID}/search`);
    expect(hits).to.have.length(1);
    expect(window.Assist!.markdown('**ok** <script>x</script>')).to.equal('<p><strong>ok</strong> </p>\n');
  });

  it('is harmless when loaded a second time', async () => {
    const first = window.Assist;
    const originalWarn = console.warn;
    console.warn = () => undefined;
    try {
      await loadScript(`${scriptOrigin}${BUNDLE_PATH}?again`);
    } finally {
      console.warn = originalWarn;
    }
    expect(window.Assist).to.equal(first);
  });
});
