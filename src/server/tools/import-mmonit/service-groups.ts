// Service groups: per host in M/Monit as here, members named by service name.
import { MMonitImportRepository } from '../../store/mmonit-import'
import { forEachPage, numberOf } from './pages'
import type { ImportStep, Skipped } from './step'

export const serviceGroupsStep: ImportStep = {
  name: 'service groups',
  count: async (source) => (await source.count('servicegroup')) + (await source.count('groupedservices')),
  async run(ctx) {
    const repo = new MMonitImportRepository(ctx.target.db, ctx.target.sql)
    const groupIds = new Map<number, number>()
    const skipped: Skipped[] = []
    let read = 0
    let imported = 0
    const page = { table: 'servicegroup', columns: ['id', 'nameid', 'hostid'], key: ['id'] }
    await forEachPage(ctx.source, page, ctx.options.batchRows, (rows) => {
      ctx.target.sql.transaction(() => {
        for (const row of rows) {
          const hostId = ctx.ids.hosts.get(numberOf(row.hostid))
          const name = ctx.ids.names.get(numberOf(row.nameid))
          if (hostId === undefined || !name) {
            skipped.push({
              what: `service group ${row.id} (${name ?? 'no name'})`,
              why: hostId === undefined ? 'its host was not imported' : 'it has no name'
            })
            continue
          }
          groupIds.set(numberOf(row.id), repo.serviceGroup(hostId, name))
          imported++
        }
      })
      read += rows.length
      ctx.progress(read)
    })
    const members = { table: 'groupedservices', columns: ['servicegroupid', 'service_nameid'], key: ['servicegroupid', 'service_nameid'] }
    await forEachPage(ctx.source, members, ctx.options.batchRows, (rows) => {
      ctx.target.sql.transaction(() => {
        for (const row of rows) {
          const groupId = groupIds.get(numberOf(row.servicegroupid))
          const name = ctx.ids.names.get(numberOf(row.service_nameid))
          if (groupId === undefined || !name) {
            skipped.push({
              what: `service ${name ?? row.service_nameid} in service group ${row.servicegroupid}`,
              why: 'the group or the name was not imported'
            })
            continue
          }
          repo.addServiceGroupMember(groupId, ctx.target.services.nameId(name))
          imported++
        }
      })
      read += rows.length
      ctx.progress(read)
    })
    return { imported, skipped }
  }
}
