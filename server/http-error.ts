/**
 * An error a route throws to answer a client: `throw new HttpError(409, 'That email is taken')`.
 * The app's error handler sends `{ message, errors? }` with its status, 5xx included (for example
 * 503 when a dependency is down). Any other thrown error becomes a logged 500 'Internal error'.
 */
export class HttpError extends Error {
  override name = 'HttpError';

  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}
