import {
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/min';
import type { PhoneCheck } from './applications';

/**
 * libphonenumber-js (its small metadata) for the apply form's phone numbers: the server imports
 * this module; the browser imports it when the Apply form opens, so its 29 kB (gzip) are never part
 * of a page's first load. The rule that uses it is `applicationFieldError` (applications.ts).
 */

/** The number in E.164 when it is a valid number of `country` (or of the country its `+` names). */
export const phoneCheck: PhoneCheck = (number, country) => {
  if (!isSupportedCountry(country)) return undefined;
  const parsed = parsePhoneNumberFromString(number, country);
  return parsed?.isValid() ? parsed.number : undefined;
};

/** Whether `code` is a country the form offers. */
export const isPhoneCountry = (code: string) => isSupportedCountry(code);

/** Every country the form offers, with its calling code: `{ code: 'DE', callingCode: '49' }`. */
export const phoneCountries = () =>
  getCountries().map((code) => ({
    code: code as string,
    callingCode: getCountryCallingCode(code) as string,
  }));

/** A stored number as people read it: `+49 30 123456`; what cannot be read stays as it is. */
export function formatPhone(stored: string): string {
  const parsed = parsePhoneNumberFromString(stored.startsWith('+') ? stored : `+91${stored}`);
  return parsed?.isValid() ? parsed.formatInternational() : stored;
}
