// Statistics history: M/Monit's raw samples and every roll-up level, folded into our minute, hour and day
// blocks, so that the charts reach back as far as M/Monit's did (a year of daily averages) from the first
// start after the import. M/Monit keeps averages only for its roll-ups: each becomes a bucket of one
// sample. Sources are read coarsest first, so where two overlap the finer one, written last, wins.
// Text samples (statistics_string) are no history here and are left out, counted in the report.
import { blockStart, HOUR, ROLLED_LEVELS, type RolledLevel } from '../../domain/history-levels'
import { BlockFolder } from './history-blocks'
import { forEachPage, numberOf } from './pages'
import type { MMonitSource, SourceFilter } from '../../store/mmonit-source/source'
import type { ImportContext, ImportOptions, ImportStep, Skipped } from './step'

interface SampleTable {
  table: string
  value: 'value' | 'value_avg'
  levels: readonly RolledLevel[]
}

const EVERY_LEVEL = ROLLED_LEVELS
/** Coarsest first. */
const SAMPLE_TABLES: readonly SampleTable[] = [
  { table: 'statistics_aggregate_14d', value: 'value_avg', levels: ['day'] },
  { table: 'statistics_aggregate_7d', value: 'value_avg', levels: ['day'] },
  { table: 'statistics_aggregate_1d', value: 'value_avg', levels: ['day'] },
  { table: 'statistics_aggregate_12h', value: 'value_avg', levels: ['day'] },
  { table: 'statistics_aggregate_2h', value: 'value_avg', levels: ['hour', 'day'] },
  { table: 'statistics_aggregate_15m', value: 'value_avg', levels: ['hour', 'day'] },
  { table: 'statistics_aggregate_1m', value: 'value_avg', levels: EVERY_LEVEL },
  { table: 'statistics_int', value: 'value', levels: EVERY_LEVEL },
  { table: 'statistics_llong', value: 'value', levels: EVERY_LEVEL },
  { table: 'statistics_float', value: 'value', levels: EVERY_LEVEL },
  { table: 'statistics_double', value: 'value', levels: EVERY_LEVEL }
]
const TEXT_SAMPLES = 'statistics_string'

const since = (options: ImportOptions): SourceFilter | undefined =>
  options.since === undefined ? undefined : { column: 'collectedsec', min: options.since }

/** The sample tables this database has (schema 26 may lack some). */
async function present(source: MMonitSource): Promise<SampleTable[]> {
  const tables = await source.tables()
  return SAMPLE_TABLES.filter((t) => tables.has(t.table))
}

async function textSamples(source: MMonitSource, options: ImportOptions): Promise<number> {
  return (await source.tables()).has(TEXT_SAMPLES) ? source.count(TEXT_SAMPLES, since(options)) : 0
}

export const historyStep: ImportStep = {
  name: 'history',
  async count(source, options) {
    let total = await textSamples(source, options)
    for (const t of await present(source)) total += await source.count(t.table, since(options))
    return total
  },
  async run(ctx) {
    const { blocks } = ctx.target.history
    let read = 0
    let imported = 0
    let unknownSeries = 0
    let newest: number | undefined
    for (const t of await present(ctx.source)) {
      const folders = t.levels.map((level) => new BlockFolder(level, blocks))
      const page = {
        table: t.table,
        columns: ['statisticsid', 'collectedsec', t.value],
        key: ['statisticsid', 'collectedsec'],
        where: since(ctx.options)
      }
      await forEachPage(ctx.source, page, ctx.options.batchRows, (rows) => {
        ctx.target.sql.transaction(() => {
          for (const row of rows) {
            const statisticId = ctx.ids.statistics.get(numberOf(row.statisticsid))
            const value = row[t.value]
            if (statisticId === undefined || typeof value !== 'number' || !Number.isFinite(value)) {
              unknownSeries++
              continue
            }
            const time = numberOf(row.collectedsec)
            for (const folder of folders) folder.add(statisticId, time, value)
            if (newest === undefined || time > newest) newest = time
            imported++
          }
          for (const folder of folders) folder.write(false)
        })
        read += rows.length
        ctx.progress(read)
      })
      ctx.target.sql.transaction(() => {
        for (const folder of folders) folder.write(true)
      })
    }
    if (newest !== undefined) markRolled(ctx, newest)
    const skipped: Skipped[] = []
    if (unknownSeries > 0) {
      skipped.push({
        what: `${unknownSeries.toLocaleString('en')} samples`,
        why: 'their series was not imported, or the value is no number',
        rows: unknownSeries
      })
    }
    const text = await textSamples(ctx.source, ctx.options)
    if (text > 0)
      skipped.push({ what: `${text.toLocaleString('en')} text samples (${TEXT_SAMPLES})`, why: 'history keeps numbers only', rows: text })
    return { imported, skipped }
  }
}

/**
 * Charts read a level's blocks only up to where the rollup stands (history/series-reader.ts). On a target
 * whose rollup has not started, the levels are marked rolled up to the import's newest sample: its hour at
 * the minute level (the agent's rows of that hour merge in as late samples), its day and month above (the
 * rollup rolls them from the finer level once over, imported buckets included). A rollup under way keeps
 * its place: moving it would skip the target's own raw rows.
 */
function markRolled(ctx: ImportContext, newest: number): void {
  const { settings } = ctx.target.history
  const rolled = settings.progress().rolledUntil
  if (ROLLED_LEVELS.some((level) => rolled[level] !== null)) return
  ctx.target.sql.transaction(() => {
    settings.setRolledUntil('minute', blockStart('minute', newest) + HOUR)
    settings.setRolledUntil('hour', blockStart('hour', newest))
    settings.setRolledUntil('day', blockStart('day', newest))
  })
}
