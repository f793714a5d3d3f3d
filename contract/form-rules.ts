/**
 * The one pattern of every form's rules. Each form has one pure function in the contract that
 * answers its field errors (`applicationFormErrors`, `contactFormErrors`, `jobFormErrors`,
 * `blogFormErrors`); the machine calls it while the person types and on submit, and the route
 * calls it again on what arrives, so the two can never disagree.
 *
 * The public forms are translated, so their rules answer codes (`emailInvalid`), and a refusal
 * carries both: `errors` with the form's English messages (for people and other API clients) and
 * `codes` with the codes (for the screen, which shows its own language). Nothing is matched back
 * from a message's text. The back office's forms (jobs, blog) answer codes the same way.
 */

/**
 * The one address shape of every form: something@domain.tld, one address only (no spaces, one @, no
 * comma, semicolon, angle bracket, quote, parenthesis or colon, so no list and no display name can
 * hide a second recipient), at most 254 characters. Deliberately not RFC 5322 in full (quoted local
 * parts and IP literals are not what people type into a web form).
 */
export const EMAIL_PATTERN = /^[^\s@,;:<>"()[\]\\]+@[^\s@.,;:<>"()[\]\\]+(\.[^\s@.,;:<>"()[\]\\]+)+$/;
export const EMAIL_MAX = 254;

export type EmailErrorCode = 'emailRequired' | 'emailInvalid';

/** The email rule: required, then the shape and the length. */
export function emailError(value: string): EmailErrorCode | undefined {
  const email = value.trim();
  if (email === '') return 'emailRequired';
  if (email.length > EMAIL_MAX || !EMAIL_PATTERN.test(email)) return 'emailInvalid';
  return undefined;
}

/** A form refused for its fields, as the server answers it (status 400). */
export interface FieldErrorAnswer {
  message: string;
  errors: Record<string, string>;
  codes: Record<string, string>;
}

/**
 * The answer for `codes` (field -> code), each with its message: from `messages` by code, or
 * from a function of the field and the code (a form whose texts name the field).
 */
export function fieldErrorAnswer(
  message: string,
  codes: Partial<Record<string, string>>,
  messages: Readonly<Record<string, string>> | ((field: string, code: string) => string),
): FieldErrorAnswer {
  const errors: Record<string, string> = {};
  const known: Record<string, string> = {};
  for (const [field, code] of Object.entries(codes)) {
    if (!code) continue;
    known[field] = code;
    errors[field] = typeof messages === 'function' ? messages(field, code) : (messages[code] ?? code);
  }
  return { message, errors, codes: known };
}

/**
 * The codes of a refusal as a screen reads them: only its own fields, and any code the screen does
 * not know as `fallback` (a newer server may add one).
 */
export function codesFor<F extends string, C extends string>(
  codes: Readonly<Record<string, string>> | undefined,
  fields: readonly F[],
  known: readonly C[],
  fallback: C,
): Partial<Record<F, C>> {
  const out: Partial<Record<F, C>> = {};
  for (const field of fields) {
    const code = codes?.[field];
    if (code === undefined) continue;
    out[field] = (known as readonly string[]).includes(code) ? (code as C) : fallback;
  }
  return out;
}
