export const ADMIN_ENTRY: string;
export const PRECACHE_GLOBS: string[];
export const PRECACHE_IGNORES: string[];
export function adminOnlyFiles(viteManifest: Record<string, unknown>): Set<string>;
export function pageAddress(file: string): string | null;
export function precacheTransform(
  dist: string,
): (
  entries: { url: string; revision: string | null; size: number }[],
) => Promise<{ manifest: { url: string; revision: string | null; size: number }[]; warnings: string[] }>;
