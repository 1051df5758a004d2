import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { Marked, type Tokens } from 'marked';

/*
 * Markdown from chat answers and summaries into HTML that is safe to insert into a page.
 *
 * The text comes from a language model that read third-party pages, so it is treated as
 * hostile: marked turns GFM into HTML, then DOMPurify keeps an allow-list of plain text
 * markup. Nothing that runs code, loads a resource or styles outside its box survives.
 */

const markdown = new Marked({ gfm: true, breaks: false, async: false });
markdown.use({
  renderer: {
    // An image would make the browser fetch a URL chosen by the answer, which a prompt
    // injection can use to send the conversation to a third party. A link only goes where
    // the visitor clicks.
    image({ href, title, text }: Tokens.Image): string {
      const label = escapeHtml(text || href);
      return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${label}</a>`;
    },
  },
});

const ALLOWED_TAGS = [
  'a', 'abbr', 'b', 'blockquote', 'br', 'code', 'del', 'details', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'hr', 'i', 'input', 'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'pre', 'q', 's', 'samp', 'span', 'strong', 'sub',
  'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'var',
];
const ALLOWED_ATTR = ['href', 'title', 'align', 'start', 'type', 'checked', 'disabled', 'class', 'colspan', 'rowspan'];

/** http(s), mailto, tel, and relative or fragment URLs; every other scheme is dropped. */
const SAFE_URL = /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

const SANITIZE_CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOWED_URI_REGEXP: SAFE_URL,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  KEEP_CONTENT: true,
  RETURN_TRUSTED_TYPE: false,
};

let purifier: DOMPurify | null | undefined;

/** Our own DOMPurify instance, so our hooks never affect (or get affected by) the host page's. */
function getPurifier(): DOMPurify | null {
  if (purifier !== undefined) return purifier;
  const instance = typeof window === 'undefined' ? null : createDOMPurify(window);
  purifier = instance?.isSupported ? instance : null;
  purifier?.addHook('afterSanitizeAttributes', hardenElement);
  // Set once: a config given to every sanitize() call is parsed again each time (the allow-lists
  // copied into new sets), which a streaming answer, sanitised twenty times a second, feels.
  purifier?.setConfig(SANITIZE_CONFIG);
  return purifier;
}

function hardenElement(node: Element): void {
  const tag = node.nodeName.toLowerCase();
  // Class names could pull in the host page's CSS (a full-screen overlay, say); only the
  // language marker of a code block is needed.
  const className = node.getAttribute('class');
  if (className !== null && !(tag === 'code' && /^language-[\w#+.-]{1,40}$/.test(className))) node.removeAttribute('class');
  const align = node.getAttribute('align');
  if (align !== null && !/^(?:left|center|right)$/.test(align)) node.removeAttribute('align');
  if (tag === 'input') {
    // Only the disabled checkbox of a GFM task list item.
    if (node.getAttribute('type') !== 'checkbox') node.remove();
    else node.setAttribute('disabled', '');
    return;
  }
  if (tag === 'a') {
    const href = node.getAttribute('href');
    if (href === null) return;
    if (!SAFE_URL.test(href.replace(/[\u0000-\u0020\u007F-\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g, ''))) {
      node.removeAttribute('href');
      return;
    }
    if (isExternal(href)) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  }
}

/** An http(s) link to another origin than the page's: it opens in a new tab, without an opener. */
function isExternal(href: string): boolean {
  try {
    const url = new URL(href, document.baseURI);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== location.origin;
  } catch {
    return false;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The part of the Trusted Types API used here (TypeScript's DOM types do not have it). */
interface HtmlPolicy {
  createHTML(input: string): unknown;
}
interface TrustedTypesFactory {
  createPolicy(name: string, rules: { createHTML(input: string): string }): HtmlPolicy;
}

/**
 * The widgets' Trusted Types policy. On a page that enforces Trusted Types
 * (`require-trusted-types-for 'script'`) and names the policies it allows (`trusted-types`),
 * `assist` must be among them, beside `lit-html` and `dompurify` (docs/security.md).
 */
export const TRUSTED_TYPES_POLICY = 'assist';

let htmlPolicy: HtmlPolicy | null | undefined;

function getHtmlPolicy(): HtmlPolicy | null {
  if (htmlPolicy !== undefined) return htmlPolicy;
  const factory = (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes;
  try {
    // The policy sanitises whatever it is given, so nothing it returns can run code.
    htmlPolicy = factory ? factory.createPolicy(TRUSTED_TYPES_POLICY, { createHTML: (input) => sanitize(input) }) : null;
  } catch {
    // The page's `trusted-types` directive does not allow the name: HTML sinks stay closed to us.
    htmlPolicy = null;
  }
  return htmlPolicy;
}

function sanitize(html: string): string {
  const sanitizer = getPurifier();
  return sanitizer ? sanitizer.sanitize(html) : escapeHtml(html);
}

/**
 * HTML for an HTML sink (`innerHTML`), sanitised: TrustedHTML made by the `assist` policy when
 * the browser has Trusted Types, so the assignment works on a page that enforces them, and
 * the sanitised string otherwise. Typed as a string, which is what the DOM typings of the
 * sinks accept.
 *
 * @example
 * template.innerHTML = trustedHtml(renderMarkdown(answer));
 */
export function trustedHtml(html: string): string {
  const policy = getHtmlPolicy();
  return (policy ? policy.createHTML(html) : sanitize(html)) as string;
}

/**
 * Renders markdown (GitHub-flavoured) from a chat answer or summary into sanitised HTML.
 * External links open in a new tab with `rel="noopener noreferrer"`; scripts, event handlers,
 * `javascript:`/`data:` URLs, frames, forms, styles and images never survive (an image
 * becomes a link to it). Unfinished markdown renders sanely: an open code fence runs to the
 * end as code, half a table shows as text until its delimiter row arrives.
 *
 * @example
 * element.innerHTML = renderMarkdown('**Tip:** see [the docs](https://acme.test/start).');
 */
export function renderMarkdown(text: string): string {
  if (typeof text !== 'string' || text === '') return '';
  const html = markdown.parse(text) as string;
  // Without a DOM there is no way to sanitise; escaped text is always safe.
  if (!getPurifier()) return `<p>${escapeHtml(text)}</p>`;
  return sanitize(html);
}

export interface StreamingMarkdownOptions {
  /** Renders one piece of markdown; default {@link renderMarkdown}. Tests count calls with it. */
  render?: (markdown: string) => string;
}

/** A blank line, then a whole non-blank line: the least the text needs before any block can be finished. */
const MAY_FINISH_BLOCK = /\n[ \t]*\n[ \t]*\S[^\n]*\n/;
const LINK_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/** Whether `text` up to `end` ends with a blank line (spaces and tabs only), scanning back from `end` only. */
function endsWithBlankLine(text: string, end: number): boolean {
  let index = end - 1;
  const skipSpaces = () => {
    while (index >= 0 && (text[index] === ' ' || text[index] === '\t')) index--;
  };
  skipSpaces();
  if (text[index] !== '\n') return false;
  index--;
  skipSpaces();
  return index < 0 || text[index] === '\n';
}

/**
 * Markdown that grows token by token, rendered without re-parsing the whole text each time.
 *
 * The text is split into finished blocks, rendered once and kept, and the open tail, rendered
 * again on each update, so an update costs O(tail) instead of O(text). A block is finished
 * once a blank line (outside a code fence, list or other container that can span one)
 * follows it and the next block's first line is complete, so it can no longer change: a list
 * that may still get another item, or a fence not yet closed, stays in the tail.
 *
 * When the last update is in, `html` equals `renderMarkdown(text)`. Two cases would break that
 * if split, so they are kept whole: raw HTML blocks (and what follows them) stay in the tail,
 * and a link reference definition (`[1]: https://…`, which can change earlier blocks)
 * switches to rendering the whole text.
 *
 * @example
 * const answer = new StreamingMarkdown();
 * client.chat(question, { onToken: (delta) => view.show(answer.append(delta)) });
 * // in a Lit template:
 * // ${streamingMarkdownView(answer)} (see markdown-view.ts)
 */
export class StreamingMarkdown {
  private readonly render: (markdown: string) => string;
  private raw = '';
  /** The text with line ends normalised to LF (what marked works on). */
  private source = '';
  private pendingCarriageReturn = false;
  /** Where the open tail starts in `source`. */
  private tailStart = 0;
  private blocks: string[] = [];
  private tailHtmlValue = '';
  private wholeText = false;
  /**
   * Text arrived since the last rendering. It is rendered when the HTML is next read, so the
   * tokens that arrive between two frames of the page cost one rendering of the tail.
   */
  private stale = false;

  constructor(options: StreamingMarkdownOptions = {}) {
    this.render = options.render ?? renderMarkdown;
  }

  /** The text received so far. */
  get text(): string {
    return this.raw;
  }

  /** HTML of the finished blocks, in order; an entry never changes once added. */
  get finishedBlocksHtml(): readonly string[] {
    this.refresh();
    return this.blocks;
  }

  /** HTML of the open tail, replaced on every update. */
  get tailHtml(): string {
    this.refresh();
    return this.tailHtmlValue;
  }

  /** Renders the text that arrived since the last rendering now, so reading the HTML next costs nothing. */
  prepare(): this {
    this.refresh();
    return this;
  }

  /** The whole rendering: finished blocks, then the tail. */
  get html(): string {
    this.refresh();
    return this.blocks.join('') + this.tailHtmlValue;
  }

  /** Adds the next piece of the text. */
  append(delta: string): this {
    if (!delta) return this;
    this.raw += delta;
    let chunk = (this.pendingCarriageReturn ? '\r' : '') + delta;
    // A CR at the end may be the first half of a CRLF split across two deltas.
    this.pendingCarriageReturn = chunk.endsWith('\r');
    if (this.pendingCarriageReturn) chunk = chunk.slice(0, -1);
    this.source += chunk.replace(/\r\n?/g, '\n');
    this.stale = true;
    return this;
  }

  /** Replaces the text; cheap when the new text extends the old one (the usual `full` of `onToken`). */
  set(text: string): this {
    if (text.startsWith(this.raw)) return this.append(text.slice(this.raw.length));
    this.reset();
    return this.append(text);
  }

  reset(): this {
    this.raw = '';
    this.source = '';
    this.pendingCarriageReturn = false;
    this.tailStart = 0;
    this.blocks = [];
    this.tailHtmlValue = '';
    this.wholeText = false;
    this.stale = false;
    return this;
  }

  private refresh(): void {
    if (!this.stale) return;
    this.stale = false;
    if (!this.wholeText) {
      if (LINK_DEFINITION.test(this.source.slice(this.tailStart))) {
        // A definition can turn `[text][ref]` in any earlier block into a link: render all of it from now on.
        this.wholeText = true;
        this.blocks = [];
        this.tailStart = 0;
      } else {
        this.finishBlocks();
      }
    }
    const tail = this.source.slice(this.tailStart);
    this.tailHtmlValue = tail ? this.render(tail) : '';
  }

  private finishBlocks(): void {
    const tail = this.source.slice(this.tailStart);
    if (!MAY_FINISH_BLOCK.test(tail)) return;
    const tokens = markdown.lexer(tail);
    const boundaries: number[] = [];
    let offset = 0;
    for (const token of tokens) {
      if (token.type !== 'space') {
        const followsBlankLine = offset > 0 && endsWithBlankLine(tail, offset);
        const firstLineComplete = tail.indexOf('\n', offset) !== -1;
        if (followsBlankLine && firstLineComplete) boundaries.push(offset);
        // An HTML block may open a tag that a later block closes: nothing after it is finished.
        if (token.type === 'html') break;
      }
      offset += token.raw.length;
    }
    // marked's tokens must cover the text exactly, or the offsets mean nothing.
    const covered = tokens.reduce((length, token) => length + token.raw.length, 0);
    if (boundaries.length === 0 || covered !== tail.length) return;
    let start = 0;
    for (const boundary of boundaries) {
      this.blocks.push(this.render(tail.slice(start, boundary)));
      start = boundary;
    }
    this.tailStart += start;
  }
}
