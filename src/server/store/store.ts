// The store: the only code that knows SQL. One repository per aggregate over one SQLite connection.
import { AlertMatchingRepository } from './alert-matching'
import { AlertOutboxWriter } from './alert-outbox-writer'
import { openDatabase } from './database'
import { EventRepository } from './events'
import { HistoryStore } from './history'
import { HostRepository } from './hosts'
import { IntervalRepository } from './intervals'
import { ServiceRepository } from './services'
import { SessionRepository } from './sessions'
import { createQueryBuilder, SqlRunner, type QueryBuilder } from './sql'
import { UserRepository } from './users'

export class Store {
  /** Builds queries; `sql` runs them. */
  readonly db: QueryBuilder
  readonly sql: SqlRunner
  readonly hosts: HostRepository
  readonly services: ServiceRepository
  readonly events: EventRepository
  readonly intervals: IntervalRepository
  readonly users: UserRepository
  readonly sessions: SessionRepository
  readonly history: HistoryStore
  readonly alertMatching: AlertMatchingRepository
  readonly alertOutboxWriter: AlertOutboxWriter

  constructor(readonly file: string, log?: (line: string) => void) {
    const { sqlite } = openDatabase(file, log)
    const db = createQueryBuilder()
    this.db = db
    this.sql = new SqlRunner(sqlite)
    this.hosts = new HostRepository(db, this.sql)
    this.services = new ServiceRepository(db, this.sql)
    this.events = new EventRepository(db, this.sql)
    this.intervals = new IntervalRepository(db, this.sql)
    this.users = new UserRepository(db, this.sql)
    this.sessions = new SessionRepository(db, this.sql)
    this.history = new HistoryStore(db, this.sql)
    this.alertMatching = new AlertMatchingRepository(db, this.sql)
    this.alertOutboxWriter = new AlertOutboxWriter(db, this.sql)
  }

  /** Runs `fn` in one immediate transaction: all of it is stored, or none of it. */
  transaction<T>(fn: () => T): T {
    return this.sql.transaction(fn)
  }

  close(): void {
    if (this.sql.sqlite.open) this.sql.sqlite.close()
  }
}
