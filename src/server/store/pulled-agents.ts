// Pulled agents (issue 30 §1): the agents the pull job reads, when each is due, and what its last poll found.
// The password stays sealed here: the job opens it only to send it to the agent's own address.
import type { Selectable } from 'kysely'
import type { PulledAgentTable } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

export type PulledAgentRow = Selectable<PulledAgentTable>
/** As listed: the row without its password, with the host its reports go to once known. */
export type ListedPulledAgent = Omit<PulledAgentRow, 'password'> & { host_id: number | null; hostname: string | null }

export interface NewPulledAgent {
  address: string
  port: number
  ssl: boolean
  username: string
  /** Sealed. */
  password: string
  pollSec: number
  createdAt: number
}

/** What one poll found. */
export interface PollResult {
  at: number
  /** null: it answered. */
  error: string | null
  agentId?: string
  /** Pinned at the first HTTPS answer. */
  certificateSha256?: string
}

export class PulledAgentRepository {
  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {}

  list(): ListedPulledAgent[] {
    return this.sql.all(
      this.db
        .selectFrom('pulled_agent')
        .leftJoin('host', 'host.agent_id', 'pulled_agent.agent_id')
        .select([
          'pulled_agent.id',
          'pulled_agent.address',
          'pulled_agent.port',
          'pulled_agent.ssl',
          'pulled_agent.username',
          'pulled_agent.certificate_sha256',
          'pulled_agent.poll_sec',
          'pulled_agent.agent_id',
          'pulled_agent.created_at',
          'pulled_agent.polled_at',
          'pulled_agent.answered_at',
          'pulled_agent.error',
          'host.id as host_id',
          'host.hostname'
        ])
        .orderBy('pulled_agent.address')
        .orderBy('pulled_agent.port')
    )
  }

  count(): number {
    return Number(this.sql.first(this.db.selectFrom('pulled_agent').select((eb) => eb.fn.countAll<number>().as('n')))?.n ?? 0)
  }

  /** Its id; undefined when an agent at that address and port is there already. */
  create(a: NewPulledAgent): number | undefined {
    return this.sql.first(
      this.db
        .insertInto('pulled_agent')
        .values({
          address: a.address,
          port: a.port,
          ssl: a.ssl ? 1 : 0,
          username: a.username,
          password: a.password,
          poll_sec: a.pollSec,
          agent_id: null,
          created_at: a.createdAt,
          polled_at: null,
          answered_at: null,
          error: null
        })
        .onConflict((oc) => oc.columns(['address', 'port']).doNothing())
        .returning('id')
    )?.id
  }

  remove(id: number): boolean {
    return this.sql.run(this.db.deleteFrom('pulled_agent').where('id', '=', id)).changes === 1
  }

  /** Up to `limit` agents due by `now`: never polled first, then the longest waiting. */
  due(now: number, limit: number): PulledAgentRow[] {
    return this.sql.all(
      this.db
        .selectFrom('pulled_agent')
        .selectAll()
        .where((eb) => eb.or([eb('polled_at', 'is', null), eb('polled_at', '<=', eb(eb.val(now), '-', eb.ref('poll_sec')))]))
        .orderBy((eb) => eb.fn.coalesce('polled_at', eb.val(0)))
        .orderBy('id')
        .limit(limit)
    )
  }

  /** The newest snapshot stored for the agent's host (µs), if it has one: a newer one than the pull stored came pushed. */
  hostSnapshotUsec(agentId: string): number | undefined {
    return this.sql.first(this.db.selectFrom('host').select('snapshot_usec').where('agent_id', '=', agentId))?.snapshot_usec
  }

  /**
   * At the agent's first answer: its host is called back where and as it is pulled (service actions), those
   * credentials pinned as an administrator's are (a message naming another httpd does not move them), and
   * the pulled certificate pinned for the call-backs too.
   */
  pinCallBack(
    agentId: string,
    a: Pick<PulledAgentRow, 'address' | 'port' | 'ssl' | 'username' | 'password'>,
    certificateSha256: string
  ): void {
    this.sql.run(
      this.db
        .updateTable('host')
        .set({
          ipaddr_in: a.address,
          port_in: a.port,
          ssl_in: a.ssl,
          agent_user: a.username,
          agent_password: a.password,
          credentials_pinned: 1,
          agent_cert_sha256: certificateSha256
        })
        .where('agent_id', '=', agentId)
    )
  }

  /** Records a poll; the agent id and certificate only when given (a pin is never replaced here). */
  polled(id: number, r: PollResult): void {
    this.sql.run(
      this.db
        .updateTable('pulled_agent')
        .set({
          polled_at: r.at,
          ...(r.error === null ? { answered_at: r.at, error: null } : { error: r.error }),
          ...(r.agentId !== undefined ? { agent_id: r.agentId } : {}),
          ...(r.certificateSha256 !== undefined ? { certificate_sha256: r.certificateSha256 } : {})
        })
        .where('id', '=', id)
    )
  }
}
