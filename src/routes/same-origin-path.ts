/**
 * A path of this site from an address a visitor could have crafted (`?from=`, `?next=`), or null.
 * Parsed as the browser would follow it (`new URL(raw, origin)`), so tabs, newlines, backslashes
 * and protocol-relative forms that a browser turns into another site are caught: only an address
 * whose origin is `origin` passes, answered as path, query and fragment.
 */
export function sameOriginPath(raw: string | null, origin: string): string | null {
  if (!raw || !raw.startsWith('/')) return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
