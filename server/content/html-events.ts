/**
 * HTML as a stream of balanced open and close events, in time linear in the document's size.
 *
 * htmlparser2's `Parser` keeps its open elements in an array it `unshift`s and searches on
 * every end tag, so 250,000 nested `<div>` cost it close to a minute. Its `Tokenizer` is
 * linear; this file builds the element stack on top of it with pushes and pops only:
 * an end tag is matched through a count of open elements per name (a stray end tag is
 * ignored without a search), and implied ends (`<li>` after `<li>`, `<p>` before a block)
 * look at the top of the stack only, as browsers' simple cases do.
 */
import { Tokenizer } from 'htmlparser2';

export interface HtmlEvents {
  open(name: string, attributes: Record<string, string>): void;
  text(text: string): void;
  close(name: string): void;
}

const VOID = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link',
  'meta', 'param', 'source', 'track', 'wbr',
]);

const P_CLOSERS = [
  'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul',
];
/** Opening the key ends an open element of these names when it is the innermost one. */
const IMPLIED_END = new Map<string, Set<string>>([
  ['li', new Set(['li', 'p'])],
  ['dt', new Set(['dt', 'dd', 'p'])],
  ['dd', new Set(['dt', 'dd', 'p'])],
  ['tr', new Set(['tr', 'td', 'th'])],
  ['td', new Set(['td', 'th'])],
  ['th', new Set(['td', 'th'])],
  ['tbody', new Set(['tbody', 'thead', 'tr', 'td', 'th'])],
  ['tfoot', new Set(['tbody', 'thead', 'tr', 'td', 'th'])],
  ['option', new Set(['option'])],
  ...P_CLOSERS.map((name) => [name, new Set(['p'])] as [string, Set<string>]),
]);

/** Feeds `html` to `events`; every open is matched by exactly one close, in nesting order. */
export function walkHtml(html: string, events: HtmlEvents): void {
  const stack: string[] = [];
  const openByName = new Map<string, number>();
  let tagName = '';
  let attributes: Record<string, string> = {};
  let attributeName = '';
  let attributeValue = '';

  const push = (name: string) => {
    stack.push(name);
    openByName.set(name, (openByName.get(name) ?? 0) + 1);
  };
  const pop = () => {
    const name = stack.pop()!;
    openByName.set(name, openByName.get(name)! - 1);
    events.close(name);
  };
  const endOpenTag = (selfClosing: boolean) => {
    const name = tagName;
    tagName = '';
    if (!name) return;
    const implied = IMPLIED_END.get(name);
    if (implied) while (stack.length > 0 && implied.has(stack[stack.length - 1]!)) pop();
    push(name);
    events.open(name, attributes);
    if (VOID.has(name) || selfClosing) pop();
  };

  const tokenizer = new Tokenizer(
    { decodeEntities: true, xmlMode: false, recognizeSelfClosing: true },
    {
      onopentagname(start, end) {
        tagName = html.slice(start, end).toLowerCase();
        attributes = {};
      },
      onattribname(start, end) {
        attributeName = html.slice(start, end).toLowerCase();
        attributeValue = '';
      },
      onattribdata(start, end) {
        attributeValue += html.slice(start, end);
      },
      onattribentity(codePoint) {
        attributeValue += String.fromCodePoint(codePoint);
      },
      onattribend() {
        if (!Object.hasOwn(attributes, attributeName)) attributes[attributeName] = attributeValue;
        attributeValue = '';
      },
      onopentagend() {
        endOpenTag(false);
      },
      onselfclosingtag() {
        endOpenTag(true);
      },
      onclosetag(start, end) {
        const name = html.slice(start, end).toLowerCase();
        if (VOID.has(name)) {
          // `</br>` is a line break in every browser; other void end tags mean nothing.
          if (name === 'br') {
            events.open('br', {});
            events.close('br');
          }
          return;
        }
        if ((openByName.get(name) ?? 0) === 0) {
          // A stray `</p>` is an empty paragraph; other stray end tags are ignored.
          if (name === 'p') {
            events.open('p', {});
            events.close('p');
          }
          return;
        }
        while (stack[stack.length - 1] !== name) pop();
        pop();
      },
      ontext(start, end) {
        events.text(html.slice(start, end));
      },
      ontextentity(codePoint) {
        events.text(String.fromCodePoint(codePoint));
      },
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {
        while (stack.length > 0) pop();
      },
    },
  );
  tokenizer.write(html);
  tokenizer.end();
}
