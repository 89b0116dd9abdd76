// The import graph of a source tree, read with the TypeScript compiler's own import scanner: every
// `import`, `import type`, `export … from` and `import()`. A relative path is resolved to its file; a
// package stays as `package:<specifier>` (e.g. package:kysely, package:node:fs).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

/** Paths relative to the root, '/'-separated: file → the files and packages it imports. */
export type ImportGraph = Map<string, string[]>

/**
 * The graph of the files under `folders` of `root` (all of it by default); keys relative to `root`.
 * `dynamic: false` leaves out `import()`: a module loaded later, once its importer has run, cannot
 * take part in an initialisation cycle (the console's routes load their screens so, and screens read
 * their route).
 */
export function importGraph(root: string, folders = ['.'], { dynamic = true } = {}): ImportGraph {
  const graph: ImportGraph = new Map()
  const files = folders
    .flatMap((folder) => readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' }).map((f) => join(folder, f)))
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
  for (const file of files) {
    const abs = join(root, file)
    const text = readFileSync(abs, 'utf8')
    const { importedFiles } = ts.preProcessFile(text, true, true)
    const kept = dynamic
      ? importedFiles
      : importedFiles.filter(({ pos }) => !/\bimport\s*\(\s*$/.test(text.slice(Math.max(0, pos - 40), pos)))
    const targets = kept.map(({ fileName: name }) => {
      if (!name.startsWith('.')) return `package:${name}`
      // A bundler query (e.g. `./ingest-worker?modulePath`) still names the file before it.
      const target = resolveSource(resolve(dirname(abs), name.replace(/\?.*$/, '')))
      if (!target) throw new Error(`${file}: cannot resolve ${name}`)
      return toKey(root, target)
    })
    graph.set(toKey(root, abs), [...new Set(targets)])
  }
  return graph
}

function resolveSource(base: string): string | undefined {
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find((f) => existsSync(f) && /\.(tsx?|css|svg|png|json)$/.test(f))
}

function toKey(root: string, file: string): string {
  return relative(root, file).split('\\').join('/')
}

/** Every cycle found by a depth-first walk, each as the files around it (first file repeated at the end). */
export function importCycles(graph: ImportGraph): string[][] {
  const cycles: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    path.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next])
      else if (!state.has(next)) visit(next)
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file)
  return cycles
}
