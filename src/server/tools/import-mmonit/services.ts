// M/Monit's services with their type, monitoring state and mode, and last status: what the status pages
// show of a host until its agent reports to Overseer (the agent's first message replaces it). A service
// the host has already (by name) is kept as it is.
import { serviceLed, serviceStatusText } from '../../domain/service-state'
import { MMonitImportRepository } from '../../store/mmonit-import'
import type { ServiceState } from '../../store/services'
import { forEachPage, numberOf, textOf } from './pages'
import type { SourceRow } from '../../store/mmonit-source/source'
import type { ImportStep, Skipped } from './step'

/** The `service` columns the import reads: the API source lays its answers out in them too. */
export const SERVICE_COLUMNS = [
  'id',
  'hostid',
  'nameid',
  'type',
  'status',
  'statushint',
  'monitoringstate',
  'monitoringmode',
  'onreboot',
  'statusmodified',
  'everytype',
  'everycyclenumber',
  'everycron'
]

export const servicesStep: ImportStep = {
  name: 'services',
  count: (source) => source.count('service'),
  async run(ctx) {
    const repo = new MMonitImportRepository(ctx.target.db, ctx.target.sql)
    const positions = new Map<number, number>()
    const skipped: Skipped[] = []
    let read = 0
    await forEachPage(ctx.source, { table: 'service', columns: SERVICE_COLUMNS, key: ['id'] }, ctx.options.batchRows, (rows) => {
      ctx.target.sql.transaction(() => {
        for (const row of rows) {
          const hostId = ctx.ids.hosts.get(numberOf(row.hostid))
          const name = ctx.ids.names.get(numberOf(row.nameid))
          if (hostId === undefined || !name) {
            skipped.push({
              what: `service ${row.id} (${name ?? 'no name'})`,
              why: hostId === undefined ? 'its host was not imported' : 'it has no name'
            })
            continue
          }
          const position = positions.get(hostId) ?? 0
          positions.set(hostId, position + 1)
          ctx.ids.services.set(numberOf(row.id), repo.service(hostId, serviceState(row, name, position, ctx.target.services.nameId(name))))
        }
      })
      read += rows.length
      ctx.progress(read)
    })
    return { imported: ctx.ids.services.size, skipped }
  }
}

function serviceState(row: SourceRow, name: string, position: number, nameId: number): ServiceState {
  const condition = {
    monitor: numberOf(row.monitoringstate),
    status: numberOf(row.status),
    statusHint: numberOf(row.statushint),
    pendingAction: 0,
    // M/Monit's status bits are its verdict; the imported events are written after the services.
    activeErrors: 0
  }
  return {
    nameId,
    name,
    type: numberOf(row.type),
    position,
    collectedUsec: numberOf(row.statusmodified) * 1_000_000,
    status: condition.status,
    statusHint: condition.statusHint,
    monitor: condition.monitor,
    monitorMode: numberOf(row.monitoringmode),
    onReboot: numberOf(row.onreboot),
    pendingAction: 0,
    every: everyText(numberOf(row.everytype), numberOf(row.everycyclenumber), textOf(row.everycron)),
    led: serviceLed(condition),
    statusText: serviceStatusText(condition),
    statistics: '[]'
  }
}

/** M/Monit keeps Monit's `<every>` fields; the text is the one the collector stores (monit/parse-message.ts). */
function everyText(type: number, cycles: number, cron: string): string | null {
  if (type === 2) return `every ${cycles} cycles`
  if (type === 3) return `every "${cron}"`
  if (type === 4) return `not every "${cron}"`
  return null
}
