// better-sqlite3 compiled for Electron's ABI, built in a copy of the package under the cache folder,
// never in the developer's node_modules (an in-place rebuild leaves `npm run serve` and the Node tests
// unable to load it until rebuilt again). A prebuilt binary is tried first (prebuild-install, from
// better-sqlite3's GitHub release), then a compile against Electron's headers (node-gyp). Both need
// internet access; the compile needs Python 3 and a C++20 compiler (see docs/desktop.md, "Building the installers").
import { execFile } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, sep } from 'node:path'
import { promisify } from 'node:util'
import { nativeModuleAbi, type InstalledElectron } from './native-abi'

const run = promisify(execFile)
const MODULE = 'build/Release/better_sqlite3.node'

export interface NativeTarget {
  electron: InstalledElectron
  platform: NodeJS.Platform
  /** electron-builder's arch name: x64, arm64, ia32, armv7l. */
  arch: string
}

/** OVERSEER_ELECTRON_NATIVE_CACHE, else build/electron-native in the project (git-ignored). */
export function nativeCacheDir(projectDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.OVERSEER_ELECTRON_NATIVE_CACHE || join(projectDir, 'build/electron-native')
}

/** Where the build for `target` is kept, so that later packagings reuse it. */
export function cachedBuild(cacheDir: string, moduleVersion: string, target: NativeTarget): string {
  return join(cacheDir, `better-sqlite3-${moduleVersion}-electron-${target.electron.version}-${target.platform}-${target.arch}.node`)
}

/** The path of a better_sqlite3.node for `target`: the cached one, or a new build. */
export async function betterSqlite3ForElectron(
  projectDir: string,
  target: NativeTarget,
  cacheDir = nativeCacheDir(projectDir)
): Promise<string> {
  const source = join(projectDir, 'node_modules/better-sqlite3')
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { version: string }
  const cached = cachedBuild(cacheDir, version, target)
  if (existsSync(cached) && nativeModuleAbi(cached) === target.electron.abi) return cached

  const staging = join(cacheDir, `better-sqlite3-${version}-staging`)
  rmSync(staging, { recursive: true, force: true })
  const oldBuild = join(source, 'build')
  cpSync(source, staging, { recursive: true, filter: (path) => path !== oldBuild && !path.startsWith(`${oldBuild}${sep}`) })
  // npm passes ~/.npmrc's nodedir to scripts: node-gyp would build against Node's headers instead.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.toLowerCase() !== 'npm_config_nodedir'))
  const bin = (path: string) => join(projectDir, 'node_modules', path)
  const electronArgs = [`--target=${target.electron.version}`, `--arch=${target.arch}`]
  try {
    await run(process.execPath, [bin('prebuild-install/bin.js'), '--runtime=electron', ...electronArgs, `--platform=${target.platform}`], {
      cwd: staging,
      env
    })
  } catch {
    await run(
      process.execPath,
      [
        bin('node-gyp/bin/node-gyp.js'),
        'rebuild',
        '--release',
        '--runtime=electron',
        ...electronArgs,
        '--dist-url=https://electronjs.org/headers',
        `--devdir=${join(homedir(), '.electron-gyp')}`
      ],
      { cwd: staging, env, maxBuffer: 64 * 1024 * 1024 }
    ).catch((err: Error & { stderr?: string }) => {
      throw new Error(
        `better-sqlite3 could not be built for Electron ${target.electron.version} (no prebuilt binary, and the compile failed: ` +
          `it needs internet access for Electron's headers, Python 3 and a C++20 compiler):\n${err.stderr ?? err.message}`
      )
    })
  }
  mkdirSync(cacheDir, { recursive: true })
  copyFileSync(join(staging, MODULE), cached)
  rmSync(staging, { recursive: true, force: true })
  return cached
}
