// The ingest thread's entry: owns the collector's own SQLite connection and Ingest (with its caches),
// and stores each message the HTTP thread hands over, one transaction each. See ingest-thread.ts.
import { parentPort, workerData } from 'node:worker_threads'
import type { LiveChange } from '../../shared/live'
import { SecretBox } from '../auth/secret-box'
import { ChangeFeed } from '../live/change-feed'
import { Store } from '../store/store'
import { collectMessage } from './collect-message'
import { Ingest } from './ingest'
import type { IngestWorkerData, ToIngestThread } from './ingest-thread'

const port = parentPort!
const settings = workerData as IngestWorkerData
const store = new Store(settings.databaseFile)
// The live feed is the HTTP thread's: this one only captures what a message changed, to send it over.
const feed = new ChangeFeed(1)
let changes: LiveChange[] = []
feed.subscribe((envelope) => changes.push(envelope.change))
const ingest = new Ingest(store, SecretBox.fromKeyFile(settings.keyFile), feed)

port.on('message', (message: ToIngestThread) => {
  if (message.type === 'close') {
    store.close()
    port.close()
    return
  }
  changes = []
  const outcome = collectMessage(ingest, settings.limits, message.request, () => changes)
  port.postMessage({ id: message.id, outcome })
})
port.postMessage({ ready: true })
