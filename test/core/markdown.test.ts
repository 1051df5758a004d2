import { expect } from '@esm-bundle/chai';
import { StreamingMarkdown, renderMarkdown } from '../../src/components/shared/markdown.js';

function fragment(html: string): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = html;
  return container;
}

describe('renderMarkdown', () => {
  it('renders GitHub-flavoured markdown', () => {
    const html = renderMarkdown(
      [
        '# Title',
        '',
        'Some **bold**, _em_, ~~gone~~ and `code`.',
        '',
        '- [x] done',
        '- [ ] todo',
        '',
        '| Name | Value |',
        '| :--- | ----: |',
        '| a    | 1     |',
        '',
        '```ts',
        'const a = 1 < 2;',
        '```',
        '',
        'Visit https://acme.test/docs now.',
      ].join('\n'),
    );
    const root = fragment(html);
    expect(root.querySelector('h1')?.textContent).to.equal('Title');
    expect(root.querySelector('strong')?.textContent).to.equal('bold');
    expect(root.querySelector('em')?.textContent).to.equal('em');
    expect(root.querySelector('del')?.textContent).to.equal('gone');
    const boxes = root.querySelectorAll<HTMLInputElement>('input[type=checkbox]');
    expect([...boxes].map((box) => [box.checked, box.disabled])).to.deep.equal([
      [true, true],
      [false, true],
    ]);
    expect(root.querySelector('th')?.getAttribute('align')).to.equal('left');
    expect(root.querySelectorAll('td')[1]?.getAttribute('align')).to.equal('right');
    const code = root.querySelector('pre > code')!;
    expect(code.className).to.equal('language-ts');
    expect(code.textContent).to.equal('const a = 1 < 2;\n');
    expect(root.querySelector('a')?.getAttribute('href')).to.equal('https://acme.test/docs');
  });

  it('opens external links in a new tab without opener or referrer, and keeps local links in place', () => {
    const root = fragment(renderMarkdown(`[ext](https://acme.test/a) [local](${location.origin}/b) [rel](/c) [anchor](#d) [mail](mailto:a@acme.test)`));
    const links = [...root.querySelectorAll('a')].map((link) => [link.textContent, link.getAttribute('target'), link.getAttribute('rel')]);
    expect(links).to.deep.equal([
      ['ext', '_blank', 'noopener noreferrer'],
      ['local', null, null],
      ['rel', null, null],
      ['anchor', null, null],
      ['mail', null, null],
    ]);
  });

  it('turns images into links, so an answer cannot make the browser fetch a URL', () => {
    const root = fragment(renderMarkdown('![diagram](https://tracker.test/p.png?c=secret)'));
    expect(root.querySelector('img')).to.equal(null);
    const link = root.querySelector('a')!;
    expect(link.textContent).to.equal('diagram');
    expect(link.getAttribute('href')).to.equal('https://tracker.test/p.png?c=secret');
  });

  it('strips classes and styles that could pull in or override page CSS', () => {
    const root = fragment(renderMarkdown('<div class="fixed inset-0" style="position:fixed">x</div>\n\n<code class="language-js">y</code>'));
    expect(root.querySelector('[class]:not(code)')).to.equal(null);
    expect(root.querySelector('[style]')).to.equal(null);
    expect(root.querySelector('code')?.className).to.equal('language-js');
  });

  it('renders an unclosed code fence as code up to the end, with its content escaped', () => {
    const root = fragment(renderMarkdown('Try:\n\n```html\n<b onmouseover="x()">bold</b>\n\n# not a heading'));
    const code = root.querySelector('pre > code')!;
    expect(code.textContent).to.equal('<b onmouseover="x()">bold</b>\n\n# not a heading\n');
    expect(root.querySelector('b, h1')).to.equal(null);
  });

  it('renders half a table sanely: text until its delimiter row, then a table with the rows so far', () => {
    expect(fragment(renderMarkdown('| a | b |')).querySelector('table')).to.equal(null);
    expect(fragment(renderMarkdown('| a | b |\n| -')).textContent).to.contain('a');
    const partial = fragment(renderMarkdown('| a | b |\n|---|---|\n| 1 |'));
    expect(partial.querySelectorAll('th')).to.have.length(2);
    expect(partial.querySelectorAll('tbody td')).to.have.length(2);
  });

  it('renders unfinished inline markup as its text', () => {
    const halfLink = fragment(renderMarkdown('See [the install guide](https://acme.test/docs/inst'));
    expect(halfLink.textContent?.trim()).to.equal('See [the install guide](https://acme.test/docs/inst');
    const openBold = fragment(renderMarkdown('Open **Settings and'));
    expect(openBold.querySelector('strong')).to.equal(null);
    expect(openBold.textContent?.trim()).to.equal('Open **Settings and');
    const openCode = fragment(renderMarkdown('Run `npm inst'));
    expect(openCode.querySelector('code')).to.equal(null);
    expect(openCode.textContent?.trim()).to.equal('Run `npm inst');
    // Half a raw tag is text, never an element that swallows the rest of the answer.
    const halfTag = fragment(renderMarkdown('Press <kbd'));
    expect(halfTag.querySelector('kbd')).to.equal(null);
    expect(halfTag.textContent?.trim()).to.equal('Press <kbd');
  });

  it('renders nothing for empty input', () => {
    expect(renderMarkdown('')).to.equal('');
  });
});

