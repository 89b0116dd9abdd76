// What /metrics reports, as metric families: the stored state of hosts and services, and the server's
// own figures. Pure functions of their inputs, so the route only gathers and renders.
import { Heartbeat, MonitorState, serviceTypeLabels, Stat, statisticTypeNames } from '../../shared/codes'
import { decodeStatistics } from '../store/latest-statistics'
import { INGEST_BUCKETS, type CollectorStats } from './collector-stats'
import { formatValue, type Labels, type MetricFamily, type Sample } from './exposition'
import type { HostMetricRow, ServiceMetricRow } from '../store/metrics'
import { SLOW_STATEMENT_MS, type DatabaseWaits } from './database-waits'
import type { StorageHealth } from './storage-health'
import { databaseBusy } from '../store/storage-errors'
import type { RefusedAgents } from '../collector/refused-agents'

/** Statistics whose meaning is their text (flags, checksum, program output, filesystem type): no number to graph. */
const TEXT_ONLY = new Set<number>([Stat.Flags, Stat.Checksum, Stat.ProgramOutput, Stat.FilesystemType])

export function stateFamilies(hosts: readonly HostMetricRow[], services: readonly ServiceMetricRow[]): MetricFamily[] {
  // Host names are not unique (agents are told apart by id): host_id keeps every series distinct.
  const hostLabels = new Map(hosts.map((h): [number, Labels] => [h.id, { host: h.hostname, host_id: String(h.id) }]))
  const perHost = (pick: (h: HostMetricRow) => number | null): Sample[] =>
    hosts.flatMap((h) => {
      const value = pick(h)
      return value === null ? [] : [{ labels: hostLabels.get(h.id), value }]
    })
  const serviceSamples: { labels: Labels; row: ServiceMetricRow }[] = services.flatMap((row) => {
    const host = hostLabels.get(row.host_id)
    return host ? [{ labels: { ...host, service: row.name, type: serviceTypeLabels[row.type] ?? String(row.type) }, row }] : []
  })
  const perService = (pick: (s: ServiceMetricRow) => number): Sample[] =>
    serviceSamples.map(({ labels, row }) => ({ labels, value: pick(row) }))

  // One family for every statistic, told apart by a `type` label (the statistic type's name), rather
  // than one family per type: the set of types grows (ids 1000 and up are ours), units differ by type
  // anyway, and a fixed name lets one query select any of them, e.g. overseer_statistic{type="CpuUser"}.
  const statistics: Sample[] = serviceSamples.flatMap(({ labels, row }) =>
    decodeStatistics(row.statistics)
      .filter((st) => !TEXT_ONLY.has(st.type))
      .map((st) => ({
        labels: { ...labels, type: statisticTypeNames[st.type] ?? `Statistic${st.type}`, descriptor: st.descriptor },
        value: st.value
      }))
  )

  return [
    gauge(
      'overseer_host_up',
      'Heartbeat of the host: 1 while its agent reports on time, 0 once it is missed.',
      perHost((h) => (h.heartbeat === Heartbeat.Ok ? 1 : 0))
    ),
    gauge(
      'overseer_host_led',
      'Host LED: 0 red, 1 orange, 2 green, 3 gray.',
      perHost((h) => h.led)
    ),
    gauge(
      'overseer_host_status',
      'Host status: 0 active, 1 inactive, 2 ignored.',
      perHost((h) => h.status)
    ),
    counter(
      'overseer_host_events_total',
      'Events recorded for the host.',
      perHost((h) => h.events_count)
    ),
    gauge(
      'overseer_host_cpu_percent',
      'CPU busy percentage of the host, from its system service.',
      perHost((h) => h.cpu)
    ),
    gauge(
      'overseer_host_memory_percent',
      'Memory used percentage of the host, from its system service.',
      perHost((h) => h.mem)
    ),
    gauge(
      'overseer_host_last_report_timestamp_seconds',
      'Unix time of the last message received from the host.',
      perHost((h) => h.last_modified)
    ),
    gauge(
      'overseer_service_led',
      'Service LED: 0 red, 1 orange, 2 green, 3 gray.',
      perService((s) => s.led)
    ),
    gauge(
      'overseer_service_monitored',
      '1 when Monit monitors the service, 0 when unmonitored.',
      perService((s) => (s.monitor === MonitorState.Off ? 0 : 1))
    ),
    gauge(
      'overseer_service_failing',
      '1 when any check of the service fails (its status bitmask is not 0).',
      perService((s) => (s.status === 0 ? 0 : 1))
    ),
    gauge('overseer_statistic', 'Latest value of a service statistic; type is the statistic type, descriptor its instance.', statistics)
  ]
}

