// M/Monit's hosts, keyed by `monitid`: the agent's id, which is ours too, so the agent's next message
// lands on the imported host. A host Overseer has already (--merge, or a second run) keeps what it
// holds: M/Monit's values only fill the columns still at their defaults, so an administrator's edit or
// the agent's own newer report is never overwritten.
import type { HostChanges, HostRow } from '../../store/hosts'
import { MMonitImportRepository } from '../../store/mmonit-import'
import { numberOf, forEachPage, textOf } from './pages'
import type { SourceRow } from '../../store/mmonit-source/source'
import type { ImportContext, ImportStep, Skipped } from './step'

/** The `host` columns the import reads (schema 15 and 26 alike): the API source lays its answers out in them too. */
export const HOST_COLUMNS = [
  'id',
  'monitid',
  'nameid',
  'keepname',
  'description',
  'ipaddrin',
  'portin',
  'sslin',
  'ipaddrout',
  'portout',
  'sslout',
  'uname',
  'password',
  'poll',
  'startdelay',
  'serviceskew',
  'controlfilenameid',
  'version',
  'incarnation',
  'created_at',
  'updated_at',
  'platformname',
  'platformrelease',
  'platformversion',
  'platformmachine',
  'platformcpu',
  'platformmemory',
  'platformswap'
]
/** Schema 26 only. */
const LATER_COLUMNS = ['platformuptime']

/** What a host row holds before anyone set it: the columns M/Monit may fill. */
const UNSET: Partial<Record<keyof HostRow, unknown>> = {
  keepname: 0,
  description: '',
  ipaddr_in: '',
  port_in: -1,
  ssl_in: 0,
  reported_ipaddr: '',
  reported_port: -1,
  reported_ssl: 0,
  ipaddr_out: '',
  port_out: -1,
  ssl_out: -1,
  agent_user: '',
  agent_password: '',
  skew: null,
  poll: 0,
  start_delay: 0,
  control_file: '',
  agent_version: '',
  incarnation: 0,
  agent_uptime: 0,
  platform_name: '',
  platform_release: '',
  platform_version: '',
  platform_machine: '',
  cpu_count: 0,
  memory_kb: 0,
  swap_kb: 0,
  last_modified: 0
}

export const hostsStep: ImportStep = {
  name: 'hosts',
  count: (source) => source.count('host'),
  async run(ctx) {
    const present = await ctx.source.columns('host')
    const columns = [...HOST_COLUMNS, ...LATER_COLUMNS.filter((c) => present.has(c))]
    const defaultSkew = await mmonitDefaultSkew(ctx)
    const repo = new MMonitImportRepository(ctx.target.db, ctx.target.sql)
    const skipped: Skipped[] = []
    let read = 0
    await forEachPage(ctx.source, { table: 'host', columns, key: ['id'] }, ctx.options.batchRows, (rows) => {
      ctx.target.sql.transaction(() => {
        for (const row of rows) {
          const agentId = textOf(row.monitid).trim()
          if (agentId === '') {
            skipped.push({ what: `host ${row.id} (${ctx.ids.names.get(numberOf(row.nameid)) ?? 'no name'})`, why: 'it has no Monit id' })
            continue
          }
          ctx.ids.hosts.set(numberOf(row.id), importHost(ctx, repo, agentId, row, defaultSkew))
        }
      })
      read += rows.length
      ctx.progress(read)
    })
    return { imported: ctx.ids.hosts.size, skipped }
  }
}

function importHost(ctx: ImportContext, repo: MMonitImportRepository, agentId: string, row: SourceRow, defaultSkew: number): number {
  const columns = hostColumns(ctx, row, defaultSkew)
  const hostname = ctx.ids.names.get(numberOf(row.nameid)) || agentId
  const existing = repo.hostOfAgent(agentId)
  // Known since M/Monit first saw it.
  if (!existing) return repo.insertHost(agentId, hostname, numberOf(row.created_at) || Math.floor(Date.now() / 1000), columns)
  const changes: HostChanges = {}
  for (const [column, value] of Object.entries(columns) as [keyof HostRow, unknown][]) {
    if (existing[column] === UNSET[column] && value !== UNSET[column]) Object.assign(changes, { [column]: value })
  }
  repo.updateHost(existing.id, changes)
  return existing.id
}

/** The host's columns from M/Monit's row; the agent password sealed as the server seals it. */
function hostColumns(ctx: ImportContext, row: SourceRow, defaultSkew: number): HostChanges {
  const skew = numberOf(row.serviceskew, 0)
  const reported = { ipaddr: textOf(row.ipaddrin), port: numberOf(row.portin, -1), ssl: numberOf(row.sslin, 0) }
  return {
    keepname: numberOf(row.keepname) ? 1 : 0,
    description: textOf(row.description),
    ipaddr_in: reported.ipaddr,
    port_in: reported.port,
    ssl_in: reported.ssl,
    reported_ipaddr: reported.ipaddr,
    reported_port: reported.port,
    reported_ssl: reported.ssl,
    // M/Monit's "unset" for the overrides is ours too: '' and -1.
    ipaddr_out: textOf(row.ipaddrout),
    port_out: numberOf(row.portout, -1),
    ssl_out: numberOf(row.sslout, -1),
    agent_user: textOf(row.uname),
    agent_password: ctx.secrets.seal(textOf(row.password)),
    skew: skew > 0 && skew !== defaultSkew ? skew : null,
    poll: numberOf(row.poll),
    start_delay: numberOf(row.startdelay),
    control_file: ctx.ids.names.get(numberOf(row.controlfilenameid)) ?? '',
    agent_version: textOf(row.version),
    incarnation: numberOf(row.incarnation),
    agent_uptime: numberOf(row.platformuptime ?? null),
    platform_name: textOf(row.platformname),
    platform_release: textOf(row.platformrelease),
    platform_version: textOf(row.platformversion),
    platform_machine: textOf(row.platformmachine),
    cpu_count: numberOf(row.platformcpu),
    memory_kb: numberOf(row.platformmemory),
    swap_kb: numberOf(row.platformswap),
    last_modified: numberOf(row.updated_at)
  }
}

/** M/Monit's default heartbeat skew (`mmonit.skew`): a host with that one keeps ours (null). */
async function mmonitDefaultSkew(ctx: ImportContext): Promise<number> {
  const [row] = await ctx.source.page({ table: 'mmonit', columns: ['skew'], key: ['skew'], limit: 1 })
  return numberOf(row?.skew ?? null, 3)
}
