/**
 * The HTML reader: a page as a browser shows its reader, in markdown.
 *
 * - Only the main content: the content container of a known generator (Sphinx, MkDocs
 *   Material, Docusaurus, VitePress, Hugo themes), else `<main>` or `[role=main]`, else the
 *   first `<article>`, else the whole body. Navigation, headers, footers, sidebars,
 *   breadcrumbs, previous/next bars, "Edit this page" links, the page's own table of
 *   contents and permalink marks (`¶`, `#`, `headerlink`, `hash-link`…) are dropped.
 * - Headings become ATX headings followed by `{#id}` when the page has an id that lands on
 *   them: the heading's own id, else the id of the element it opens (Sphinx `<section id>`,
 *   DocBook `<div class="sect1" id>`), else an anchor inside it (`<a id>`, `<a name>`). A
 *   heading with none gets no `{#…}` and so no fragment: ids are never invented.
 * - API entries with an id (`<dt id="json.dumps">`, `<dt id="GUC-SHARED-BUFFERS">`) become
 *   headings one level below where they stand, so a hit can point at them. Text after such
 *   a list belongs to the section the list stands in: its heading is written again before it.
 *   So does a term without an id after such an entry (psql's `\x` after `\if`), with its
 *   definition; a term right after another (a second signature) is the same entry's.
 * - `<pre>` is fenced code, verbatim, with the language its classes name (`highlight-python3`,
 *   `language-ts`, `data-lang`); none when they name none. Inline `<code>` is a code span.
 *   Tables are pipe tables (a list in a cell is the cell's text); definition lists keep their terms
 *   (definitions start with `: `).
 *
 * Text is escaped so that reading the markdown back gives the same text. The reader runs
 * on a linear event stream (html-events.ts) and keeps no per-element search: time is
 * linear in the page's size.
 */
import { walkHtml } from './html-events.js';
import { atxHeading, closesFence, customId, escapeBlockStart, escapeMarkdownText, plainInline } from './markdown.js';

export interface HtmlReading {
  /** The main content as markdown. */
  markdown: string;
  /** The document's `<title>`, whitespace collapsed; undefined when it has none. */
  title?: string;
  /** The plain text of the main content's first heading. */
  heading?: string;
  /** `<html lang>`, when it is a language tag. */
  language?: string;
}

/** What each line of a quote starts with. */
const QUOTE_MARK = '> ';

