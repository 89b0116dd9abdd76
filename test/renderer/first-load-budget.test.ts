// The console's first load, read from the built renderer (out/renderer, `npx electron-vite build`): the
// entry script index.html starts stays under 500 kB, the scripts it imports statically (all loaded before
// any screen shows) under their own budget, zod stays out of them, and every screen is a chunk of its own
// loaded when its route is opened (app/routes.ts). A static import of a screen or of a zod schema from the
// frame would put the console back over its budget: this fails first.
import { describe, expect, it } from 'vitest'
import { chunkName, lazyChunks, readFirstLoad } from '../support/first-load'

/** Vite's kB, as its build prints them. */
const KB = 1000
const ENTRY_BUDGET = 500 * KB
/** Everything before the first screen: the entry and its static imports (601 kB when the budget was set). */
const FIRST_LOAD_BUDGET = 650 * KB

describe('the console’s first load (built renderer)', () => {
  const { entry, scripts } = readFirstLoad()
  const sizes = [...scripts].map(([file, { bytes }]) => `${file} ${(bytes / KB).toFixed(1)} kB`).join(', ')

  it('starts with an entry script under 500 kB', () => {
    expect(scripts.get(entry)!.bytes, sizes).toBeLessThan(ENTRY_BUDGET)
  })

  it('loads under its budget before the first screen', () => {
    const total = [...scripts.values()].reduce((sum, s) => sum + s.bytes, 0)
    expect(total, sizes).toBeLessThan(FIRST_LOAD_BUDGET)
  })

  it('leaves zod out of it', () => {
    // zod 4 names its errors and schema classes in strings that survive minification.
    for (const [file, { code }] of scripts) expect(code.includes('ZodError') || code.includes('$ZodType'), file).toBe(false)
  })

  it('loads each screen with its route, admin screens included', () => {
    const lazy = [...lazyChunks({ entry, scripts }).keys()]
    const screens = ['dashboard', 'hosts-list', 'host-detail', 'service-detail', 'events', 'uptime', 'admin-users', 'admin-alerts']
    expect(lazy).toEqual(expect.arrayContaining(screens))
    expect([...scripts.keys()].map(chunkName).filter((name) => screens.includes(name))).toEqual([])
  })
})
