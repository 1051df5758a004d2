/**
 * Splits a page's stored content (markdown, or HTML already reduced to markdown-like text)
 * into sections at its headings. A search hit is a section: it links to the heading's
 * anchor and shows where in the page it sits ("Install › Linux").
 *
 * Anchors follow GitHub's slugger (github-slugger), which most documentation generators
 * (Docusaurus, VitePress, MkDocs with its default toc, GitHub itself) match for plain
 * headings: lowercase, punctuation and symbols dropped, each space a hyphen, repeats of a
 * slug numbered `-1`, `-2`. An explicit `{#id}` after a heading (Pandoc, kramdown,
 * Docusaurus) wins.
 *
 * Pages read from HTML carry `{#id}` after every heading that has an id in the page (see
 * content/html.ts); their other headings get no anchor, so a hit never links to an id the
 * page does not have.
 *
 * Every step is linear in the content's size: lines are read once, headings and inline
 * syntax without backtracking regular expressions.
 */
import type { PageFormat } from '../../wire/contract.js';
import { atxHeading, closesFence, customId, FENCE, isTableDelimiter, plainInline, tableCells } from '../content/markdown.js';

export interface Section {
  /** Order in the page, from 0. */
  position: number;
  /** The heading's own text; '' for the intro. */
  heading: string;
  /** Headings from the top of the page down to this one, joined with " › "; '' for the intro. */
  path: string;
  /** The heading's anchor, or null for the intro (it links to the page itself). */
  anchor: string | null;
  /** The section's plain text, without its heading line and without markdown syntax. */
  text: string;
  /**
   * The section's body as written (markdown, fenced code with its language), without its
   * heading line: what answers quote code from. A long section's pieces each have their own
   * (`cutLongSection`); empty only for a piece cut from one block longer than a section may be
   * (answers then quote `text`).
   */
  markdown: string;
}

/** Sections are cut into parts of about this many characters, so one hit never holds a whole book. */
export const MAX_SECTION_CHARS = 20_000;

export const PATH_SEPARATOR = ' › ';

/**
 * A page titled by a name in lower case after its number ("37.23. domains", "53.11. pg_class"): the reference page of a
 * view or a catalog, which the manual's prose never titles so. What a domain is, is told under "Domain Types".
 */
export const NAME_TITLE = /^\s*(?:[A-Z]\.)?\d+(?:\.\d+)*\.?\s+[a-z][a-z0-9_]*\s*$/;

/** The last heading of a heading path, trimmed. */
export const ownHeadingOf = (path: string) => (path.split(PATH_SEPARATOR).at(-1) ?? '').trim();

/** The kind a heading may name before an entry's name (`class zeb.Burrow`, `coroutine asyncio.sleep(…)`), as a pattern. */
const KIND = String.raw`(?:class|exception|function|method|classmethod|staticmethod|attribute|coroutine|awaitable|abstractmethod)\s+`;
export const ENTRY_KIND = `(?:${KIND})?`;

