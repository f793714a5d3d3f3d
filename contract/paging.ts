/**
 * Paged lists, the one way for every list of the site and the back office: the server counts
 * matches exactly up to COUNT_CAP (and stops reading there), and every "Showing X-Y of N" line
 * comes from `showingFigures`, which says "10,000+" past the cap.
 */
export const COUNT_CAP = 10_000;

/** "Showing X-Y of N" figures in the reader's language: `shown` rows of page `page`. */
export function showingFigures(page: number, pageSize: number, shown: number, total: number, lang: string) {
  const from = shown === 0 ? 0 : (page - 1) * pageSize + 1;
  const fmt = new Intl.NumberFormat(lang);
  return {
    from: fmt.format(from),
    to: fmt.format(from === 0 ? 0 : from + shown - 1),
    total: formatTotal(total, lang),
  };
}

/** A count of matches as the reader sees it: "10,000+" once it reaches the cap. */
export const formatTotal = (total: number, lang: string) => {
  const fmt = new Intl.NumberFormat(lang);
  return total >= COUNT_CAP ? `${fmt.format(COUNT_CAP)}+` : fmt.format(total);
};

/** The highest page number any list accepts (the API's `pagenum`, an address's `?page=`). */
export const PAGE_NUMBER_MAX = 10_000;

/** A page number from an address: a whole number from 1 to PAGE_NUMBER_MAX, else 1. */
export function cleanPage(value: string | number | null | undefined): number {
  const n = typeof value === 'number' ? value : Number(value ?? '1');
  return Number.isInteger(n) && n >= 1 && n <= PAGE_NUMBER_MAX ? n : 1;
}

/** The address query of a page: `page=N`, nothing for page 1. */
export const pageQuery = (page: number): string => (page > 1 ? `page=${page}` : '');
