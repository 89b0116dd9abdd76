// M/Monit-shaped databases of our own, written from /work/shared/spec/mmonit-database.md (never from
// M/Monit's files): the tables of schema 15 and 26 as data (column names and abstract types, turned into
// each engine's DDL by a type map), and a generator that fills N hosts, services, events and samples
// deterministically, so that an import can be compared field by field with what was generated.
import { createHash } from 'node:crypto'
import Database from 'better-sqlite3'

/** Abstract column types; each engine spells them (ENGINE_TYPES). */
export type ColumnType = 'serial' | 'int' | 'bigint' | 'text' | 'char' | 'real' | 'double'
export type Column = readonly [name: string, type: ColumnType]

export interface TableDefinition {
  name: string
  columns: readonly Column[]
  /** Absent: the `serial` column is the key (or the table has none). */
  primaryKey?: readonly string[]
  unique?: readonly (readonly string[])[]
}

export type SchemaVersion = 15 | 26
export type Engine = 'sqlite'

export const ENGINE_TYPES: Record<Engine, Record<ColumnType, string>> = {
  sqlite: {
    serial: 'INTEGER PRIMARY KEY',
    int: 'INTEGER',
    bigint: 'INTEGER',
    text: 'TEXT',
    char: 'TEXT',
    real: 'REAL',
    double: 'REAL'
  }
}

const SAMPLE_TABLES = ['statistics_string', 'statistics_int', 'statistics_llong', 'statistics_float', 'statistics_double'] as const
export const AGGREGATE_TABLES = [
  'statistics_aggregate_1m',
  'statistics_aggregate_15m',
  'statistics_aggregate_2h',
  'statistics_aggregate_12h',
  'statistics_aggregate_1d',
  'statistics_aggregate_7d',
  'statistics_aggregate_14d'
] as const

const HOST_COLUMNS: Column[] = [
  ['id', 'serial'],
  ['created_at', 'bigint'],
  ['updated_at', 'bigint'],
  ['incarnation', 'bigint'],
  ['status', 'char'],
  ['nameid', 'bigint'],
  ['keepname', 'int'],
  ['monitid', 'text'],
  ['ipaddrin', 'text'],
  ['ipaddrout', 'text'],
  ['portin', 'int'],
  ['portout', 'int'],
  ['uname', 'text'],
  ['password', 'text'],
  ['sslin', 'int'],
  ['sslout', 'int'],
  ['description', 'text'],
  ['poll', 'int'],
  ['startdelay', 'int'],
  ['controlfilenameid', 'bigint'],
  ['statusmodified', 'bigint'],
  ['servicemodified', 'bigint'],
  ['serviceskew', 'int'],
  ['serviceup', 'int'],
  ['servicedown', 'int'],
  ['serviceunmonitorauto', 'int'],
  ['serviceunmonitormanual', 'int'],
  ['version', 'text'],
  ['platformname', 'text'],
  ['platformrelease', 'text'],
  ['platformversion', 'text'],
  ['platformmachine', 'text'],
  ['platformcpu', 'int'],
  ['platformmemory', 'bigint'],
  ['platformswap', 'bigint'],
  ['statusheartbeat', 'int']
]

