export const PAGE_ALIASES: string[][];
export function pageAliasTarget(address: string): string;
