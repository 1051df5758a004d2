/**
 * Markdown as the server reads it: the title of a markdown page, inline syntax reduced to
 * the text a reader sees, and plain text escaped so it reads back as itself. Every function
 * here takes time linear in its input: each scans its text a fixed number of times and
 * never searches ahead from every position (a page of `" **a"` repeated must not cost the
 * square of its size).
 */

/** An opening code fence: three or more backticks or tildes, indented at most three spaces. */
export const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Whether a line's fence mark (`FENCE`'s group) closes the open `fence`: the same character, at least as many. */
export function closesFence(mark: string | undefined, fence: string): boolean {
  return mark !== undefined && mark[0] === fence[0] && mark.length >= fence.length;
}

/** The fenced code blocks of markdown, each with its fences, in order; one left open runs to the end. */
export function fencedBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let fence: string | null = null;
  let lines: string[] = [];
  for (const line of markdown.split('\n')) {
    const mark = FENCE.exec(line)?.[1];
    if (fence === null) {
      if (mark) [fence, lines] = [mark, [line]];
      continue;
    }
    lines.push(line);
    if (closesFence(mark, fence) && line.trim() === mark) {
      blocks.push(lines.join('\n'));
      fence = null;
    }
  }
  if (fence !== null) blocks.push(lines.join('\n'));
  return blocks;
}
const FRAGMENT_ID = /^[^\s{}]+$/;

/** A table's delimiter row, under its header row (`| --- | :-: |`). */
export function isTableDelimiter(line: string | undefined): boolean {
  return line !== undefined && line.includes('|') && line.includes('-') && /^[\s:|-]*$/.test(line);
}

/**
 * An ATX heading line (`## Text ##`): its level and its text without the closing `#`s.
 * Read by hand: the usual regular expression backtracks over runs of spaces.
 */
export function atxHeading(line: string): { level: number; text: string } | undefined {
  let at = 0;
  while (at < 3 && line[at] === ' ') at++;
  let level = 0;
  while (line[at + level] === '#') level++;
  if (level < 1 || level > 6) return undefined;
  const after = line[at + level];
  if (after !== undefined && after !== ' ' && after !== '\t') return undefined;
  let text = line.slice(at + level).trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0) text = '';
  else if (end < text.length && (text[end - 1] === ' ' || text[end - 1] === '\t')) text = text.slice(0, end).trimEnd();
  return { level, text };
}

/** A heading's text and the `{#id}` written after it (Pandoc, kramdown, Docusaurus, and the HTML reader), if any. */
export function customId(heading: string): { text: string; id: string | undefined } {
  const trimmed = heading.trimEnd();
  if (!trimmed.endsWith('}')) return { text: heading, id: undefined };
  const open = trimmed.lastIndexOf('{#');
  const id = open === -1 ? '' : trimmed.slice(open + 2, -1);
  if (!FRAGMENT_ID.test(id)) return { text: heading, id: undefined };
  return { text: trimmed.slice(0, open).trimEnd(), id };
}

/**
 * The text of a markdown document's first level-one ATX heading (`# Title`), outside fenced
 * code and front matter, with its inline syntax resolved; undefined when there is none.
 */
export function markdownTitle(markdown: string): string | undefined {
  return firstHeading(markdown, 1);
}

/** The plain text of the first ATX heading of at most `maxLevel`, outside fenced code and front matter. */
export function firstHeading(markdown: string, maxLevel = 6): string | undefined {
  let fence: string | undefined;
  const lines = markdown.split(/\r\n?|\n/);
  let start = 0;
  if (lines[0] === '---') {
    const end = lines.findIndex((line, index) => index > 0 && (line === '---' || line === '...'));
    if (end > 0) start = end + 1;
  }
  for (let index = start; index < lines.length; index++) {
    const line = lines[index]!;
    const fenceMark = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (closesFence(fenceMark, fence)) fence = undefined;
      continue;
    }
    if (fenceMark) {
      fence = fenceMark;
      continue;
    }
    const heading = atxHeading(line);
    if (heading && heading.level <= maxLevel) {
      const text = plainInline(customId(heading.text).text).trim();
      if (text) return text;
    }
  }
  return undefined;
}

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const WHITESPACE = /\s/;
const PUNCTUATION = /[\p{P}\p{S}]/u;
/** A `__name__` (a Python special name) is read as written, never as strong emphasis. */
const DUNDER_CONTENT = /^[A-Za-z0-9]\w*$/;
const MAX_DUNDER_LENGTH = 64;

interface Delimiter {
  char: string;
  start: number;
  /** Characters of the run still unmatched, taken from its inner end. */
  length: number;
  original: number;
}

