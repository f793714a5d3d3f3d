import { describe, expect, it } from 'vitest';
import { cleanLine, cleanName, cleanText } from './plain-text';

describe('plain text a person typed', () => {
  it('one line: control characters and line breaks become spaces, broken halves U+FFFD', () => {
    expect(cleanLine(' a\u0000b\nc\u007f ')).toBe('a b c');
    expect(cleanLine('x\ud800y')).toBe('x\ufffdy');
    expect(cleanLine('😀')).toBe('😀');
  });

  it('a name: runs of spaces become one', () => {
    expect(cleanName('  Asha \t  Menon ')).toBe('Asha Menon');
  });

  it('several lines: keeps line breaks and tabs, drops other controls and trailing spaces', () => {
    expect(cleanText('First line  \r\nsecond\tline\u0007\rthird\n\n\n\n\n\nlast  ')).toBe(
      'First line\nsecond\tline\nthird\n\n\nlast',
    );
    expect(cleanText('\u0000')).toBe('');
    expect(cleanText('a\udc00')).toBe('a\ufffd');
  });
});