/** A heading that is a class's or a call's entry: what a heading under it is a member of. */
const MEMBER_OF = /^\s*(?:class|exception)\s|\(/i;

/** An entry's own heading: its unqualified name with its parameters or type, or after its kind (`class super`). */
const ENTRY_NAMED = new RegExp(String.raw`^@?(?:${ENTRY_KIND}([\p{L}_][\p{L}\p{N}_]*)\s*[([]|${KIND}([\p{L}_][\p{L}\p{N}_]*)(?![\p{L}\p{N}_.]))`, 'u');

/**
 * The name a section's own heading gives an API entry, lowercased (`entry_name`): "zip" for `zip(*iterables,
 * strict=False)`, "super" for `class super`, "work_mem" for `work_mem (integer)`. None for a name qualified by its module
 * (`os.open(…)`), for a member under its class's entry ("class array.array(…) › append(x)", whose own heading leaves out
 * whose it is), and for a heading that is no signature ("Descriptors", "Fixers › zip").
 */
export function entryNameOf(path: string): string {
  const headings = path.split(PATH_SEPARATOR);
  if (MEMBER_OF.test(headings.at(-2) ?? '')) return '';
  const named = ENTRY_NAMED.exec(ownHeadingOf(path));
  return (named?.[1] ?? named?.[2] ?? '').toLowerCase();
}

interface Heading {
  level: number;
  text: string;
  anchor: string | null;
}

// Three or more: a lone `-` under a line is far more often an empty list item than a heading.
const SETEXT_UNDERLINE = /^ {0,3}(={3,}|-{3,})[ \t]*$/;

/** A body line; code lines (inside a fence) are kept as they are in the plain text. */
interface BodyLine {
  text: string;
  code: boolean;
}

export interface SplitOptions {
  /**
   * The page's format: for `html` only headings with an explicit `{#id}` get an anchor, and
   * ids are kept exactly (never numbered): they are the page's own.
   */
  format?: PageFormat;
}

/** A stored page's sections, as the indexer cuts them: text in NFC, so a word typed on one keyboard matches the same word stored decomposed. */
export function pageSections(content: string, title: string, format: PageFormat | undefined): Section[] {
  return splitSections(content.normalize('NFC'), title.normalize('NFC'), { format });
}

export function splitSections(content: string, pageTitle: string, options: SplitOptions = {}): Section[] {
  const explicitOnly = options.format === 'html';
  const lines = withoutFrontMatter(content.replace(/\r\n?/g, '\n')).split('\n');
  const slugger = createSlugger();
  const stack: Heading[] = [];
  // `source` keeps every body line as written, fences included; the plain text is read from it (`bodyLines`).
  const raw: { heading?: Heading; path: string; source: string[] }[] = [{ path: '', source: [] }];
  let fence: string | null = null;

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const current = raw[raw.length - 1]!;
    const fenceMatch = FENCE.exec(line);
    if (fence !== null || fenceMatch) current.source.push(line);
    if (fence !== null) {
      if (closesFence(fenceMatch?.[1], fence)) fence = null;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      continue;
    }

    let level = 0;
    let headingSource = '';
    const atx = atxHeading(line);
    if (atx) {
      level = atx.level;
      headingSource = atx.text;
    } else {
      // A setext underline turns the paragraph line above it into a heading (CommonMark).
      const next = lines[index + 1];
      // Outside a fence, the line before is body text or a closing fence, which is no paragraph line.
      const previous = current.source.at(-1);
      if (next !== undefined && SETEXT_UNDERLINE.test(next) && isParagraphLine(line) && !(previous !== undefined && isParagraphLine(previous))) {
        level = next.trim()[0] === '=' ? 1 : 2;
        headingSource = line;
        index++;
      }
    }
    if (level === 0) {
      current.source.push(line);
      continue;
    }

    const written = customId(headingSource);
    const text = plainInline(written.text).trim();
    if (!text) {
      current.source.push(line);
      continue;
    }
    const anchor = written.id !== undefined ? (explicitOnly ? written.id : slugger(written.id, true)) : explicitOnly ? null : slugger(text);
    while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
    const heading = { level, text, anchor };
    stack.push(heading);
    raw.push({ heading, path: pathOf(stack, pageTitle), source: [] });
  }

  // A first heading that repeats the title, with nothing above it, is the top of the page:
  // it becomes the intro (no fragment, no section path) instead of a section of its own.
  const [intro, first] = raw;
  if (first?.heading && sameText(first.heading.text, pageTitle) && !toPlainText(bodyLines(intro!.source)).trim()) {
    raw.splice(0, 2, { path: '', source: first.source });
  }

  const sections: Section[] = [];
  for (const part of raw) {
    const text = toPlainText(bodyLines(part.source));
    if (!part.heading && !text) continue;
    const pieces = text.length <= MAX_SECTION_CHARS ? [{ text, markdown: markdownOf(part.source) }] : cutLongSection(part.source);
    for (const piece of pieces) {
      sections.push({
        position: sections.length,
        heading: part.heading?.text ?? '',
        path: part.path,
        anchor: part.heading?.anchor ?? null,
        ...piece,
      });
    }
  }
  // A page without text is still found by its title.
  if (sections.length === 0) sections.push({ position: 0, heading: '', path: '', anchor: null, text: '', markdown: '' });
  return sections;
}

