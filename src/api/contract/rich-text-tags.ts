/**
 * The elements rich text may hold, as the editors' toolbars make them (headers 1-3, bold, italic,
 * underline, strike, lists, links; the blog's block quotes, code blocks and rules): the one list
 * both sanitisers allow (server/lib/rich-text.ts, components/blog/rich-content.tsx). Its own
 * module: public pages load the text helpers of rich-text.ts before interaction, this list never.
 */
export const RICH_TEXT_TAGS = [
  'p',
  'br',
  'h1',
  'h2',
  'h3',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'strike',
  'ol',
  'ul',
  'li',
  'a',
  'span',
  'blockquote',
  'pre',
  'code',
  'hr',
];
