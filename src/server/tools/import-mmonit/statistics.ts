// M/Monit's series (`statistics`: one row per service, type and descriptor) registered as our statistics,
// the stable ids history is keyed by; the same (service, type, descriptor) a second time is the same id.
import { forEachPage, numberOf, textOf } from './pages'
import type { ImportStep, Skipped } from './step'

export const statisticsStep: ImportStep = {
  name: 'statistics',
  count: (source) => source.count('statistics'),
  async run(ctx) {
    const { series } = ctx.target.history
    let read = 0
    let unknownService = 0
    const page = { table: 'statistics', columns: ['id', 'serviceid', 'type', 'descriptor'], key: ['id'] }
    await forEachPage(ctx.source, page, ctx.options.batchRows, (rows) => {
      ctx.target.sql.transaction(() => {
        for (const row of rows) {
          const serviceId = ctx.ids.services.get(numberOf(row.serviceid))
          if (serviceId === undefined) unknownService++
          else ctx.ids.statistics.set(numberOf(row.id), series.register(serviceId, numberOf(row.type), textOf(row.descriptor)))
        }
      })
      read += rows.length
      ctx.progress(read)
    })
    const skipped: Skipped[] =
      unknownService > 0
        ? [{ what: `${unknownService.toLocaleString('en')} series`, why: 'their service was not imported', rows: unknownService }]
        : []
    return { imported: ctx.ids.statistics.size, skipped }
  }
}