function schema15(): TableDefinition[] {
  return [
    {
      name: 'mmonit',
      columns: [
        ['schemaversion', 'int'],
        ['welcome', 'int'],
        ['purgeevents', 'int'],
        ['purgeanalytics', 'int'],
        ['skew', 'int']
      ]
    },
    {
      name: 'name',
      columns: [
        ['id', 'serial'],
        ['name', 'text']
      ],
      unique: [['name']]
    },
    {
      name: 'users',
      columns: [
        ['uname', 'text'],
        ['password', 'text'],
        ['fullname', 'text'],
        ['title', 'text'],
        ['email', 'text'],
        ['phone', 'text'],
        ['mobile', 'text'],
        ['imname', 'text'],
        ['imtype', 'text'],
        ['image', 'text'],
        ['refresh', 'int']
      ],
      primaryKey: ['uname']
    },
    {
      name: 'roles',
      columns: [
        ['role', 'text'],
        ['description', 'text']
      ],
      primaryKey: ['role']
    },
    {
      name: 'userroles',
      columns: [
        ['uname', 'text'],
        ['role', 'text']
      ],
      primaryKey: ['uname', 'role']
    },
    { name: 'host', columns: HOST_COLUMNS, unique: [['monitid']] },
    {
      name: 'hostgroup',
      columns: [
        ['id', 'serial'],
        ['nameid', 'bigint']
      ]
    },
    {
      name: 'groupedhost',
      columns: [
        ['groupid', 'bigint'],
        ['hostid', 'bigint']
      ],
      primaryKey: ['groupid', 'hostid']
    },
    {
      name: 'service',
      columns: [
        ['id', 'serial'],
        ['created_at', 'bigint'],
        ['updated_at', 'bigint'],
        ['nameid', 'bigint'],
        ['hostid', 'bigint'],
        ['type', 'int'],
        ['status', 'int'],
        ['statushint', 'int'],
        ['monitoringstate', 'int'],
        ['monitoringmode', 'int'],
        ['onreboot', 'int'],
        ['statusmodified', 'bigint'],
        ['everytype', 'int'],
        ['everycyclenumber', 'int'],
        ['everycyclecounter', 'int'],
        ['everycron', 'text']
      ]
    },
    {
      name: 'servicegroup',
      columns: [
        ['id', 'serial'],
        ['nameid', 'bigint'],
        ['hostid', 'bigint']
      ]
    },
    {
      name: 'groupedservices',
      columns: [
        ['servicegroupid', 'bigint'],
        ['service_nameid', 'bigint']
      ],
      primaryKey: ['servicegroupid', 'service_nameid']
    },
    {
      name: 'statistics',
      columns: [
        ['id', 'serial'],
        ['serviceid', 'bigint'],
        ['type', 'int'],
        ['datatype', 'int'],
        ['descriptor', 'text']
      ]
    },
    ...SAMPLE_TABLES.map((name) => ({
      name,
      columns: [
        ['statisticsid', 'bigint'],
        ['collectedsec', 'bigint'],
        ['value', name === 'statistics_string' ? 'text' : name === 'statistics_double' || name === 'statistics_float' ? 'double' : 'bigint']
      ] as Column[],
      primaryKey: ['statisticsid', 'collectedsec']
    })),
    ...AGGREGATE_TABLES.map((name) => ({
      name,
      columns: [
        ['statisticsid', 'bigint'],
        ['collectedsec', 'bigint'],
        ['value_avg', 'double']
      ] as Column[],
      primaryKey: ['statisticsid', 'collectedsec']
    })),
    {
      name: 'statistics_events',
      columns: [
        ['timeframe', 'bigint'],
        ['state', 'int'],
        ['count', 'bigint']
      ]
    },
    {
      name: 'event',
      columns: [
        ['id', 'serial'],
        ['hostid', 'bigint'],
        ['serviceid', 'bigint'],
        ['collectedsec', 'bigint'],
        ['collectedusec', 'bigint'],
        ['service_nameid', 'bigint'],
        ['servicetype', 'int'],
        ['event', 'int'],
        ['state', 'int'],
        ['action', 'int'],
        ['message', 'text'],
        ['hasnotice', 'int'],
        ['active', 'int']
      ]
    },
    {
      name: 'eventnotice',
      columns: [
        ['eventid', 'bigint'],
        ['date', 'bigint'],
        ['uname', 'text'],
        ['notice', 'text']
      ]
    },
    {
      name: 'eventfilter',
      columns: [
        ['eventid', 'bigint'],
        ['uname', 'text']
      ],
      primaryKey: ['eventid', 'uname']
    },
    {
      name: 'rule',
      columns: [
        ['id', 'serial'],
        ['created_at', 'bigint'],
        ['updated_at', 'bigint'],
        ['description', 'text'],
        ['active', 'int'],
        ['operator', 'int']
      ]
    },
    {
      name: 'rulerow',
      columns: [
        ['id', 'serial'],
        ['ruleid', 'bigint']
      ]
    },
    {
      name: 'rulerowhost',
      columns: [
        ['rulerowid', 'bigint'],
        ['hostid', 'bigint']
      ]
    },
    {
      name: 'rulerowhostgroup',
      columns: [
        ['rulerowid', 'bigint'],
        ['hostgroupid', 'bigint']
      ]
    },
    {
      name: 'rulerowservice',
      columns: [
        ['rulerowid', 'bigint'],
        ['service_nameid', 'bigint']
      ]
    },
    {
      name: 'rulerowservicegroup',
      columns: [
        ['rulerowid', 'bigint'],
        ['servicegroup_nameid', 'bigint']
      ]
    },
    {
      name: 'rulerowstate',
      columns: [
        ['rulerowid', 'bigint'],
        ['eventstate', 'int']
      ]
    },
    {
      name: 'rulerowevent',
      columns: [
        ['rulerowid', 'bigint'],
        ['eventid', 'bigint']
      ]
    },
    {
      name: 'actionrow',
      columns: [
        ['id', 'serial'],
        ['ruleid', 'bigint'],
        ['action', 'int'],
        ['repetition', 'int']
      ]
    },
    {
      name: 'actionrowtarget',
      columns: [
        ['actionrowid', 'bigint'],
        ['target', 'text']
      ]
    },
    {
      name: 'actionrowoption',
      columns: [
        ['actionrowid', 'bigint'],
        ['name', 'text'],
        ['value', 'text']
      ]
    },
    {
      name: 'mailserver',
      columns: [
        ['id', 'serial'],
        ['hostname', 'text'],
        ['port', 'int'],
        ['uname', 'text'],
        ['password', 'text'],
        ['usessl', 'int'],
        ['isdefault', 'int']
      ]
    },
    {
      name: 'session',
      columns: [
        ['id', 'text'],
        ['context', 'text'],
        ['ctime', 'bigint'],
        ['atime', 'bigint'],
        ['itime', 'bigint'],
        ['authtype', 'text'],
        ['principal', 'text'],
        ['data', 'text']
      ],
      primaryKey: ['id']
    }
  ]
}

