/** CSV files the back office exports (applications, Insights tables). */

/**
 * One CSV cell (RFC 4180), safe to open in a spreadsheet: a text starting with = + - @ (or a tab
 * or carriage return, which some spreadsheets skip before reading a formula) gets a leading `'`,
 * so it is shown as text and never run as a formula.
 */
export function csvCell(value: string | number | boolean | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: (string | number | boolean | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;
