import { describe, expect, it } from 'vitest';
import { mailtoHref } from './mailto-href';

describe('mailtoHref', () => {
  it('keeps an ordinary address readable to a mail program', () => {
    expect(decodeURIComponent(mailtoHref('asha.menon@example.com').slice(7))).toBe('asha.menon@example.com');
  });

  it('cannot add headers: ?, & and % stay inside the address', () => {
    const href = mailtoHref('x@example.com?bcc=spy@evil.example&subject=Hi%20there');
    const url = new URL(href);
    expect(url.search).toBe('');
    expect(decodeURIComponent(url.pathname)).toBe('x@example.com?bcc=spy@evil.example&subject=Hi%20there');
  });
});
