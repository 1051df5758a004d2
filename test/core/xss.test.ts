import { expect } from '@esm-bundle/chai';
import { StreamingMarkdown, renderMarkdown } from '../../src/components/shared/markdown.js';

/*
 * An XSS corpus through the markdown renderer. Each vector tries to run `CALL`, replaced by a
 * call of `window.__xss(n)`. Sources: our own markdown-specific cases, the OWASP XSS Filter
 * Evasion Cheat Sheet, PortSwigger's XSS cheat sheet (event handlers, mutation XSS) and
 * DOMPurify's published bypasses. The rendered HTML is inserted into the live document the
 * way that runs scripts (a contextual fragment) and every handler is poked with synthetic
 * events; nothing may run and no dangerous markup may remain.
 */
const VECTORS: string[] = [
  // Markdown links and images
  '[click](javascript:CALL)',
  '[click](JAVASCRIPT:CALL)',
  '[click](JaVaScRiPt:CALL)',
  '[click]( javascript:CALL)',
  '[click](<javascript:CALL>)',
  '[click](javascript&#58;CALL)',
  '[click](&#106;avascript:CALL)',
  '[click](&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;CALL)',
  '[click](java\tscript:CALL)',
  '[click](java&#x09;script:CALL)',
  '[click](java&#x0A;script:CALL)',
  '[click](\u0001javascript:CALL)',
  '[click](javascript://%0aCALL)',
  '[click](vbscript:CALL)',
  '[click](livescript:CALL)',
  '[click](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3MoMSk8L3NjcmlwdD4=)',
  '[click](data:text/html,<script>parent.CALL</script>)',
  '[click][evil]\n\n[evil]: javascript:CALL',
  '[evil]\n\n[evil]: javascript:CALL "title"',
  '<javascript:CALL>',
  '![x](javascript:CALL)',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9InBhcmVudC5fX3hzcygxKSI+)',
  '![x](x" onerror="CALL)',
  '![x"onerror="CALL](https://acme.test/a.png)',
  '[x](https://acme.test "title\\" onmouseover=\\"CALL")',
  '[x](https://acme.test \'t\' onmouseover=CALL)',
  '[<img src=x onerror=CALL>](https://acme.test)',
  '[x](https://acme.test)<img src=x onerror=CALL>',
  '**<img src=x onerror=CALL>**',
  '_<svg onload=CALL>_',
  '`<script>CALL</script>`',
  '```\n</code></pre><script>CALL</script>\n```',
  '```html"><script>CALL</script>\ncode\n```',
  '| a | b |\n|---|---|\n| <img src=x onerror=CALL> | <svg onload=CALL> |',
  '- <img src=x onerror=CALL>\n- [x](javascript:CALL)',
  '> <script>CALL</script>',
  '# <img src=x onerror=CALL>',
  '- [ ] <input autofocus onfocus=CALL>',
  'www.acme.test/<script>CALL</script>',
  'https://acme.test/"onmouseover="CALL',
  '<https://acme.test/" onmouseover="CALL>',
  '[x](https://acme.test/#"><script>CALL</script>)',
  // Script elements (OWASP)
  '<script>CALL</script>',
  '<SCRIPT>CALL</SCRIPT>',
  '<script src="data:text/javascript,CALL"></script>',
  '<script/xss>CALL</script>',
  '<scr<script>ipt>CALL</scr</script>ipt>',
  '<<script>CALL//<</script>',
  '<script>CALL//',
  '<IMG """><SCRIPT>CALL</SCRIPT>">',
  '<svg><script>CALL</script></svg>',
  '<svg><script href="data:,CALL"></script></svg>',
  '<math><script>CALL</script></math>',
  '<template><script>CALL</script></template>',
  '<noscript><script>CALL</script></noscript>',
  // Event handlers
  '<img src=x onerror=CALL>',
  '<IMG SRC=x ONERROR=CALL>',
  '<img src=x onerror="CALL">',
  '<img src=x onerror=&#x43;ALL>',
  '<img src=/ onerror="CALL"></img>',
  '<img src=x:alert(alt) onerror=CALL alt=0>',
  '<IMG SRC=# onmouseover="CALL">',
  '<img src="x` `<script>CALL</script>"` `>',
  '<svg onload=CALL>',
  '<SVG/ONLOAD=CALL>',
  '<svg><animate onbegin=CALL attributeName=x dur=1s>',
  '<svg><set attributeName=onload to=CALL />',
  '<body onload=CALL>',
  '<body onpageshow=CALL>',
  '<div onmouseover=CALL>hover</div>',
  '<a onmouseover=CALL>hover</a>',
  '<a href="https://acme.test" onclick="CALL">x</a>',
  '<x onclick=CALL>click</x>',
  '<details open ontoggle=CALL>',
  '<input autofocus onfocus=CALL>',
  '<select autofocus onfocus=CALL>',
  '<textarea autofocus onfocus=CALL></textarea>',
  '<keygen autofocus onfocus=CALL>',
  '<video><source onerror=CALL></video>',
  '<video src=x onerror=CALL></video>',
  '<audio src=x onerror=CALL>',
  '<marquee onstart=CALL>x</marquee>',
  '<iframe onload=CALL></iframe>',
  '<object onerror=CALL>',
  '<style onload=CALL></style>',
  '<link rel=stylesheet href=x onerror=CALL>',
  '<p onanimationstart=CALL style="animation-name:spin">x</p>',
  '<span onfocusin=CALL tabindex=1 autofocus>x</span>',
  '<img src=x onerror\n=CALL>',
  '<img/src=x/onerror=CALL>',
  '<img src=x onerror=CALL//',
  // URLs in attributes (OWASP)
  '<a href="javascript:CALL">x</a>',
  '<a href="JaVaScRiPt:CALL">x</a>',
  '<a href="  javascript:CALL">x</a>',
  '<a href="jav&#x09;ascript:CALL">x</a>',
  '<a href="jav&#x0A;ascript:CALL">x</a>',
  '<a href="jav&#x0D;ascript:CALL">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;CALL">x</a>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058CALL">x</a>',
  '<a href="javascript&colon;CALL">x</a>',
  '<a href="vbscript:CALL">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<IMG SRC="javascript:CALL;">',
  '<IMG SRC=JaVaScRiPt:CALL>',
  '<IMG SRC="jav\tascript:CALL;">',
  '<IMG SRC=" &#14;  javascript:CALL;">',
  '<INPUT TYPE="IMAGE" SRC="javascript:CALL;">',
  '<BODY BACKGROUND="javascript:CALL">',
  '<TABLE BACKGROUND="javascript:CALL">',
  '<TABLE><TD BACKGROUND="javascript:CALL">',
  '<DIV STYLE="background-image: url(javascript:CALL)">',
  '<DIV STYLE="width: expression(CALL);">',
  '<IFRAME SRC="javascript:parent.CALL;"></IFRAME>',
  '<iframe srcdoc="&lt;script&gt;parent.CALL&lt;/script&gt;"></iframe>',
  '<iframe src="data:text/html,<script>parent.CALL</script>"></iframe>',
  '<FRAMESET><FRAME SRC="javascript:parent.CALL;"></FRAMESET>',
  '<OBJECT TYPE="text/x-scriptlet" DATA="javascript:CALL"></OBJECT>',
  '<object data="data:text/html,<script>parent.CALL</script>"></object>',
  '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>',
  '<form action="javascript:CALL"><button>go</button></form>',
  '<button formaction="javascript:CALL">go</button>',
  '<isindex action="javascript:CALL" type=image>',
  '<svg><a xlink:href="javascript:CALL"><text x=20 y=20>x</text></a></svg>',
  '<math><a xlink:href="javascript:CALL">x</a></math>',
  '<svg><use href="data:image/svg+xml,<svg id=x onload=CALL>"/></svg>',
  '<BASE HREF="javascript:CALL;//">',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:CALL;">',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html,<script>CALL</script>">',
  '<LINK REL="stylesheet" HREF="javascript:CALL;">',
  '<STYLE>@import\'javascript:CALL\';</STYLE>',
  '<STYLE>li {list-style-image: url("javascript:CALL");}</STYLE><UL><LI>x</UL>',
  '<XSS STYLE="behavior: url(xss.htc);">',
  '<a href="https://acme.test" style="position:fixed;inset:0">cover the page</a>',
  '<a href="https://acme.test" target="_self" rel="opener">x</a>',
  '<a href="#" id="__xss_clobber" name="__xss_clobber">x</a>',
  '<form id="__xss_clobber"><input name="attributes"></form>',
  // Mutation XSS and parser differentials
  '<noscript><p title="</noscript><img src=x onerror=CALL>">',
  '<svg><style><img src=x onerror=CALL></style></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=CALL></style></mglyph></table></mtext></math>',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=CALL>',
  '<math><mi><xmp></mi><img src=x onerror=CALL></xmp></math>',
  '<svg></p><style><a id="</style><img src=1 onerror=CALL>">',
  '<svg><p><style><img src=x onerror=CALL></p></svg>',
  '<title><img src=x onerror=CALL></title>',
  '<textarea><img src=x onerror=CALL></textarea>',
  '<xmp><img src=x onerror=CALL></xmp>',
  '<listing>&lt;img src=x onerror=CALL&gt;</listing>',
  '<!--><img src=x onerror=CALL>-->',
  '<!-- --!><img src=x onerror=CALL> -->',
  '<![CDATA[><img src=x onerror=CALL>]]>',
  '<?xml-stylesheet><img src=x onerror=CALL>?>',
  '<table><tr><td><img src=x onerror=CALL></td></tr></table>',
  '<a href="https://acme.test"><form><img src=x onerror=CALL></form></a>',
  '<div><template><img src=x onerror=CALL></template></div>',
  '<img src="x"\u0000onerror=CALL>',
  '<img src=x onerror=CALL>'.replace('<', '\uFF1C'),
  '<a href="java\u0000script:CALL">x</a>',
  '<svg><foreignObject><img src=x onerror=CALL></foreignObject></svg>',
  '<math><annotation-xml encoding="text/html"><img src=x onerror=CALL></annotation-xml></math>',
  '<div data-bind="CALL" data-onload="CALL">x</div>',
  '<span aria-label="x" onmouseover=CALL>x</span>',
];

