// Alert rules in a generated M/Monit SQLite database (createMMonitSqlite's, SMALL_SHAPE): the rule tables'
// rows and the two tables mmonit-database.ts does not create (jabberserver, messageformat), written from
// /work/shared/spec/mmonit-database.md. Each rule exercises one part of the mapping; RULES says which.
import Database from 'better-sqlite3'
import { ENGINE_TYPES, type TableDefinition } from './mmonit-database'

export const JABBER_SERVER_TABLE: TableDefinition = {
  name: 'jabberserver',
  columns: [
    ['id', 'serial'],
    ['hostname', 'text'],
    ['port', 'int'],
    ['uname', 'text'],
    ['password', 'text'],
    ['isdefault', 'int']
  ]
}

export const MESSAGE_FORMAT_TABLE: TableDefinition = {
  name: 'messageformat',
  columns: [
    ['id', 'serial'],
    ['description', 'text'],
    ['sender', 'text'],
    ['subjectsingle', 'text'],
    ['subjectmulti', 'text'],
    ['txtheader', 'text'],
    ['txtbody', 'text'],
    ['txtfooter', 'text'],
    ['htmlheader', 'text'],
    ['htmlbody', 'text'],
    ['htmlfooter', 'text'],
    ['contenttype', 'text'],
    ['isdefault', 'int']
  ]
}

export const MAIL_PASSWORD = 'mail-secret-9f2c'
export const JABBER_PASSWORD = 'xmpp-secret-41ab'

/** M/Monit's action codes as the importer reads them (alert-actions.ts). */
const MAIL = 0
const JABBER = 1
const PROGRAM = 2
const RESTART = 3

/** Rule ids: what each one tests. */
export const RULES = {
  /** All of: host group "web servers", failed; mail every 30 min and a program once. */
  webFailures: 1,
  /** Any of: service group "databases" (service-1, service-3 on every host), host 2; Jabber. */
  databases: 2,
  /** A service action only: not imported. */
  restart: 3,
  /** All of: host 1 and host 2: can never hold. */
  never: 4,
  /** Mail to something that is no address: no channel, so not imported. */
  badTarget: 5,
  /** Inactive; checksum and heartbeat events, succeeded or failed; mail. */
  timeouts: 6
} as const

/** Writes the rules into the M/Monit SQLite file `file` (made by createMMonitSqlite with SMALL_SHAPE). */
export function addMMonitRules(file: string): void {
  const db = new Database(file)
  try {
    for (const table of [JABBER_SERVER_TABLE, MESSAGE_FORMAT_TABLE]) {
      db.exec(`CREATE TABLE ${table.name} (${table.columns.map(([c, t]) => `${c} ${ENGINE_TYPES.sqlite[t]}`).join(', ')})`)
    }
    const insert = (table: string, rows: Record<string, unknown>[]) => {
      for (const row of rows) {
        const columns = Object.keys(row)
        db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`).run(row)
      }
    }
    const nameId = (name: string) => (db.prepare('SELECT id FROM name WHERE name = ?').get(name) as { id: number }).id
    insert('mailserver', [
      { id: 1, hostname: 'smtp-old.example.net', port: 25, uname: '', password: '', usessl: 0, isdefault: 0 },
      { id: 2, hostname: 'smtp.example.net', port: 587, uname: 'mailer', password: MAIL_PASSWORD, usessl: 1, isdefault: 1 }
    ])
    insert('jabberserver', [{ id: 1, hostname: 'xmpp.example.org', port: 5222, uname: 'mmonit', password: JABBER_PASSWORD, isdefault: 1 }])
    insert('messageformat', [
      {
        id: 1,
        description: 'default',
        sender: 'M/Monit <mmonit@example.net>',
        subjectsingle: '$HOST: $SERVICE $EVENT',
        subjectmulti: '$COUNT events {{not a tag}}',
        txtheader: 'Events:\n',
        txtbody: '$DATE $HOST $SERVICE: $DESCRIPTION ($ACTION)\n',
        txtfooter: '-- M/Monit',
        htmlheader: '<p>',
        htmlbody: '$DESCRIPTION',
        htmlfooter: '</p>',
        contenttype: 'text/plain',
        isdefault: 1
      }
    ])
    const rule = (id: number, description: string, operator: number, active = 1) => ({
      id,
      created_at: 0,
      updated_at: 0,
      description,
      active,
      operator
    })
    insert('rule', [
      rule(RULES.webFailures, 'Web failures', 0),
      rule(RULES.databases, 'Database services', 1),
      rule(RULES.restart, 'Restart on failure', 0),
      rule(RULES.never, 'Never', 0),
      rule(RULES.badTarget, 'Bad target', 0),
      rule(RULES.timeouts, 'Timeouts', 0, 0)
    ])
    // Rule rows: id = rule * 10 + n.
    insert(
      'rulerow',
      [11, 12, 21, 22, 31, 41, 42, 51, 61, 62].map((id) => ({ id, ruleid: Math.floor(id / 10) }))
    )
    insert('rulerowhostgroup', [{ rulerowid: 11, hostgroupid: 1 }])
    insert('rulerowstate', [
      { rulerowid: 12, eventstate: 1 },
      { rulerowid: 31, eventstate: 1 },
      { rulerowid: 62, eventstate: 0 },
      { rulerowid: 62, eventstate: 1 }
    ])
    insert('rulerowservicegroup', [{ rulerowid: 21, servicegroup_nameid: nameId('databases') }])
    insert('rulerowhost', [
      { rulerowid: 22, hostid: 2 },
      { rulerowid: 41, hostid: 1 },
      { rulerowid: 42, hostid: 2 }
    ])
    insert('rulerowservice', [{ rulerowid: 51, service_nameid: nameId('system') }])
    insert('rulerowevent', [
      { rulerowid: 61, eventid: 2 },
      { rulerowid: 61, eventid: 1048576 }
    ])
    const action = (id: number, code: number, repetition = 0) => ({ id, ruleid: Math.floor(id / 10), action: code, repetition })
    insert('actionrow', [
      action(11, MAIL, 30),
      action(12, PROGRAM),
      action(21, JABBER),
      action(31, RESTART),
      action(41, MAIL),
      action(51, MAIL),
      action(61, MAIL)
    ])
    insert('actionrowtarget', [
      { actionrowid: 11, target: 'ops@example.net' },
      { actionrowid: 11, target: 'Web team <web@example.net>' },
      { actionrowid: 12, target: '/usr/local/bin/page --urgent web' },
      { actionrowid: 21, target: 'oncall@example.org' },
      { actionrowid: 31, target: 'restart' },
      { actionrowid: 41, target: 'ops@example.net' },
      { actionrowid: 51, target: 'not an address' },
      { actionrowid: 61, target: 'ops@example.net' }
    ])
    insert('actionrowoption', [{ actionrowid: 12, name: 'nice', value: '10' }])
  } finally {
    db.close()
  }
}
