// Which test files can behave differently on SQLite and on PostgreSQL, so that only those run on both
// (vitest.config.mts): a file whose imports, followed through test/support and src, reach the store or
// the test database. The others (the domain, parsers, channels, the console's logic …) run once. So do
// the desktop app's tests, which start the built server but are about the shell: the app embeds SQLite;
// the native modules' tests, about the SQLite binding on Node's lifecycle; and the tests of the HTTP
// transport (sockets, bytes held, TLS, proxies' headers, the access log), which the store only serves
// accounts to and which answer before any statement runs.
import { importGraph } from './import-graph'

/** Test files run once, on SQLite, though their imports reach the store. */
const SQLITE_ONLY = new RegExp(
  [
    '^test/(desktop|packaging|server/native)/',
    '^test/server/(tls/https-serving|http/(slow-clients|trusted-proxy|access-log|shutdown)|collector/(bytes-in-flight|body-budget|request-body))\\.test\\.ts$'
  ].join('|')
)

/** What makes a file's behaviour depend on the engine. */
const reachesStore = (file: string) => file.startsWith('src/server/store/') || file === 'test/support/test-database.ts'

export interface TestFilesByEngineUse {
  /** Run on every engine. */
  engineBound: string[]
  /** Run once. */
  once: string[]
}

export function testFilesByEngineUse(root: string): TestFilesByEngineUse {
  const graph = importGraph(root, ['src', 'test'])
  const memo = new Map<string, boolean>()
  const reaches = (file: string): boolean => {
    const known = memo.get(file)
    if (known !== undefined) return known
    memo.set(file, false) // an import cycle adds nothing
    const result = reachesStore(file) || (graph.get(file) ?? []).some((next) => !next.startsWith('package:') && reaches(next))
    memo.set(file, result)
    return result
  }
  const tests = [...graph.keys()].filter((file) => file.startsWith('test/') && file.endsWith('.test.ts')).sort()
  return {
    engineBound: tests.filter((file) => !SQLITE_ONLY.test(file) && reaches(file)),
    once: tests.filter((file) => SQLITE_ONLY.test(file) || !reaches(file))
  }
}
