// The M/Monit import the server runs (admin/import/mmonit/*): started with the source and options,
// polled while it runs, cancelled between batches.
import { queryOptions } from '@tanstack/react-query'
import type { ImportStatus } from '../../shared/api/mmonit-import'
import { apiGet, apiPost } from './client'

export type { ImportReportShape, ImportStatus, ImportStepReport } from '../../shared/api/mmonit-import'

export interface ImportOptions {
  dryRun: boolean
  merge: boolean
  /** YYYY-MM-DD, or empty for everything. */
  since: string
  noHistory: boolean
}

/** How often a running import's progress is read. */
const POLL_MS = 1000

export const importStatusQuery = queryOptions({
  queryKey: ['admin', 'import', 'mmonit'] as const,
  queryFn: () => apiGet<ImportStatus>('admin/import/mmonit/status'),
  refetchInterval: (query) => (query.state.data?.state === 'running' ? POLL_MS : false)
})

export function startImport(source: string, o: ImportOptions): Promise<ImportStatus> {
  return apiPost<ImportStatus>('admin/import/mmonit/start', {
    source,
    dryrun: o.dryRun,
    merge: o.merge,
    since: o.since || undefined,
    nohistory: o.noHistory
  })
}

export const cancelImport = () => apiPost('admin/import/mmonit/cancel')
