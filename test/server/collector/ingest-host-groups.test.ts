// Host groups an agent declares (Monit 5.34+ `set mmonit … with hostgroups`): the ingest keeps the host's
// memberships in step with each message, on a real store (SQLite, and PostgreSQL when configured).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Ingest } from '../../../src/server/collector/ingest'
import { MAX_HOST_GROUPS } from '../../../src/server/monit/message-limits'
import { parseMonitMessage } from '../../../src/server/monit/parse-message'
import { MAX_GROUPS_CREATED_BY_AGENTS } from '../../../src/server/store/declared-groups'
import { fixture } from '../../support/fixtures'
import { hostOfAgent } from '../../support/hosts'
import { shiftTime, withHostGroups } from '../../support/payloads'
import { tempStore, type TempStore } from '../../support/temp-store'

const AGENT1 = '39900374079c371b7380946708ce1e29'
const T0 = 1795300500_000
/** Fixture 14: fixture 02 as a 5.34 agent declaring Oslo and "Databases & <backups>". */
const DECLARING = fixture('14-status-hostgroups')

let t: TempStore
let seconds = 0
beforeEach(() => {
  t = tempStore()
  seconds = 0
})
afterEach(() => t.close())

/** Posts the message as the agent's next one (its snapshot newer than the last). */
function post(xml: Buffer | string, ingest = t.ingest) {
  seconds += 5
  return ingest.apply(parseMonitMessage(Buffer.from(shiftTime(xml, seconds))), T0 + seconds * 1000)
}

const hostId = () => hostOfAgent(t.store, AGENT1)!.id

/** The host's memberships: group name, assigned by an administrator, declared by the agent. */
function memberships() {
  return t.store.sql.plain
    .prepare(
      `SELECT g.name, m.assigned, m.declared FROM host_group_member m JOIN host_group g ON g.id = m.group_id
       WHERE m.host_id = ? ORDER BY g.name`
    )
    .all(hostId()) as { name: string; assigned: number; declared: number }[]
}

const groupNames = () => t.store.groups.list().map((g) => g.name)

describe('ingest of <hostgroups>', () => {
  it('creates the declared groups and puts the host in them, marked as declared; a repeat changes nothing', () => {
    expect(post(DECLARING).groupsChanged).toBe(true)
    expect(memberships()).toEqual([
      { name: 'Databases & <backups>', assigned: 0, declared: 1 },
      { name: 'Oslo', assigned: 0, declared: 1 }
    ])
    expect(t.store.declaredGroups.of(hostId()).sort()).toEqual(['Databases & <backups>', 'Oslo'])
    expect(post(DECLARING).groupsChanged).toBe(false)
    expect(groupNames()).toEqual(['Databases & <backups>', 'Oslo'])
  })

  it('joins a group an administrator made under that name instead of making another', () => {
    const oslo = t.store.groups.create('Oslo')
    post(DECLARING)
    expect(t.store.groups.find(oslo)!.hosts).toEqual([hostId()])
    expect(groupNames()).toEqual(['Databases & <backups>', 'Oslo'])
  })

  it('follows the declaration as it changes: a group no longer declared loses the host, and stays', () => {
    post(DECLARING)
    expect(post(withHostGroups(DECLARING, ['Oslo', 'Bergen'])).groupsChanged).toBe(true)
    expect(memberships().map((m) => m.name)).toEqual(['Bergen', 'Oslo'])
    expect(groupNames()).toEqual(['Bergen', 'Databases & <backups>', 'Oslo'])
    expect(post(withHostGroups(DECLARING, [])).groupsChanged).toBe(true)
    expect(memberships()).toEqual([])
  })

  it('never removes a membership an administrator assigned, even one the agent also declared', () => {
    const oslo = t.store.groups.create('Oslo')
    post(DECLARING)
    const host = hostId()
    t.store.groups.addHosts(oslo, [host])
    expect(memberships()).toContainEqual({ name: 'Oslo', assigned: 1, declared: 1 })
    // An agent of 5.33, or one whose control file no longer names groups, sends no <hostgroups>.
    post(fixture('02-status-heartbeat'))
    expect(memberships()).toEqual([{ name: 'Oslo', assigned: 1, declared: 0 }])
    expect(t.store.groups.declaredHosts(oslo)).toEqual([])
  })

  it("an administrator's assignment of a declared membership is kept apart: ending it leaves the agent's", () => {
    post(DECLARING)
    const oslo = t.store.groups.idOfName('Oslo')!
    t.store.groups.addHosts(oslo, [hostId()])
    expect(memberships()).toContainEqual({ name: 'Oslo', assigned: 1, declared: 1 })
    t.store.groups.removeHosts(oslo, [hostId()])
    expect(memberships()).toContainEqual({ name: 'Oslo', assigned: 0, declared: 1 })
    post(withHostGroups(DECLARING, []))
    expect(memberships()).toEqual([])
  })

  it('a server started afresh drops what the agent stopped declaring meanwhile', () => {
    post(DECLARING)
    // The same store, another process: what it remembers of the host starts empty.
    const restarted = new Ingest(t.store, t.secrets)
    post(fixture('02-status-heartbeat'), restarted)
    expect(memberships()).toEqual([])
  })

  it(`keeps ${MAX_HOST_GROUPS} groups of a message and says so once per host`, () => {
    const names = Array.from({ length: MAX_HOST_GROUPS + 8 }, (_, i) => `g${String(i).padStart(2, '0')}`)
    const first = post(withHostGroups(DECLARING, names))
    expect(first.notice).toContain(`8 past the ${MAX_HOST_GROUPS} a message may declare`)
    expect(memberships()).toHaveLength(MAX_HOST_GROUPS)
    expect(groupNames()).toEqual(names.slice(0, MAX_HOST_GROUPS))
    expect(post(withHostGroups(DECLARING, names)).notice).toBeUndefined()
  })

  it(`creates no group past ${MAX_GROUPS_CREATED_BY_AGENTS} groups, joins existing ones still, and says so`, () => {
    const existing = MAX_GROUPS_CREATED_BY_AGENTS - 2
    t.store.sql.plain.prepare(`${countTo(existing)} INSERT INTO host_group (name) SELECT 'made ' || n FROM c`).run()
    const result = post(withHostGroups(DECLARING, ['made 1', 'new 1', 'new 2', 'new 3', 'new 4']))
    expect(result.notice).toContain(`2 not created as ${MAX_GROUPS_CREATED_BY_AGENTS} host groups exist ('new 3', 'new 4')`)
    expect(memberships().map((m) => m.name)).toEqual(['made 1', 'new 1', 'new 2'])
    expect(t.store.groups.list()).toHaveLength(MAX_GROUPS_CREATED_BY_AGENTS)
  })
})

/** The numbers 1 to n as the rows of c, in SQL both engines run. */
function countTo(n: number): string {
  return `WITH RECURSIVE c (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ${n})`
}
