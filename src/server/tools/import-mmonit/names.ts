// M/Monit's string table (`name`): host, service and group names and control-file paths, read once so that
// later steps resolve every `…nameid`. Held in memory: one entry per distinct name, not per row.
import { forEachPage, textOf } from './pages'
import type { ImportStep } from './step'

export const namesStep: ImportStep = {
  name: 'names',
  count: (source) => source.count('name'),
  async run(ctx) {
    await forEachPage(ctx.source, { table: 'name', columns: ['id', 'name'], key: ['id'] }, ctx.options.batchRows, (rows) => {
      for (const row of rows) ctx.ids.names.set(Number(row.id), textOf(row.name))
      ctx.progress(ctx.ids.names.size)
    })
    return { imported: ctx.ids.names.size, skipped: [] }
  }
}
