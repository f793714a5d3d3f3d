/**
 * Rich text (an opening's fields, a blog post's content) as the text a person reads: the one way for
 * the browser and the server (lengths, previews, search text, the careers cards). It never builds
 * DOM from the HTML.
 *
 * Why not DOMParser/DOMPurify: any HTML parsed in the page (DOMParser, <template>, an inert
 * document; DOMPurify parses with DOMParser too) makes Chromium check its `on*=` attributes against
 * the page's CSP and log a violation, although nothing runs. Openings written elsewhere (a
 * customer's backend) may carry such attributes. So this reads the HTML as a string: tags are
 * recognised and dropped, script/style contents removed, entities decoded, and only text comes
 * out, which React renders as text. Nothing from the HTML is ever inserted as markup, so there is
 * nothing to sanitise, and the careers chunk stays small. See src/routes/careers/README.md.
 */

const RAW_TEXT =
  /<(script|style|template|noscript|textarea|title|iframe|xmp|noembed|noframes)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const DECLARATION = /<[!?][^>]*>/g;
/** A start or end tag; attribute values may hold '>' inside quotes. */
const TAG = /<(\/?)([a-zA-Z][\w:-]*)((?:\s|\/)(?:[^>"']|"[^"]*"|'[^']*')*)?>/g;
const BLOCK = new Set(
  'p div br li ul ol h1 h2 h3 h4 h5 h6 blockquote pre tr td th table section article header footer hr dd dt'.split(
    ' ',
  ),
);

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  bull: '•',
  middot: '·',
  copy: '©',
  reg: '®',
  trade: '™',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  deg: '°',
  times: '×',
  divide: '÷',
  laquo: '«',
  raquo: '»',
  shy: '',
  zwj: '\u200d',
  zwnj: '\u200c',
  ensp: ' ',
  emsp: ' ',
  thinsp: ' ',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const n =
        code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '\ufffd';
    }
    const named = NAMED[code.toLowerCase()];
    return named ?? whole;
  });
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

interface Parsed {
  /** All the text, blocks kept apart by a space. */
  text: string;
  /** The text of each list item, in document order (a nested item is its own item). */
  items: string[];
  /** The text of each block (paragraph, heading, line) outside lists' structure. */
  blocks: string[];
}

function read(html: string): Parsed {
  const source = html.replace(COMMENT, ' ').replace(RAW_TEXT, ' ').replace(DECLARATION, ' ');
  const items: string[] = [];
  const open: Array<{ slot: number; depth: number }> = [];
  const blocks: string[] = [];
  let block = '';
  let text = '';
  let depth = 0;

  const addText = (t: string) => {
    text += t;
    block += t;
    const top = open[open.length - 1];
    if (top) items[top.slot] += t;
  };
  const breakBlock = () => {
    addText(' ');
    if (block.trim()) blocks.push(block);
    block = '';
  };
  const closeItemsFrom = (level: number) => {
    while (open.length && open[open.length - 1].depth >= level) open.pop();
  };

  let at = 0;
  for (const match of source.matchAll(TAG)) {
    addText(decodeEntities(source.slice(at, match.index)));
    at = match.index + match[0].length;
    const closing = match[1] === '/';
    const name = match[2].toLowerCase();
    if (name === 'ul' || name === 'ol') {
      if (closing) {
        closeItemsFrom(depth);
        depth = Math.max(0, depth - 1);
      } else depth += 1;
    } else if (name === 'li') {
      if (closing) {
        if (open.length && open[open.length - 1].depth === depth) open.pop();
      } else {
        closeItemsFrom(depth); // an <li> without its end tag ends at the next <li>
        breakBlock();
        items.push('');
        open.push({ slot: items.length - 1, depth });
        continue;
      }
    }
    if (BLOCK.has(name)) breakBlock();
  }
  addText(decodeEntities(source.slice(at)));
  breakBlock();
  return {
    text: squash(text),
    items: items.map(squash).filter(Boolean),
    blocks: blocks.map(squash).filter(Boolean),
  };
}

/** The HTML as text: tags dropped (blocks kept apart by a space), entities decoded, spaces collapsed. */
export function htmlToText(html: string): string {
  return read(html).text;
}

/**
 * The texts of the HTML's list items (the careers cards' Responsibilities and Requirements). HTML
 * written without a list becomes one item per paragraph or line, so nothing is lost.
 */
export function htmlListItems(html: string): string[] {
  const { items, blocks } = read(html);
  return items.length > 0 ? items : blocks;
}

/** The text of each block (paragraph, heading, list item, line) of the HTML: a job page's Description. */
export function htmlBlocks(html: string): string[] {
  return read(html).blocks;
}

/** Length in characters as a person counts them (code points, not UTF-16 units). */
export const charCount = (text: string) => Array.from(text).length;

/** The first `length` characters of the HTML's text, with '...' when there is more. */
export function textPreview(html: string, length: number): { text: string; truncated: boolean } {
  const text = htmlToText(html);
  const chars = Array.from(text);
  if (chars.length <= length) return { text, truncated: false };
  return { text: `${chars.slice(0, length).join('').trimEnd()}...`, truncated: true };
}

/** A non-breaking space written as a character reference: `&nbsp;`, `&#160;`, `&#xA0;`. */
const NBSP_REFERENCE = /&(?:nbsp|#160|#x0*a0);/gi;

/**
 * Rich text with ordinary spaces between words. The editor (Quill 2's semantic HTML) writes every
 * space it holds as `&nbsp;`, which glues a paragraph into one word that a narrow screen can only
 * break inside words; a non-breaking space the writer typed on purpose (U+00A0) comes as the
 * character itself and is kept. The server applies this before it sanitises and stores rich text;
 * the editor keeps its own form while a person types (given back ordinary spaces, Quill would drop
 * a space typed at the end of a line as HTML whitespace).
 */
export function ordinarySpaces(html: string): string {
  return html.replace(NBSP_REFERENCE, ' ');
}
