import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every namespace in every language: the keys English has (plural forms counted once), the same
// {{placeholders}}, no empty text, and translated rather than left in English (a few words such as
// "Blog" or "Actions" are the same in some languages, so up to one text in eight may match; dates
// and numbers do not count).

const LOCALES = path.join(__dirname, 'locales');
const LANGUAGES = ['ml', 'fr', 'de', 'es'];
type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [[prefix + key, value]]
        : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );
}
const read = (lang: string, file: string) =>
  flatten(JSON.parse(fs.readFileSync(path.join(LOCALES, lang, file), 'utf8')) as Tree);
/** `users_one`, `users_other`, `users_many` are one text in its plural forms. */
const baseKey = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');
const placeholders = (text: string) =>
  [...new Set([...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]))].sort();

const namespaces = fs.readdirSync(path.join(LOCALES, 'en')).filter((f) => f.endsWith('.json'));

describe('translations', () => {
  it('finds every namespace', () => {
    expect(namespaces).toEqual(expect.arrayContaining(['admin.json', 'admin-inbox.json', 'common.json']));
  });

  for (const file of namespaces) {
    const english = read('en', file);
    for (const lang of LANGUAGES) {
      it(`${lang}/${file} has every English key, translated, with the same placeholders`, () => {
        const texts = read(lang, file);
        expect([...new Set(Object.keys(texts).map(baseKey))].sort(), 'keys').toEqual(
          [...new Set(Object.keys(english).map(baseKey))].sort(),
        );
        const englishOf = (key: string) => english[key] ?? english[`${baseKey(key)}_other`];
        for (const [key, text] of Object.entries(texts)) {
          expect(text.trim(), `${key} is empty`).not.toBe('');
          expect(placeholders(text), `${key} placeholders`).toEqual(placeholders(englishOf(key) ?? ''));
        }
        const same = Object.keys(english).filter(
          (key) => texts[key] === english[key] && english[key].length > 3 && /\p{L}{2}/u.test(english[key]),
        );
        expect(same.length, `left in English: ${same.join(', ')}`).toBeLessThanOrEqual(
          Math.ceil(Object.keys(english).length / 8),
        );
      });
    }
  }
});
