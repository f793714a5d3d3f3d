import { fieldErrorAnswer } from '../contract/form-rules';

/**
 * An error a route throws to answer a client: `throw new HttpError(409, 'That email is taken')`.
 * The app's error handler sends `{ message, errors?, codes? }` with its status, 5xx included (for example
 * 503 when a dependency is down). Any other thrown error becomes a logged 500 'Internal error'.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  /** When to come back, in seconds (a 429 of a limit: the answer's Retry-After). */
  retryAfter?: number;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
    /** The fields' codes of a translated form (contract/form-rules.ts). */
    readonly codes?: Record<string, string>,
    /** More of the answer's body (a 409 carries the record as it is now). */
    readonly more?: Record<string, unknown>,
  ) {
    super(message);
  }

  /**
   * A form refused for its fields: each field's code, and its message from `messages` (the
   * contract's `fieldErrorAnswer` builds the body).
   */
  /** 429: too many, come back in `seconds` (Retry-After). */
  static tooMany(message: string, seconds: number) {
    const error = new HttpError(429, message);
    error.retryAfter = seconds;
    return error;
  }

  static fields(
    message: string,
    codes: Partial<Record<string, string>>,
    messages: Parameters<typeof fieldErrorAnswer>[2],
    status = 400,
  ) {
    const answer = fieldErrorAnswer(message, codes, messages);
    return new HttpError(status, answer.message, answer.errors, answer.codes);
  }
}
