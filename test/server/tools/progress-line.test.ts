// The progress line of migrate and import-mmonit: redrawn in place with the time left on a terminal,
// one line per table in a log.
import { describe, expect, it, vi } from 'vitest'
import { duration, progressLine } from '../../../src/server/tools/progress-line'

function stream(isTTY: boolean) {
  const written: string[] = []
  return { written, out: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream }
}

describe('progress line', () => {
  it('shows the time left at the rate so far on a terminal', () => {
    const now = vi.spyOn(performance, 'now')
    now.mockReturnValue(1000)
    const { out, written } = stream(true)
    const progress = progressLine(out)
    progress.table('events', 1000)
    now.mockReturnValue(11_000) // 10 s for the first quarter: 30 s left
    progress.rows(250)
    expect(written.at(-1)).toBe('\r\x1b[Kevents: 250 / 1,000 rows (25 %), 30 s left')
    now.mockReturnValue(21_000)
    progress.rows(1000)
    expect(written.at(-1)).toBe('\r\x1b[Kevents: 1,000 / 1,000 rows (100 %)')
    progress.tableDone()
    expect(written.at(-1)).toBe('\r\x1b[Kevents: 1,000 / 1,000 rows (100 %), 50 rows/s\n')
    now.mockRestore()
  })

  it('writes one line per table to a log', () => {
    const { out, written } = stream(false)
    const progress = progressLine(out)
    progress.table('hosts', 2)
    progress.rows(1)
    progress.rows(2)
    progress.tableDone()
    expect(written).toHaveLength(1)
    expect(written[0]).toMatch(/^hosts: 2 \/ 2 rows \(100 %\)/)
  })

  it.each([
    [12, '12 s'],
    [250.2, '4 min 11 s'],
    [3900, '1 h 05 min']
  ])('spells %d s as %s', (seconds, text) => expect(duration(seconds)).toBe(text))
})
