import { describe, expect, it } from 'vitest';
import { sanitizeRichText, textOf } from './rich-text';

describe('rich text', () => {
  it('keeps the toolbar formatting', () => {
    const html = '<h2>Role</h2><p><strong>Bold</strong> <em>it</em> <u>u</u> <s>s</s></p><ul><li>One</li></ul>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('removes scripts, handlers and styles', () => {
    const out = sanitizeRichText('<p onclick="x()">Hi<script>alert(1)</script><img src=x onerror=alert(1)></p><style>p{}</style>');
    expect(out).toBe('<p>Hi</p>');
  });

  it('keeps http, https, mailto and tel links and drops javascript: and data:', () => {
    expect(sanitizeRichText('<a href="https://x.org">x</a>')).toBe(
      '<a href="https://x.org" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeRichText('<a href="mailto:a@b.co">m</a>')).toContain('href="mailto:a@b.co"');
    expect(sanitizeRichText('<a href="tel:+441234">t</a>')).toContain('href="tel:+441234"');
    expect(sanitizeRichText('<a href="javascript:alert(1)">x</a>')).not.toContain('javascript');
    expect(sanitizeRichText('<a href="data:text/html,hi">x</a>')).not.toContain('data:');
  });

  it('reads the text without tags', () => {
    expect(textOf('<p>Hello&nbsp;<b>world</b></p><ul><li>a &amp; b</li></ul>')).toBe('Hello world a & b');
  });
});
