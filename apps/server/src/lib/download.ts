/** A download's Content-Disposition, its file name reduced to safe characters. */
export const attachment = (filename: string) => `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`;

/** The headers of a CSV download. */
export const csvHeaders = (filename: string) => ({
  'Content-Type': 'text/csv; charset=utf-8',
  'Content-Disposition': attachment(filename),
});
