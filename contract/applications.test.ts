import { describe, expect, it } from 'vitest';
import { firstPhoneCountry } from './applications';

describe('the phone number’s first country', () => {
  it('is the visitor’s when known, else the page language’s, else India', () => {
    expect(firstPhoneCountry('CI', 'de')).toBe('CI');
    expect(firstPhoneCountry(null, 'de')).toBe('DE');
    expect(firstPhoneCountry(null, 'fr')).toBe('FR');
    expect(firstPhoneCountry(null, 'es')).toBe('ES');
    expect(firstPhoneCountry(null, 'ml')).toBe('IN');
    expect(firstPhoneCountry(null, 'en')).toBe('IN');
    expect(firstPhoneCountry(null, 'pt-BR')).toBe('IN');
  });
});