const ALLOWED_ELEMENTS = new Set(['A', 'ABBR', 'B', 'BLOCKQUOTE', 'BR', 'CODE', 'DEL', 'DETAILS', 'DIV', 'EM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR', 'I', 'INPUT', 'INS', 'KBD', 'LI', 'MARK', 'OL', 'P', 'PRE', 'Q', 'S', 'SAMP', 'SPAN', 'STRONG', 'SUB', 'SUMMARY', 'SUP', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL', 'VAR']);
const DANGEROUS_URL = /^(?:javascript|vbscript|livescript|data):/i;
const POKE = ['mouseover', 'mouseenter', 'focus', 'focusin', 'blur', 'error', 'load', 'toggle', 'animationstart', 'input', 'change', 'pageshow', 'begin'];

describe('XSS corpus through renderMarkdown', () => {
  const calls: number[] = [];
  let host: HTMLElement;

  before(() => {
    (window as unknown as { __xss: (id: number) => void }).__xss = (id: number) => calls.push(id);
    host = document.createElement('div');
    document.body.append(host);
  });
  after(() => host.remove());

  it('has at least 100 vectors', () => {
    expect(VECTORS.length).to.be.at.least(100);
  });

  function check(html: string, label: string) {
    const container = document.createElement('div');
    host.append(container);
    // A contextual fragment runs the scripts it contains when inserted, unlike innerHTML.
    container.append(document.createRange().createContextualFragment(html));
    for (const element of container.querySelectorAll('*')) {
      expect(ALLOWED_ELEMENTS.has(element.tagName), `${label}: <${element.tagName.toLowerCase()}> survived in ${html}`).to.equal(true);
      for (const attribute of element.attributes) {
        expect(attribute.name.startsWith('on'), `${label}: ${attribute.name} survived in ${html}`).to.equal(false);
        expect(['style', 'id', 'name', 'srcdoc', 'action', 'formaction', 'background', 'xlink:href'].includes(attribute.name), `${label}: ${attribute.name} survived in ${html}`).to.equal(false);
        const compact = attribute.value.replace(/[\u0000-\u0020\u007F-\u00A0]/g, '');
        expect(DANGEROUS_URL.test(compact), `${label}: ${attribute.name}="${attribute.value}" survived`).to.equal(false);
      }
      if (element.tagName === 'A' && element.getAttribute('target') === '_blank') expect(element.getAttribute('rel')).to.equal('noopener noreferrer');
      if (element.tagName === 'INPUT') expect((element as HTMLInputElement).type === 'checkbox' && (element as HTMLInputElement).disabled, label).to.equal(true);
      for (const type of POKE) element.dispatchEvent(new Event(type));
    }
    expect((window as unknown as Record<string, unknown>).__xss_clobber, label).to.equal(undefined);
  }

  VECTORS.forEach((template, index) => {
    const vector = template.replaceAll('CALL', `__xss(${index})`);
    it(`#${index}: ${vector.slice(0, 80)}`, async () => {
      check(renderMarkdown(vector), 'renderMarkdown');
      // The streaming renderer goes through the same sanitiser per block; check it too.
      const streaming = new StreamingMarkdown();
      for (const char of vector) streaming.append(char);
      check(streaming.html, 'StreamingMarkdown');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(calls, vector).to.deep.equal([]);
    });
  });

  it('never ran anything after every vector had time to load and fire', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).to.deep.equal([]);
  });

  it('is a real check: the same harness catches unsanitised HTML', () => {
    const container = document.createElement('div');
    host.append(container);
    container.append(document.createRange().createContextualFragment('<script>__xss(-1)</script>'));
    expect(calls).to.deep.equal([-1]);
    calls.length = 0;
  });
});