/** Schema 26 as the spec knows it: a few columns more, host.status an integer, 64-bit ids. */
function schema26(): TableDefinition[] {
  const added: Record<string, Column[]> = {
    mmonit: [
      ['programtimeout', 'int'],
      ['auditdefaultpasswords', 'int'],
      ['auditmd5passwords', 'int'],
      ['checkmonitversion', 'int'],
      ['checkmmonitversion', 'int']
    ],
    host: [['platformuptime', 'bigint']],
    groupedhost: [['origin', 'int']]
  }
  return schema15().map((table) => ({
    ...table,
    columns: [
      ...table.columns.map(([name, type]): Column => (table.name === 'host' && name === 'status' ? [name, 'int'] : [name, type])),
      ...(added[table.name] ?? [])
    ]
  }))
}

export function mmonitTables(version: SchemaVersion): TableDefinition[] {
  return version === 15 ? schema15() : schema26()
}

/** CREATE TABLE statements of the schema in the engine's types. */
export function mmonitDdl(version: SchemaVersion, engine: Engine = 'sqlite'): string[] {
  const types = ENGINE_TYPES[engine]
  return mmonitTables(version).map((table) => {
    const lines = table.columns.map(([name, type]) => `${name} ${types[type]}`)
    if (table.primaryKey) lines.push(`PRIMARY KEY (${table.primaryKey.join(', ')})`)
    for (const unique of table.unique ?? []) lines.push(`UNIQUE (${unique.join(', ')})`)
    return `CREATE TABLE ${table.name} (${lines.join(', ')})`
  })
}

/** Where generated rows go: one engine's connection (SQLite here). */
export interface RowSink {
  insert(table: string, rows: readonly Record<string, unknown>[]): void
}

export interface MMonitShape {
  version: SchemaVersion
  hosts: number
  servicesPerHost: number
  eventsPerService: number
  /** Raw samples per series (one series per service), every `samplePeriod` seconds before `now`. */
  samplesPerSeries: number
  /** Unix seconds: the generated history ends here (a fixed time: tests never depend on the date). */
  now: number
  /** The Monit ids of hosts 1, 2 … (real agents' ids); agentIdOf(h) for the others. */
  agentIds?: readonly string[]
}