const FIXTURE = [
  '# Getting started',
  '',
  'Assist answers questions about **your docs**. It has:',
  '',
  '- a chat widget',
  '- a search widget',
  '  - with a modal',
  '  - and an inline variant',
  '',
  '1. Install',
  '',
  '2. Configure',
  '',
  '3. Ship',
  '',
  'Setext heading',
  '--------------',
  '',
  '```js',
  "import { createClient } from 'assist-widgets';",
  '',
  '// a blank line inside the fence must not end the block',
  '- not a list',
  '',
  '| not | a table |',
  '```',
  '',
  '| Option | Default | Notes |',
  '| :----- | :-----: | ----: |',
  '| debounce | 1000 | ms |',
  '| theme | auto | light or dark |',
  '',
  '> Tip: keep the key public.',
  '> It is safe in HTML.',
  '',
  '    indented code',
  '',
  '    still code',
  '',
  '***',
  '',
  'A [link](https://acme.test/docs) and <https://acme.test/auto>, then `inline code`.',
  '',
  '## Tables last',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
].join('\n');

/** Deterministic pseudo-random chunk sizes. */
function chunksOf(text: string, seed: number, maxSize: number): string[] {
  const chunks: string[] = [];
  let state = seed;
  for (let start = 0; start < text.length; ) {
    state = (state * 16807) % 2147483647;
    const size = 1 + (state % maxSize);
    chunks.push(text.slice(start, start + size));
    start += size;
  }
  return chunks;
}

