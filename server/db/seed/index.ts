import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { Database } from '../schema';

/**
 * A seeder: `server/db/seed/NN-name.seed.ts` default-exports one. It must be idempotent (a second
 * run adds nothing), because demo seeding can run on more than one start.
 */
export type Seeder = (db: Kysely<Database>, config: Config) => Promise<void>;

export const seedDir = fileURLToPath(new URL('.', import.meta.url));

/** Runs every `*.seed.ts` (`.seed.js` in the container image) in file-name order; answers the names it ran. */
export async function runSeeders(db: Kysely<Database>, config: Config, dir = seedDir): Promise<string[]> {
  const files = (await fs.readdir(dir)).filter((f) => /\.seed\.[tj]s$/.test(f)).sort();
  for (const file of files) {
    const seeder = ((await import(pathToFileURL(path.join(dir, file)).href)) as { default?: unknown })
      .default;
    if (typeof seeder !== 'function') throw new Error(`Seeder ${file} has no default export function`);
    try {
      await (seeder as Seeder)(db, config);
    } catch (err) {
      throw new Error(`Seeder ${file} failed: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    }
  }
  return files;
}
