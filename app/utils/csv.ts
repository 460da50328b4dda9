// CSV downloads (students, leads): UTF-8 with a BOM so spreadsheet apps pick the encoding, RFC 4180
// quoting, and cells that a spreadsheet would run as a formula are neutralised with a leading
// apostrophe (OWASP "CSV injection": = + - @, and tab / carriage return that some apps strip).

const FORMULA_START = /^[=+\-@\t\r]/

export function csvCell(value: string | number | null | undefined) {
  let cell = value === null || value === undefined ? '' : String(value)
  if (typeof value === 'string' && FORMULA_START.test(cell)) cell = `'${cell}`
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell
}

/** The whole file: header row first, CRLF line ends, BOM in front. */
export function toCsv(header: string[], rows: Array<Array<string | number | null | undefined>>) {
  return '\uFEFF' + [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n'
}

/** A download answer; the file name is ASCII only (it carries a date, never user text). */
export function csvResponse(body: string, filename: string) {
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'no-store',
    },
  })
}
