// Addresses whose prerendered page is the same page (the Coming Soon placeholder under five
// addresses): the service worker precaches the first and answers the others with it offline.
// Shared by scripts/lib/pwa-precache.mjs (build) and src/sw.ts (run time). Keep in step with
// COMING_SOON_PATHS in src/routes/paths.ts (a unit test checks it).
export const PAGE_ALIASES = [
  ['/ComingSoon', '/help-center', '/training', '/api-reference', '/documentation'],
];

/** The precached address that stands for `address` (itself when it has no alias). */
export function pageAliasTarget(address) {
  const lower = address.toLowerCase();
  for (const group of PAGE_ALIASES) if (group.some((a) => a.toLowerCase() === lower)) return group[0];
  return address;
}
