import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import { testFilesByEngineUse } from './test/support/engine-use'
import { mocksModules } from './test/support/module-mocks'

// Three projects: the files whose imports reach the store run on SQLite and, when OVERSEER_TEST_POSTGRES
// names a throwaway cluster (scripts/test-all.sh starts one), again on PostgreSQL; the others once
// (test/support/engine-use.ts). Each project sees only its own engine.
const postgres = process.env.OVERSEER_TEST_POSTGRES
const { engineBound, once } = testFilesByEngineUse(import.meta.dirname)
// scripts/test-all.sh runs the engines' projects and `once` in two lanes (OVERSEER_TEST_LANE); unset, all.
const lane = process.env.OVERSEER_TEST_LANE

/** A project's files share their worker processes (a file's imports cost more CPU than most files'
 *  tests; a worker serves one project, so one engine); those that mock a module get a process each. */
function project(name: string, include: string[], engine: string): TestProjectInlineConfiguration[] {
  const mocking = include.filter((file) => mocksModules(import.meta.dirname, file))
  const env = { OVERSEER_TEST_POSTGRES: engine }
  return [
    { test: { name, include: include.filter((file) => !mocking.includes(file)), isolate: false, env } },
    ...(mocking.length > 0 ? [{ test: { name: `${name}, mocking`, include: mocking, env } }] : [])
  ]
}

export default defineConfig({
  test: {
    // Integration tests start real servers and real Monit agents: two files at a time on 2 cores,
    // typically one waiting on an agent or a database while the other computes. Three kept the cores
    // busier (a clean-clone run in 709–784 s instead of 900 s), but the alert storm and the ingest
    // thread's fairness test then timed out on PostgreSQL. Three for PostgreSQL's project alone (its own
    // sequence.groupOrder) took longer still (821 s against 796 s) and timed out real-agent tests there.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      ...(lane !== 'engines' ? project('once', once, '') : []),
      ...(lane !== 'once' ? project('sqlite', engineBound, '') : []),
      ...(lane !== 'once' && postgres ? project('postgres', engineBound, postgres) : [])
    ]
  }
})
