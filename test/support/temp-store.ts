// A real store in a temporary directory (SQLite, or PostgreSQL: test-database.ts), with the collector's ingest on top.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SecretBox } from '../../src/server/auth/secret-box'
import { Ingest } from '../../src/server/collector/ingest'
import { parseMonitMessage } from '../../src/server/monit/parse-message'
import { Store } from '../../src/server/store/store'
import { dropDatabaseOf, storeLocation } from './test-database'

export interface TempStore {
  dir: string
  store: Store
  secrets: SecretBox
  ingest: Ingest
  /** Parse and apply one payload at server time `nowMs`. */
  post(xml: Buffer | string, nowMs?: number): ReturnType<Ingest['apply']>
  close(): void
}

/** Where a temporary store of data folder `dir` lives: a test that reopens it after close() opens this. */
export const tempStoreLocation = (dir: string): string => storeLocation(dir, 'test.sqlite')

/** `sqlite`: a SQLite file whichever engine the tests run on (a source to move to the other engine). */
export function tempStore({ sqlite = false } = {}): TempStore {
  const dir = mkdtempSync(join(tmpdir(), 'overseer-store-'))
  const store = new Store(sqlite ? join(dir, 'test.sqlite') : tempStoreLocation(dir))
  const secrets = SecretBox.fromKeyFile(join(dir, 'secret.key'))
  const ingest = new Ingest(store, secrets)
  return {
    dir,
    store,
    secrets,
    ingest,
    post: (xml, nowMs = Date.now()) => ingest.apply(parseMonitMessage(Buffer.from(xml)), nowMs),
    close: () => {
      store.close()
      rmSync(dir, { recursive: true, force: true })
      dropDatabaseOf(dir)
    }
  }
}
