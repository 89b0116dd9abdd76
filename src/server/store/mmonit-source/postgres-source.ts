// An M/Monit database kept in PostgreSQL (`postgresql://user:pass@host:port/db`, as M/Monit's server.xml
// names it), read in a read-only session: safe beside a running M/Monit.
import pg from 'pg'
import { shownUrl, SourceError, type SourceValue } from './source'
import { ServerSource, type EngineRows } from './server-source'

const CONNECT_TIMEOUT_MS = 10_000
const INT8 = 20
const NUMERIC = 1700

/** int8 as bigint (ServerSource checks it fits a number exactly), numeric as a number, the rest as pg reads them. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) return (text: string) => BigInt(text)
    if (oid === NUMERIC) return (text: string) => Number(text)
    return pg.types.getTypeParser(oid, format)
  }) as typeof pg.types.getTypeParser
}

export class PostgresSource extends ServerSource {
  readonly kind = 'postgresql'
  protected tablesSql =
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
  protected columnsSql =
    'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1'

  private constructor(
    private readonly client: pg.Client,
    shown: string
  ) {
    super(shown)
  }

  static async open(url: string): Promise<PostgresSource> {
    let shown: string
    try {
      shown = shownUrl(new URL(url))
    } catch {
      throw new SourceError('the PostgreSQL URL is not valid: expected postgresql://user:password@host:port/database')
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, types })
    // A connection lost between queries is reported by the next query; unhandled, it would end the process.
    client.on('error', () => undefined)
    try {
      await client.connect()
      // Every transaction of the session read-only: the import cannot change M/Monit's data.
      await client.query('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY')
    } catch (e) {
      await client.end().catch(() => undefined)
      throw new SourceError(`${shown}: cannot read the M/Monit database (${(e as Error).message})`)
    }
    return new PostgresSource(client, shown)
  }

  protected async query(sql: string, params: readonly SourceValue[]): Promise<EngineRows> {
    try {
      return (await this.client.query(sql, [...params])).rows as EngineRows
    } catch (e) {
      throw new SourceError(`${this.shownUrl}: ${(e as Error).message}`)
    }
  }

  protected quote(name: string): string {
    return `"${name.replaceAll('"', '""')}"`
  }

  protected placeholder(index: number): string {
    return `$${index + 1}`
  }

  async close(): Promise<void> {
    await this.client.end()
  }
}
