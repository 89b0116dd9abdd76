// An M/Monit database kept in MySQL or MariaDB (`mysql://user:pass@host:port/db`, as M/Monit's
// server.xml names it), read in a read-only session: safe beside a running M/Monit.
import { createConnection, type Connection, type ConnectionOptions } from 'mysql2/promise'
import { shownUrl, SourceError, type SourceValue } from './source'
import { ServerSource, type EngineRows } from './server-source'

const CONNECT_TIMEOUT_MS = 10_000

export class MysqlSource extends ServerSource {
  readonly kind = 'mysql'
  protected tablesSql =
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE'"
  protected columnsSql = 'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?'

  private constructor(
    private readonly connection: Connection,
    shown: string
  ) {
    super(shown)
  }

  static async open(url: string): Promise<MysqlSource> {
    const { options, shown } = connectionOptions(url)
    let connection: Connection | undefined
    try {
      connection = await createConnection(options)
      // Every statement of the session in a read-only transaction: the import cannot change M/Monit's data.
      await connection.query('SET SESSION TRANSACTION READ ONLY')
    } catch (e) {
      await connection?.end().catch(() => undefined)
      throw new SourceError(`${shown}: cannot read the M/Monit database (${(e as Error).message})`)
    }
    return new MysqlSource(connection, shown)
  }

  protected async query(sql: string, params: readonly SourceValue[]): Promise<EngineRows> {
    try {
      const [rows] = await this.connection.query(sql, [...params])
      return rows as EngineRows
    } catch (e) {
      throw new SourceError(`${this.shownUrl}: ${(e as Error).message}`)
    }
  }

  protected quote(name: string): string {
    return `\`${name.replaceAll('`', '``')}\``
  }

  protected placeholder(): string {
    return '?'
  }

  async close(): Promise<void> {
    await this.connection.end()
  }
}

/** The driver's options from the URL, taken field by field: no query option reaches the driver. */
function connectionOptions(url: string): { options: ConnectionOptions; shown: string } {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new SourceError('the MySQL URL is not valid: expected mysql://user:password@host:port/database')
  }
  const shown = shownUrl(parsed)
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''))
  if (database === '' || parsed.hostname === '') throw new SourceError(`${shown}: expected mysql://user:password@host:port/database`)
  if (parsed.search !== '') throw new SourceError(`${shown}: options after "?" are not supported`)
  const options: ConnectionOptions = {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port === '' ? 3306 : Number(parsed.port),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database,
    connectTimeout: CONNECT_TIMEOUT_MS,
    charset: 'utf8mb4',
    // BIGINT as bigint, for ServerSource to check it fits a number; DECIMAL as a number; dates as text.
    supportBigNumbers: true,
    decimalNumbers: true,
    dateStrings: true,
    typeCast: (field, next) => {
      if (field.type !== 'LONGLONG') return next()
      const text = field.string()
      return text === null ? null : BigInt(text)
    }
  }
  return { options, shown }
}
