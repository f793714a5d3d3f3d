import { describe, expect, it } from 'vitest';
import { snippetParts } from '../../contract/search-words';

const shown = (parts: { text: string; hit: boolean }[]) =>
  parts.map((p) => (p.hit ? `[${p.text}]` : p.text)).join('');

describe("a result's snippet", () => {
  it('shows the words around the first match, each word a term begins marked, accents and case aside', () => {
    const text = `${'word '.repeat(20)}Our office in Côte d'Ivoire answers COTE questions. ${'more '.repeat(40)}`;
    expect(shown(snippetParts(text, 'cote'))).toBe(
      "… word word word word word Our office in [Côte] d'Ivoire answers [COTE] questions. more more more more more more more more more more more more more more …",
    );
  });

  it('keeps a Malayalam word whole and marks it', () => {
    expect(shown(snippetParts('പിയർ റിവ്യൂവും പ്രസിദ്ധീകരണവും ഒരിടത്ത്.', 'പ്രസിദ്ധീ'))).toBe(
      'പിയർ റിവ്യൂവും [പ്രസിദ്ധീകരണവും] ഒരിടത്ത്',
    );
  });

  it("shows the text's beginning when the match was the stemmer's (no word begins with the term)", () => {
    expect(shown(snippetParts('Publishing made simple for every journal.', 'published'))).toBe(
      'Publishing made simple for every journal',
    );
    expect(snippetParts('', 'anything')).toEqual([]);
  });
});
