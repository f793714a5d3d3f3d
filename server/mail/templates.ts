import de from '../../src/i18n/locales/de/mail.json' with { type: 'json' };
import en from '../../src/i18n/locales/en/mail.json' with { type: 'json' };
import es from '../../src/i18n/locales/es/mail.json' with { type: 'json' };
import fr from '../../src/i18n/locales/fr/mail.json' with { type: 'json' };
import ml from '../../src/i18n/locales/ml/mail.json' with { type: 'json' };
import { escapeHtml } from '../../common/page-html.mjs';
import { isLang, type Lang } from '../../contract/languages';

/**
 * The words of every mail, in the five languages of the site, come from
 * `src/i18n/locales/<lang>/mail.json` (beside the site's own translations, checked by the same
 * test for missing keys and placeholders). A mail is a list of paragraphs; each is a text with
 * {{placeholders}}. The plain-text body joins them with blank lines; the HTML body escapes every
 * text and value and turns the link values into links. Values never carry a line break or another
 * control character into a mail (they are folded into spaces first), so nothing a visitor types
 * can add a header or fake a paragraph.
 */

type Texts = typeof en;
const TEXTS: Record<Lang, Texts> = { en, ml, fr, de, es };

export type Vars = Record<string, string | number>;

/**
 * A paragraph: a key of mail.json (`applicationAck.body`), a template staff wrote (its
 * placeholders checked before; its line breaks kept), words as they are (`raw`: a reply, a
 * quoted message; no placeholders), or a list of lines under a heading.
 */
export type Paragraph =
  | { key: string; vars?: Vars }
  | { text: string; vars?: Vars }
  | { raw: string }
  | { lines: { key: string; vars?: Vars }[] };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Values whose name ends in Url or is `link` are addresses: links in the HTML body. */
const isLinkVar = (name: string) => name === 'link' || name.endsWith('Url');

/** Line breaks, tabs and other control characters become one space (runs of spaces one); trimmed. */
export const oneLine = (value: string | number): string =>
  String(value)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

/** The words of `key` in `lang` (English when that language lacks them), placeholders unfilled. */
export function lookup(lang: Lang, key: string): string {
  const find = (tree: unknown) =>
    key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
  const text = find(TEXTS[lang]) ?? find(TEXTS.en);
  if (typeof text !== 'string') throw new Error(`No mail text ${key}`);
  return text;
}

/** Words as HTML: escaped, each line break a `<br>`. */
const htmlLines = (text: string) => escapeHtml(text).replaceAll('\n', '<br>');

/** A text with its placeholders filled, as plain text or as HTML (a line break is a `<br>`). */
function fillText(template: string, vars: Vars = {}, html = false, what = 'Mail text'): string {
  return template
    .split(/(\{\{\w+\}\})/)
    .map((part) => {
      const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
      if (!name) return html ? htmlLines(part) : part;
      if (!(name in vars)) throw new Error(`${what} needs {{${name}}}`);
      const value = oneLine(vars[name]);
      if (!html) return value;
      return isLinkVar(name)
        ? `<a href="${escapeHtml(value)}" style="color:#4338ca">${escapeHtml(value)}</a>`
        : escapeHtml(value);
    })
    .join('');
}

const fill = (lang: Lang, key: string, vars: Vars = {}, html = false) =>
  fillText(lookup(lang, key), vars, html, `Mail text ${key}`);

/** A subject or paragraph: its words from mail.json, or as given. */
const fillPart = (
  lang: Lang,
  p: { key: string; vars?: Vars } | { text: string; vars?: Vars } | { raw: string },
  html = false,
) => {
  if ('raw' in p) return html ? htmlLines(p.raw) : p.raw;
  return 'key' in p ? fill(lang, p.key, p.vars, html) : fillText(p.text, p.vars, html);
};

/** The language of a mail: one of the site's five, English for anything else. */
export const mailLang = (value: unknown): Lang => (isLang(value) ? value : 'en');

/**
 * Renders one mail: the subject from `subjectKey`, then the paragraphs, the signature and the
 * footer (`footerKey`, with `siteUrl` and `prefsUrl` among `vars`).
 */
export function renderMail(
  lang: Lang,
  subject: { key: string; vars?: Vars } | { text: string; vars?: Vars },
  paragraphs: Paragraph[],
  footer: { key: string; vars: Vars },
  { signature = true } = {},
): RenderedMail {
  const textOf = (p: Paragraph) =>
    'lines' in p ? p.lines.map((l) => `- ${fill(lang, l.key, l.vars)}`).join('\n') : fillPart(lang, p);
  const htmlOf = (p: Paragraph) =>
    'lines' in p
      ? `<ul>${p.lines.map((l) => `<li>${fill(lang, l.key, l.vars, true)}</li>`).join('')}</ul>`
      : `<p>${fillPart(lang, p, true)}</p>`;
  const all: Paragraph[] = signature ? [...paragraphs, { key: 'signature' }] : paragraphs;
  const text = `${all.map(textOf).join('\n\n')}\n\n-- \n${fill(lang, footer.key, footer.vars)}\n`;
  const html =
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${oneLine(fillPart(lang, subject, true))}</title></head>` +
    `<body style="font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:16px;line-height:1.5;color:#1f2937;max-width:600px;margin:0 auto;padding:24px">` +
    all.map(htmlOf).join('') +
    `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0"><p style="font-size:13px;color:#6b7280">${fill(lang, footer.key, footer.vars, true)}</p>` +
    `</body></html>`;
  return { subject: oneLine(fillPart(lang, subject)), text, html };
}
