import { describe, expect, it } from 'vitest';
import { COMING_SOON_PATHS } from '../routes/paths';
import { adminOnlyFiles, pageAddress, PRECACHE_IGNORES } from '../../scripts/lib/pwa-precache.mjs';
import { PAGE_ALIASES, pageAliasTarget } from '../../common/pwa-aliases.mjs';

describe('what the service worker precaches (scripts/lib/pwa-precache.mjs)', () => {
  it('precaches each prerendered English page under its own clean address', () => {
    expect(pageAddress('index.html')).toBe('/');
    expect(pageAddress('about.html')).toBe('/about');
    expect(pageAddress('ComingSoon.html')).toBe('/ComingSoon');
    expect(pageAddress('assets/index-abc.js')).toBeNull();
    expect(pageAddress('icons/icon-192.png')).toBeNull();
  });

  it('leaves out the chunks only the back office loads, but not the ones public pages share', () => {
    const manifest = {
      'index.html': {
        file: 'assets/index.js',
        isEntry: true,
        css: ['assets/index.css'],
        dynamicImports: ['src/routes/home.tsx', 'src/routes/admin/admin-app.tsx'],
      },
      'src/routes/home.tsx': { file: 'assets/home.js', imports: ['_shared.js'] },
      'src/routes/admin/admin-app.tsx': {
        file: 'assets/admin-app.js',
        css: ['assets/admin-app.css'],
        imports: ['_shared.js'],
        dynamicImports: ['src/components/rich-text-editor.tsx'],
      },
      'src/components/rich-text-editor.tsx': {
        file: 'assets/editor.js',
        assets: ['assets/editor-icons.svg'],
      },
      '_shared.js': { file: 'assets/shared.js' },
    };
    expect([...adminOnlyFiles(manifest)].sort()).toEqual([
      'assets/admin-app.css',
      'assets/admin-app.js',
      'assets/editor-icons.svg',
      'assets/editor.js',
    ]);
  });

  it('keeps the social image out of the precache, and the install icons in', () => {
    expect(PRECACHE_IGNORES).toContain('og-image*.png');
    expect(PRECACHE_IGNORES.some((glob) => glob.startsWith('icons'))).toBe(false);
  });

  it('answers every Coming Soon address with one precached page', () => {
    expect(new Set(PAGE_ALIASES[0])).toEqual(new Set(COMING_SOON_PATHS));
    for (const path of COMING_SOON_PATHS) expect(pageAliasTarget(path)).toBe(PAGE_ALIASES[0][0]);
    expect(pageAliasTarget('/training'.toUpperCase())).toBe('/ComingSoon');
    expect(pageAliasTarget('/about')).toBe('/about');
  });
});
