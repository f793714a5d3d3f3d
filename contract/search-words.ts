import { htmlToText } from './rich-text';
import type { SnippetPart } from './site-search';

/**
 * The words of a search, as the site search's index reads them and its snippets mark them
 * (docs/decisions/039-site-search.md): one set of rules for the server's databases and for the
 * browser's index of what the device keeps (docs/decisions/040-site-search-screens.md).
 */

/**
 * Words of a search box for the full-text index: letters, marks and digits only (so no query
 * syntax such as `"`, `*`, `NEAR`, `OR` or `'; DROP` reaches FTS5 or to_tsquery), lower case, at
 * most 8 words of at most 50 characters, each matched as a prefix. A search with no words filters
 * nothing. Marks stay inside a word (Malayalam's vowel signs), but a run of marks alone is no word.
 */
export function searchTerms(search: string): string[] {
  return (search.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [])
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, 8)
    .map((w) => w.slice(0, 50));
}

/**
 * Latin, Greek and Cyrillic letters without their accents ("Côte" as "cote"), for PostgreSQL's
 * vectors and queries: SQLite's tokenizer does the same (remove_diacritics), and PostgreSQL's
 * unaccent is an extension a site's database user may not be allowed to add. Other scripts'
 * marks (a Malayalam vowel sign) are letters of their word and stay.
 */
export const foldAccents = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');

/** Words shown around the first match. */
const SNIPPET_BEFORE = 8;
const SNIPPET_WORDS = 28;

/**
 * The words of `text` around the first word a search's term begins (letters, marks and digits,
 * in any case, accents aside, as the index reads them), each such word marked as a hit; the
 * text's beginning when no word begins so (a stemmed match: "publishing" for "published").
 */
export function snippetParts(text: string, search: string): SnippetPart[] {
  const terms = searchTerms(search).map(foldAccents);
  const words = [...text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)];
  const isHit = (word: string) => {
    const folded = foldAccents(word.toLowerCase());
    return terms.some((t) => folded.startsWith(t));
  };
  const first = words.findIndex((w) => isHit(w[0]));
  const from = Math.max(0, first - SNIPPET_BEFORE);
  const to = Math.min(words.length, from + SNIPPET_WORDS);
  if (words.length === 0) return [];
  const parts: SnippetPart[] = [];
  const add = (piece: string, hit: boolean) => {
    const last = parts[parts.length - 1];
    if (!piece) return;
    if (last && last.hit === hit && !hit) last.text += piece;
    else parts.push({ text: piece, hit });
  };
  if (from > 0) add('… ', false);
  for (let i = from; i < to; i++) {
    const w = words[i]!;
    add(w[0], isHit(w[0]));
    const end = w.index + w[0].length;
    const next = i + 1 < to ? words[i + 1]!.index : end;
    add(text.slice(end, next).replace(/\s+/g, ' '), false);
  }
  if (to < words.length) add(' …', false);
  return parts;
}

/**
 * A built page's words for the search: its `<title>` without the site's name ("Manna | …",
 * "Pricing | Manna") and the text of its `<main>` (not the header, footer, scripts, styles or
 * drawings). Null when it has no title or no words. The server reads the build's pages with it,
 * the browser the pages its service worker keeps, so both find the same words.
 */
export function pageWords(html: string): { title: string; text: string } | null {
  const title = htmlToText(/<title>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '')
    .replace(/^Manna\s*[|·–—-]\s*/, '')
    .replace(/\s*[|·–—-]\s*Manna$/, '');
  const main = /<main\b[^>]*>([\s\S]*)<\/main>/i.exec(html)?.[1] ?? '';
  // a space before every tag: the words of two buttons side by side stay two words
  const text = htmlToText(
    main.replace(/<(script|style|svg|noscript|template)\b[\s\S]*?<\/\1>/gi, ' ').replace(/</g, ' <'),
  );
  return title && text ? { title, text } : null;
}
