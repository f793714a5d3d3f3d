/**
 * The wait before attempt number `attempts + 1` of something sent again after a failure (a mail,
 * a webhook delivery): `baseMs`, doubling with each attempt, at most `maxMs` (an hour).
 */
export const backoffMs = (baseMs: number, attempts: number, maxMs = 3_600_000) =>
  Math.min(baseMs * 2 ** Math.min(attempts, 20), maxMs);
