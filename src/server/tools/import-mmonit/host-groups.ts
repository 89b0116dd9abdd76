// Host groups by name (one of that name already in Overseer is joined, not duplicated) and their members.
import { forEachPage, numberOf } from './pages'
import type { ImportStep, Skipped } from './step'

export const hostGroupsStep: ImportStep = {
  name: 'host groups',
  count: async (source) => (await source.count('hostgroup')) + (await source.count('groupedhost')),
  async run(ctx) {
    const { groups } = ctx.target
    const skipped: Skipped[] = []
    let read = 0
    let imported = 0
    await forEachPage(ctx.source, { table: 'hostgroup', columns: ['id', 'nameid'], key: ['id'] }, ctx.options.batchRows, (rows) => {
      ctx.target.sql.transaction(() => {
        for (const row of rows) {
          const name = ctx.ids.names.get(numberOf(row.nameid))
          if (!name) {
            skipped.push({ what: `host group ${row.id}`, why: 'its name is missing from the name table' })
            continue
          }
          ctx.ids.hostGroups.set(numberOf(row.id), groups.idOfName(name) ?? groups.create(name))
          imported++
        }
      })
      read += rows.length
      ctx.progress(read)
    })
    await forEachPage(
      ctx.source,
      { table: 'groupedhost', columns: ['groupid', 'hostid'], key: ['groupid', 'hostid'] },
      ctx.options.batchRows,
      (rows) => {
        const members = new Map<number, number[]>()
        for (const row of rows) {
          const group = ctx.ids.hostGroups.get(numberOf(row.groupid))
          const host = ctx.ids.hosts.get(numberOf(row.hostid))
          if (group === undefined || host === undefined) {
            skipped.push({ what: `host ${row.hostid} in group ${row.groupid}`, why: 'the host or the group was not imported' })
            continue
          }
          members.set(group, [...(members.get(group) ?? []), host])
          imported++
        }
        ctx.target.sql.transaction(() => {
          for (const [group, hosts] of members) groups.addHosts(group, hosts)
        })
        read += rows.length
        ctx.progress(read)
      }
    )
    return { imported, skipped }
  }
}
