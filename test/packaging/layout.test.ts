// A LAYOUT CHECK ONLY, not an installer build: electron-builder packs the app for `--linux dir` (x64 and
// arm64) around a stub Electron (no Electron binary can be downloaded here), so the result cannot run. It
// proves what goes where: out/** and package.json inside app.asar, better-sqlite3 unpacked beside it
// with only the Node-API prebuild of the target platform (ABI-stable: Electron's Node loads it as plain
// Node does), the tray icons as extra resources, and the developer's node_modules untouched.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { listPackage, statFile } from '@electron/asar'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeDir } from '../support/built-server'

const run = promisify(execFile)
const ROOT = resolve(__dirname, '../..')
const PREBUILDS = 'node_modules/better-sqlite3/prebuilds'
const ARCHES = ['x64', 'arm64'] as const

let work: string
let resources: Record<(typeof ARCHES)[number], string>
let entries: Set<string>
const developerPrebuilds = () =>
  createHash('sha256')
    .update(readdirSync(join(ROOT, PREBUILDS)).sort().join('\n'))
    .update(readFileSync(join(ROOT, PREBUILDS, 'linux-x64.node')))
    .digest('hex')
const developerPrebuildsBefore = developerPrebuilds()

/** What a compiled module registers itself as, read from the file: Node-API modules export
 *  `napi_register_module_v1`, modules built against one Node ABI `node_register_module_v<ABI>`. */
function moduleInterface(file: string): { nodeApi: boolean; nodeAbi?: number } {
  const text = readFileSync(file).toString('latin1')
  const abi = /node_register_module_v(\d+)/.exec(text)
  return { nodeApi: text.includes('napi_register_module_v1'), ...(abi ? { nodeAbi: Number(abi[1]) } : {}) }
}

/** The ELF machine field: 0x3e x86-64, 0xb7 AArch64. */
const elfMachine = (file: string) => readFileSync(file).readUInt16LE(18)

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
  await run(
    process.execPath,
    [
      join(ROOT, 'node_modules/electron-builder/cli.js'),
      '--linux',
      'dir',
      '--x64',
      '--arm64',
      '--publish',
      'never',
      `-c.electronDist=${stubElectron}`,
      `-c.directories.output=${join(work, 'dist')}`
    ],
    { cwd: ROOT, timeout: 150_000, env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false' } }
  )
  resources = { x64: join(work, 'dist/linux-unpacked/resources'), arm64: join(work, 'dist/linux-arm64-unpacked/resources') }
  entries = new Set(listPackage(join(resources.x64, 'app.asar'), { isPack: false }))
}, 180_000)

afterAll(() => {
  if (work) removeDir(work)
})

describe('packaging layout (electron-builder --linux dir, stub Electron: layout check only)', () => {
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

  it('unpacks better-sqlite3 beside the archive: its JavaScript and the one prebuild of the target, no C sources', () => {
    for (const arch of ARCHES) {
      const unpackedDir = join(resources[arch], 'app.asar.unpacked/node_modules/better-sqlite3')
      expect(statFile(join(resources[arch], 'app.asar'), `${PREBUILDS}/linux-${arch}.node`)).toMatchObject({ unpacked: true })
      expect(readdirSync(unpackedDir).sort()).toEqual(['LICENSE', 'lib', 'package.json', 'prebuilds'])
      expect(readdirSync(join(unpackedDir, 'prebuilds'))).toEqual([`linux-${arch}.node`])
    }
    expect(entries.has('/node_modules/node-addon-api'), 'build-time headers').toBe(false)
  })

  it("ships the package's own Node-API prebuild for each arch, which loads in this Node (another ABI than Electron's)", () => {
    for (const arch of ARCHES) {
      const shipped = join(resources[arch], 'app.asar.unpacked', PREBUILDS, `linux-${arch}.node`)
      expect(readFileSync(shipped).equals(readFileSync(join(ROOT, PREBUILDS, `linux-${arch}.node`)))).toBe(true)
      expect(moduleInterface(shipped)).toEqual({ nodeApi: true })
      expect(elfMachine(shipped)).toBe(arch === 'x64' ? 0x3e : 0xb7)
    }
    const module = { exports: {} as Record<string, unknown> }
    process.dlopen(module, join(resources.x64, 'app.asar.unpacked', PREBUILDS, 'linux-x64.node'))
    expect(typeof module.exports.Database).toBe('function')
  })

  it('ships the tray icons of every LED colour and the window icon as extra resources', () => {
    const tray = readdirSync(join(resources.x64, 'tray'))
    for (const color of ['red', 'orange', 'green', 'gray']) {
      for (const name of [`${color}-16.png`, `${color}-16@2x.png`, `${color}-32.png`, `${color}-32@2x.png`]) expect(tray).toContain(name)
    }
    expect(existsSync(join(resources.x64, 'icon.png'))).toBe(true)
  })

  it("leaves the developer's better-sqlite3 alone", () => {
    expect(developerPrebuilds()).toBe(developerPrebuildsBefore)
  })
})
