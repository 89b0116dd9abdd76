// CSV as spreadsheets read it (RFC 4180): fields quoted when they hold a comma, quote or line break,
// CRLF between records. Host names, service names and messages come from agents, so a field that a
// spreadsheet would run as a formula (=, +, -, @ first) is written with a leading apostrophe.

export type CsvValue = string | number

const FORMULA_START = /^[=+\-@\t\r]/

function field(value: CsvValue): string {
  if (typeof value === 'number') return String(value)
  const text = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n'
}
