// A host as stored, found by its agent's id: tests look at every column, the server never needs to.
import type { HostRow } from '../../src/server/store/hosts'
import type { Store } from '../../src/server/store/store'

export function hostOfAgent(store: Store, agentId: string): HostRow | undefined {
  return store.sql.first(store.db.selectFrom('host').selectAll().where('agent_id', '=', agentId))
}
