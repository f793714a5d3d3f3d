/**
 * Text a person typed, made safe to keep and show as text (React escapes it; mails escape it):
 * broken UTF-16 halves become U+FFFD, control characters go. One way for every service:
 * `cleanLine` for one-line fields (a title, a name), `cleanText` for text with line breaks (a
 * note). Neither cuts to a length: the contract's limits do that, and a cleaned text is checked
 * again by the caller where a limit matters.
 */

const brokenHalves = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** One line: every control character (a line break too) becomes a space; trimmed. */
export const cleanLine = (s: string): string =>
  s
    .replace(brokenHalves, '\ufffd')
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim();

/** One line with runs of spaces made one (a name shown in a sentence). */
export const cleanName = (s: string): string => cleanLine(s).replace(/\s+/g, ' ');

/**
 * Several lines: CR LF and CR become LF, tabs stay, other control characters go, spaces at the
 * ends of lines go, more than two empty lines in a row become two; trimmed.
 */
export const cleanText = (s: string): string =>
  s
    .replace(brokenHalves, '\ufffd')
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{4,}/g, '\n\n\n')
    .trim();
