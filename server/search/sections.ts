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
 */

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
   * heading line: what answers quote code from. Empty for the parts of a section cut in
   * pieces (answers then quote `text`).
   */
  markdown: string;
}

/** Sections are cut into parts of about this many characters, so one hit never holds a whole book. */
export const MAX_SECTION_CHARS = 20_000;

export const PATH_SEPARATOR = ' › ';

interface Heading {
  level: number;
  text: string;
  anchor: string;
}

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
// Three or more: a lone `-` under a line is far more often an empty list item than a heading.
const SETEXT_UNDERLINE = /^ {0,3}(={3,}|-{3,})[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CUSTOM_ID = /\s*\{#([A-Za-z0-9][\w:.-]*)\}\s*$/;

export function splitSections(content: string, pageTitle: string): Section[] {
  const lines = withoutFrontMatter(content.replace(/\r\n?/g, '\n')).split('\n');
  const slugger = createSlugger();
  const stack: Heading[] = [];
  // `lines` feed the plain text; `source` keeps every body line as written, fences included.
  const raw: { heading?: Heading; path: string; lines: string[]; source: string[] }[] = [{ path: '', lines: [], source: [] }];
  let fence: string | null = null;

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const current = raw[raw.length - 1]!;
    const fenceMatch = FENCE.exec(line);
    if (fence !== null || fenceMatch) current.source.push(line);
    if (fence !== null) {
      if (fenceMatch && fenceMatch[1]![0] === fence[0] && fenceMatch[1]!.length >= fence.length) fence = null;
      else current.lines.push(line);
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      continue;
    }

    let level = 0;
    let headingSource = '';
    const atx = ATX_HEADING.exec(line);
    if (atx) {
      level = atx[1]!.length;
      headingSource = atx[2] ?? '';
    } else {
      // A setext underline turns the paragraph line above it into a heading (CommonMark).
      const next = lines[index + 1];
      if (next !== undefined && SETEXT_UNDERLINE.test(next) && isParagraphLine(line) && !isParagraphLine(current.lines.at(-1) ?? '')) {
        level = next.trim()[0] === '=' ? 1 : 2;
        headingSource = line;
        index++;
      }
    }
    if (level === 0) {
      current.lines.push(line);
      current.source.push(line);
      continue;
    }

    const customId = CUSTOM_ID.exec(headingSource);
    const text = plainInline(customId ? headingSource.slice(0, customId.index) : headingSource).trim();
    if (!text) {
      current.lines.push(line);
      current.source.push(line);
      continue;
    }
    const anchor = slugger(customId ? customId[1]! : text, customId !== null);
    while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
    const heading = { level, text, anchor };
    stack.push(heading);
    raw.push({ heading, path: pathOf(stack, pageTitle), lines: [], source: [] });
  }

  // A first heading that repeats the title, with nothing above it, is the top of the page:
  // it becomes the intro (no fragment, no section path) instead of a section of its own.
  const [intro, first] = raw;
  if (first?.heading && sameText(first.heading.text, pageTitle) && !toPlainText(intro!.lines).trim()) {
    raw.splice(0, 2, { path: '', lines: first.lines, source: first.source });
  }

  const sections: Section[] = [];
  for (const part of raw) {
    const text = toPlainText(part.lines);
    if (!part.heading && !text) continue;
    const pieces = cutLongText(text);
    const markdown = pieces.length === 1 ? part.source.join('\n').replace(/^(?:[ \t]*\n)+|\s+$/g, '') : '';
    for (const piece of pieces) {
      sections.push({
        position: sections.length,
        heading: part.heading?.text ?? '',
        path: part.path,
        anchor: part.heading?.anchor ?? null,
        text: piece,
        markdown,
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

/** Markdown inline syntax to the text a reader sees: link and image text, code without backticks, no emphasis markers. */
export function plainInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/`+([^`]+?)`+/g, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[\s(])\*(?=\S)([^*]+?)(?<=\S)\*(?=$|[\s.,;:!?)])/g, '$1$2')
    .replace(/(^|[\s(])_(?=\S)([^_]+?)(?<=\S)_(?=$|[\s.,;:!?)])/g, '$1$2')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1');
}

/**
 * A section's lines to plain text: inline syntax resolved, list and quote markers, table
 * pipes and link reference definitions dropped; paragraphs stay separated by a blank line.
 * Raw HTML inside markdown is kept as text: it is escaped wherever it is shown.
 */
function toPlainText(lines: string[]): string {
  const out: string[] = [];
  for (const line of lines) {
    if (/^ {0,3}\[[^\]]+\]:\s+\S+/.test(line)) continue;
    if (/^ {0,3}([-*_])( *\1){2,} *$/.test(line)) continue;
    if (/^ *\|?[ :|-]*-[ :|-]*\|?[ :|-]* *$/.test(line) && line.includes('|')) continue;
    let text = line
      .replace(/^ {0,3}(> ?)+/, '')
      .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, '');
    if (text.includes('|')) text = text.replace(/^\s*\|/, '').replace(/\|\s*$/, '').replace(/\s*\|\s*/g, ' | ').trim();
    out.push(plainInline(text).replace(/\s+$/, ''));
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
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
