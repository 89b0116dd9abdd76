// The shell's decisions live in modules that plain Node can load (the Electron binary cannot run here,
// and importing 'electron' from Node tries to download it). Only the thin adapters may import it.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const MAIN = resolve(__dirname, '../../src/main')
const ADAPTERS = [
  'dialogs.ts',
  'index.ts',
  'ipc.ts',
  'notifications.ts',
  'security.ts',
  'tray.ts',
  'utility-server-process.ts',
  'windows-session-end.ts'
]
const importsElectron = (file: string) => /^import (?!type )[^\n]*from 'electron'/m.test(readFileSync(join(MAIN, file), 'utf8'))

describe('src/main', () => {
  it('imports electron only from its adapters', () => {
    const files = readdirSync(MAIN).filter((f) => f.endsWith('.ts'))
    expect(files.filter(importsElectron).sort()).toEqual(ADAPTERS)
  })

  it('keeps the server free of electron', () => {
    const server = resolve(__dirname, '../../src/server')
    const sources = readdirSync(server, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))
    expect(sources.filter((f) => /from 'electron'/.test(readFileSync(join(server, f), 'utf8')))).toEqual([])
  })
})
