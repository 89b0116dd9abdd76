// The ingest thread's entry: owns the collector's own store connection and Ingest (with its caches),
// and stores what the HTTP thread hands over. Messages that queue up while a batch is being stored are
// stored together in the next one, in one transaction (see collectMessages). See ingest-thread.ts.
import { parentPort, workerData } from 'node:worker_threads'
import type { LiveChange } from '../../shared/live'
import { SecretBox } from '../auth/secret-box'
import { ChangeFeed } from '../live/change-feed'
import { usePostgresWorker } from '../store/postgres/sync-connection'
import { Store } from '../store/store'
import { collectMessages, MAX_BATCH } from './collect-message'
import { Ingest } from './ingest'
import { takeBatch } from './next-batch'
import type { CollectMessage, FromIngestThread, IngestWorkerData, ToIngestThread } from './ingest-messages'

const port = parentPort!
const settings = workerData as IngestWorkerData
usePostgresWorker(settings.postgresWorker)
const store = new Store(settings.database, undefined, settings)
// The live feed is the HTTP thread's: this one only captures what a batch changed, to send it over.
const feed = new ChangeFeed(1)
let changes: LiveChange[] = []
feed.subscribe((envelope) => changes.push(envelope.change))
const ingest = new Ingest(store, SecretBox.fromKeyFile(settings.keyFile), feed)

const queue: CollectMessage[] = []
let drainScheduled = false

/** Stores the next batch of queued messages (see takeBatch) and answers them in one message. */
function storeBatch(): void {
  const batch = takeBatch(queue, (m) => m.request.xml.byteLength, MAX_BATCH)
  changes = []
  const outcomes = collectMessages(
    ingest,
    batch.map((m) => m.request),
    settings.limits
  )
  const answer: FromIngestThread = { outcomes: batch.map((m, i) => ({ id: m.id, outcome: outcomes[i] })), changes }
  port.postMessage(answer)
}

// Runs after every message already delivered to this thread is queued: those form the batch.
function drain(): void {
  drainScheduled = false
  storeBatch()
  scheduleDrain()
}

function scheduleDrain(): void {
  if (drainScheduled || queue.length === 0) return
  drainScheduled = true
  setImmediate(drain)
}

port.on('message', (message: ToIngestThread) => {
  if (message.type === 'collect') {
    queue.push(message)
    return scheduleDrain()
  }
  while (queue.length > 0) storeBatch()
  store.close()
  port.close()
})
port.postMessage({ ready: true, pageCacheMib: store.pageCacheMib() } satisfies FromIngestThread)
