import { describe, expect, it } from 'vitest';
import {
  charCount,
  decodeEntities,
  htmlListItems,
  htmlToText,
  ordinarySpaces,
  textPreview,
} from './rich-text';

describe('rich text as text', () => {
  it('strips tags and keeps blocks apart', () => {
    expect(htmlToText('<p>You will <strong>own</strong> features.</p><p>Second&nbsp;paragraph.</p>')).toBe(
      'You will own features. Second paragraph.',
    );
    expect(htmlToText('<h3>Title</h3>line one<br>line two')).toBe('Title line one line two');
    expect(htmlToText('')).toBe('');
  });

  it('drops scripts, styles, comments and every attribute, and never returns markup', () => {
    const hostile =
      '<p>Safe <img src=x onerror="alert(1)">text</p><script>alert("<p>x</p>")</script><style>p{}</style>' +
      '<!-- <p>hidden</p> --><a href="javascript:alert(1)" title="a > b">link</a><svg onload=alert(1)>';
    expect(htmlToText(hostile)).toBe('Safe text link');
    expect(htmlToText('<script>never closed')).toBe('');
  });

  it('keeps a "<" that is not a tag, and decodes entities', () => {
    expect(htmlToText('a < b &amp;&amp; c &gt; d')).toBe('a < b && c > d');
    expect(htmlToText('&lt;script&gt;alert(1)&lt;/script&gt;')).toBe('<script>alert(1)</script>');
    expect(decodeEntities('&#8377; 5 &#x20B9; &rsquo;s &unknown; &#0; &#xD800;')).toBe(
      '₹ 5 ₹ ’s &unknown; \ufffd \ufffd',
    );
    expect(htmlToText('<p>മലയാളം&nbsp;ടെക്സ്റ്റ്</p>')).toBe('മലയാളം ടെക്സ്റ്റ്');
  });
});

describe('list items', () => {
  it('takes the list items of the HTML, in order', () => {
    expect(htmlListItems('<ul><li>Design &amp; build</li><li>Ship <em>often</em></li></ul>')).toEqual([
      'Design & build',
      'Ship often',
    ]);
    expect(
      htmlListItems('<ol><li data-list="bullet">Quill bullet</li><li data-list="ordered">Two</li></ol>'),
    ).toEqual(['Quill bullet', 'Two']);
  });

  it('makes nested items their own items, after their parent', () => {
    expect(
      htmlListItems('<ul><li>Parent<ul><li>Child A</li><li>Child B</li></ul></li><li>Next</li></ul>'),
    ).toEqual(['Parent', 'Child A', 'Child B', 'Next']);
  });

  it('accepts items without end tags', () => {
    expect(htmlListItems('<ul><li>One<li>Two<li>Three</ul>')).toEqual(['One', 'Two', 'Three']);
  });

  it('falls back to paragraphs or lines when there is no list', () => {
    expect(htmlListItems('<p>First</p><p>Second</p>')).toEqual(['First', 'Second']);
    expect(htmlListItems('Line one<br>Line two')).toEqual(['Line one', 'Line two']);
    expect(htmlListItems('<p> </p>')).toEqual([]);
  });

  it('ignores text outside the items once there is a list', () => {
    expect(htmlListItems('<p>Intro</p><ul><li>Item</li></ul><p>Outro</p>')).toEqual(['Item']);
  });
});

describe('lengths and previews', () => {
  it('counts characters as people do, and cuts a preview at a character', () => {
    expect(charCount('നമസ്കാരം 👋')).toBe(10);
    expect(textPreview('<p>One two three</p><p>four</p>', 7)).toEqual({
      text: 'One two...',
      truncated: true,
    });
    expect(textPreview('<p>Short</p>', 7)).toEqual({ text: 'Short', truncated: false });
    expect(textPreview('<p>👋👋👋</p>', 2).text).toBe('👋👋...');
  });
});

describe('ordinarySpaces', () => {
  it('turns every non-breaking space reference into a space, and leaves the character itself', () => {
    expect(ordinarySpaces('<p>a&nbsp;b&NBSP;c&#160;d&#xa0;e&#x00A0;f\u00a0g</p>')).toBe(
      '<p>a b c d e f\u00a0g</p>',
    );
    expect(ordinarySpaces('&amp;nbsp; is how it is written')).toBe('&amp;nbsp; is how it is written');
  });
});
