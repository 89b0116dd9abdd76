// Live changes between instances through PostgreSQL's LISTEN/NOTIFY. One asynchronous `pg` client on the
// main thread both listens and notifies (nothing on a request path waits for it). Each payload carries the
// sender's instance id, so an instance skips its own notifications. A lost connection is opened again
// after a pause; changes sent meanwhile are dropped (a console that misses one reloads on its next).
import { APPLICATION_NAME } from './stall-watch'
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import type { LiveChange } from '../../../shared/live'
import type { ChangeChannel } from '../change-channel'

const CHANNEL = 'overseer_changes'
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: changes are sent in batches below this. */
export const MAX_PAYLOAD_BYTES = 7_900
const RECONNECT_AFTER_MS = 1_000

interface Payload {
  from: string
  changes: LiveChange[]
}

export class PostgresChangeChannel implements ChangeChannel {
  readonly instanceId = randomUUID()
  /** How payloads() begins this instance's notifications. */
  private readonly ownPrefix = `{"from":${JSON.stringify(this.instanceId)},`
  private client: pg.Client | undefined
  private onChanges: ((changes: LiveChange[]) => void) | undefined
  private closed = false
  private reconnectTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly url: string,
    private readonly log: (line: string) => void
  ) {}

  async listen(onChanges: (changes: LiveChange[]) => void): Promise<void> {
    this.onChanges = onChanges
    await this.connect()
  }

  send(changes: readonly LiveChange[]): void {
    const client = this.client
    if (!client) return
    for (const payload of payloads(this.instanceId, changes, (line) => this.log(line))) {
      client
        .query('SELECT pg_notify($1, $2)', [CHANNEL, payload])
        .catch((err: Error) => this.log(`live changes not sent to the other instances: ${err.message}`))
    }
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.reconnectTimer)
    const client = this.client
    this.client = undefined
    await client?.end().catch(() => {})
  }

  private async connect(): Promise<void> {
    // Loaded here rather than with the module: a server on SQLite never needs `pg` (some 3 MB of heap).
    const { Client } = (await import('pg')).default
    // Pipelined: a change set split into several payloads has several NOTIFYs in flight at once.
    const client = new Client({ connectionString: this.url, application_name: APPLICATION_NAME, pipeline: true })
    client.on('notification', (n) => this.received(n.payload))
    client.on('error', (err) => this.lost(client, err))
    client.on('end', () => this.lost(client, new Error('connection ended')))
    await client.connect()
    await client.query(`LISTEN ${CHANNEL}`)
    if (this.closed) {
      await client.end()
      return
    }
    this.client = client
  }

  private received(text: string | undefined): void {
    // This instance's own notifications come back too: recognised by their start, never parsed.
    if (text?.startsWith(this.ownPrefix)) return
    let payload: Payload
    try {
      payload = JSON.parse(text ?? '') as Payload
    } catch {
      return // not ours: anyone may notify on a channel
    }
    if (payload.from !== this.instanceId) this.onChanges?.(payload.changes)
  }

  private lost(client: pg.Client, err: Error): void {
    if (this.client !== client || this.closed) return
    this.client = undefined
    this.log(`live changes from the other instances: connection lost (${err.message}); reconnecting`)
    this.reconnect()
  }

  private reconnect(): void {
    this.reconnectTimer = setTimeout(() => {
      this.connect().then(
        () => this.log('live changes from the other instances: listening again'),
        () => this.reconnect()
      )
    }, RECONNECT_AFTER_MS)
    this.reconnectTimer.unref()
  }
}

/** The changes as NOTIFY payloads, each below MAX_PAYLOAD_BYTES; a single change too large alone is dropped. */
export function payloads(from: string, changes: readonly LiveChange[], log: (line: string) => void): string[] {
  const result: string[] = []
  const envelope = (parts: string[]) => `{"from":${JSON.stringify(from)},"changes":[${parts.join(',')}]}`
  const overhead = Buffer.byteLength(envelope([]))
  let batch: string[] = []
  let bytes = overhead
  for (const change of changes) {
    const json = JSON.stringify(change)
    const size = Buffer.byteLength(json) + 1
    if (overhead + size > MAX_PAYLOAD_BYTES) {
      log(`a live change of ${size} bytes is too large to send to the other instances (${change.kind})`)
      continue
    }
    if (bytes + size > MAX_PAYLOAD_BYTES) {
      result.push(envelope(batch))
      batch = []
      bytes = overhead
    }
    batch.push(json)
    bytes += size
  }
  if (batch.length > 0) result.push(envelope(batch))
  return result
}