/** YAML front matter (`---` … `---` at the very top) is metadata, not text. */
function withoutFrontMatter(content: string): string {
  const match = /^---\n[\s\S]*?\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(content);
  return match ? content.slice(match[0].length) : content;
}

function pathOf(stack: Heading[], pageTitle: string): string {
  // The page title is shown with every hit; repeating it as the first step of the path adds nothing.
  const steps = stack.map((heading) => heading.text);
  if (steps.length > 1 && sameText(steps[0]!, pageTitle)) steps.shift();
  return steps.join(PATH_SEPARATOR);
}

function sameText(a: string, b: string): boolean {
  const normal = (value: string) => value.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  return normal(a) === normal(b);
}

function isParagraphLine(line: string): boolean {
  const trimmed = line.trim();
  return trimmed !== '' && !/^([-*+>|]|\d+[.)]\s|#{1,6}(\s|$)|<)/.test(trimmed) && !FENCE.test(line);
}

/**
 * GitHub's slugger: lowercase, drop what is neither a letter, mark, digit, connector, space
 * nor hyphen, spaces to hyphens (not collapsed), then number repeats. Custom ids are kept
 * as written, but still numbered when repeated so every anchor of a page is unique.
 */
export function createSlugger(): (text: string, verbatim?: boolean) => string {
  const seen = new Map<string, number>();
  return (text, verbatim = false) => {
    const base = verbatim ? text : text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    let slug = base;
    while (seen.has(slug)) {
      const count = seen.get(base)! + 1;
      seen.set(base, count);
      slug = `${base}-${count}`;
    }
    seen.set(slug, 0);
    return slug;
  };
}

/**
 * A section's lines to plain text: inline syntax resolved, list and quote markers, table
 * pipes and link reference definitions dropped; paragraphs stay separated by a blank line.
 * Raw HTML inside markdown is kept as text: it is escaped wherever it is shown.
 */
