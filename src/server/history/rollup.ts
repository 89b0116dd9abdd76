// The rollup: turns raw rows into minute blocks once their hour is over, minute blocks into hour
// blocks once their day is over, hour blocks into day blocks once their month is over; merges samples
// that arrive after their period was rolled (late or out of order) into every rolled level; prunes
// each level by its retention; hands freed pages back to the file system. It works in small steps
// (`step`), each one short transaction at most, so that the job can run it in bounded slices between
// the collector's requests. Progress is stored (settings table), so a restart resumes where it stood.
//
// Exactly once: a raw row is merged either by the roll of its hour (it existed, id ≤ the newest id
// when that roll started) or by the late scan (its id is past that, and its time before the rolled
// hour). The late scan only runs while no roll is under way, so a roll never reads blocks that change
// under it; a level is pruned only below what the next level already holds.
import type { HistoryStore } from '../store/history'
import type { SqlRunner } from '../store/sql'
import { decodeBlock, encodeBlock } from './block-codec'
import { BucketGrid, mergeBucketLists } from './buckets'
import {
  blockStart,
  blockStartsOverlapping,
  bucketSeconds,
  finerLevel,
  HOUR,
  nextBlockStart,
  ROLLED_LEVELS,
  slotOf,
  timeOfSlot,
  type RolledLevel
} from '../domain/history-levels'
import { decodeRawSamples } from './raw-samples'

/** An hour is rolled this long after it ended: most late posts have come by then (later ones merge as late). */
export const ROLL_GRACE_SECONDS = 120

const LATE_ROWS_PER_STEP = 200
const RAW_ROWS_PER_STEP = 25
const BLOCKS_PER_STEP = 250
const STATISTICS_PER_STEP = 16
const PRUNE_ROWS_PER_STEP = 500
const VACUUM_PAGES_PER_STEP = 128

type Phase =
  | { kind: 'idle' }
  | {
      kind: 'reading-raw'
      hour: number
      maxRawId: number
      blocks: Map<number, Buffer>
      /** The host being read (0: none yet), from which time on, into which grids; hosts go in id order */
      hostId: number
      from: number
      grids: Map<number, BucketGrid>
      afterHost: number
    }
  | { kind: 'writing-raw'; hour: number; blocks: [number, Buffer][]; next: number }
  | { kind: 'rolling'; level: 'hour' | 'day'; start: number; end: number; afterId: number; maxId: number }

/** What a step did; 'idle' when there was nothing to do. */
export type StepResult = 'late' | 'read' | 'wrote' | 'rolled' | 'pruned' | 'vacuumed' | 'idle'

export class Rollup {
  private phase: Phase = { kind: 'idle' }
  /** The last hour rolled from raw rows had none: the next start looks for the end of the gap first. */
  private rawHourWasEmpty = false
  private readonly canVacuum: boolean

  constructor(
    private readonly history: HistoryStore,
    private readonly sql: SqlRunner
  ) {
    this.canVacuum = sql.canVacuum()
  }

  /** Does one bounded piece of work at server time `now` (unix seconds). */
  step(now: number): StepResult {
    try {
      switch (this.phase.kind) {
        case 'reading-raw':
          return this.readRawHost(this.phase)
        case 'writing-raw':
          return this.writeRawBlocks(this.phase)
        case 'rolling':
          return this.rollChunk(this.phase)
        case 'idle':
          return this.startWork(now)
      }
    } catch (err) {
      // A roll is redone from its start: its writes replace whole blocks, so redoing is harmless.
      this.phase = { kind: 'idle' }
      throw err
    }
  }

  /** Steps until `budgetMs` is spent or nothing is left; true when work remains (the job's slice). */
  slice(now: number, budgetMs: number): boolean {
    const started = performance.now()
    do {
      if (this.step(now) === 'idle') return false
    } while (performance.now() - started < budgetMs)
    return true
  }

  /** Runs steps until there is nothing left to do (tests, benchmarks); returns how many ran. */
  runToIdle(now: number): number {
    let steps = 0
    while (this.step(now) !== 'idle') steps++
    return steps
  }

  private startWork(now: number): StepResult {
    this.startLevels()
    if (this.mergeLateRows(now)) return 'late'
    if (this.startRawRoll(now)) return 'read'
    if (this.startLevelRoll('hour') || this.startLevelRoll('day')) return 'rolled'
    if (this.prune(now)) return 'pruned'
    if (this.vacuum()) return 'vacuumed'
    return 'idle'
  }

  // -------------------------------------------------------------------------------------------
  // Late rows

