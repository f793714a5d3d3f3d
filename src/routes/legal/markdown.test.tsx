import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { Markdown, parseMarkdown } from './markdown';

const html = (source: string) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <Markdown blocks={parseMarkdown(source)} />
    </MemoryRouter>,
  );

describe('legal Markdown subset', () => {
  it('numbers the sections for the table of contents', () => {
    const blocks = parseMarkdown('## One\n\nText\n\n### Sub\n\n## Two');
    expect(blocks).toEqual([
      { kind: 'h2', id: 's1', text: 'One' },
      { kind: 'p', text: 'Text' },
      { kind: 'h3', text: 'Sub' },
      { kind: 'h2', id: 's2', text: 'Two' },
    ]);
  });

  it('joins the lines of a paragraph and splits on blank lines', () => {
    expect(parseMarkdown('a\nb\n\nc')).toEqual([
      { kind: 'p', text: 'a b' },
      { kind: 'p', text: 'c' },
    ]);
  });

  it('reads bullet and numbered lists, each ending at a blank line or a paragraph', () => {
    expect(parseMarkdown('- one\n- two\n\n1. first\n2. second\nafter')).toEqual([
      { kind: 'ul', items: ['one', 'two'] },
      { kind: 'ol', items: ['first', 'second'] },
      { kind: 'p', text: 'after' },
    ]);
  });

  it('renders bold text, site links as router links, and mail links', () => {
    const out = html('See **this** and [our terms](/terms-of-service) or [write](mailto:a@b.example).');
    expect(out.replace(/ data-discover="true"/g, '')).toBe(
      '<p>See <strong>this</strong> and <a href="/terms-of-service">our terms</a> or <a href="mailto:a@b.example">write</a>.</p>',
    );
  });

  it('never lets a text inject markup or script addresses', () => {
    const out = html('<script>alert(1)</script> [x](javascript:alert(1)) [y](//evil.example)');
    expect(out).not.toContain('<script>');
    expect(out).toContain('&lt;script&gt;');
    expect(out).not.toContain('javascript:');
    expect(out).not.toContain('href="//evil');
  });
});
