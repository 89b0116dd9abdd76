// Packaging's native-module checks (scripts/electron-native): which ABI a compiled module is for, read
// from the real better-sqlite3 build, and the refusal to ship a module Electron could not load.
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { installNativeModule } from '../../scripts/electron-native/after-pack'
import { installedElectron, nativeModuleAbi } from '../../scripts/electron-native/native-abi'
import { removeDir } from '../support/built-server'

const ROOT = resolve(__dirname, '../..')
const NODE_BUILD = join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')
let dir: string | undefined

afterEach(() => {
  if (dir) removeDir(dir)
  dir = undefined
})

describe('native module ABI', () => {
  it("reads the ABI a module was built for: the developer's better-sqlite3 is Node's", () => {
    expect(nativeModuleAbi(NODE_BUILD)).toBe(Number(process.versions.modules))
    expect(nativeModuleAbi(join(ROOT, 'package.json'))).toBeUndefined()
  })

  it("knows the packaged Electron's version and ABI", () => {
    expect(installedElectron(ROOT)).toEqual({ version: '45.4.1', abi: 150 })
  })

  it("refuses to put a module of another ABI into the app (a build against Node's headers, docs/development.md G6)", () => {
    dir = mkdtempSync(join(tmpdir(), 'overseer-native-'))
    const destination = join(dir, 'better_sqlite3.node')
    expect(() => installNativeModule(NODE_BUILD, destination, 150)).toThrow(
      `${NODE_BUILD} is built for ABI ${process.versions.modules}, but the packaged Electron needs ABI 150: it would fail to load in the app`
    )
    expect(existsSync(destination)).toBe(false)
    installNativeModule(NODE_BUILD, destination, Number(process.versions.modules))
    expect(existsSync(destination)).toBe(true)
  })
})
