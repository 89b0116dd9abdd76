// The audit log as CSV (RFC 4180): a header line, then a row per record, CRLF line ends. A field with a
// comma, quote or line break is quoted, its quotes doubled; one a spreadsheet would read as a formula
// (= + - @ first) gets a leading apostrophe, so that a crafted user name cannot run in the reader's sheet.
import type { AuditRecord } from '../../shared/api/audit'

const COLUMNS = ['id', 'at', 'time', 'userId', 'uname', 'address', 'action', 'target', 'detail'] as const

export function csvField(value: string | number | null): string {
  let text = value === null ? '' : String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function auditCsv(records: readonly AuditRecord[]): string {
  const lines = [COLUMNS.join(',')]
  for (const r of records) {
    const row = { ...r, time: new Date(r.at * 1000).toISOString() }
    lines.push(COLUMNS.map((c) => csvField(row[c])).join(','))
  }
  return lines.join('\r\n') + '\r\n'
}
