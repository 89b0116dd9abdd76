// Which Node ABI a compiled native module was built for, read from the file itself: Node's
// NODE_MODULE_INIT exports `node_register_module_v<ABI>`, a name ELF, PE and Mach-O files all keep as
// text. Electron 45 is ABI 150, Node 20 is 115; a module of another ABI fails to load. Checking it
// catches the silent trap of docs/development.md G6 (nodedir=/usr: an "Electron" build against Node's headers).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const REGISTER_SYMBOL = /node_register_module_v(\d+)/

export function nativeModuleAbi(file: string): number | undefined {
  const match = REGISTER_SYMBOL.exec(readFileSync(file).toString('latin1'))
  return match ? Number(match[1]) : undefined
}

export interface InstalledElectron {
  version: string
  abi: number
}

/** The Electron that electron-builder packages: the project's `electron` package. */
export function installedElectron(projectDir: string): InstalledElectron {
  const dir = join(projectDir, 'node_modules/electron')
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }
  return { version, abi: Number(readFileSync(join(dir, 'abi_version'), 'utf8').trim()) }
}
