// A repository's methods as the server's jobs call them: on PostgreSQL on a jobs' thread of their own
// (src/server/jobs/jobs-thread.ts), on SQLite the store's own. Threads started here end with closeJobsThreads.
import { JobsThread } from '../../src/server/jobs/jobs-thread'
import type { RepositoryCalls, ThreadMethod, ThreadRepository } from '../../src/server/jobs/jobs-thread-messages'
import type { Store } from '../../src/server/store/store'
import { testEngine } from './test-database'

const started: JobsThread[] = []

export function callsAsTheServerMakes<R extends ThreadRepository>(store: Store, repository: R): RepositoryCalls<Store[R], ThreadMethod<R>> {
  if (testEngine !== 'postgres') return store[repository] as unknown as RepositoryCalls<Store[R], ThreadMethod<R>>
  const thread = new JobsThread({ database: store.location })
  started.push(thread)
  return thread.repository(repository)
}

export async function closeJobsThreads(): Promise<void> {
  await Promise.all(started.splice(0).map((t) => t.close()))
}
