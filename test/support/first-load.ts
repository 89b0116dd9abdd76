// What the browser loads of the built console (out/renderer) before any screen shows: the entry script
// index.html names and every chunk it imports statically, with their sizes. Read by the first-load budget
// test and the console benchmark.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const RENDERER_DIR = resolve(__dirname, '../../out/renderer')

export interface FirstLoad {
  entry: string
  /** Every script of the first load (the entry first), with its code and size in bytes. */
  scripts: Map<string, { code: string; bytes: number }>
}

/** The chunk files a chunk imports statically (`import{…}from"./x.js"`, `import"./x.js"`), not its import() calls. */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom|\bimport)\s*["'`]\.\/([\w.-]+\.js)["'`]/g)].map((m) => m[1])
}

/** A chunk's name without its hash: host-detail-<8 characters>.js is host-detail (chunks are named after their module). */
export const chunkName = (file: string) => file.replace(/-[\w-]{8}\.js$/, '')

/** The chunks the entry loads with import(), by name: each route's screen. */
export function lazyChunks({ entry, scripts }: FirstLoad): Map<string, string> {
  const imports = scripts.get(entry)!.code.matchAll(/import\(\s*["'`]\.\/([\w.-]+\.js)["'`]\s*\)/g)
  return new Map([...imports].map((m) => [chunkName(m[1]), m[1]]))
}

/** The bytes of every script a screen needs: the first load, its chunk and the chunks that one imports statically. */
export function screenScriptBytes(screenChunk: string, rendererDir = RENDERER_DIR): number {
  const load = readFirstLoad(rendererDir)
  const file = lazyChunks(load).get(screenChunk)
  if (!file) throw new Error(`no chunk named ${screenChunk} is loaded with a route`)
  const screen = readScripts(rendererDir, file, new Map(load.scripts))
  return [...screen.values()].reduce((sum, s) => sum + s.bytes, 0)
}

function readScripts(rendererDir: string, first: string, scripts: Map<string, { code: string; bytes: number }>) {
  const visit = (file: string) => {
    if (scripts.has(file)) return
    const path = join(rendererDir, 'assets', file)
    const code = readFileSync(path, 'utf8')
    scripts.set(file, { code, bytes: statSync(path).size })
    for (const imported of staticImports(code)) visit(imported)
  }
  visit(first)
  return scripts
}

export function readFirstLoad(rendererDir = RENDERER_DIR): FirstLoad {
  const index = join(rendererDir, 'index.html')
  if (!existsSync(index)) throw new Error(`${index} is missing: build the console first (npx electron-vite build)`)
  const entry = /<script type="module"[^>]*src="\.\/assets\/([\w.-]+\.js)"/.exec(readFileSync(index, 'utf8'))?.[1]
  if (!entry) throw new Error(`${index} has no module script`)
  return { entry, scripts: readScripts(rendererDir, entry, new Map()) }
}
