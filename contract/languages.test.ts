import { describe, expect, it } from 'vitest';
import { LANGUAGES, languagePath } from '../common/page-html.mjs';
import { LANG_CODES, localPath, splitLangPath } from './languages';

describe('language addresses (docs/decisions/041-language-addresses.md)', () => {
  it('puts every language but English before the page, the home as the bare prefix', () => {
    expect(localPath('en', '/pricing')).toBe('/pricing');
    expect(localPath('de', '/pricing')).toBe('/de/pricing');
    expect(localPath('de', '/')).toBe('/de');
    expect(localPath('ml', '/search?q=a')).toBe('/ml/search?q=a');
    expect(localPath('fr', '/?ref=x')).toBe('/fr?ref=x');
  });

  it('reads the language and the page back from an address; English and unknown codes are no prefix', () => {
    expect(splitLangPath('/de/pricing')).toEqual({ lang: 'de', path: '/pricing' });
    expect(splitLangPath('/de')).toEqual({ lang: 'de', path: '/' });
    expect(splitLangPath('/ml/blog/a-post')).toEqual({ lang: 'ml', path: '/blog/a-post' });
    expect(splitLangPath('/pricing')).toEqual({ lang: 'en', path: '/pricing' });
    expect(splitLangPath('/en/pricing')).toEqual({ lang: 'en', path: '/en/pricing' });
    expect(splitLangPath('/xx/pricing')).toEqual({ lang: 'en', path: '/xx/pricing' });
    expect(splitLangPath('/design')).toEqual({ lang: 'en', path: '/design' });
    for (const lang of LANG_CODES)
      expect(splitLangPath(localPath(lang, '/careers/7-editor'))).toEqual({
        lang,
        path: '/careers/7-editor',
      });
  });

  it('is the same in the page assembler the build and the server share', () => {
    expect(LANGUAGES).toEqual([...LANG_CODES]);
    for (const lang of LANG_CODES)
      for (const page of ['/', '/pricing', '/search?q=x'])
        expect(languagePath(lang, page)).toBe(localPath(lang, page));
  });
});
