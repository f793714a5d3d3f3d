import type { FastifyRequest } from 'fastify';
import type { GeoAnswer } from '../../contract/pricing';
import { createGeoLookup } from './geo-lookup';
import { Memo } from './memo';

/** The answer for a private, unknown or unresolvable address (spec: default country 101). */
export const INDIA: GeoAnswer = { country_name: 'India', country_code: 'IN' };

/**
 * The visitor's country, for GET /api/geo and the pricing page the server renders with the plans
 * of that country. It comes from, in order:
 * 1. the header named by GEO_COUNTRY_HEADER (a CDN's country header such as CF-IPCountry), when
 *    set, TRUST_PROXY is on (the header comes from the proxy), and it holds a code of our list;
 * 2. the GeoLite2 country database (geoip-country) on the client address, which is the socket
 *    peer, or the forwarded address when TRUST_PROXY trusts the proxy in front;
 * 3. India, when the address is private or unknown or the database cannot be read.
 * The name is that of our countries list, so bind-country-by-code finds it by name too.
 */
export function createVisitorGeo(o: {
  /** GEO_COUNTRY_HEADER when TRUST_PROXY is on (the header is the proxy's word), else undefined. */
  header: string | undefined;
  /** Our countries list's entry of a two-letter code (services/pricing.ts `countryByCode`). */
  listedCountry: (code: string) => Promise<{ country_name: string; iso2: string } | undefined>;
  warn: (err: unknown) => void;
}): (request: FastifyRequest) => Promise<GeoAnswer> {
  const countryOfIp = createGeoLookup(undefined, o.warn);
  const countries = new Memo<{ country_name: string; iso2: string } | undefined>(10 * 60_000, 500);
  const listed = (code: string) => countries.get(code, () => o.listedCountry(code));
  const header = o.header;
  return async (request) => {
    if (header) {
      const raw = request.headers[header];
      const value = (Array.isArray(raw) ? raw[0] : raw)?.trim().toUpperCase();
      if (value && /^[A-Z]{2}$/.test(value)) {
        const country = await listed(value);
        if (country) return { country_name: country.country_name, country_code: country.iso2 };
      }
    }
    const found = await countryOfIp(request.ip);
    if (!found) return INDIA;
    const country = await listed(found.code);
    return country
      ? { country_name: country.country_name, country_code: country.iso2 }
      : { country_name: found.name, country_code: found.code };
  };
}
