import { VersionConflict, type Conflict } from '../../contract/versions';

/**
 * What the editors (job opening, blog post) do when their save meets someone else's
 * (docs/decisions/022-versions-and-conflicts.md): which fields this form changed, and how their
 * record meets what the form holds. Each editor names its fields and how a person reads a value
 * (rich text as text, a line trimmed), so a change nobody could see is not a change.
 */

/** How a person reads a field's value: what "the same" means for it. */
export type ReadField<V> = (field: keyof V & string, value: V[keyof V & string]) => string;

/** Someone else's save beside what the form holds, while the editor is in `conflict`. */
export interface EditConflict<V> {
  theirs: V;
  version: number;
  changedBy: string | null;
  changedAt: string | null;
  /** The fields both changed: the ones to choose for. */
  fields: (keyof V & string)[];
}

/** The fields whose values differ as a person reads them. */
export const changedOf = <V>(
  fields: readonly (keyof V & string)[],
  read: ReadField<V>,
  values: V,
  opened: V,
): (keyof V & string)[] => fields.filter((f) => read(f, values[f]) !== read(f, opened[f]));

/**
 * Someone else's save met: the fields only they changed take their values, the fields only this
 * form changed keep mine, and `both` lists the fields both changed to different values.
 */
export function meetTheirs<V>(
  fields: readonly (keyof V & string)[],
  read: ReadField<V>,
  values: V,
  opened: V,
  theirs: V,
): { merged: V; both: (keyof V & string)[] } {
  const mine = new Set(changedOf(fields, read, values, opened));
  const both = changedOf(fields, read, theirs, opened).filter(
    (f) => mine.has(f) && read(f, theirs[f]) !== read(f, values[f]),
  );
  const merged = { ...values };
  for (const f of fields) if (!mine.has(f)) merged[f] = theirs[f];
  return { merged, both };
}

/** The conflict a failed save carries (the transport's `VersionConflict`), or null. */
export const conflictIn = <T>(error: unknown): Conflict<T> | null =>
  error instanceof VersionConflict ? (error as VersionConflict<T>).conflict : null;

/** True when a failed change says its record is already gone (404): deleted elsewhere meanwhile. */
export const isGoneError = (error: unknown): boolean =>
  (error as { status?: unknown } | null)?.status === 404;
