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

export function readFirstLoad(rendererDir = RENDERER_DIR): FirstLoad {
  const index = join(rendererDir, 'index.html')
  if (!existsSync(index)) throw new Error(`${index} is missing: build the console first (npx electron-vite build)`)
  const entry = /<script type="module"[^>]*src="\.\/assets\/([\w.-]+\.js)"/.exec(readFileSync(index, 'utf8'))?.[1]
  if (!entry) throw new Error(`${index} has no module script`)
  const scripts = new Map<string, { code: string; bytes: number }>()
  const visit = (file: string) => {
    if (scripts.has(file)) return
    const path = join(rendererDir, 'assets', file)
    const code = readFileSync(path, 'utf8')
    scripts.set(file, { code, bytes: statSync(path).size })
    for (const imported of staticImports(code)) visit(imported)
  }
  visit(entry)
  return { entry, scripts }
}
