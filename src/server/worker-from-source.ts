// Worker threads when the server runs from its TypeScript sources (the tests, tsx) rather than from its
// build: the thread's entry and what it imports are bundled once per process with esbuild, as
// electron-vite bundles them for the build. Compiling its hundred-odd modules one by one in each new
// thread (tsx) cost some 0.7 s per ingest thread start, more than all else a test server does.
// The built server never comes here: esbuild is a development dependency.
import { createHash } from 'node:crypto'
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, join } from 'node:path'

/** Inside the project, so that the bundles' packages resolve from its node_modules. */
const BUNDLE_DIR = join(__dirname, '../../node_modules/.cache/overseer/source-workers')

const bundles = new Map<string, string>()

/** The path of a bundle of the TypeScript file `entry`, made on first use in this process. */
export function workerScriptFromSource(entry: string): string {
  let script = bundles.get(entry)
  if (script) return script
  const esbuild = createRequire(__filename)('esbuild') as typeof import('esbuild')
  const { outputFiles } = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    packages: 'external',
    // electron-vite's worker imports: only the build follows them (see workerScriptFromSource's callers).
    external: ['*?modulePath'],
    write: false,
    logLevel: 'error'
  })
  const code = outputFiles[0].text
  // Named by content: test processes running side by side write the same file, never a half one.
  script = join(BUNDLE_DIR, `${basename(entry, '.ts')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.js`)
  mkdirSync(BUNDLE_DIR, { recursive: true })
  const partial = `${script}.${process.pid}.partial`
  writeFileSync(partial, code)
  renameSync(partial, script)
  bundles.set(entry, script)
  return script
}
