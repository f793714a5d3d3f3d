import type { Resource } from 'i18next';

// Server-render only: every language and namespace (but the server's mail texts), bundled eagerly
// into the SSR build.
const files = import.meta.glob(['./locales/*/*.json', '!./locales/*/mail.json'], {
  eager: true,
  import: 'default',
}) as Record<string, Record<string, unknown>>;

export const staticResources: Resource = {};
for (const [file, data] of Object.entries(files)) {
  const [, lang, ns] = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file) ?? [];
  if (!lang || !ns) continue;
  staticResources[lang] ??= {};
  staticResources[lang][ns] = data;
}
