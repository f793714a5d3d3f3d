import { describe, expect, it } from 'vitest';
import de from '../../i18n/locales/de/careers.json';
import en from '../../i18n/locales/en/careers.json';
import es from '../../i18n/locales/es/careers.json';
import fr from '../../i18n/locales/fr/careers.json';
import ml from '../../i18n/locales/ml/careers.json';

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
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('careers texts', () => {
  const english = flatten(en);

  it("uses the spec's English texts", () => {
    expect(english).toMatchObject({
      title: 'Current Openings',
      loading: 'Loading job openings...',
      failed: 'Failed to load job openings.',
      empty: 'No job openings available at the moment.',
      'card.about': 'About the Role:',
      'card.responsibilities': 'Responsibilities:',
      'card.requirements': 'Requirements:',
      'card.apply': 'Apply',
      'apply.title': 'Apply for: {{title}}',
      'apply.fullName': 'Full Name',
      'apply.email': 'Email Address',
      'apply.contact': 'Contact Number',
      'apply.address': 'Address',
      'apply.resume': 'Upload Your Current CV/Resume',
      'apply.submit': 'Submit',
      'apply.cancel': 'Cancel',
      'toast.success': 'Application submitted successfully!',
      'toast.failure': 'Failed to submit application. Please try again later.',
    });
  });

  for (const [lang, tree] of Object.entries({ ml, fr, de, es })) {
    it(`${lang} has every key, each translated, with the same placeholders`, () => {
      const texts = flatten(tree);
      expect(Object.keys(texts).sort()).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(texts)) {
        expect(text.trim(), `${lang} ${key}`).not.toBe('');
        expect(placeholders(text), `${lang} ${key}`).toEqual(placeholders(english[key]));
      }
      // not left in English by mistake (names, the brand and words French shares excepted)
      const same = Object.keys(texts).filter(
        (k) => texts[k] === english[k] && !/^(card\.type|metaTitle|pagination\.page|card\.types\.remote|card\.workTypes\.(hybrid|remote))$/.test(k),
      );
      expect(same, lang).toEqual([]);
    });
  }
});