/** The text of a link that marks a place rather than saying anything: a section sign, a pilcrow, a hash. */
const LINK_MARK = /^\s*[§¶#]\s*$/u;

const SKIPPED_ELEMENTS = new Set([
  'script', 'style', 'noscript', 'template', 'nav', 'footer', 'aside', 'svg', 'math', 'iframe', 'object', 'embed', 'form',
  'button', 'select', 'textarea', 'menu', 'dialog', 'canvas', 'video', 'audio', 'head', 'title', 'input',
]);
/** Classes of an `<aside>` that is part of the text: Sphinx writes a topic ("Abstract") so. */
const CONTENT_ASIDE_CLASSES = new Set(['topic']);
const SKIPPED_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'menu', 'menubar', 'toolbar', 'complementary']);
/** Classes of chrome inside or around the content, by generator. */
const SKIPPED_CLASSES = new Set([
  // Permalink marks beside headings and API entries.
  'headerlink', 'id_link', 'hash-link', 'header-anchor', 'anchor-link', 'anchorjs-link', 'td-heading-self-link', 'heading-anchor',
  // Sphinx (`viewcode-link`: the "[source]" link beside an entry's signature).
  'viewcode-link', 'related', 'sphinxsidebar', 'sphinxsidebarwrapper', 'footer', 'rst-footer-buttons', 'wy-breadcrumbs', 'breadcrumbs',
  // DocBook (the PostgreSQL manual): Prev/Up/Next bars and the page's own table of contents.
  'navheader', 'navfooter', 'toc',
  // MkDocs Material.
  'md-header', 'md-sidebar', 'md-footer', 'md-content__button', 'md-source-file', 'md-tabs', 'md-search',
  // Docusaurus.
  'theme-doc-footer', 'theme-doc-breadcrumbs', 'theme-doc-toc-mobile', 'theme-doc-toc-desktop', 'theme-doc-version-badge',
  'theme-edit-this-page', 'pagination-nav', 'table-of-contents',
  // VitePress.
  'VPDocFooter', 'VPDocAside', 'VPLocalNav', 'edit-link', 'prev-next',
  // Hugo themes.
  'td-page-meta', 'td-page-meta__lastmod', 'td-toc', 'book-toc', 'book-footer', 'pager', 'page-nav', 'post-nav', 'edit-page',
  // Line numbers beside code.
  'linenos', 'linenodiv', 'lineno', 'lnt', 'ln', 'line-numbers-wrapper', 'line-numbers-rows',
]);
/** Content containers of documentation generators: the best guess of where the page's own text is. */
const CONTENT_CLASSES = new Set([
  'md-content__inner', 'theme-doc-markdown', 'vp-doc', 'td-content', 'book-article', 'rst-content', 'markdown-body',
]);
const BLOCKS = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'ul', 'ol', 'dl', 'blockquote', 'figure', 'figcaption', 'details', 'summary',
  'address', 'fieldset', 'legend', 'caption', 'center', 'hgroup', 'table', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
]);
/** Whether an element's start and end end the text before it: a block, a list item, a term or a definition. */
const endsText = (name: string) => BLOCKS.has(name) || name === 'li' || name === 'dt' || name === 'dd';
const CODE_ELEMENTS = new Set(['code', 'kbd', 'samp', 'tt']);
/** Boxes whose heading (DocBook's `<h3>Note</h3>`) labels the box: it is text, not a section of the page. */
const ADMONITION_CLASSES = new Set(['note', 'warning', 'tip', 'caution', 'important', 'admonition', 'hint', 'attention', 'danger', 'seealso']);
const PERMALINK_LABEL = /permalink|permanent link|link to|direct link|anchor|self-link|link for/i;
const LANGUAGE_CLASS = /(?:^|\s)(?:highlight|language|lang)-([A-Za-z0-9_+#.-]+)/;
/** Names that say "no language": the code is shown, never guessed at. */
const NO_LANGUAGE = new Set(['text', 'plain', 'plaintext', 'txt', 'none', 'default', 'nohighlight', 'output']);
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
/** A `<div>` that is a section of the text (DocBook `sect1`, `chapter`, `refentry`; older Sphinx `section`), whose id a heading it opens may use. */
const SECTION_CLASS = /(?:^|\s)(?:sect\d|section|simplesect|chapter|appendix|preface|refentry|refsect\d|refsynopsisdiv|part|reference|glossary|bibliography|article)(?:\s|$)/;
/** A fragment `{#id}` can carry. */
const FRAGMENT_ID = /^[^\s{}]+$/;
/** List and quote nesting deeper than this is not indented further, so output stays linear in the input. */
const MAX_INDENT_DEPTH = 8;
/** An API entry's heading longer than this keeps its name and drops its parameters. */
const MAX_ENTRY_HEADING = 80;
/** A superscript that is an exponent: a number, signed or not (not "st" of "1st", nor a footnote's "[1]"). */
const EXPONENT = /^[+\-−]?\p{N}+$/u;

const NO_CLASSES: string[] = [];

interface Frame {
  name: string;
  skip: boolean;
  /** Counts towards `contentDepth` (article, main, section…): a `<header>` inside is the content's own. */
  content: boolean;
  language: string | undefined;
  idEntry: boolean;
  container: boolean;
  candidate: Candidate | undefined;
  list: boolean;
  definitionList: DefinitionList | undefined;
  admonition: boolean;
  /** Where a `<sup>`'s text starts in `inline`. */
  superscriptAt: number | undefined;
  /** Where a link's text starts in `inline`. */
  linkAt: number | undefined;
  /** A signature written as code (Sphinx's `<dt class="sig">` of an entry without an anchor: `list.append(x)`, `d | other`). */
  signature: boolean;
}

interface Candidate {
  rank: number;
  start: number;
  end: number;
}

interface Container {
  first: string;
  rest: string;
  used: boolean;
}

interface DefinitionList {
  /** Level of the API entries of this list. */
  entryLevel: number;
  /** Level below which entries of lists nested in this one's definitions go. */
  base: number;
  hasEntry: boolean;
  /** Whether the last term was an entry (it had an id): its definition is that entry's text. */
  inEntry: boolean;
  /** Whether a definition came since the last term: a term right after another (a second signature) is the same entry's. */
  defined: boolean;
  /** The heading line of the section the list stands in: what follows the list belongs to it again. */
  owner: string | undefined;
}

interface HeadingCapture {
  level: number;
  ownId: string | undefined;
  containerId: string | undefined;
  innerId: string | undefined;
  entry: boolean;
  frameDepth: number;
  /** Another name of the entry just written (`re.ASCII` after `re.A`), read into its heading. */
  alias: boolean;
}

interface TableCapture {
  rows: string[][];
  row: string[] | undefined;
  inCell: boolean;
  /** Stack depths of the table and of its open row and cell: a table nested in a cell is only text of that cell. */
  depth: number;
  rowDepth: number;
  cellDepth: number;
}

export function readHtml(html: string): HtmlReading {
  const lines: string[] = [];
  const stack: Frame[] = [];
  const containers: Container[] = [];
  const lists: { ordered: boolean; next: number }[] = [];
  const definitionLists: DefinitionList[] = [];
  const idEntries: { id: string; lines: number }[] = [];
  const languages: string[] = [];
  const candidates: Candidate[] = [];
  let skipDepth = 0;
  // Inside `<svg>` or `<math>`, a `<title>` names a drawing, not the page.
  let foreignDepth = 0;
  let admonitionDepth = 0;
  let contentDepth = 0;
  let inline = '';
  let code: string | undefined;
  /** The code span `inline` ends with, if it was the last thing written: where it starts and its content. */
  let lastCode: { start: number; end: number; content: string } | undefined;
  let codeDepth = 0;
  let pre: { text: string; language: string | undefined } | undefined;
  let preDepth = 0;
  let heading: HeadingCapture | undefined;
  let table: TableCapture | undefined;
  let lastHeadingLevel = 1;
  /** The last heading written, when it heads an entry of a definition list: its line and its list. */
  let lastEntry: { line: number; list: DefinitionList | undefined } | undefined;
  // The heading line of the section being written, and one to write again before what comes next: text after a list of
  // API entries ("Table 20.3 explains the message severity levels …" after the last setting of "When to Log") belongs to
  // the section the list stands in, not to its last entry.
  let sectionHeading: string | undefined;
  let resumedHeading: string | undefined;
  let title: string | undefined;
  let titleText: string | undefined;
  let language: string | undefined;

  const prefix = (): string => {
    let text = '';
    const from = Math.max(0, containers.length - MAX_INDENT_DEPTH);
    for (let index = from; index < containers.length; index++) {
      const container = containers[index]!;
      text += container.used ? container.rest : container.first;
      container.used = true;
    }
    return text;
  };
  const blankLine = () => {
    if (lines.length > 0 && lines[lines.length - 1] !== '') lines.push('');
  };
  const resume = () => {
    if (resumedHeading === undefined) return;
    blankLine();
    lines.push(resumedHeading, '');
    resumedHeading = undefined;
  };
  /** Goes on in the section a list of entries stands in (`owner`): its heading is written again before what follows. */
  const backTo = (owner: string | undefined) => {
    if (owner === undefined || owner === sectionHeading) return;
    sectionHeading = owner;
    resumedHeading = owner;
  };
  const emitBlock = (blockLines: string[]) => {
    resume();
    if (containers.length === 0) blankLine();
    // Blocks in a quote are apart as on the page: a line of the quote's marks alone between them, or they would read as one
    // paragraph; not where a blank line parts them already, nor before a list's item or a term's definition, which keep theirs.
    else if (lines.at(-1) !== '' && containers.some((container) => container.first === QUOTE_MARK && container.used) && containers.every((container) => container.used || container.first === QUOTE_MARK))
      lines.push(usedPrefix().trimEnd());
    for (const line of blockLines) lines.push(prefix() + line);
  };
  /** The marks of the containers already written in, up to the first not yet written. */
  const usedPrefix = (): string => {
    let text = '';
    for (const container of containers.slice(Math.max(0, containers.length - MAX_INDENT_DEPTH))) {
      if (!container.used) break;
      text += container.rest;
    }
    return text;
  };
  const flush = () => {
    if (table?.inCell) {
      inline += ' ';
      return;
    }
    const text = inline;
    inline = '';
    if (!/\S/.test(text)) return;
    const paragraph = text
      .split('\n')
      .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
      .filter(Boolean);
    if (paragraph.length > 0) emitBlock(paragraph.map(escapeBlockStart));
  };

  const startCandidate = (rank: number): Candidate | undefined => {
    if (candidates.some((candidate) => candidate.rank === rank)) return undefined;
    flush();
    const candidate = { rank, start: lines.length, end: -1 };
    candidates.push(candidate);
    return candidate;
  };

  const skips = (name: string, attributes: Record<string, string>, classes: string[]): boolean => {
    // An aside is the site's, around the text, unless it is a topic of the text (CONTENT_ASIDE_CLASSES).
    if (SKIPPED_ELEMENTS.has(name) && !(name === 'aside' && classes.some((token) => CONTENT_ASIDE_CLASSES.has(token)))) return true;
    if (name === 'header' && contentDepth === 0) return true;
    if (SKIPPED_ROLES.has((attributes.role ?? '').toLowerCase())) return true;
    if (attributes['aria-hidden'] === 'true' || 'hidden' in attributes) return true;
    if (classes.some((token) => SKIPPED_CLASSES.has(token))) return true;
    // A Sphinx page's own table of contents (`.. contents::`); a plain `.contents` is often the content itself (Doxygen).
    if (classes.includes('contents') && (classes.includes('topic') || classes.includes('local'))) return true;
    if (name === 'span' && classes.includes('lang')) return true; // VitePress names the language above its code
    if (heading && name === 'a' && (attributes.href ?? '').startsWith('#')) {
      const label = `${attributes.title ?? ''} ${attributes['aria-label'] ?? ''} ${attributes.class ?? ''}`;
      if (PERMALINK_LABEL.test(label)) return true;
    }
    return false;
  };

  const startHeading = (level: number, attributes: Record<string, string>, entry: boolean, alias = false) => {
    flush();
    const top = idEntries[idEntries.length - 1];
    // The id of an element the heading opens: nothing of that element was written before it.
    const containerId = top && top.lines === lines.length ? top.id : undefined;
    heading = { level, ownId: attributes.id || undefined, containerId, innerId: undefined, entry, frameDepth: stack.length - 1, alias };
    inline = '';
  };
  const endHeading = () => {
    const capture = heading!;
    heading = undefined;
    let text = inline
      .replace(/\s+/g, ' ')
      .replace(/(?:[\s\u200b]*[¶§🔗\u200b])+\s*$/u, '')
      .replace(/\s+#$/, '')
      .trim();
    inline = '';
    if (capture.entry) text = shortEntryHeading(text);
    if (!text || !/\S/.test(plainInline(text))) {
      lastEntry = undefined;
      return;
    }
    // Written after the name it is another name for, with that name's anchor: the entry is where both are.
    if (capture.alias && lastEntry && lines.length === lastEntry.line + 2) {
      // Up to the length of one entry's heading; then the names after are one "…" (`stat.FILE_ATTRIBUTE_ARCHIVE, …`).
      const [, marks, names, anchor] = /^(#+ )(.*?)((?: \{#[^}]*\})?)$/.exec(lines[lastEntry.line]!)!;
      const more = names!.endsWith(', …') ? '' : names!.length + text.length > MAX_ENTRY_HEADING ? ', …' : `, ${text}`;
      sectionHeading = lines[lastEntry.line] = `${marks}${names}${more}${anchor}`;
      return;
    }
    const id = [capture.ownId, capture.containerId, capture.innerId].find((candidate) => candidate && FRAGMENT_ID.test(candidate));
    blankLine();
    sectionHeading = `${'#'.repeat(capture.level)} ${text}${id ? ` {#${id}}` : ''}`;
    resumedHeading = undefined;
    lines.push(sectionHeading, '');
    lastEntry = capture.entry ? { line: lines.length - 2, list: definitionLists[definitionLists.length - 1] } : undefined;
    if (!capture.entry) lastHeadingLevel = capture.level;
  };

  const endPre = () => {
    const block = pre!;
    pre = undefined;
    const text = block.text.replace(/^\r?\n/, '').replace(/\s+$/, '');
    if (!text) return;
    let longest = 0;
    for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
    const fence = '`'.repeat(Math.max(3, longest + 1));
    resume();
    blankLine();
    lines.push(`${fence}${block.language ?? ''}`, ...text.split(/\r\n?|\n/), fence, '');
  };

  const endTable = () => {
    const capture = table!;
    table = undefined;
    const rows = capture.rows.filter((row) => row.some((cell) => cell !== ''));
    if (rows.length === 0) return;
    const width = Math.max(...rows.map((row) => row.length));
    const render = (row: string[]) => `| ${Array.from({ length: width }, (_, index) => row[index] ?? '').join(' | ')} |`;
    const out = [render(rows[0]!), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(render)];
    // A table's lines are never indented: a pipe table inside a list item is not portable.
    resume();
    blankLine();
    lines.push(...out, '');
  };

  walkHtml(html, {
    open(name, attributes) {
      const classes = attributes.class ? attributes.class.split(/\s+/).filter(Boolean) : NO_CLASSES;
      if (name === 'html' && attributes.lang && LANGUAGE_TAG.test(attributes.lang)) language ??= attributes.lang;
      if (name === 'title' && title === undefined && foreignDepth === 0) titleText = '';
      if (name === 'svg' || name === 'math') foreignDepth++;
      const skip = skipDepth > 0 || skips(name, attributes, classes);
      const frame: Frame = {
        name, skip, content: false, language: undefined, idEntry: false, container: false, candidate: undefined, list: false,
        definitionList: undefined, admonition: false, superscriptAt: undefined, linkAt: undefined, signature: false,
      };
      stack.push(frame);
      if (skip) {
        skipDepth++;
        return;
      }
      const role = (attributes.role ?? '').toLowerCase();
      if (classes.some((token) => CONTENT_CLASSES.has(token)) || (classes.includes('body') && role === 'main')) {
        frame.candidate = startCandidate(0);
      } else if (name === 'main' || role === 'main') frame.candidate = startCandidate(1);
      else if (name === 'div' && classes.includes('document')) frame.candidate = startCandidate(2);
      else if (name === 'article') frame.candidate = startCandidate(3);
      if (frame.candidate || name === 'article' || name === 'main' || name === 'section' || role === 'main') {
        frame.content = true;
        contentDepth++;
      }

      if (classes.some((token) => ADMONITION_CLASSES.has(token))) {
        frame.admonition = true;
        admonitionDepth++;
      }

      const hint = LANGUAGE_CLASS.exec(attributes.class ?? '')?.[1] ?? attributes['data-lang'];
      if (hint !== undefined) {
        frame.language = hint.toLowerCase();
        languages.push(frame.language);
      }

      if (heading) {
        if (attributes.id || (name === 'a' && attributes.name)) heading.innerId ??= attributes.id || attributes.name;
        if (name === 'br') inline += ' ';
      }
      if (pre) {
        if (name === 'code' && hint !== undefined) pre.language = languageName(hint);
        if (name === 'br') pre.text += '\n';
        return;
      }
      if (code !== undefined) {
        if (CODE_ELEMENTS.has(name)) codeDepth++;
        return;
      }
      if (CODE_ELEMENTS.has(name)) {
        code = '';
        codeDepth = 1;
        return;
      }

      // Not a footnote's mark ("Smith<sup id="fnref:2"><a href="#fn:2">2</a></sup>"): only an exponent gets a caret.
      if (name === 'sup' && !attributes.id && !classes.some((token) => token.includes('footnote'))) frame.superscriptAt = inline.length;
      if (name === 'a' && (attributes.href ?? '').startsWith('#')) for (const outer of stack.slice(-3)) outer.superscriptAt = undefined;
      if (name === 'a' && attributes.href) frame.linkAt = inline.length;
      if (table && !table.inCell && (name === 'td' || name === 'th') && stack.length - 1 > table.depth) {
        table.row ??= [];
        table.inCell = true;
        table.cellDepth = stack.length - 1;
        inline = '';
        return;
      }
      if (table && !table.inCell && name === 'tr') {
        if (table.row?.length) table.rows.push(table.row);
        table.row = [];
        table.rowDepth = stack.length - 1;
        return;
      }
      if (name === 'table' && !table && !heading && !classes.includes('lntable')) {
        flush();
        table = { rows: [], row: undefined, inCell: false, depth: stack.length - 1, rowDepth: -1, cellDepth: -1 };
        return;
      }

      if (/^h[1-6]$/.test(name) && !heading && !table && admonitionDepth === 0) {
        startHeading(Number(name[1]), attributes, false);
        return;
      }
      if (name === 'pre' && !table) {
        flush();
        const own = LANGUAGE_CLASS.exec(attributes.class ?? '')?.[1] ?? attributes['data-lang'];
        const inherited = languages[languages.length - 1];
        pre = { text: '', language: languageName(own ?? inherited) };
        preDepth = stack.length;
        return;
      }
      if (name === 'br') {
        if (!heading) inline += table?.inCell ? ' ' : '\n';
        return;
      }
      if (name === 'img' && attributes.alt) {
        inline += ` ${escapeMarkdownText(attributes.alt)} `;
        return;
      }
      if (heading) return;
      // In a table a list or a quote is a cell's text: its items are words apart, and it opens no block around what follows.
      if (table) {
        if (endsText(name)) flush();
        return;
      }

      if (name === 'dl') {
        flush();
        const parent = definitionLists[definitionLists.length - 1];
        const base = parent ? (parent.hasEntry ? parent.entryLevel : parent.base) : lastHeadingLevel;
        frame.definitionList = { entryLevel: Math.min(6, base + 1), base, hasEntry: false, inEntry: false, defined: false, owner: sectionHeading };
        definitionLists.push(frame.definitionList);
        return;
      }
      const list = definitionLists[definitionLists.length - 1];
      if (name === 'dt' && list && attributes.id && FRAGMENT_ID.test(attributes.id)) {
        // A signature right after another entry's, before any definition, is another name of it (`re.A`, `re.ASCII`; `-h`,
        // `--help`): Sphinx's, whose terms are signatures. A term of a DocBook index has no definition of its own.
        const alias = classes.includes('sig') && list.inEntry && !list.defined && lastEntry?.list === list;
        list.hasEntry = true;
        list.inEntry = true;
        list.defined = false;
        startHeading(list.entryLevel, attributes, true, alias);
        return;
      }
      if (name === 'dt' && list?.inEntry && list.defined) {
        // A term without an id after an entry (psql's `\x` after `\if`, which has one) is not part of that entry: it belongs
        // to the section the list stands in, as the text after the list does, and is a term with its definition again.
        flush();
        list.inEntry = false;
        backTo(list.owner);
      }
      // A signature with no anchor of its own (Sphinx's `list.append(x)` in the tutorial, `d | other` of the mapping
      // operations) is the term of its definition, as code: its `*args` and `d | other` are the code's, not markdown's.
      if (name === 'dt' && list && classes.includes('sig') && !heading && !table) {
        flush();
        frame.signature = true;
        code = '';
        codeDepth = 1;
        return;
      }
      if (name === 'dd' && list) {
        flush();
        list.defined = true;
        if (!list.inEntry) {
          containers.push({ first: ': ', rest: '', used: false });
          frame.container = true;
        }
        return;
      }
      if (name === 'ul' || name === 'ol') {
        flush();
        const start = Number.parseInt(attributes.start ?? '1', 10);
        lists.push({ ordered: name === 'ol', next: Number.isFinite(start) ? start : 1 });
        frame.list = true;
        return;
      }
      if (name === 'li') {
        flush();
        const owner = lists[lists.length - 1];
        const marker = owner?.ordered ? `${owner.next++}. ` : '- ';
        containers.push({ first: marker, rest: ' '.repeat(marker.length), used: false });
        frame.container = true;
        return;
      }
      if (name === 'blockquote') {
        flush();
        containers.push({ first: QUOTE_MARK, rest: QUOTE_MARK, used: false });
        frame.container = true;
        return;
      }
      if (endsText(name)) flush();
      if (attributes.id && (name === 'section' || name === 'article' || (name === 'div' && SECTION_CLASS.test(attributes.class ?? '')))) {
        flush();
        frame.idEntry = true;
        idEntries.push({ id: attributes.id, lines: lines.length });
      }
    },

    text(text) {
      if (titleText !== undefined && stack[stack.length - 1]?.name === 'title') {
        titleText += text;
        return;
      }
      if (skipDepth > 0) return;
      if (pre) pre.text += text;
      else if (code !== undefined) code += text;
      else inline += escapeMarkdownText(text.replace(/\s+/g, ' '));
    },

    close(name) {
      const frame = stack.pop()!;
      if (name === 'svg' || name === 'math') foreignDepth--;
      if (name === 'title' && titleText !== undefined) {
        title ??= titleText.replace(/\s+/g, ' ').trim() || undefined;
        titleText = undefined;
      }
      if (frame.skip) {
        skipDepth--;
        return;
      }
      if (frame.language !== undefined) languages.pop();
      if (frame.content) contentDepth--;
      if (frame.admonition) admonitionDepth--;
      if (pre) {
        if (stack.length < preDepth) endPre();
        return;
      }
      if (code !== undefined) {
        if ((CODE_ELEMENTS.has(name) || frame.signature) && --codeDepth === 0) {
          const content = frame.signature ? code.replace(/\s+/g, ' ').trim() : code.replace(/\s+/g, ' ');
          code = undefined;
          // Code right after code (`--scale=` then the replaceable `scale_factor`) is one span, as the page shows it:
          // two spans side by side would read as one with literal backticks in it.
          if (lastCode && lastCode.end === inline.length && inline.endsWith(codeSpan(lastCode.content)) && content.trim()) {
            inline = inline.slice(0, lastCode.start);
            lastCode.content += content;
          } else lastCode = content.trim() ? { start: inline.length, end: 0, content } : undefined;
          inline += codeSpan(lastCode?.content ?? content);
          if (lastCode) lastCode.end = inline.length;
        }
        return;
      }
      // A link that is only a mark ("§" after each item of the PostgreSQL release notes, to its commit) is not text.
      if (frame.linkAt !== undefined && inline.length >= frame.linkAt && LINK_MARK.test(inline.slice(frame.linkAt))) inline = inline.slice(0, frame.linkAt);
      if (frame.superscriptAt !== undefined && inline.length >= frame.superscriptAt) {
        // "modulo-2<sup>32</sup>" is 2^32, not 232.
        const base = inline.slice(0, frame.superscriptAt);
        const raised = inline.slice(frame.superscriptAt);
        if (EXPONENT.test(raised) && /[\p{L}\p{N})]$/u.test(base)) inline = `${base}^${raised}`;
      }
      if (heading && stack.length === heading.frameDepth) {
        endHeading();
        return;
      }
      if (table) {
        if (table.inCell && stack.length === table.cellDepth) {
          table.row!.push(inline.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|'));
          inline = '';
          table.inCell = false;
        } else if (!table.inCell && stack.length === table.rowDepth && table.row) {
          table.rows.push(table.row);
          table.row = undefined;
        } else if (name === 'table' && stack.length === table.depth) {
          if (table.row?.length) table.rows.push(table.row);
          endTable();
        }
        return;
      }
      if (frame.container) {
        flush();
        containers.pop();
      }
      if (frame.list) lists.pop();
      if (frame.definitionList) {
        flush();
        definitionLists.pop();
        if (frame.definitionList.hasEntry) backTo(frame.definitionList.owner);
      }
      if (frame.idEntry) idEntries.pop();
      if (endsText(name)) flush();
      if (frame.candidate) {
        flush();
        frame.candidate.end = lines.length;
      }
    },
  });
  if (pre) endPre();
  if (heading) endHeading();
  if (table) endTable();
  flush();

  const chosen = candidates.filter((candidate) => candidate.end >= 0).sort((a, b) => a.rank - b.rank)[0];
  const body = chosen ? lines.slice(chosen.start, chosen.end) : lines;
  const markdown = withoutBlankRuns(body).join('\n').trim();
  const firstHeading = body.find((line) => line.startsWith('#'));
  const headingText = firstHeading ? plainInline(customId(atxHeading(firstHeading)?.text ?? '').text).trim() || undefined : undefined;
  return {
    markdown,
    ...(title ? { title } : {}),
    ...(headingText ? { heading: headingText } : {}),
    ...(language ? { language } : {}),
  };
}

function languageName(hint: string | undefined): string | undefined {
  if (hint === undefined) return undefined;
  const name = hint.toLowerCase();
  return NO_LANGUAGE.has(name) ? undefined : name;
}

/** Inline code as a code span whose backticks cannot clash with the ones inside it. */
function codeSpan(content: string): string {
  if (!content.trim()) return content;
  let longest = 0;
  for (const run of content.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const padding = content.startsWith('`') || content.endsWith('`') ? ' ' : '';
  return `${fence}${padding}${content}${padding}${fence}`;
}

/** `json.dump(obj, fp, *, skipkeys=False, …)` → `json.dump(…)`: the name stays, the long parameter list goes. */
function shortEntryHeading(text: string): string {
  if (text.length <= MAX_ENTRY_HEADING) return text;
  const paren = text.indexOf('(');
  if (paren > 0 && paren < MAX_ENTRY_HEADING) return `${text.slice(0, paren)}(…)`;
  return `${text.slice(0, MAX_ENTRY_HEADING - 1).trimEnd()}…`;
}

/**
 * Lines with each run of blank lines outside code cut to one: the reader's blocks each end
 * with a blank line, and nested ones stack them. Inside a fence every line is the page's own.
 */
function withoutBlankRuns(lines: string[]): string[] {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || (closesFence(marker, fence) && line.trim() === marker))) fence = fence === undefined ? marker : undefined;
    else if (fence === undefined && line.trim() === '' && (kept.length === 0 || kept.at(-1)!.trim() === '')) continue;
    kept.push(line);
  }
  return kept;
}
