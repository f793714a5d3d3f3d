/** 'Nov 20, 2026, 9:30 AM' in the page's language: when a kept copy was saved. */
export function formatSavedAt(savedAt: string | number, lang: string): string {
  const date = new Date(savedAt);
  try {
    return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  } catch {
    return date.toLocaleString();
  }
}