export const SMALL_SHAPE: MMonitShape = {
  version: 15,
  hosts: 3,
  servicesPerHost: 4,
  eventsPerService: 5,
  samplesPerSeries: 180,
  now: 1_767_225_600 // 2026-01-01T00:00:00Z
}

export const SAMPLE_PERIOD = 30
/** Passwords of the generated users, and what they are stored as (unsalted MD5, upper-case hex). */
export const GENERATED_USERS = [
  { uname: 'admin', password: 'swordfish', roles: ['admin', 'monit'] },
  { uname: 'monit', password: 'monit', roles: ['monit'] },
  { uname: 'carol', password: 'carol-has-a-long-one', roles: ['monit'] }
] as const

export const agentIdOf = (host: number) => `agent-${String(host).padStart(6, '0')}-mmonit`
export const hostNameOf = (host: number) => `host-${host}.example.net`
export const serviceNameOf = (service: number) => (service === 0 ? 'system' : `service-${service}`)

/**
 * Fills an M/Monit database: per host its services (the first the System service), a CPU series per
 * service with raw samples and every roll-up level, events (the last of the first service an active
 * error, noted and dismissed), host groups, service groups and users. Everything derives from the
 * indices, so a test recomputes any expected value.
 */
export function fillMMonit(sink: RowSink, shape: MMonitShape): void {
  const names = new Map<string, number>()
  let newNames: { id: number; name: string }[] = []
  const nameId = (name: string) => {
    let id = names.get(name)
    if (id === undefined) {
      id = names.size + 1
      names.set(name, id)
      newNames.push({ id, name })
    }
    return id
  }
  const mmonit: Record<string, unknown> = { schemaversion: shape.version, welcome: 1, purgeevents: 11, purgeanalytics: 10, skew: 3 }
  if (shape.version === 26) Object.assign(mmonit, { programtimeout: 300, auditdefaultpasswords: 1, auditmd5passwords: 1 })
  sink.insert('mmonit', [mmonit])
  sink.insert('roles', [
    { role: 'admin', description: 'Administrators' },
    { role: 'monit', description: 'Users' }
  ])
  sink.insert(
    'users',
    GENERATED_USERS.map((u) => ({
      uname: u.uname,
      password: md5Upper(u.password),
      fullname: `${u.uname} user`,
      email: `${u.uname}@example.net`,
      refresh: 5000
    }))
  )
  sink.insert(
    'userroles',
    GENERATED_USERS.flatMap((u) => u.roles.map((role) => ({ uname: u.uname, role })))
  )
  sink.insert('hostgroup', [
    { id: 1, nameid: nameId('web servers') },
    { id: 2, nameid: nameId('all hosts') }
  ])

  // Written host by host: a benchmark's database does not fit in memory at once.
  let serviceId = 0
  for (let h = 1; h <= shape.hosts; h++) {
    const rows = new Map<string, Record<string, unknown>[]>()
    const add = (table: string, row: Record<string, unknown>) => {
      let list = rows.get(table)
      if (!list) rows.set(table, (list = []))
      list.push(row)
    }
    add('host', hostRow(h, shape, nameId))
    if (h % 2 === 1) add('groupedhost', { groupid: 1, hostid: h, ...(shape.version === 26 ? { origin: 0 } : {}) })
    add('groupedhost', { groupid: 2, hostid: h, ...(shape.version === 26 ? { origin: 1 } : {}) })
    add('servicegroup', { id: h, nameid: nameId('databases'), hostid: h })
    for (let s = 0; s < shape.servicesPerHost; s++) {
      serviceId++
      const name = serviceNameOf(s)
      add('service', {
        id: serviceId,
        created_at: shape.now - 86400,
        updated_at: shape.now,
        nameid: nameId(name),
        hostid: h,
        type: s === 0 ? 5 : 3,
        status: 0,
        statushint: 0,
        monitoringstate: 1,
        monitoringmode: s % 3,
        onreboot: 0,
        statusmodified: shape.now,
        everytype: 0,
        everycyclenumber: 0,
        everycyclecounter: 0,
        everycron: ''
      })
      if (s % 2 === 1) add('groupedservices', { servicegroupid: h, service_nameid: nameId(name) })
      // One series per service, with the service's id.
      const statId = serviceId
      add('statistics', { id: statId, serviceid: serviceId, type: 1, datatype: 3, descriptor: '' })
      for (let i = 0; i < shape.samplesPerSeries; i++) {
        add('statistics_double', { statisticsid: statId, collectedsec: sampleTime(shape, i), value: sampleValue(statId, i) })
      }
      for (const table of AGGREGATE_TABLES) {
        for (let i = 0; i < AGGREGATE_SPANS[table].count; i++) {
          add(table, { statisticsid: statId, collectedsec: aggregateTime(shape, table, i), value_avg: aggregateValue(statId, table, i) })
        }
      }
      if (s === 1) add('statistics_string', { statisticsid: statId, collectedsec: shape.now - 60, value: 'a text figure' })
      for (let e = 0; e < shape.eventsPerService; e++) {
        // Ids in the order M/Monit gives them, as events arrive: the fleet's e-th events before its (e+1)-th.
        const eventId = e * shape.hosts * shape.servicesPerHost + serviceId
        const failed = e % 2 === 0
        const active = s === 0 && e === shape.eventsPerService - 1 && failed ? 1 : 0
        add('event', {
          id: eventId,
          hostid: h,
          serviceid: serviceId,
          collectedsec: eventTime(shape, s, e),
          collectedusec: (eventId * 7919) % 1_000_000,
          service_nameid: nameId(name),
          servicetype: s === 0 ? 5 : 3,
          event: 2,
          state: failed ? 1 : 0,
          action: failed ? 1 : 0,
          message: `${failed ? 'cpu usage of' : 'cpu usage check succeeded for'} ${name} on host ${h} (#${e})`,
          hasnotice: active,
          active
        })
        if (active) {
          add('eventnotice', { eventid: eventId, date: shape.now - 30, uname: 'admin', notice: `looking into host ${h}` })
          add('eventfilter', { eventid: eventId, uname: 'admin' })
        }
      }
    }
    sink.insert('name', newNames)
    newNames = []
    for (const [table, list] of rows) sink.insert(table, list)
  }
}

