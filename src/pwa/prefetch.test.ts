import { describe, expect, it } from 'vitest';
import { EVERY_MS, goodConnection, isDue } from './prefetch';

describe('offline prefetch conditions', () => {
  it('spends data only without Save-Data and on a 4G-class connection (or when the browser does not say)', () => {
    expect(goodConnection(undefined)).toBe(true);
    expect(goodConnection({})).toBe(true);
    expect(goodConnection({ effectiveType: '4g' })).toBe(true);
    expect(goodConnection({ effectiveType: '4g', saveData: true })).toBe(false);
    for (const slow of ['slow-2g', '2g', '3g'])
      expect(goodConnection({ effectiveType: slow }), slow).toBe(false);
  });

  it('runs again only when the last run is six hours old, unknown, unreadable or in the future', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(isDue(null, now)).toBe(true);
    expect(isDue('not a time', now)).toBe(true);
    expect(isDue(new Date(now - EVERY_MS + 1000).toISOString(), now)).toBe(false);
    expect(isDue(new Date(now - EVERY_MS).toISOString(), now)).toBe(true);
    expect(isDue(new Date(now + 60_000).toISOString(), now)).toBe(true); // a clock set back
  });
});