function toPlainText(lines: BodyLine[]): string {
  const out: string[] = [];
  let inTable = false;
  for (const [index, { text: line, code }] of lines.entries()) {
    if (code) {
      out.push(line.trimEnd());
      continue;
    }
    // A table's rows: the header before its delimiter line, and the rows after it up to a line that is not one.
    inTable = line.includes('|') && (inTable || isTableDelimiter(line) || isTableDelimiter(lines[index + 1]?.text ?? ''));
    if (/^ {0,3}\[[^\]]+\]:\s+\S+/.test(line)) continue;
    if (/^ {0,3}([-*_])( *\1){2,} *$/.test(line)) continue;
    if (isTableDelimiter(line)) continue;
    let text = line
      .replace(/^ {0,3}(> ?)+/, '')
      .replace(/^\s*(?:[-*+:]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, '');
    // Its cells apart (tableCells); elsewhere a pipe is text.
    if (inTable) text = tableCells(text).join(' | ');
    out.push(plainInline(text).trimEnd());
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** A section's body as written, without the blank lines above it. */
function markdownOf(source: string[]): string {
  return source.join('\n').replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

/** Body lines as written to the lines of their plain text: fence lines dropped, the lines between them code. */
function bodyLines(source: string[]): BodyLine[] {
  const lines: BodyLine[] = [];
  let fence: string | null = null;
  for (const line of source) {
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      if (closesFence(fenceMatch?.[1], fence)) fence = null;
      else lines.push({ text: line, code: true });
    } else if (fenceMatch) fence = fenceMatch[1]!;
    else lines.push({ text: line, code: false });
  }
  return lines;
}

/**
 * The blocks of a section's body as written: paragraphs, lists and fenced code (blank lines
 * inside a fence do not end it), and each row of a table, which carries the table's header
 * and delimiter rows so that a piece starting with it is still a table.
 */
function blocksOf(source: string[]): { lines: string[]; header?: string[] }[] {
  const blocks: { lines: string[]; header?: string[] }[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  let header: string[] | undefined;
  const end = () => {
    if (current.length > 0) blocks.push({ lines: current });
    current = [];
  };
  for (let index = 0; index < source.length; index++) {
    const line = source[index]!;
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      current.push(line);
      if (closesFence(fenceMatch?.[1], fence)) fence = null;
      continue;
    }
    if (fenceMatch) fence = fenceMatch[1]!;
    const row = /^\s*\|/.test(line);
    if (row && !header && isTableDelimiter(source[index + 1])) {
      end();
      header = [line, source[++index]!];
      continue;
    }
    if (row && header) {
      blocks.push({ lines: [line], header });
      continue;
    }
    header = undefined;
    if (line.trim() === '') end();
    else current.push(line);
  }
  end();
  return blocks;
}

/**
 * Cuts a section whose text is longer than MAX_SECTION_CHARS into pieces at its blocks, so
 * each piece keeps its markdown (code fenced with its language, inline code in backticks) as
 * a short section does; a table is cut between rows, each piece under the table's header. A
 * single block longer than that is cut as text alone, without markdown.
 */
function cutLongSection(source: string[]): { text: string; markdown: string }[] {
  const pieces: { text: string; markdown: string }[] = [];
  let lines: string[] = [];
  let length = 0;
  // The table the piece ends in, whose next row goes on without its header.
  let openTable: string[] | undefined;
  const flush = () => {
    if (lines.length > 0) pieces.push({ text: toPlainText(bodyLines(lines)), markdown: markdownOf(lines) });
    lines = [];
    length = 0;
    openTable = undefined;
  };
  const adding = (block: { lines: string[]; header?: string[] }) => {
    const continues = block.header !== undefined && block.header === openTable;
    const body = continues ? block.lines : [...(block.header ?? []), ...block.lines];
    // A row goes on the next line; another block after a blank one.
    const separator = lines.length === 0 ? 0 : continues ? 1 : 2;
    return { added: separator === 2 ? ['', ...body] : body, length: separator + toPlainText(bodyLines(body)).length };
  };
  for (const block of blocksOf(source)) {
    let next = adding(block);
    if (length + next.length > MAX_SECTION_CHARS && lines.length > 0) {
      flush();
      next = adding(block);
    }
    if (next.length > MAX_SECTION_CHARS) {
      for (const text of cutLongText(toPlainText(bodyLines(next.added)))) pieces.push({ text, markdown: '' });
      continue;
    }
    lines.push(...next.added);
    length += next.length;
    openTable = block.header;
  }
  flush();
  return pieces;
}

/** Cuts text longer than MAX_SECTION_CHARS at paragraph (or else line, or else word) boundaries. */
function cutLongText(text: string): string[] {
  if (text.length <= MAX_SECTION_CHARS) return [text];
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > MAX_SECTION_CHARS) {
    const window = rest.slice(0, MAX_SECTION_CHARS);
    let cut = window.lastIndexOf('\n\n');
    if (cut < MAX_SECTION_CHARS / 2) cut = window.lastIndexOf('\n');
    if (cut < MAX_SECTION_CHARS / 2) cut = window.lastIndexOf(' ');
    if (cut < MAX_SECTION_CHARS / 2) cut = MAX_SECTION_CHARS;
    // Never split a surrogate pair.
    if (/[\uD800-\uDBFF]/.test(rest[cut - 1] ?? '')) cut--;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces.filter(Boolean);
}

/**
 * A section that is mostly links (a table of contents, an index, a sitemap) points to answers
 * without holding one: its markdown is mostly link text or a long nested bulleted list of
 * titles, or, where no markdown was kept, its text is a long list of lines that end no sentence.
 */
export function isNavigation(markdown: string, text: string): boolean {
  return markdown ? navigates(navigationEntries(markdown)) : listsTitles(text);
}

/** Text without markdown that reads as navigation: many short lines (titles), few of which end a sentence. */
function listsTitles(text: string): boolean {
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
  if (lines.length < 40) return false;
  const words = lines.reduce((sum, line) => sum + line.split(/\s+/).length, 0);
  const sentences = lines.filter((line) => /(?<!\d)[.:;。：]$/.test(line)).length;
  return words / lines.length < 10 && sentences < lines.length / 10;
}

/**
 * A table of contents too long to be a list of the section's own (a generator's
 * `contents.html`, a site map): navigation (isNavigation) of many links or titles in its
 * markdown, or, where none was kept (a long section cut into pieces), of lines nearly all of
 * which are titles. The search index reads such a section by its title and headings only; a
 * list of supported platforms or of a dozen integrations, or a long code example, is content.
 */
export function isTableOfContents(markdown: string, text: string): boolean {
  if (markdown) {
    const entries = navigationEntries(markdown);
    return navigates(entries) && (entries!.links >= INDEXED_TABLE_OF_CONTENTS_ENTRIES || entries!.titles >= INDEXED_TABLE_OF_CONTENTS_ENTRIES);
  }
  if (!listsTitles(text)) return false;
  const lines = text.split('\n').filter((line) => line.trim());
  return lines.filter((line) => TITLE_LINE.test(line)).length >= 0.8 * lines.length;
}

/**
 * A line that reads as a title or an entry ("PEP 657: Fine-grained error locations", "abc —
 * Abstract Base Classes", "Calendar.iterweekdays()"), not as code (`    return x`, `x = 1`,
 * `def f(x):`) nor as a table's row (`JOIN | reserved | reserved`).
 */
const TITLE_LINE = /^[^\s={};<>#|][^={};<>#|]*(?<![:,\\])$/u;

/** Whether a section's markdown, by its entries (navigationEntries), is mostly links or a long nested list of titles. */
function navigates(entries: NavigationEntries | undefined): boolean {
  return entries !== undefined && (entries.linked > 0.6 || (entries.nested && entries.titles >= TABLE_OF_CONTENTS_TITLES && entries.listed > 0.6));
}

interface NavigationEntries {
  linked: number;
  listed: number;
  links: number;
  titles: number;
  nested: boolean;
}

/** The shares of a section's prose that are link text and short list items (titles), their counts, and whether a list is nested. */
function navigationEntries(markdown: string): NavigationEntries | undefined {
  const prose = markdown.replace(/```[\s\S]*?```/g, '');
  if (prose.length < 200) return undefined;
  let linked = 0;
  let links = 0;
  // Within a line: a run of "[" is read once, not once per bracket.
  for (const match of prose.matchAll(/\[([^\]\n]*)\]\([^)\n]*\)/g)) {
    linked += letters(match[1]!);
    links++;
  }
  const all = letters(prose.replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, '$1'));
  if (all === 0) return undefined;
  // A table of contents whose links were not kept: mostly a long bulleted list of titles (items of a
  // few words that end no sentence), nested. Numbered steps and a short list of requirements are not one.
  let listed = 0;
  let titles = 0;
  let nested = false;
  for (const match of prose.matchAll(/^([ \t]*)[-*+][ \t]+(.*)$/gm)) {
    const item = match[2]!.trim();
    if (item.split(/\s+/).length > 8 || /[.!?:;]$/.test(item)) continue;
    listed += letters(item);
    titles++;
    if (match[1]!.length > 0) nested = true;
  }
  return { linked: linked / all, listed: listed / all, links, titles, nested };
}

/** The fewest titles a bulleted list holds to be taken for a table of contents. */
const TABLE_OF_CONTENTS_TITLES = 10;
/** The fewest links or titles of a table of contents the search index reads by its title alone (isTableOfContents). */
const INDEXED_TABLE_OF_CONTENTS_ENTRIES = 40;

const letters = (text: string) => text.replace(/[^\p{L}\p{N}]+/gu, '').length;
