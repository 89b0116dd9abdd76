// The audit log (admin/audit/list, admin/audit/export): who changed what and when, for administrators.
import { queryOptions } from '@tanstack/react-query'
import type { AuditList } from '../../shared/api/audit'
import { apiGet, type ApiParams } from './client'
import { rangeDates } from './events'
import type { UptimeSearch } from './uptime'

export type { AuditList, AuditRecord } from '../../shared/api/audit'

export interface AuditSearch extends UptimeSearch {
  user?: string
  action?: string
  text?: string
  page?: number
}

export const AUDIT_PAGE_SIZE = 50

/** The filters as the API takes them. */
function filterParams(s: AuditSearch): ApiParams {
  return { ...rangeDates(s), uname: s.user, action: s.action, text: s.text }
}

export const auditQuery = (s: AuditSearch) =>
  queryOptions({
    queryKey: ['admin', 'audit', s] as const,
    queryFn: () =>
      apiGet<AuditList>('admin/audit/list', {
        ...filterParams(s),
        results: AUDIT_PAGE_SIZE,
        startindex: ((s.page ?? 1) - 1) * AUDIT_PAGE_SIZE
      })
  })

/** The CSV of what the filters select: a plain link, which the browser downloads with the session cookie. */
export function auditExportUrl(s: AuditSearch): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(filterParams(s))) if (value !== undefined && value !== '') query.append(key, String(value))
  const text = query.toString()
  return `/api/2/admin/audit/export${text ? `?${text}` : ''}`
}
