import { html, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { StreamingMarkdown } from './markdown.js';

/**
 * A streaming answer in a Lit template: the finished blocks, which Lit skips entirely while no
 * block is added (they never change), then the open tail, the only part rendered again. The
 * blocks' list is replaced, not changed, when the text starts over, so that is seen too.
 */
export function streamingMarkdownView(markdown: StreamingMarkdown): TemplateResult {
  const blocks = markdown.finishedBlocksHtml;
  return html`${guard([blocks, blocks.length], () => blocks.map((block) => unsafeHTML(block)))}${unsafeHTML(markdown.tailHtml)}`;
}
