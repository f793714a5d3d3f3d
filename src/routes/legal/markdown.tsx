import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/**
 * A deliberately small Markdown subset for the legal texts (src/content/legal/<lang>/<page>.md),
 * rendered to React elements (never to HTML strings, so nothing in a text can inject markup):
 *   ## Heading            -> h2 with id s1, s2, ... (the table of contents links to them)
 *   ### Subheading        -> h3
 *   - item / 1. item      -> ul / ol (one level)
 *   blank-line separated  -> paragraphs
 *   **bold**, [text](/path), [text](https://...), [text](mailto:...)
 */

export type Block =
  | { kind: 'h2'; id: string; text: string }
  | { kind: 'h3'; text: string }
  | { kind: 'p'; text: string }
  | { kind: 'ul' | 'ol'; items: string[] };

export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { kind: 'ul' | 'ol'; items: string[] } | null = null;
  let sections = 0;
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'p', text: paragraph.join(' ') });
    paragraph = [];
    if (list) blocks.push(list);
    list = null;
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (line === '') {
      flush();
      continue;
    }
    let match: RegExpExecArray | null;
    if ((match = /^(#{2,3})\s+(.*)$/.exec(line))) {
      flush();
      if (match[1] === '##') blocks.push({ kind: 'h2', id: `s${++sections}`, text: match[2] });
      else blocks.push({ kind: 'h3', text: match[2] });
    } else if ((match = /^(?:[-*]|(\d+)\.)\s+(.*)$/.exec(line))) {
      const kind = match[1] ? 'ol' : 'ul';
      if (paragraph.length || (list && list.kind !== kind)) flush();
      list ??= { kind, items: [] };
      list.items.push(match[2]);
    } else if (list && /^\s{2,}/.test(raw)) {
      // an indented line continues the last list item
      list.items[list.items.length - 1] += ` ${line}`;
    } else {
      if (list) flush();
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

const SAFE_HREF = /^(\/(?!\/)|https:\/\/|mailto:)/;

/** **bold** and [links](href); anything else is text. */
export function renderInline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const pattern = /\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  let key = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    if (match[1] !== undefined) {
      out.push(<strong key={key++}>{match[1]}</strong>);
    } else {
      const [, , label, href] = match;
      if (!SAFE_HREF.test(href)) out.push(label);
      else if (href.startsWith('/'))
        out.push(
          <Link key={key++} to={href}>
            {label}
          </Link>,
        );
      else
        out.push(
          <a key={key++} href={href} rel={href.startsWith('http') ? 'noopener noreferrer' : undefined}>
            {label}
          </a>,
        );
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ blocks }: { blocks: Block[] }) {
  return (
    <>
      {blocks.map((block, i) => {
        switch (block.kind) {
          case 'h2':
            return (
              <h2 key={i} id={block.id}>
                {renderInline(block.text)}
              </h2>
            );
          case 'h3':
            return <h3 key={i}>{renderInline(block.text)}</h3>;
          case 'p':
            return <p key={i}>{renderInline(block.text)}</p>;
          default: {
            const List = block.kind;
            return (
              <List key={i}>
                {block.items.map((item, j) => (
                  <li key={j}>{renderInline(item)}</li>
                ))}
              </List>
            );
          }
        }
      })}
    </>
  );
}
