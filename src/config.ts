// Browser build settings, read once. Every base address defaults to the same origin.
const env = import.meta.env;

function base(value: string | undefined, fallback: string): string {
  const v = (value ?? '').trim();
  return (v === '' ? fallback : v).replace(/\/+$/, '');
}

export const config = {
  registerUrl: base(env.VITE_REGISTER_URL, 'https://app.manna.example/register'),
  geoUrl: base(env.VITE_GEO_URL, '/api/geo'),
  adminApi: base(env.VITE_ADMIN_API_URL, '/api'),
  websiteApi: base(env.VITE_WEBSITE_API_URL, '/api'),
  manuscriptApi: base(env.VITE_MANUSCRIPT_API_URL, '/api'),
  mediaUrl: base(env.VITE_MEDIA_URL, '/api'),
  blockInspect: env.PROD && env.VITE_BLOCK_INSPECT !== 'false',
} as const;
