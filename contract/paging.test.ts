import { describe, expect, it } from 'vitest';
import { COUNT_CAP, formatTotal, showingFigures } from './paging';

describe('showingFigures', () => {
  it('gives the first and last row of the page and the total', () => {
    expect(showingFigures(2, 20, 20, 45, 'en')).toEqual({ from: '21', to: '40', total: '45' });
    expect(showingFigures(3, 20, 5, 45, 'en')).toEqual({ from: '41', to: '45', total: '45' });
    expect(showingFigures(1, 20, 0, 0, 'en')).toEqual({ from: '0', to: '0', total: '0' });
  });

  it("says 10,000+ at the cap, in the reader's digits", () => {
    expect(formatTotal(COUNT_CAP, 'en')).toBe('10,000+');
    expect(formatTotal(9_999, 'en')).toBe('9,999');
    expect(formatTotal(COUNT_CAP, 'de')).toBe('10.000+');
  });
});
