/**
 * A search hit's snippet as text runs. The server sends HTML in which only `<mark>` is markup;
 * it is still treated as untrusted: any other tag is dropped, entities are decoded to text,
 * and the runs are rendered as text (escaped by Lit), so nothing but `<mark>` can ever appear.
 */
export interface SnippetRun {
  text: string;
  marked: boolean;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([\da-f]{1,6})|(amp|lt|gt|quot|apos|nbsp));/gi, (entity, decimal?: string, hex?: string, name?: string) => {
    if (name) return NAMED_ENTITIES[name.toLowerCase()]!;
    const codePoint = decimal ? Number(decimal) : parseInt(hex!, 16);
    return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
  });
}

/**
 * @example
 * parseSnippet('reset <mark>password</mark> &amp; more');
 * // [{ text: 'reset ', marked: false }, { text: 'password', marked: true }, { text: ' & more', marked: false }]
 */
export function parseSnippet(snippet: string): SnippetRun[] {
  const runs: SnippetRun[] = [];
  let marked = false;
  for (const [index, part] of snippet.split(/<(\/?)mark\s*>/i).entries()) {
    // split() with a capture group interleaves the captured slash: odd entries are the tags.
    if (index % 2 === 1) {
      marked = part !== '/';
      continue;
    }
    const text = decodeEntities(part.replace(/<[^>]*>?/g, ''));
    if (text) runs.push({ text, marked });
  }
  return runs;
}