export const sampleTime = (shape: MMonitShape, i: number) => shape.now - (shape.samplesPerSeries - i) * SAMPLE_PERIOD
/** Events of a service every 10 minutes up to `now`, services a second apart. */
export const eventTime = (shape: MMonitShape, service: number, e: number) => shape.now - (shape.eventsPerService - e) * 600 - service
export function aggregateTime(shape: MMonitShape, table: (typeof AGGREGATE_TABLES)[number], i: number): number {
  const { seconds, count } = AGGREGATE_SPANS[table]
  return shape.now - (shape.now % seconds) - (count - i) * seconds
}

function hostRow(h: number, shape: MMonitShape, nameId: (name: string) => number): Record<string, unknown> {
  const row: Record<string, unknown> = {
    id: h,
    created_at: shape.now - 86400 * 30,
    updated_at: shape.now,
    incarnation: shape.now - 86400 * 2,
    status: shape.version === 26 ? 0 : '0',
    nameid: nameId(hostNameOf(h)),
    keepname: h % 2,
    monitid: shape.agentIds?.[h - 1] ?? agentIdOf(h),
    ipaddrin: `10.0.${Math.floor(h / 250)}.${h % 250}`,
    ipaddrout: h === 1 ? '192.0.2.1' : '',
    portin: 2812,
    portout: h === 1 ? 2813 : -1,
    uname: 'monit',
    password: `secret-${h}`,
    sslin: 0,
    sslout: -1,
    description: h === 1 ? 'the first host' : '',
    poll: 30,
    startdelay: 0,
    controlfilenameid: nameId('/etc/monitrc'),
    statusmodified: shape.now,
    servicemodified: shape.now,
    serviceskew: h === 1 ? 5 : 3,
    serviceup: shape.servicesPerHost,
    servicedown: 0,
    serviceunmonitorauto: 0,
    serviceunmonitormanual: 0,
    version: '5.34.0',
    platformname: 'Linux',
    platformrelease: '6.1.0',
    platformversion: '#1 SMP',
    platformmachine: 'x86_64',
    platformcpu: 4,
    platformmemory: 8_000_000,
    platformswap: 1_000_000,
    statusheartbeat: 1
  }
  if (shape.version === 26) row.platformuptime = 86400 * 2
  return row
}

