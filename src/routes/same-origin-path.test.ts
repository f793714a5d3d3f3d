import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './same-origin-path';

const ORIGIN = 'https://manna.example';

describe('sameOriginPath', () => {
  it('keeps a path of this site with its query and fragment', () => {
    expect(sameOriginPath('/blog/hello?page=2#top', ORIGIN)).toBe('/blog/hello?page=2#top');
    expect(sameOriginPath('/pricing', ORIGIN)).toBe('/pricing');
  });

  it.each([
    ['protocol-relative', '//example.com'],
    ['a tab between the slashes', '/\t/example.com'],
    ['a newline between the slashes', '/\n/example.com'],
    ['a backslash', '/\\example.com'],
    ['backslashes', '\\\\example.com'],
    ['another scheme', 'https://example.com/'],
    ['javascript:', 'javascript:alert(1)'],
    ['empty', ''],
  ])('refuses %s', (_label, raw) => {
    expect(sameOriginPath(raw, ORIGIN)).toBeNull();
  });

  it('refuses the address the review found, as the browser decodes it from ?from=', () => {
    const from = new URLSearchParams('from=/%09/example.com').get('from');
    expect(sameOriginPath(from, ORIGIN)).toBeNull();
  });
});
