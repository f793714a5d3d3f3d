import { describe, expect, it, vi } from 'vitest';
import { createGeoLookup } from './geo-lookup';

describe('createGeoLookup', () => {
  it('finds the country of public addresses and nothing for private or malformed ones', async () => {
    const countryOf = createGeoLookup();
    expect(await countryOf('8.8.8.8')).toEqual({ code: 'US', name: 'United States' });
    expect(await countryOf('::ffff:81.2.69.142')).toEqual({ code: 'GB', name: 'United Kingdom' });
    expect(await countryOf('127.0.0.1')).toBeNull();
    expect(await countryOf('not an address')).toBeNull();
    expect(await countryOf('')).toBeNull();
  });

  it('loads the data once, and when it cannot be loaded warns once and answers null', async () => {
    const load = vi.fn(() => Promise.reject(new Error('data missing')));
    const warn = vi.fn();
    const countryOf = createGeoLookup(load, warn);
    expect(await countryOf('8.8.8.8')).toBeNull();
    expect(await countryOf('81.2.69.142')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('treats a lookup that throws as an unknown address', async () => {
    const countryOf = createGeoLookup(async () => ({
      default: {
        lookup: () => {
          throw new Error('bad index');
        },
      },
    }));
    expect(await countryOf('8.8.8.8')).toBeNull();
  });
});
