/**
 * IP address -> ISO country code, from the GeoLite2 country database that the geoip-country
 * package ships (see docs/decisions/010-pricing-countries-plans-geolocation.md for its licence). The package reads its ~8 MB of data when
 * it is first imported, so it is imported on the first lookup, not at start-up. When its data is
 * missing or unreadable the import fails: that is logged once and every lookup answers null, so
 * the caller falls back to its default instead of failing.
 */

export type CountryOfIp = (ip: string) => Promise<{ code: string; name: string } | null>;

type GeoModule = { default: { lookup(ip: string): { country: string; name?: string } | null } };

export function createGeoLookup(
  load: () => Promise<GeoModule> = () => import('geoip-country'),
  warn: (err: unknown) => void = () => {},
): CountryOfIp {
  let ready: Promise<GeoModule['default'] | null> | undefined;
  return async (ip) => {
    ready ??= load().then(
      (mod) => mod.default,
      (err: unknown) => {
        warn(err);
        return null;
      },
    );
    const geoip = await ready;
    if (!geoip || !ip) return null;
    try {
      const found = geoip.lookup(ip);
      if (!found || !/^[A-Z]{2}$/.test(found.country)) return null;
      return { code: found.country, name: found.name || found.country };
    } catch {
      return null; // a malformed address is an unknown one
    }
  };
}
