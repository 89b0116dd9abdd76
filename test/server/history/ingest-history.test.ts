// The collector's hot-path append: one raw history row per message, holding every numeric statistic
// of the message under its registry id, at the agent's collection time.
import { afterEach, describe, expect, it } from 'vitest'
import { Ingest } from '../../../src/server/collector/ingest'
import { parseMonitMessage } from '../../../src/server/monit/parse-message'
import { rawSamples } from '../../../src/server/history/raw-samples'
import { decodeStatistics, statisticKey } from '../../../src/server/store/latest-statistics'
import { Stat } from '../../../src/shared/codes'
import { fixture } from '../../support/fixtures'
import { tempStore, type TempStore } from '../../support/temp-store'

const COLLECTED = 1795300306
let temp: TempStore
afterEach(() => temp.close())

/** The heartbeat fixture, collected `shift` seconds later than recorded. */
const heartbeat = (shift = 0) =>
  fixture('02-status-heartbeat')
    .toString('latin1')
    .replaceAll(`<collected_sec>${COLLECTED}<`, `<collected_sec>${COLLECTED + shift}<`)

const rawRows = () =>
  temp.store.sql.plain.prepare('SELECT host_id, time, samples FROM history_raw ORDER BY id').all() as {
    host_id: number
    time: number
    samples: Buffer
  }[]

describe('raw history from the collector', () => {
  it('stores one row per message with every numeric statistic under its registry id', () => {
    temp = tempStore()
    const { hostId } = temp.post(heartbeat(), (COLLECTED + 5) * 1000)
    const rows = rawRows()
    expect(rows.map((r) => [r.host_id, r.time])).toEqual([[hostId, COLLECTED]])

    const byId = new Map(temp.store.history.series.idsOfHost(hostId).map((s) => [s.id, s]))
    const recorded = new Map(
      rawSamples(rows[0].samples).map((s) => {
        const st = byId.get(s.statisticId)!
        return [`${st.service_id} ${statisticKey(st.type, st.descriptor)}`, s.value]
      })
    )
    const expected = new Map(
      temp.store.services.ofHost(hostId).flatMap((svc) =>
        decodeStatistics(svc.statistics)
          .filter((st) => st.text === null)
          .map((st): [string, number] => [`${svc.id} ${statisticKey(st.type, st.descriptor)}`, st.value])
      )
    )
    expect(expected.size).toBeGreaterThan(20)
    expect(recorded).toEqual(expected)
  })

  it('adds nothing for a repeated post of the same poll, a row per later poll, and a row for a late snapshot', () => {
    temp = tempStore()
    const now = (COLLECTED + 100) * 1000
    temp.post(heartbeat(), now)
    temp.post(heartbeat(), now)
    temp.post(heartbeat(30), now)
    // Older than the snapshot applied: it changes no state but is history all the same.
    temp.post(heartbeat(-30), now)
    expect(rawRows().map((r) => r.time)).toEqual([COLLECTED, COLLECTED + 30, COLLECTED - 30])
    expect(rawSamples(rawRows()[2].samples).length).toBe(rawSamples(rawRows()[0].samples).length)
  })

  it('takes an agent clock running ahead as the server time', () => {
    temp = tempStore()
    temp.post(heartbeat(), (COLLECTED - 3600) * 1000)
    expect(rawRows().map((r) => r.time)).toEqual([COLLECTED - 3600])
  })

  it('keeps statistic ids across a restart of the collector (ids read back from the registry)', () => {
    temp = tempStore()
    temp.post(heartbeat(), (COLLECTED + 5) * 1000)
    const ids = rawSamples(rawRows()[0].samples).map((s) => s.statisticId)
    const restarted = new Ingest(temp.store, temp.secrets)
    restarted.apply(parseMonitMessage(Buffer.from(heartbeat(30), 'latin1')), (COLLECTED + 40) * 1000)
    expect(rawSamples(rawRows()[1].samples).map((s) => s.statisticId)).toEqual(ids)
    expect(temp.store.sql.plain.prepare('SELECT COUNT(*) AS n FROM statistic').get()).toEqual({ n: temp.store.history.series.maxId() })
  })

  it('takes a statistic an agent repeats within a service once, the first, in history and latest value alike', () => {
    temp = tempStore()
    // The sleeper process reports its uptime twice: 30, then 999.
    const repeating = (shift: number) => heartbeat(shift).replace('<uptime>30</uptime>', '<uptime>30</uptime><uptime>999</uptime>')
    const uptimes = () => {
      const sleeper = temp.store.services.ofHost(1).find((svc) => svc.name === 'sleeper')!
      const id = temp.store.history.series.idsOfHost(1).find((st) => st.service_id === sleeper.id && st.type === Stat.Uptime)!.id
      return {
        latest: decodeStatistics(sleeper.statistics)
          .filter((st) => st.type === Stat.Uptime)
          .map((st) => st.value),
        history: rawRows().map((r) =>
          rawSamples(r.samples)
            .filter((smp) => smp.statisticId === id)
            .map((smp) => smp.value)
        )
      }
    }
    temp.post(repeating(0), (COLLECTED + 60) * 1000)
    temp.post(repeating(30), (COLLECTED + 60) * 1000)
    // A late snapshot changes no state, and its history takes the first one as well.
    temp.post(repeating(-30), (COLLECTED + 60) * 1000)
    expect(uptimes()).toEqual({ latest: [30], history: [[30], [30], [30]] })
  })
})
