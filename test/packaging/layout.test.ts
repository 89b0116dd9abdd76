// A LAYOUT CHECK ONLY, not an installer build: electron-builder packs the app for `--linux dir` around a
// stub Electron (no Electron binary can be downloaded here), so the result cannot run. It proves what
// goes where: out/** and package.json inside app.asar, better-sqlite3 unpacked beside it (the afterPack
// hook's Electron build of it, here a stand-in file from its cache: no Electron headers can be
// downloaded here either), the tray icons as extra resources, and the developer's node_modules untouched.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { listPackage, statFile } from '@electron/asar'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cachedBuild } from '../../scripts/electron-native/better-sqlite3-for-electron'
import { installedElectron } from '../../scripts/electron-native/native-abi'
import { removeDir } from '../support/built-server'

const run = promisify(execFile)
const ROOT = resolve(__dirname, '../..')
const NATIVE_MODULE = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'

let work: string
let resources: string
let entries: Set<string>
let electronBuild: string
const developerBuild = () =>
  createHash('sha256')
    .update(readFileSync(join(ROOT, NATIVE_MODULE)))
    .digest('hex')
const developerBuildBefore = developerBuild()

beforeAll(async () => {
  for (const built of ['out/main/index.js', 'out/main/server.js', 'out/preload/index.js', 'out/renderer/index.html']) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run \`npx electron-vite build\` first`)
  }
  work = mkdtempSync(join(tmpdir(), 'overseer-pack-'))
  const stubElectron = join(work, 'electron-stub')
  mkdirSync(stubElectron)
  writeFileSync(join(stubElectron, 'electron'), '#!/bin/sh\necho "stub Electron: layout check only" >&2\nexit 1\n')
  chmodSync(join(stubElectron, 'electron'), 0o755)
  copyFileSync(join(ROOT, 'node_modules/electron/LICENSE'), join(stubElectron, 'LICENSE'))
  // What the hook would build for Electron 45 (ABI 150), as the cache holds it: a file that names its ABI.
  const cache = join(work, 'native-cache')
  const electron = installedElectron(ROOT)
  const { version } = JSON.parse(readFileSync(join(ROOT, 'node_modules/better-sqlite3/package.json'), 'utf8')) as { version: string }
  electronBuild = cachedBuild(cache, version, { electron, platform: 'linux', arch: 'x64' })
  mkdirSync(cache)
  writeFileSync(
    electronBuild,
    `stand-in for better_sqlite3.node built for Electron ${electron.version}: node_register_module_v${electron.abi}`
  )
  await run(
    process.execPath,
    [
      join(ROOT, 'node_modules/electron-builder/cli.js'),
      '--linux',
      'dir',
      '--x64',
      '--publish',
      'never',
      `-c.electronDist=${stubElectron}`,
      `-c.directories.output=${join(work, 'dist')}`
    ],
    { cwd: ROOT, timeout: 150_000, env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false', OVERSEER_ELECTRON_NATIVE_CACHE: cache } }
  )
  resources = join(work, 'dist/linux-unpacked/resources')
  entries = new Set(listPackage(join(resources, 'app.asar'), { isPack: false }))
}, 180_000)

afterAll(() => {
  if (work) removeDir(work)
})

describe('packaging layout (electron-builder --linux dir, stub Electron, cached native build: layout check only)', () => {
  it('packs the built app and package.json into app.asar, and nothing of the sources', () => {
    for (const file of [
      '/package.json',
      '/out/main/index.js',
      '/out/main/server.js',
      '/out/preload/index.js',
      '/out/renderer/index.html'
    ]) {
      expect(entries.has(file), file).toBe(true)
    }
    const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string }
    expect(entries.has(`/${packageJson.main.replace(/^\.\//, '')}`)).toBe(true)
    const tops = new Set([...entries].map((e) => e.split('/')[1]))
    expect([...tops].sort()).toEqual(['node_modules', 'out', 'package.json'])
  })

  it('ships the production dependencies only', () => {
    for (const dep of ['fastify', 'better-sqlite3', 'kysely', 'zod'])
      expect(entries.has(`/node_modules/${dep}/package.json`), dep).toBe(true)
    for (const dev of ['electron', 'electron-builder', 'vitest', 'react', 'typescript'])
      expect(entries.has(`/node_modules/${dev}`), dev).toBe(false)
  })

  it('unpacks better-sqlite3 beside the archive, without its C sources and build leftovers', () => {
    const asar = join(resources, 'app.asar')
    expect(statFile(asar, NATIVE_MODULE)).toMatchObject({ unpacked: true })
    const unpacked = join(resources, 'app.asar.unpacked', NATIVE_MODULE)
    expect(existsSync(unpacked)).toBe(true)
    const unpackedDir = join(resources, 'app.asar.unpacked/node_modules/better-sqlite3')
    expect(readdirSync(unpackedDir).sort()).toEqual(['LICENSE', 'build', 'lib', 'package.json'])
    expect(readdirSync(join(unpackedDir, 'build/Release'))).toEqual(['better_sqlite3.node'])
  })

  it('ships the tray icons of every LED colour and the window icon as extra resources', () => {
    const tray = readdirSync(join(resources, 'tray'))
    for (const color of ['red', 'orange', 'green', 'gray']) {
      for (const name of [`${color}-16.png`, `${color}-16@2x.png`, `${color}-32.png`, `${color}-32@2x.png`]) expect(tray).toContain(name)
    }
    expect(existsSync(join(resources, 'icon.png'))).toBe(true)
  })

  it("puts the Electron build of better-sqlite3 into the app, and leaves the developer's Node build alone", () => {
    expect(readFileSync(join(resources, 'app.asar.unpacked', NATIVE_MODULE))).toEqual(readFileSync(electronBuild))
    expect(developerBuild()).toBe(developerBuildBefore)
  })
})
