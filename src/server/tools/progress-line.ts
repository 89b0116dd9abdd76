// Progress of a long copy on stderr: one line redrawn in place on a terminal, with the time left at the
// table's rate so far; one line per table otherwise (a log file or a pipe gets no carriage returns).
import type { CopyProgress } from './migrate-database'

/** Redraws at most this often: a terminal that redraws on every batch slows the copy down. */
const REDRAW_MS = 100

export function progressLine(out: NodeJS.WriteStream): CopyProgress {
  let name = ''
  let total = 0
  let copied = 0
  let started = 0
  let drawnAt = 0
  const line = () => {
    const percent = total > 0 ? Math.floor((copied / total) * 100) : 100
    return `${name}: ${copied.toLocaleString('en')} / ${total.toLocaleString('en')} rows (${percent} %)`
  }
  const eta = () => {
    const seconds = (performance.now() - started) / 1000
    if (copied === 0 || copied >= total) return ''
    return `, ${duration(((total - copied) * seconds) / copied)} left`
  }
  const rate = () => {
    const seconds = (performance.now() - started) / 1000
    return seconds > 0 && copied > 0 ? `, ${Math.round(copied / seconds).toLocaleString('en')} rows/s` : ''
  }
  return {
    table(table, rows) {
      name = table
      total = rows
      copied = 0
      started = performance.now()
      drawnAt = 0
      if (out.isTTY) out.write(`\r\x1b[K${line()}`)
    },
    rows(n) {
      copied = n
      if (!out.isTTY || performance.now() - drawnAt < REDRAW_MS) return
      drawnAt = performance.now()
      out.write(`\r\x1b[K${line()}${eta()}`)
    },
    tableDone() {
      out.write(`${out.isTTY ? '\r\x1b[K' : ''}${line()}${rate()}\n`)
    }
  }
}

/** 1 h 05 min, 4 min 10 s, 12 s. */
export function duration(seconds: number): string {
  const s = Math.ceil(seconds)
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`
  if (s >= 60) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
  return `${s} s`
}
