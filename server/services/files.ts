import { storedFile } from '../db/files.repo';
import type { ServiceContext } from './context';

/**
 * Stored files (CVs, blog images) as the file addresses read them: the row that says what a key
 * holds (its kind, type and uploaded name), or undefined for a key no row names.
 */
export const storedFileOf = (ctx: ServiceContext, key: string, kind?: string) =>
  storedFile(ctx.db, key, kind);