/** A value with one decimal, different per series and sample. */
export function sampleValue(statId: number, i: number): number {
  return ((statId * 37 + i * 11) % 1000) / 10
}

/** Roll-up spans in seconds, and how many of each a generated series has (going back from `now`). */
export const AGGREGATE_SPANS: Record<(typeof AGGREGATE_TABLES)[number], { seconds: number; count: number }> = {
  statistics_aggregate_1m: { seconds: 60, count: 180 },
  statistics_aggregate_15m: { seconds: 900, count: 96 },
  statistics_aggregate_2h: { seconds: 7200, count: 84 },
  statistics_aggregate_12h: { seconds: 43200, count: 60 },
  statistics_aggregate_1d: { seconds: 86400, count: 365 },
  statistics_aggregate_7d: { seconds: 604800, count: 52 },
  statistics_aggregate_14d: { seconds: 1209600, count: 26 }
}

export function aggregateValue(statId: number, table: string, i: number): number {
  return ((statId * 13 + i * 7 + table.length) % 500) / 10
}

export function md5Upper(password: string): string {
  return createHash('md5').update(password).digest('hex').toUpperCase()
}

/** A SQLite M/Monit database at `file`, created with the schema and filled with `shape`. */
export function createMMonitSqlite(file: string, shape: MMonitShape = SMALL_SHAPE): void {
  const db = new Database(file)
  try {
    db.pragma('journal_mode = WAL')
    for (const statement of mmonitDdl(shape.version)) db.exec(statement)
    const sink: RowSink = {
      insert(table, rows) {
        if (rows.length === 0) return
        const columns = Object.keys(rows[0])
        const insert = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`)
        db.transaction(() => {
          for (const row of rows) insert.run(row)
        })()
      }
    }
    fillMMonit(sink, shape)
  } finally {
    db.close()
  }
}

/** The database servers M/Monit also runs on, for the MySQL/MariaDB and PostgreSQL sources' tests. */
export type ServerEngine = 'mysql' | 'postgresql'

/** Their spellings of the abstract types: 64-bit ids as schema 26 has them on PostgreSQL. */
export const SERVER_ENGINE_TYPES: Record<ServerEngine, Record<ColumnType, string>> = {
  mysql: {
    serial: 'BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY',
    int: 'INT',
    bigint: 'BIGINT',
    text: 'TEXT',
    char: 'CHAR(1)',
    real: 'DOUBLE',
    double: 'DOUBLE'
  },
  postgresql: {
    serial: 'BIGSERIAL PRIMARY KEY',
    int: 'INTEGER',
    bigint: 'BIGINT',
    text: 'TEXT',
    char: 'CHAR(1)',
    real: 'DOUBLE PRECISION',
    double: 'DOUBLE PRECISION'
  }
}

/**
 * CREATE TABLE statements of `tables` for a database server. MySQL indexes no TEXT without a length:
 * text columns of a key or unique constraint are VARCHAR(191) there (191 × 4 bytes of utf8mb4 × 4
 * columns stays within InnoDB's 3072-byte key).
 */
export function serverDdl(tables: readonly TableDefinition[], engine: ServerEngine): string[] {
  const types = SERVER_ENGINE_TYPES[engine]
  return tables.map((table) => {
    const keyed = new Set([...(table.primaryKey ?? []), ...(table.unique ?? []).flat()])
    const lines = table.columns.map(
      ([name, type]) => `${name} ${engine === 'mysql' && type === 'text' && keyed.has(name) ? 'VARCHAR(191)' : types[type]}`
    )
    if (table.primaryKey) lines.push(`PRIMARY KEY (${table.primaryKey.join(', ')})`)
    for (const unique of table.unique ?? []) lines.push(`UNIQUE (${unique.join(', ')})`)
    return `CREATE TABLE ${table.name} (${lines.join(', ')})`
  })
}
