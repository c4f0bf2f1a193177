/**
 * One CSV cell (RFC 4180): quoted when needed, and text that a spreadsheet would run as a formula (leading =, +,
 * -, @, tab or carriage return) defused with a leading quote. Numbers stay numbers.
 */
export function csvCell(value: string | number | boolean | null): string {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as a CSV file: CRLF line ends, a final line end. */
export const csvFile = (rows: (string | number | boolean | null)[][]) =>
  rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
