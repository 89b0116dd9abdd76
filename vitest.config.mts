import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import { testFilesByEngineUse } from './test/support/engine-use'
import { mocksModules } from './test/support/module-mocks'

// Three projects: the files whose imports reach the store run on SQLite and, when OVERSEER_TEST_POSTGRES
// names a throwaway cluster (scripts/test-all.sh starts one), again on PostgreSQL; the others once
// (test/support/engine-use.ts). Each project sees only its own engine.
const postgres = process.env.OVERSEER_TEST_POSTGRES
const { engineBound, once } = testFilesByEngineUse(import.meta.dirname)

/**
 * A project's files share their worker processes (a file's imports cost more CPU than most files'
 * tests; a worker serves one project, so one engine); those that mock a module get a process each.
 * `order`: projects run one group after another (vitest's sequence.groupOrder), each with its own
 * number of files at a time.
 */
function project(name: string, include: string[], engine: string, order: number, files: number): TestProjectInlineConfiguration[] {
  const mocking = include.filter((file) => mocksModules(import.meta.dirname, file))
  const common = { env: { OVERSEER_TEST_POSTGRES: engine }, maxWorkers: files, sequence: { groupOrder: order } }
  return [
    { test: { ...common, name, include: include.filter((file) => !mocking.includes(file)), isolate: false } },
    ...(mocking.length > 0 ? [{ test: { ...common, name: `${name}, mocking`, include: mocking } }] : [])
  ]
}

export default defineConfig({
  test: {
    // Integration tests start real servers and real Monit agents: two files at a time on 2 cores,
    // typically one waiting on an agent or a database while the other computes. On PostgreSQL, three:
    // there a test mostly waits for its statements' round trips (a thread and a socket each way).
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      ...project('once', once, '', 0, 2),
      ...project('sqlite', engineBound, '', 1, 2),
      ...(postgres ? project('postgres', engineBound, postgres, 2, 3) : [])
    ]
  }
})
