// The forecast job over a real store (issue 30 §3): a pass goes through every resource series in slices and
// stores what it finds (a series whose history no longer gives a trend loses its stored forecast), and a
// failing slice is logged once and tried again instead of taking the process down. On PostgreSQL the
// slices run on the jobs' thread, as the server runs them there.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { forecastSlice } from '../../../src/server/history/forecaster'
import { EventClassId } from '../../../src/shared/codes'
import { FORECAST_INTERVAL_MS, ForecastJob } from '../../../src/server/jobs/forecast-job'
import { JobsThread } from '../../../src/server/jobs/jobs-thread'
import type { Logger } from '../../../src/server/log'
import { addChannel, addRule, outboxRows } from '../../support/alert-config'
import { asAgent, fixture } from '../../support/fixtures'
import { withResourceFigures } from '../../support/payloads'
import { tempStore, type TempStore } from '../../support/temp-store'
import { testEngine } from '../../support/test-database'

const HOUR = 3600
const DAY = 86_400
let t: TempStore
let thread: JobsThread | undefined
let job: ForecastJob
let errors: string[]
const nowSec = Math.floor(Date.now() / 1000)
/** The job's clock (unix seconds): a test moves it on between passes. */
let clockSec: number

/** Four days of history every two hours: host `name`'s rootfs filling `perDay` % a day up to 70 % now. */
function fill(agent: string, name: string, perDay: number): number {
  let hostId = 0
  for (let i = 0; i <= 48; i++) {
    const time = nowSec - 60 - i * 2 * HOUR
    const xml = withResourceFigures(asAgent(fixture('02-status-heartbeat'), agent.repeat(32), name), {
      collectedSec: time,
      spacePercent: 70 - (perDay * (nowSec - time)) / DAY,
      memoryPercent: 30
    })
    hostId = t.post(xml, time * 1000).hostId
  }
  return hostId
}

const stored = () =>
  t.store.sql.rows<{ host_id: number; resource: string; full_at: number | null }>(
    'SELECT host_id, resource, full_at FROM forecast ORDER BY host_id, resource'
  )

beforeEach(() => {
  t = tempStore()
  errors = []
  clockSec = nowSec
  const log: Logger = { info: () => {}, warn: () => {}, error: (m) => errors.push(m) }
  const onThread = testEngine === 'postgres' ? (thread = new JobsThread({ database: t.store.location })) : undefined
  job = new ForecastJob(
    { slice: (now, afterId) => (onThread ? onThread.forecastSlice(now, afterId) : forecastSlice(t.store, now, afterId)) },
    { log },
    () => clockSec * 1000
  )
})
afterEach(async () => {
  job.stop()
  await thread?.close()
  thread = undefined
  t.close()
})

describe('forecast job', () => {
  it('a pass stores every resource series with a trend; the filling ones have a date', async () => {
    const filling = fill('a', 'filling', 10)
    const steady = fill('b', 'steady', 0)
    expect(await job.runOnce()).toBe(FORECAST_INTERVAL_MS)
    const rows = stored()
    expect(rows.map((r) => [r.host_id, r.resource])).toEqual([
      [filling, 'inodes'],
      [filling, 'memory'],
      [filling, 'space'],
      [filling, 'swap'],
      [steady, 'inodes'],
      [steady, 'memory'],
      [steady, 'space'],
      [steady, 'swap']
    ])
    const dated = rows.filter((r) => r.full_at !== null)
    expect(dated).toEqual([{ host_id: filling, resource: 'space', full_at: expect.any(Number) }])
    expect(Math.abs((dated[0].full_at! - nowSec) / HOUR - 72)).toBeLessThan(7.2)
    expect(errors).toEqual([])
  })

  it('goes through the fleet in slices, and forgets the forecast of a series left without history', async () => {
    fill('a', 'filling', 10)
    // Three series a slice: the next runs shortly after, until the fleet is done.
    const sliced = (after: number) => forecastSlice(t.store, nowSec, after, 3)
    for (let afterId = 0, done = false; !done;) ({ lastId: afterId, done } = sliced(afterId))
    expect(stored()).toHaveLength(4)
    t.store.sql.execute('DELETE FROM history_raw')
    expect(await job.runOnce()).toBe(FORECAST_INTERVAL_MS)
    expect(stored()).toEqual([])
  })

  it('logs a failing slice once, goes on trying, and stores once it works again', async () => {
    fill('a', 'filling', 10)
    t.store.sql.plain.exec('ALTER TABLE forecast RENAME TO forecast_away')
    expect(await job.runOnce()).toBe(FORECAST_INTERVAL_MS)
    expect(await job.runOnce()).toBe(FORECAST_INTERVAL_MS)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^forecasts failed: /)
    t.store.sql.plain.exec('ALTER TABLE forecast_away RENAME TO forecast')
    await job.runOnce()
    expect(stored()).toHaveLength(4)
  })

  it('a resource forecast within the horizon raises one Forecast event, which alert rules send, and recovers when it moves away', async () => {
    const db = t.store.sql.plain
    const rule = addRule(db, { channelIds: [addChannel(db)], eventTypes: EventClassId.Forecast })
    addRule(db, { channelIds: [addChannel(db)], eventTypes: 2 }) // Resource only: not told
    t.store.serverSettings.update({ forecastHorizonSec: 100 * HOUR })
    const filling = fill('a', 'filling', 10)
    fill('b', 'steady', 0)
    const forecastEvents = () =>
      t.store.sql.rows<{ host_id: number; service_name: string; state: number; message: string }>(
        'SELECT host_id, service_name, state, message FROM event WHERE class = ? ORDER BY id',
        [EventClassId.Forecast]
      )
    await job.runOnce()
    await job.runOnce()
    expect(forecastEvents()).toEqual([
      {
        host_id: filling,
        service_name: 'rootfs',
        state: 1,
        message: expect.stringMatching(/^space full in (2d 2[0-3]h|3d( [0-3]h)?)( \d+m)? at/)
      }
    ])
    expect(forecastEvents()[0].message).toMatch(/at the (7-day|24-hour) trend \(\d+(\.\d)? % now, (9|10)(\.\d+)? % a day\)$/)
    expect(outboxRows(db).map((r) => [r.rule_id, r.kind, r.item.service, r.item.event, r.item.state])).toEqual([
      [rule, 'alert', 'rootfs', 'Forecast', 'failed']
    ])
    // A forecast is no down time: the service has no down interval.
    expect(t.store.sql.rows('SELECT * FROM state_interval WHERE service_name_id IS NOT NULL')).toEqual([])

    // The history gone, the trend with it: at the next passes, the service recovers, once.
    t.store.sql.execute('DELETE FROM history_raw')
    clockSec += FORECAST_INTERVAL_MS / 1000
    await job.runOnce()
    await job.runOnce()
    expect(forecastEvents().map((e) => [e.service_name, e.state, e.message])).toEqual([
      ['rootfs', 1, expect.any(String)],
      ['rootfs', 0, 'no resource full within 4d 4h at the current trend']
    ])
    expect(outboxRows(db).map((r) => [r.kind, r.item.state])).toEqual([
      ['alert', 'failed'],
      ['recovery', 'succeeded']
    ])
  })
})