  /** Merges raw rows that arrived after their hour was rolled; false when none were waiting. */
  private mergeLateRows(now: number): boolean {
    const { raw, settings } = this.history
    const progress = settings.progress()
    const rows = raw.after(progress.lateScanId, LATE_ROWS_PER_STEP)
    if (rows.length === 0) return false
    const rolled = progress.rolledUntil
    const cuts = retentionCuts(settings.retention(), now)
    this.sql.transaction(() => {
      // Per level and block start, the grids of the statistics whose blocks there get late samples.
      const blocksTouched = new Map<string, { level: RolledLevel; start: number; grids: Map<number, BucketGrid> }>()
      for (const row of rows) {
        if (rolled.minute === null || row.time >= rolled.minute) continue
        decodeRawSamples(row.samples, (id, value) => {
          for (const level of ROLLED_LEVELS) {
            const until = rolled[level]
            if (until === null || row.time >= until || row.time < cuts[level]) continue
            const start = blockStart(level, row.time)
            const key = `${level} ${start}`
            let entry = blocksTouched.get(key)
            if (!entry) blocksTouched.set(key, (entry = { level, start, grids: new Map() }))
            let grid = entry.grids.get(id)
            if (!grid) entry.grids.set(id, (grid = new BucketGrid(bucketSeconds[level])))
            grid.addSample(row.time, value)
          }
        })
      }
      for (const { level, start, grids: ofBlock } of blocksTouched.values()) this.mergeIntoBlocks(level, start, ofBlock)
      settings.setLateScanId(rows[rows.length - 1].id)
    })
    return true
  }

  /** Merges grids into the stored blocks at one start, read in one query: a round trip per block was the PostgreSQL rollup's time. */
  private mergeIntoBlocks(level: RolledLevel, start: number, grids: Map<number, BucketGrid>): void {
    const { blocks } = this.history
    const stored = new Map(blocks.atStart(level, start, [...grids.keys()]).map((row) => [row.statistic_id, row.buckets]))
    for (const [id, grid] of grids) {
      const bytes = stored.get(id)
      const before = bytes ? decodeBlock(bytes, (slot) => timeOfSlot(level, start, slot)) : []
      const merged = mergeBucketLists(before, grid.sorted())
      blocks.put(
        level,
        start,
        id,
        encodeBlock(merged, (t) => slotOf(level, start, t))
      )
    }
  }

  // -------------------------------------------------------------------------------------------
  // raw → minute, one hour at a time

  /** Levels start at the block of the oldest raw sample: nothing older can be missed. */
  private startLevels(): void {
    const { raw, settings } = this.history
    if (settings.progress().rolledUntil.minute !== null) return
    const oldest = raw.oldestTime()
    if (oldest === undefined) return
    this.sql.transaction(() => {
      for (const level of ROLLED_LEVELS) settings.setRolledUntil(level, blockStart(level, oldest))
    })
  }

  private startRawRoll(now: number): boolean {
    const { raw, settings } = this.history
    const hour = settings.progress().rolledUntil.minute
    if (hour === null) return false
    if (now < hour + HOUR + ROLL_GRACE_SECONDS) return false
    // The late scan just caught up, so every row up to the newest is either in this hour's roll or
    // was already merged; rows after it are the late scan's once this hour is rolled.
    const maxRawId = raw.newest()
    if (this.rawHourWasEmpty && this.skipEmptyHours(hour, maxRawId, now)) return true
    settings.setLateScanId(maxRawId)
    this.phase = { kind: 'reading-raw', hour, maxRawId, blocks: new Map(), hostId: 0, from: hour, grids: new Map(), afterHost: 0 }
    return true
  }

  /**
   * After an empty hour (the server was off, agents were silent), marks every hour up to the next raw row
   * rolled at once rather than reading each one's hosts: a gap of months was thousands of steps. Rows
   * that arrive later for those hours are late rows, merged like any other (mergeLateRows).
   */
  private skipEmptyHours(hour: number, maxRawId: number, now: number): boolean {
    const { raw, settings } = this.history
    this.rawHourWasEmpty = false
    const next = raw.firstTimeFrom(hour, maxRawId)
    const rollable = blockStart('minute', now - ROLL_GRACE_SECONDS)
    const until = Math.min(next === undefined ? rollable : blockStart('minute', next), rollable)
    if (until <= hour) return false
    this.sql.transaction(() => {
      settings.setLateScanId(maxRawId)
      settings.setRolledUntil('minute', until)
    })
    return true
  }

  /** Reads a few of the hour's raw rows of one host (hosts in id order). */
  private readRawHost(phase: Extract<Phase, { kind: 'reading-raw' }>): StepResult {
    const { raw } = this.history
    if (phase.hostId === 0) {
      const [next] = raw.hostIdsAfter(phase.afterHost, 1)
      if (next === undefined) {
        const blocks = [...phase.blocks].sort((a, b) => a[0] - b[0])
        this.phase = { kind: 'writing-raw', hour: phase.hour, blocks, next: 0 }
        return 'read'
      }
      phase.hostId = next
      phase.from = phase.hour
      phase.grids = new Map()
    }
    const rows = raw.ofHost(phase.hostId, phase.from, phase.hour + HOUR, phase.maxRawId, RAW_ROWS_PER_STEP)
    for (const row of rows) {
      decodeRawSamples(row.samples, (id, value) => {
        let grid = phase.grids.get(id)
        if (!grid) phase.grids.set(id, (grid = new BucketGrid(bucketSeconds.minute)))
        grid.addSample(row.time, value)
      })
    }
    if (rows.length === RAW_ROWS_PER_STEP) {
      phase.from = rows[rows.length - 1].time + 1
      return 'read'
    }
    // A statistic belongs to one host: once the host is read, its minute blocks are complete.
    for (const [id, grid] of phase.grids)
      phase.blocks.set(
        id,
        encodeBlock(grid.sorted(), (t) => slotOf('minute', phase.hour, t))
      )
    phase.afterHost = phase.hostId
    phase.hostId = 0
    return 'read'
  }

