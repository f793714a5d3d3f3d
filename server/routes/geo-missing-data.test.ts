import { describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../testing';

// The GeoIP package reads its data files when it is imported; without them the import throws.
vi.mock('geoip-country', () => {
  throw new Error("ENOENT: no such file or directory, open '.../data/geoip-country.dat'");
});

describe('GET /api/geo without the GeoIP data', () => {
  it('answers India instead of failing, on every request', async () => {
    const app = await createTestApp();
    try {
      for (const ip of ['8.8.8.8', '81.2.69.142']) {
        const res = await app.inject({ method: 'GET', url: '/api/geo', remoteAddress: ip });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ country_name: 'India', country_code: 'IN' });
      }
    } finally {
      await app.close();
    }
  });
});
