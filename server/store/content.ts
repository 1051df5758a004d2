/**
 * Page content is stored as markdown-like text: markdown and text as given, HTML reduced to
 * text that keeps its headings (as `#` lines), list items and link text, and drops scripts,
 * styles and navigation chrome. Nothing of the HTML is ever served back as markup.
 */
import { Parser } from 'htmlparser2';
import type { PageFormat } from '../../wire/contract.js';

/** Elements whose whole subtree is chrome or code, never content. */
const DROPPED = new Set([
  'script', 'style', 'noscript', 'template', 'nav', 'header', 'footer', 'aside', 'svg', 'iframe', 'object',
  'embed', 'form', 'button', 'select', 'textarea', 'menu', 'dialog', 'canvas', 'video', 'audio', 'head', 'title',
]);
const DROPPED_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'menu', 'menubar', 'toolbar']);
const BLOCKS = new Set([
  'p', 'div', 'section', 'article', 'main', 'br', 'tr', 'table', 'ul', 'ol', 'dl', 'dt', 'dd', 'blockquote',
  'pre', 'figure', 'figcaption', 'hr', 'details', 'summary', 'address',
]);

export function normaliseContent(format: PageFormat, content: string): string {
  const text = format === 'html' ? htmlToText(content) : content;
  return text.replace(/\r\n?/g, '\n').replace(/\u0000/g, '');
}

/** Reduces an HTML document to markdown-like text: headings, paragraphs, list items, link text. */
export function htmlToText(html: string): string {
  const lines: string[] = [];
  let line = '';
  let skipDepth = 0;
  const stack: { name: string; skip: boolean }[] = [];
  let preDepth = 0;
  const flush = () => {
    const trimmed = preDepth > 0 ? line : line.replace(/[ \t\u00a0]+/g, ' ').trim();
    if (trimmed) lines.push(trimmed);
    line = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const skip =
          skipDepth > 0 ||
          DROPPED.has(name) ||
          DROPPED_ROLES.has((attributes.role ?? '').toLowerCase()) ||
          attributes['aria-hidden'] === 'true' ||
          'hidden' in attributes;
        stack.push({ name, skip });
        if (skip) {
          skipDepth++;
          return;
        }
        const heading = /^h([1-6])$/.exec(name);
        if (heading) {
          flush();
          lines.push('');
          line = `${'#'.repeat(Number(heading[1]))} `;
        } else if (name === 'li') {
          flush();
          line = '- ';
        } else if (name === 'pre') {
          flush();
          lines.push('```');
          preDepth++;
        } else if (name === 'td' || name === 'th') {
          line += line && !line.endsWith(' ') ? ' | ' : '';
        } else if (name === 'img' && attributes.alt) {
          line += ` ${attributes.alt} `;
        } else if (BLOCKS.has(name)) {
          flush();
        }
      },
      ontext(text) {
        if (skipDepth === 0) line += preDepth > 0 ? text : text.replace(/\s+/g, ' ');
      },
      onclosetag(name) {
        // Pop to the matching open element; stray end tags are ignored.
        const index = stack.map((entry) => entry.name).lastIndexOf(name);
        if (index === -1) return;
        while (stack.length > index) {
          const entry = stack.pop()!;
          if (entry.skip) skipDepth--;
          else if (/^h[1-6]$/.test(entry.name)) {
            flush();
            lines.push('');
          } else if (entry.name === 'pre') {
            if (preDepth > 0) {
              for (const preLine of line.split('\n')) lines.push(preLine);
              line = '';
              preDepth--;
            }
            lines.push('```');
          } else if (BLOCKS.has(entry.name) || entry.name === 'li') flush();
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** The first `<title>` or `<h1>` of an HTML document. */
export function htmlTitle(html: string): string | undefined {
  const match = /<title[^>]*>([^<]*)<\/title>|<h1[^>]*>([^<]*)<\/h1>/i.exec(html);
  return match ? (match[1] ?? match[2] ?? '').replace(/\s+/g, ' ').trim() || undefined : undefined;
}
