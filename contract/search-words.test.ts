import { describe, expect, it } from 'vitest';
import { pageWords } from './search-words';

describe('a built page as the site search reads it (server and browser alike)', () => {
  it("takes the title without the site's name and the words of <main> alone", () => {
    const html =
      '<!doctype html><html lang="de"><head><title>Preise | Manna</title></head><body><header>Menü</header>' +
      '<main id="main"><h1>Preise</h1><p>Tarife &amp; Zeitschriften</p><button>Jährlich</button><button>Monatlich</button>' +
      '<script>var hidden = "scriptword";</script><svg><title>Icon</title></svg></main><footer>Fuß</footer></body></html>';
    expect(pageWords(html)).toEqual({
      title: 'Preise',
      text: 'Preise Tarife & Zeitschriften Jährlich Monatlich',
    });
    expect(pageWords('<title>Manna | Über uns</title><main><p>Wir</p></main>')?.title).toBe('Über uns');
  });

  it('is nothing for a page without a title or without words', () => {
    expect(pageWords('<title>Manna</title><p>No main</p>')).toBeNull();
    expect(pageWords('<main><p>Words</p></main>')).toBeNull();
  });
});
