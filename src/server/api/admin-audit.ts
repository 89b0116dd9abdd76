// admin/audit/list and admin/audit/export (issue 26, our extension): the audit log for administrators,
// newest first, filtered; the list paged as reports/events/list is, the export as CSV of at most
// EXPORT_MAX_ROWS rows (the newest; narrow the dates for older ones).
import { auditList, type AuditList } from '../../shared/api/audit'
import { arg, pageArgs } from '../../shared/api/args'
import { endpoint, type ApiEndpoint } from '../http/api'
import type { AuditFilter } from '../store/audit-log'
import { auditCsv } from './audit-csv'
import type { ApiDeps } from './deps'

const DEFAULT_PAGE = 100
const MAX_PAGE = 1000
export const EXPORT_MAX_ROWS = 100_000

const filterParams = {
  datefrom: arg.int('a unix timestamp').optional(),
  dateto: arg.int('a unix timestamp').optional(),
  uname: arg.text(255).optional(),
  action: arg.text(100).optional(),
  text: arg.text(255).optional()
}

function filterOf(params: { datefrom?: number; dateto?: number; uname?: string; action?: string; text?: string }): AuditFilter {
  return { from: params.datefrom, to: params.dateto, uname: params.uname, action: params.action, text: params.text }
}

export function adminAuditEndpoints({ store }: ApiDeps): ApiEndpoint[] {
  const log = store.auditLog
  return [
    endpoint({
      path: 'admin/audit/list',
      pureRead: true,
      summary: 'The audit log (logins and changes), newest first, filtered and paged',
      extension: true,
      answer: auditList,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: { ...filterParams, ...pageArgs },
      handle: ({ params }): AuditList => {
        const startIndex = params.startindex ?? 0
        const pageSize = Math.min(params.results ?? DEFAULT_PAGE, MAX_PAGE)
        const { records, total } = log.list(filterOf(params), startIndex, pageSize)
        return { records, recordsReturned: records.length, pageSize, totalRecords: total, startIndex }
      }
    }),
    endpoint({
      path: 'admin/audit/export',
      summary: `The audit log as CSV, newest first, filtered (at most ${EXPORT_MAX_ROWS} rows)`,
      extension: true,
      answer: 'text/csv',
      methods: ['GET', 'POST'],
      access: 'admin',
      params: filterParams,
      handle: ({ params, reply }) => {
        const { records } = log.list(filterOf(params), 0, EXPORT_MAX_ROWS)
        reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', 'attachment; filename="audit-log.csv"')
          .send(auditCsv(records))
        return {}
      }
    })
  ]
}