/**
 * A table row's cells, split at the pipes not escaped: a cell's own pipe is written `\|`, in
 * code too (`` `a \|\| b` ``), and is a pipe of its text again.
 */
export function tableCells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/**
 * Markdown inline syntax to the text a reader sees: link and image text, code without its
 * backticks (and its content untouched), no emphasis markers, backslash escapes resolved.
 * Emphasis follows CommonMark's flanking rules (so `snake_case` and `2 * 3` stay as they
 * are), except that `__name__` is kept whole: it is far more often a Python name than bold.
 */
export function plainInline(text: string): string {
  const length = text.length;
  if (!/[\\`*_~[\]!]/.test(text)) return text;
  // `removed` marks characters the reader does not see; `literal` those no later rule may use.
  const removed = new Uint8Array(length);
  const literal = new Uint8Array(length);

  markEscapesAndCodeSpans(text, removed, literal);
  markLinks(text, removed, literal);
  markEmphasis(text, removed, literal);

  let out = '';
  let runStart = 0;
  for (let index = 0; index < length; index++) {
    if (removed[index]) {
      out += text.slice(runStart, index);
      runStart = index + 1;
    }
  }
  return out + text.slice(runStart);
}

/**
 * Backslash escapes and code spans, left to right as CommonMark reads them: a backslash before
 * punctuation makes it literal ("\\`" opens no code span), but inside a code span a backslash is
 * itself (`` `C:\\` `` is the code `C:\\`, `` `[a\\-z]` `` keeps its backslash).
 */
function markEscapesAndCodeSpans(text: string, removed: Uint8Array, literal: Uint8Array): void {
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const character = text[index];
    if (character === '\\' && index + 1 < length && ASCII_PUNCTUATION.test(text[index + 1]!)) {
      removed[index] = 1;
      literal[index + 1] = 1;
      index++;
      continue;
    }
    if (character !== '`') continue;
    let end = index;
    while (end < length && text[end] === '`') end++;
    const run = end - index;
    // The closing run: the next run of exactly as many backticks.
    let close = -1;
    for (let at = end; at < length; at++) {
      if (text[at] !== '`') continue;
      let after = at;
      while (after < length && text[after] === '`') after++;
      if (after - at === run) {
        close = at;
        break;
      }
      at = after - 1;
    }
    if (close === -1) {
      // Unmatched: literal backticks.
      for (let at = index; at < end; at++) literal[at] = 1;
      index = end - 1;
      continue;
    }
    for (let at = index; at < end; at++) removed[at] = 1;
    for (let at = close; at < close + run; at++) removed[at] = 1;
    for (let at = index; at < close + run; at++) literal[at] = 1;
    index = close + run - 1;
  }
}

/** How many `(…)` groups a link destination may hold; CommonMark allows nesting, real links barely use it. */
const MAX_DESTINATION_GROUPS = 8;

/** `[text](destination)`, `![alt](destination)` and `[text][reference]` keep only their text. */
function markLinks(text: string, removed: Uint8Array, literal: Uint8Array): void {
  const length = text.length;
  // The next unescaped parenthesis and closing bracket at or after each position.
  const nextParen = new Int32Array(length + 1).fill(-1);
  const nextClose = new Int32Array(length + 1).fill(-1);
  for (let index = length - 1; index >= 0; index--) {
    const usable = !literal[index];
    nextParen[index] = usable && (text[index] === '(' || text[index] === ')') ? index : nextParen[index + 1]!;
    nextClose[index] = usable && text[index] === ']' ? index : nextClose[index + 1]!;
  }
  const openers: number[] = [];
  for (let index = 0; index < length; index++) {
    if (literal[index]) continue;
    const char = text[index];
    if (char === '[') {
      openers.push(index);
      continue;
    }
    if (char !== ']' || openers.length === 0) continue;
    const open = openers.pop()!;
    const image = open > 0 && text[open - 1] === '!' && !literal[open - 1] && !removed[open - 1];
    if (open + 1 === index && !image) continue;
    let end = -1;
    if (text[index + 1] === '(' && !literal[index + 1]) end = destinationEnd(text, index + 2, nextParen);
    else if (text[index + 1] === '[' && !literal[index + 1]) {
      const close = nextClose[index + 2]!;
      if (close !== -1 && text.lastIndexOf('[', close) === index + 1) end = close;
    }
    if (end === -1) continue;
    if (image) removed[open - 1] = 1;
    removed[open] = 1;
    for (let at = index; at <= end; at++) {
      removed[at] = 1;
      literal[at] = 1;
    }
    index = end;
  }
}

/** The `)` that ends a link destination starting at `from`, or -1: groups in it must be balanced, one level deep. */
function destinationEnd(text: string, from: number, nextParen: Int32Array): number {
  let at = nextParen[from]!;
  for (let groups = 0; at !== -1 && groups <= MAX_DESTINATION_GROUPS; groups++) {
    if (text[at] === ')') return at;
    const inner = nextParen[at + 1]!;
    if (inner === -1 || text[inner] !== ')') return -1;
    at = nextParen[inner + 1]!;
  }
  return -1;
}

/**
 * Emphasis (`*`, `_`) and strikethrough (`~~`): delimiter runs that can open wait on a stack
 * per character; one that can close matches the top of its stack. Each run is pushed and
 * popped at most once, so the whole pass is linear.
 */
function markEmphasis(text: string, removed: Uint8Array, literal: Uint8Array): void {
  const stacks: Record<string, Delimiter[]> = { '*': [], _: [], '~': [] };
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const char = text[index]!;
    if ((char !== '*' && char !== '_' && char !== '~') || literal[index] || removed[index]) continue;
    let end = index;
    while (end < length && text[end] === char && !literal[end] && !removed[end]) end++;
    const run = end - index;
    const start = index;
    index = end - 1;
    if (char === '~' && run !== 2) continue;
    const before = start > 0 ? text[start - 1]! : ' ';
    const after = end < length ? text[end]! : ' ';
    const beforeSpace = WHITESPACE.test(before);
    const afterSpace = WHITESPACE.test(after);
    const beforePunctuation = PUNCTUATION.test(before);
    const afterPunctuation = PUNCTUATION.test(after);
    const leftFlanking = !afterSpace && (!afterPunctuation || beforeSpace || beforePunctuation);
    const rightFlanking = !beforeSpace && (!beforePunctuation || afterSpace || afterPunctuation);
    const canOpen = char === '_' ? leftFlanking && (!rightFlanking || beforePunctuation) : leftFlanking;
    const canClose = char === '_' ? rightFlanking && (!leftFlanking || afterPunctuation) : rightFlanking;

    const delimiter: Delimiter = { char, start, length: run, original: run };
    const stack = stacks[char]!;
    if (canClose) {
      while (delimiter.length > 0 && stack.length > 0) {
        const opener = stack[stack.length - 1]!;
        if (char === '_' && isDunder(text, opener, delimiter)) {
          stack.pop();
          delimiter.length = 0;
          break;
        }
        const used = Math.min(opener.length, delimiter.length, 2);
        for (let at = 0; at < used; at++) {
          removed[opener.start + opener.length - 1 - at] = 1;
          removed[delimiter.start + delimiter.original - delimiter.length + at] = 1;
        }
        opener.length -= used;
        delimiter.length -= used;
        if (opener.length === 0) stack.pop();
      }
    }
    if (canOpen && delimiter.length > 0) stack.push(delimiter);
  }
}

function isDunder(text: string, opener: Delimiter, closer: Delimiter): boolean {
  if (opener.original !== 2 || closer.original !== 2 || opener.length !== 2 || closer.length !== 2) return false;
  const contentLength = closer.start - opener.start - 2;
  return contentLength > 0 && contentLength <= MAX_DUNDER_LENGTH && DUNDER_CONTENT.test(text.slice(opener.start + 2, closer.start));
}

/**
 * Plain text (from HTML) escaped so that, read as markdown, it is the same text: characters
 * that would start code, links or emphasis get a backslash. Letters between underscores
 * (`snake_case`, `__init__`) are left as they are: the reading above keeps them.
 */
export function escapeMarkdownText(text: string): string {
  if (!/[\\`*_~[\]]/.test(text)) return text;
  let out = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    const after = text[index + 1] ?? ' ';
    if (char === '_') {
      // A run of underscores at one edge of a word could open or close emphasis; `__` is half a `__name__`.
      let end = index;
      while (text[end] === '_') end++;
      const run = text.slice(index, end);
      const wordBefore = /\w/.test(text[index - 1] ?? ' ');
      const wordAfter = /\w/.test(text[end] ?? ' ');
      out += wordBefore !== wordAfter && run.length !== 2 ? run.replace(/_/g, '\\_') : run;
      index = end - 1;
    } else if (char === '\\' && ASCII_PUNCTUATION.test(after)) out += '\\\\';
    else if (char === '`' || char === '*' || char === '[') out += `\\${char}`;
    else if (char === ']' && (after === '(' || after === '[')) out += '\\]';
    else if (char === '~' && (after === '~' || text[index - 1] === '~')) out += '\\~';
    else out += char;
  }
  return out;
}

/** A paragraph's first characters that markdown would take as a heading, quote, list or rule, escaped. */
export function escapeBlockStart(line: string): string {
  if (/^(#{1,6}(\s|$)|>|[-+*](\s|$)|=+\s*$|-+\s*$|\|)/.test(line)) return `\\${line}`;
  return line.replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
}