export function selfFamilies(stats: CollectorStats, databaseBytes: number): MetricFamily[] {
  const latency = stats.latency()
  const buckets: Sample[] = INGEST_BUCKETS.map((bound, i) => ({
    suffix: '_bucket',
    labels: { le: formatValue(bound) },
    value: latency.buckets[i]!
  }))
  return [
    counter('overseer_collector_messages_total', 'Messages ingested by the collector since the server started.', [
      { value: stats.messagesTotal }
    ]),
    {
      name: 'overseer_collector_ingest_seconds',
      type: 'histogram',
      help: 'Time to decode, parse and store one collector message.',
      samples: [
        ...buckets,
        { suffix: '_bucket', labels: { le: '+Inf' }, value: latency.count },
        { suffix: '_sum', value: latency.sum },
        { suffix: '_count', value: latency.count }
      ]
    },
    gauge('overseer_collector_messages_per_second', 'Messages ingested per second, averaged over the last minute.', [
      { value: stats.ratePerSecond() }
    ]),
    gauge(
      'overseer_database_bytes',
      'Size of the database on disk (SQLite: main file plus write-ahead log; PostgreSQL: pg_database_size).',
      [{ value: databaseBytes }]
    )
  ]
}

/** Whether the database can be written: alert on overseer_storage_full == 1 (the collector answers 503 meanwhile). */
export function storageFamilies(storage: StorageHealth, waits?: DatabaseWaits): MetricFamily[] {
  return [
    gauge(
      'overseer_database_slow',
      `1 from a statement of the HTTP thread answered after ${SLOW_STATEMENT_MS / 1000} s or more (PostgreSQL) until none was for 30 s.`,
      [{ value: waits?.slow ? 1 : 0 }]
    ),
    counter(
      'overseer_database_slow_statements_total',
      `Statements of the HTTP thread answered after ${SLOW_STATEMENT_MS / 1000} s or more since the server started.`,
      [{ value: waits?.slowStatements ?? 0 }]
    ),
    gauge(
      'overseer_storage_full',
      '1 from a write refused for lack of storage (disk full, or an I/O error) until a write succeeds again.',
      [{ value: storage.unavailable === undefined ? 0 : 1 }]
    ),
    gauge(
      'overseer_database_busy',
      '1 from a statement given up on a lock held by another session or past its timeout (PostgreSQL) until a write succeeds again.',
      [{ value: storage.unavailable !== undefined && databaseBusy(storage.unavailable) ? 1 : 0 }]
    ),
    counter('overseer_storage_failed_writes_total', 'Writes refused for lack of storage since the server started.', [
      { value: storage.failedWrites }
    ])
  ]
}

/** Agents and messages the collector turned away (issue 28): alert on a rise of wrong_password, for instance. */
export function refusalFamilies(refused: RefusedAgents): MetricFamily[] {
  return [
    counter(
      'overseer_collector_refused_total',
      'Collector requests refused since the server started, by reason (this instance).',
      [...refused.totalsByReason()].map(([reason, value]) => ({ labels: { reason }, value }))
    ),
    gauge(
      'overseer_collector_refused_agents',
      'Address, user name and reason triples refused and not cleared, as the console lists them.',
      [{ value: refused.list().length }]
    )
  ]
}

/** What clients hold of the server now (issue 26): both fall back to 0 once they are gone or timed out. */
export function heldFamilies(openConnections: number, collectorBodyBytes: number): MetricFamily[] {
  return [
    gauge('overseer_http_connections', "Connections open now, the collector's included.", [{ value: openConnections }]),
    gauge('overseer_collector_body_bytes_in_flight', 'Bytes of collector bodies being received or stored now.', [
      { value: collectorBodyBytes }
    ])
  ]
}

function gauge(name: string, help: string, samples: Sample[]): MetricFamily {
  return { name, help, type: 'gauge', samples }
}

function counter(name: string, help: string, samples: Sample[]): MetricFamily {
  return { name, help, type: 'counter', samples }
}
