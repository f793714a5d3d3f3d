import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, countryName, countryOptions, isCountryCode } from './countries';

describe('countries', () => {
  it('holds the 249 ISO 3166-1 alpha-2 codes, each once and each a named region', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    for (const code of COUNTRY_CODES) expect(names.of(code), code).toBeTruthy();
  });

  it('refuses what is not a code as stored', () => {
    expect(isCountryCode('DE')).toBe(true);
    expect(isCountryCode('de')).toBe(false);
    expect(isCountryCode('EU')).toBe(false);
    expect(isCountryCode('Germany')).toBe(false);
  });

  it("names countries in the reader's language, sorted as that language sorts", () => {
    expect(countryName('CI', 'fr')).toBe("Côte d’Ivoire");
    expect(countryName('DE', 'de')).toBe('Deutschland');
    const de = countryOptions('de').map((c) => c.name);
    expect(de.indexOf('Österreich')).toBeLessThan(de.indexOf('Pakistan'));
  });
});
