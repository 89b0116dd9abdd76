// The layers of src/server hold: the domain is pure, the wire format stands alone, the store knows
// nothing above it and is the only code that speaks SQL, the collector and the live stream do not lean
// on the HTTP app, and no module imports itself back through others.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importCycles, importGraph, type ImportGraph } from '../support/import-graph'

const SRC = resolve(__dirname, '../../src')
const graph = importGraph(SRC)

/** What the files under `folder` import from outside it (files, and packages as package:<name>). */
function importsOutOf(folder: string): string[] {
  const outside = new Set<string>()
  for (const [file, targets] of graph) {
    if (!file.startsWith(`${folder}/`)) continue
    for (const target of targets) if (!target.startsWith(`${folder}/`)) outside.add(target)
  }
  return [...outside].sort()
}

const under =
  (...folders: string[]) =>
  (target: string) =>
    folders.some((f) => target.startsWith(`${f}/`))
const otherThan = (allowed: (target: string) => boolean) => (targets: string[]) => targets.filter((t) => !allowed(t))

describe('server layers', () => {
  it('domain/ imports only shared/: pure rules, no storage, no packages', () => {
    expect(otherThan(under('shared'))(importsOutOf('server/domain'))).toEqual([])
  })

  it('monit/ (the Monit wire format) imports only shared/', () => {
    expect(otherThan(under('shared'))(importsOutOf('server/monit'))).toEqual([])
  })

  it('store/ imports only the domain, shared/ and packages: nothing from auth, history, http, api or the collector', () => {
    // worker-from-source.ts starts threads from sources (tests) and knows nothing of the server.
    const allowed = (t: string) => under('shared', 'server/domain')(t) || t.startsWith('package:') || t === 'server/worker-from-source.ts'
    expect(otherThan(allowed)(importsOutOf('server/store'))).toEqual([])
  })

  it('only store/ reaches SQLite or builds SQL (kysely, better-sqlite3)', () => {
    const sqlPackages = new Set(['package:kysely', 'package:better-sqlite3'])
    const users = [...graph].filter(([file, targets]) => !file.startsWith('server/store/') && targets.some((t) => sqlPackages.has(t)))
    expect(users.map(([file]) => file)).toEqual([])
  })

  it('no query is built or pragma run outside store/ (through store.db or store.sql either)', () => {
    const query = /\.(selectFrom|insertInto|updateTable|deleteFrom|pragma)\(/
    const outside = [...graph.keys()].filter((f) => f.startsWith('server/') && !f.startsWith('server/store/'))
    expect(outside.filter((f) => query.test(readFileSync(join(SRC, f), 'utf8')))).toEqual([])
  })

  it('shared/ imports nothing from the server, the shell or the console', () => {
    expect(importsOutOf('shared').filter(under('server', 'main', 'renderer', 'preload'))).toEqual([])
  })

  it.each(['server/collector', 'server/live', 'server/web'])('%s imports nothing from http/ (the fastify app)', (folder) => {
    expect(importsOutOf(folder).filter(under('server/http'))).toEqual([])
  })

  it('src/ has no import cycles (of imports that run when their importer loads)', () => {
    expect(importCycles(importGraph(SRC, ['.'], { dynamic: false }))).toEqual([])
  })
})

describe('importGraph', () => {
  it('leaves import() out when asked, and only it', () => {
    const root = mkdtempSync(join(tmpdir(), 'import-graph-'))
    try {
      writeFileSync(join(root, 'a.ts'), "import { b } from './b'\nexport const later = () => import('./c')\n")
      writeFileSync(join(root, 'b.ts'), 'export const b = 1\n')
      writeFileSync(join(root, 'c.ts'), "import './a'\n")
      expect(importGraph(root).get('a.ts')).toEqual(['b.ts', 'c.ts'])
      expect(importGraph(root, ['.'], { dynamic: false }).get('a.ts')).toEqual(['b.ts'])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})

describe('importCycles', () => {
  it('finds a cycle, and none in a tree', () => {
    const cyclic: ImportGraph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']]
    ])
    expect(importCycles(cyclic)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']])
    expect(
      importCycles(
        new Map([
          ['a.ts', ['b.ts', 'c.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', []]
        ])
      )
    ).toEqual([])
  })
})
