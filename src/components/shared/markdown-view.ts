import { html, noChange, render, type TemplateResult } from 'lit';
import { Directive, PartType, directive, type ChildPart, type PartInfo } from 'lit/directive.js';
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
  return html`${guard([blocks, blocks.length], () => blocks.map((block) => unsafeHTML(block)))}${openTail(markdown.tailHtml)}`;
}

/**
 * The open tail, brought up to date in place: its new HTML is parsed aside (through Lit, as
 * `unsafeHTML` would, so a page enforcing Trusted Types allows it) and the nodes already shown
 * are kept where they have not changed. An update of a growing paragraph, list or table then
 * changes a text node or adds one, instead of replacing the whole block: the browser restyles,
 * lays out and repaints only that, and a selection or focus inside the tail survives.
 */
class OpenTail extends Directive {
  private shown: string | undefined;

  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.CHILD) throw new Error('openTail() belongs in a child position.');
  }

  render(tailHtml: string): unknown {
    return unsafeHTML(tailHtml);
  }

  override update(part: ChildPart, [tailHtml]: [string]): unknown {
    if (tailHtml === this.shown) return noChange;
    this.shown = tailHtml;
    const start = part.startNode;
    const parent = start?.parentNode;
    if (!start || !parent) return this.render(tailHtml);
    const fresh = document.createDocumentFragment();
    render(unsafeHTML(tailHtml), fresh);
    const shownNodes: Node[] = [];
    for (let node = start.nextSibling; node && node !== part.endNode; node = node.nextSibling) shownNodes.push(node);
    // Lit's own marker comments in the scratch fragment; sanitised markdown has no comments.
    const freshNodes = [...fresh.childNodes].filter((node) => node.nodeType !== Node.COMMENT_NODE);
    morphChildren(parent, shownNodes, freshNodes, part.endNode);
    return noChange;
  }
}

const openTail = directive(OpenTail);

/**
 * What the widget added to rendered markdown (a code block's copy button, its `data-copy`
 * marker) carries what sanitised markdown never has, a `part` or a `data-` attribute: kept.
 */
const addedByWidget = (node: Node) => node instanceof Element && node.hasAttribute('part');

/** Makes `shown` (children of `parent`, before `end`) look like `fresh`, reusing every node that has the same kind and name. */
function morphChildren(parent: Node, shown: Node[], fresh: Node[], end: Node | null): void {
  const kept = shown.filter((node) => !addedByWidget(node));
  for (let index = 0; index < Math.max(kept.length, fresh.length); index++) {
    const old = kept[index];
    const next = fresh[index];
    if (!next) parent.removeChild(old!);
    else if (!old) parent.insertBefore(next, end);
    else if (old.nodeType !== next.nodeType || old.nodeName !== next.nodeName) parent.replaceChild(next, old);
    // Most of the tail is what was shown before: compared natively, without walking it here.
    else if (old.isEqualNode(next)) continue;
    else if (old.nodeType === Node.ELEMENT_NODE) {
      morphAttributes(old as Element, next as Element);
      morphChildren(old, [...old.childNodes], [...next.childNodes], null);
    } else if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
  }
}

function morphAttributes(old: Element, next: Element): void {
  for (const { name } of [...old.attributes]) if (!next.hasAttribute(name) && !name.startsWith('data-')) old.removeAttribute(name);
  for (const { name, value } of next.attributes) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
}
