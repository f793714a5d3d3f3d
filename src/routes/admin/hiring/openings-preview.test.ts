import { describe, expect, it } from 'vitest';
import { preview, PREVIEW_LENGTH } from './openings';

describe('job text preview on the Current Openings cards', () => {
  it('reads list items and paragraphs as separate phrases', () => {
    const html =
      '<ul><li>5+ years building web apps</li><li>Solid SQL</li></ul><p>Then a paragraph.</p><p>And &amp; more</p>';
    expect(preview(html)).toBe('5+ years building web apps; Solid SQL; Then a paragraph. And & more');
  });

  it('cuts at 150 characters and appends "..."', () => {
    const text = preview(`<p>${'a'.repeat(200)}</p>`);
    expect(text).toBe(`${'a'.repeat(PREVIEW_LENGTH)}...`);
  });
});
