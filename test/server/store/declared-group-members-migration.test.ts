// Migration 017 on a database of version 15 holding a group membership: every membership from before
// was an administrator's, so it is marked assigned and not declared (an agent that declares nothing must
// not remove it).
import { expect, it } from 'vitest'
import { rowsAfterMigrating, type SeedStatement } from '../../support/migrated-from'

const SEED: SeedStatement[] = [
  ["INSERT INTO host (agent_id, hostname, created_at) VALUES ('a1', 'alpha', 0)"],
  ["INSERT INTO host_group (name) VALUES ('web')"],
  ['INSERT INTO host_group_member (group_id, host_id) SELECT g.id, h.id FROM host_group g, host h']
]

it('marks the memberships from before as assigned by an administrator, none as declared by an agent', () => {
  const members = rowsAfterMigrating(15, SEED, 'SELECT * FROM host_group_member')
  expect(members).toHaveLength(1)
  expect(Number(members[0].assigned)).toBe(1)
  expect(Number(members[0].declared)).toBe(0)
})
