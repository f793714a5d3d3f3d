// Types of page-html.mjs for the server (TypeScript), which assembles blog permalinks with it.
export interface HeadData {
  title: string;
  description: string;
  path?: string;
  image?: string;
  type?: 'website' | 'article';
  jsonLd?: object[];
  noindex?: boolean;
}

export interface PageInput {
  lang: string;
  body: string;
  head: HeadData | undefined;
  path: string;
  moduleKey?: string;
  ns?: string[];
  shell?: boolean;
  data?: unknown;
  preloadImages?: (string | { src: string; srcset?: string; sizes?: string })[];
}

export const PAGE_DATA_ID: string;
export function escapeHtml(s: unknown): string;
export function safeJson(v: unknown): string;
export function createPageAssembler(options: {
  clientDir: string;
  template: string;
  viteManifest: Record<string, unknown>;
}): { page(input: PageInput): string };
export const BOOT_SCRIPT: string;
export const LANGUAGES: string[];
export function languagePath(lang: string, pagePath: string): string;
