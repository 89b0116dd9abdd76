// The alert configuration's generation (migration 009): every write to what matching reads changes
// it, whoever writes, so that each connection's compiled rule set is renewed; other writes do not.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { addChannel, addMute, addRule } from '../../support/alert-config'
import { tempStore, type TempStore } from '../../support/temp-store'

let t: TempStore
beforeEach(() => {
  t = tempStore()
})
afterEach(() => t.close())

describe('alert configuration generation', () => {
  it('changes on every insert, update and delete of channels, rules, their links, mutes and group members', () => {
    const db = t.store.sql.plain
    const generation = () => t.store.alertMatching.generation()
    const changes = (write: () => unknown) => {
      const before = generation()
      write()
      return generation() !== before
    }
    const host = Number(
      (db.prepare(`INSERT INTO host (agent_id, hostname, created_at) VALUES ('a', 'h', 0) RETURNING id`).get() as { id: number }).id
    )
    const group = Number((db.prepare(`INSERT INTO host_group (name) VALUES ('g') RETURNING id`).get() as { id: number }).id)
    db.prepare(`INSERT INTO service_name (name) VALUES ('nginx')`).run()
    let channel = 0
    let rule = 0
    const writes: [string, () => unknown][] = [
      ['channel insert', () => (channel = addChannel(db))],
      ['channel update', () => db.prepare('UPDATE alert_channel SET enabled = 0').run()],
      ['rule insert', () => (rule = addRule(db, { channelIds: [] }))],
      ['rule update', () => db.prepare('UPDATE alert_rule SET states = 1').run()],
      ['rule channel insert', () => db.prepare('INSERT INTO alert_rule_channel VALUES (?, ?)').run(rule, channel)],
      ['rule host insert', () => db.prepare('INSERT INTO alert_rule_host VALUES (?, ?)').run(rule, host)],
      ['rule group insert', () => db.prepare('INSERT INTO alert_rule_group VALUES (?, ?)').run(rule, group)],
      ['rule type insert', () => db.prepare('INSERT INTO alert_rule_service_type VALUES (?, 3)').run(rule)],
      ['rule type delete', () => db.prepare('DELETE FROM alert_rule_service_type').run()],
      ['rule host delete', () => db.prepare('DELETE FROM alert_rule_host').run()],
      ['rule channel update', () => db.prepare('UPDATE alert_rule_channel SET channel_id = channel_id').run()],
      ['rule group update', () => db.prepare('UPDATE alert_rule_group SET group_id = group_id').run()],
      ['mute insert', () => addMute(db, host, 100, 'nginx')],
      ['mute update', () => db.prepare('UPDATE alert_mute SET until = 200').run()],
      ['mute delete', () => db.prepare('DELETE FROM alert_mute').run()],
      ['member insert', () => db.prepare('INSERT INTO host_group_member (group_id, host_id) VALUES (?, ?)').run(group, host)],
      ['member delete (host group deleted)', () => db.prepare('DELETE FROM host_group').run()],
      ['rule delete', () => db.prepare('DELETE FROM alert_rule').run()],
      ['channel delete', () => db.prepare('DELETE FROM alert_channel').run()]
    ]
    expect(writes.filter(([, write]) => !changes(write)).map(([what]) => what)).toEqual([])
    // What matching does not read leaves it alone (the collector writes hosts and events all the time).
    expect(changes(() => db.prepare(`UPDATE host SET hostname = 'renamed'`).run())).toBe(false)
    expect(changes(() => db.prepare(`INSERT INTO setting (key, value) VALUES ('other', '1')`).run())).toBe(false)
  })
})
