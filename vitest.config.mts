import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import { testFilesByEngineUse } from './test/support/engine-use'
import { mocksModules } from './test/support/module-mocks'

// Three projects: the files whose imports reach the store run on SQLite and, when OVERSEER_TEST_POSTGRES
// names a throwaway cluster (scripts/test-all.sh starts one), again on PostgreSQL; the others once
// (test/support/engine-use.ts). Each project sees only its own engine.
const postgres = process.env.OVERSEER_TEST_POSTGRES
const { engineBound, once } = testFilesByEngineUse(import.meta.dirname)

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
    // Integration tests start real servers and real Monit agents and spend much of their time waiting on
    // them or on a database: three files at a time keep 2 cores busy (two left a tenth of the run idle;
    // a clean-clone run took 900 s with two, 709 s with three).
    maxWorkers: 3,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      ...project('once', once, ''),
      ...project('sqlite', engineBound, ''),
      ...(postgres ? project('postgres', engineBound, postgres) : [])
    ]
  }
})
