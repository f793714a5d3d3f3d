import { z } from 'zod/mini';

/**
 * Record ids and whole numbers in requests, the one way for every contract. Ids are capped at
 * the largest 32-bit integer, the range of every id column on both databases: a larger id is a
 * 400 on the way in, never a database error (PostgreSQL refuses it where SQLite would not).
 */
export const ID_MAX = 2_147_483_647;

const ID_TEXT = /^[1-9]\d{0,9}$/;

/** True for the text of a positive id within the columns' range ("12"; not "012", "1e3" or "9999999999"). */
export const isIdText = (raw: string): boolean => ID_TEXT.test(raw) && Number(raw) <= ID_MAX;

/** An id sent as text (a path segment, a multipart field), with the message for a bad one. */
export const idText = (error: string) => z.string().check(z.refine(isIdText, { error }));

/** A whole number from `min` to `max` in a query string or body, given as a number or text. */
export const whole = (min: number, max: number) =>
  z.coerce.number().check(z.int(), z.minimum(min), z.maximum(max));

/** The address of one record (…/{id}), for every route that names one by its id. */
export const IdParams = z.object({ id: whole(1, ID_MAX) });
