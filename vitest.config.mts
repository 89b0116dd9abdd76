import { defineConfig } from 'vitest/config'
import { testFilesByEngineUse } from './test/support/engine-use'

// Three projects: the files whose imports reach the store run on SQLite and, when OVERSEER_TEST_POSTGRES
// names a throwaway cluster (scripts/test-all.sh starts one), again on PostgreSQL; the others once
// (test/support/engine-use.ts). Each project sees only its own engine.
const postgres = process.env.OVERSEER_TEST_POSTGRES
const { engineBound, once } = testFilesByEngineUse(import.meta.dirname)

export default defineConfig({
  test: {
    // Integration tests start real servers and real Monit agents: two files at a time on 2 cores,
    // typically one waiting on an agent or a database while the other computes.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      // The files that never reach the store share their worker processes: each file's imports were a
      // third of this project's CPU, and none of them keeps state a later file could see.
      { test: { name: 'once', include: once, isolate: false, env: { OVERSEER_TEST_POSTGRES: '' } } },
      { test: { name: 'sqlite', include: engineBound, env: { OVERSEER_TEST_POSTGRES: '' } } },
      ...(postgres ? [{ test: { name: 'postgres', include: engineBound, env: { OVERSEER_TEST_POSTGRES: postgres } } }] : [])
    ]
  }
})
