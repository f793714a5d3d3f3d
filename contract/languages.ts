/**
 * The languages of the site, by code: the one list the pages, the forms' `lang` field and the
 * mail templates share (src/i18n/languages.ts adds each one's own name for the language menu).
 */
export const LANG_CODES = ['en', 'ml', 'fr', 'de', 'es'] as const;
export type Lang = (typeof LANG_CODES)[number];

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANG_CODES as readonly string[]).includes(value);
}