  /** Writes the hour's blocks in statistic order (appends: full pages), then marks the hour rolled. */
  private writeRawBlocks(phase: Extract<Phase, { kind: 'writing-raw' }>): StepResult {
    const { blocks, settings } = this.history
    const last = Math.min(phase.blocks.length, phase.next + BLOCKS_PER_STEP)
    this.sql.transaction(() => {
      for (let i = phase.next; i < last; i++) blocks.put('minute', phase.hour, phase.blocks[i][0], phase.blocks[i][1])
      if (last === phase.blocks.length) settings.setRolledUntil('minute', phase.hour + HOUR)
    })
    this.rawHourWasEmpty = phase.blocks.length === 0
    phase.next = last
    if (last === phase.blocks.length) this.phase = { kind: 'idle' }
    return 'wrote'
  }

  // -------------------------------------------------------------------------------------------
  // minute → hour (a day at a time), hour → day (a month at a time)

  private startLevelRoll(level: 'hour' | 'day'): boolean {
    const { settings } = this.history
    const rolled = settings.progress().rolledUntil
    const start = rolled[level]
    const finer = finerLevel[level] as RolledLevel
    const finerUntil = rolled[finer]
    if (start === null || finerUntil === null) return false
    const end = nextBlockStart(level, start)
    if (finerUntil < end) return false
    // No finer block in this one: on to the block of the next finer one (or as far as the finer level is
    // rolled) in one write, rather than a step per empty day or month.
    const nextFiner = this.history.blocks.firstStartFrom(finer, start)
    if (nextFiner === undefined || nextFiner >= end) {
      const rolledFiner = blockStart(level, finerUntil)
      settings.setRolledUntil(level, nextFiner === undefined ? rolledFiner : Math.min(blockStart(level, nextFiner), rolledFiner))
      return true
    }
    const maxId = this.history.series.maxId()
    this.phase = { kind: 'rolling', level, start, end, afterId: 0, maxId }
    return true
  }

  private rollChunk(phase: Extract<Phase, { kind: 'rolling' }>): StepResult {
    const { blocks, settings } = this.history
    const { level, start, end } = phase
    const finer = finerLevel[level] as RolledLevel
    const fromId = phase.afterId + 1
    const toId = phase.afterId + STATISTICS_PER_STEP
    const grids = new Map<number, BucketGrid>()
    for (const finerStart of blockStartsOverlapping(finer, start, end)) {
      for (const row of blocks.range(finer, finerStart, fromId, toId)) {
        let grid = grids.get(row.statistic_id)
        if (!grid) grids.set(row.statistic_id, (grid = new BucketGrid(bucketSeconds[level])))
        for (const b of decodeBlock(row.buckets, (slot) => timeOfSlot(finer, finerStart, slot))) grid.add(b)
      }
    }
    const done = toId >= phase.maxId
    this.sql.transaction(() => {
      for (const id of [...grids.keys()].sort((a, b) => a - b)) {
        blocks.put(
          level,
          start,
          id,
          encodeBlock(grids.get(id)!.sorted(), (t) => slotOf(level, start, t))
        )
      }
      if (done) settings.setRolledUntil(level, end)
    })
    phase.afterId = toId
    if (done) this.phase = { kind: 'idle' }
    return 'rolled'
  }

  // -------------------------------------------------------------------------------------------
  // Retention and space

  private prune(now: number): boolean {
    const { raw, blocks, settings } = this.history
    const { rolledUntil, lateScanId } = settings.progress()
    const cuts = retentionCuts(settings.retention(), now)
    return this.sql.transaction(() => {
      // Raw rows go once rolled into minutes and seen by the late scan; a level's blocks once the next
      // level holds their period.
      if (rolledUntil.minute !== null && raw.prune(Math.min(cuts.raw, rolledUntil.minute), lateScanId, PRUNE_ROWS_PER_STEP) > 0) return true
      for (const level of ROLLED_LEVELS) {
        const next = level === 'minute' ? rolledUntil.hour : level === 'hour' ? rolledUntil.day : Number.MAX_SAFE_INTEGER
        if (next === null) continue
        if (blocks.prune(level, Math.min(blockStart(level, cuts[level]), next), PRUNE_ROWS_PER_STEP) > 0) return true
      }
      return false
    })
  }

  private vacuum(): boolean {
    return this.canVacuum && this.sql.vacuumStep(VACUUM_PAGES_PER_STEP)
  }
}

/** Per level, the oldest time it keeps at `now`. */
export function retentionCuts(retention: Record<'raw' | RolledLevel, number>, now: number): Record<'raw' | RolledLevel, number> {
  return {
    raw: now - retention.raw,
    minute: now - retention.minute,
    hour: now - retention.hour,
    day: now - retention.day
  }
}
