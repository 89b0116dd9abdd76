// Which reader an M/Monit location needs: its database on one of three engines (store/mmonit-source), or
// its HTTP API when the database is out of reach.
import { shownUrl, sqlitePath, SourceError, type MMonitSource } from '../../store/mmonit-source/source'

/**
 * `sqlite:PATH` (also M/Monit's own `sqlite:///PATH?options` form), `mysql://…` or `postgresql://…`
 * (`postgres://…`), as M/Monit's server.xml names its database; `http(s)://user:password@host:port` for its API.
 */
export async function openSource(url: string): Promise<MMonitSource> {
  // Loaded when asked for: each engine's client library (mysql2, pg) only for that engine.
  if (url.startsWith('sqlite:')) return (await import('../../store/mmonit-source/sqlite-source')).SqliteSource.open(sqlitePath(url))
  if (/^mysql:\/\//i.test(url)) return (await import('../../store/mmonit-source/mysql-source')).MysqlSource.open(url)
  if (/^postgres(ql)?:\/\//i.test(url)) return (await import('../../store/mmonit-source/postgres-source')).PostgresSource.open(url)
  // M/Monit's HTTP API (import-mmonit --from-api): what its database would give, less what the API cannot.
  if (/^https?:\/\//i.test(url)) return (await import('./api-source')).ApiSource.open(url)
  throw new SourceError(`${shownLocation(url)}: expected sqlite:PATH, mysql://…, postgresql://… or http(s)://…`)
}

/** A location as it may be printed: a password in it masked, whatever its scheme. */
function shownLocation(url: string): string {
  try {
    return shownUrl(new URL(url))
  } catch {
    return url.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@')
  }
}