describe('StreamingMarkdown', () => {
  it('ends equal to renderMarkdown of the full text, for every way of chunking it', () => {
    const chunkings = [[...FIXTURE], FIXTURE.split(/(?<=\n)/), chunksOf(FIXTURE, 1, 8), chunksOf(FIXTURE, 2, 30), [FIXTURE]];
    const expected = renderMarkdown(FIXTURE);
    for (const chunks of chunkings) {
      const streaming = new StreamingMarkdown();
      for (const chunk of chunks) streaming.append(chunk);
      expect(streaming.html).to.equal(expected);
      expect(streaming.text).to.equal(FIXTURE);
    }
  });

  it('matches a full render of the text so far after every single character', () => {
    const streaming = new StreamingMarkdown();
    for (let end = 1; end <= FIXTURE.length; end++) {
      streaming.append(FIXTURE[end - 1]!);
      expect(streaming.html, `after ${JSON.stringify(FIXTURE.slice(Math.max(0, end - 30), end))}`).to.equal(renderMarkdown(FIXTURE.slice(0, end)));
    }
  });

  it('splits the text into finished blocks and an open tail', () => {
    const streaming = new StreamingMarkdown().append(FIXTURE);
    expect(streaming.finishedBlocksHtml.length).to.be.at.least(8);
    expect(streaming.tailHtml).to.contain('<table>');
    expect(streaming.finishedBlocksHtml[0]).to.equal('<h1>Getting started</h1>\n');
  });

  it('renders each finished block once, and only the tail again on each update', () => {
    const rendered: string[] = [];
    const streaming = new StreamingMarkdown({
      render: (markdown) => {
        rendered.push(markdown);
        return renderMarkdown(markdown);
      },
    });
    const chunks = chunksOf(FIXTURE, 3, 6);
    const snapshots: string[][] = [];
    for (const chunk of chunks) {
      streaming.append(chunk);
      snapshots.push([...streaming.finishedBlocksHtml]);
    }
    const blocks = streaming.finishedBlocksHtml.length;
    // One render of the tail per update, plus one per finished block: nothing rendered twice.
    expect(rendered.length).to.equal(chunks.length + blocks);
    // A finished block's HTML never changes afterwards.
    for (const snapshot of snapshots) expect(streaming.finishedBlocksHtml.slice(0, snapshot.length)).to.deep.equal(snapshot);
    expect(streaming.html).to.equal(renderMarkdown(FIXTURE));
  });

  it('keeps the work per update bounded by the open block, not the whole answer', () => {
    const long = Array.from({ length: 40 }, (_, index) => FIXTURE.replace('# Getting started', `# Part ${index}`)).join('\n\n');
    const sizes: number[] = [];
    const streaming = new StreamingMarkdown({
      render: (markdown) => {
        sizes.push(markdown.length);
        return renderMarkdown(markdown);
      },
    });
    for (const chunk of chunksOf(long, 4, 10)) streaming.append(chunk);
    expect(streaming.html).to.equal(renderMarkdown(long));
    // The longest single block of the fixture is the code fence, about 150 characters.
    expect(Math.max(...sizes)).to.be.below(400);
    expect(long.length).to.be.above(25_000);
  });

  it('keeps a list that may get another item after a blank line open', () => {
    const streaming = new StreamingMarkdown();
    for (const chunk of ['1. one\n', '\n', '2', '. two\n', '\n', 'After.\n']) streaming.append(chunk);
    expect(streaming.html).to.equal(renderMarkdown('1. one\n\n2. two\n\nAfter.\n'));
    expect(fragment(streaming.html).querySelectorAll('ol')).to.have.length(1);
  });

  it('handles a link reference defined after its use', () => {
    const text = 'See [the docs][docs].\n\nMore text.\n\nAnd more.\n\n[docs]: https://acme.test/docs\n';
    const streaming = new StreamingMarkdown();
    for (const char of text) streaming.append(char);
    expect(streaming.html).to.equal(renderMarkdown(text));
    expect(fragment(streaming.html).querySelector('a')?.getAttribute('href')).to.equal('https://acme.test/docs');
  });

  it('keeps raw HTML blocks whole', () => {
    const text = '<details>\n\nHidden **text**.\n\n</details>\n\nAfter.\n';
    const streaming = new StreamingMarkdown();
    for (const char of text) streaming.append(char);
    expect(streaming.html).to.equal(renderMarkdown(text));
  });

  it('joins a CRLF split across two deltas', () => {
    const streaming = new StreamingMarkdown();
    for (const chunk of ['Line one\r', '\n\r', '\nLine two\r\n']) streaming.append(chunk);
    expect(streaming.html).to.equal(renderMarkdown('Line one\r\n\r\nLine two\r\n'));
    expect(fragment(streaming.html).querySelectorAll('p')).to.have.length(2);
  });

  it('set() extends cheaply and starts over when the text changed', () => {
    const streaming = new StreamingMarkdown();
    streaming.set('# One\n\npara');
    streaming.set('# One\n\nparagraph\n');
    expect(streaming.html).to.equal(renderMarkdown('# One\n\nparagraph\n'));
    streaming.set('Something else');
    expect(streaming.html).to.equal(renderMarkdown('Something else'));
    expect(streaming.text).to.equal('Something else');
  });
});
