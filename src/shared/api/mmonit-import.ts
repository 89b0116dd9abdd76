// admin/import/mmonit/start|status|cancel (issue 27, our extension): M/Monit's data imported by the
// running server, one import at a time, as `overseer import-mmonit` does it. The console's form and
// progress read these shapes; the source is always shown without its password.
import { z } from 'zod'

export const importStates = ['idle', 'running', 'done', 'failed', 'cancelled'] as const
export type ImportState = (typeof importStates)[number]

/** One kind of record: what M/Monit held, what was imported, what was left out and why. */
export const importStepReport = z.object({
  name: z.string(),
  expected: z.number().int(),
  imported: z.number().int(),
  skipped: z.array(z.object({ what: z.string(), why: z.string(), rows: z.number().int().optional() })),
  warnings: z.array(z.string())
})
export type ImportStepReport = z.infer<typeof importStepReport>

export const importReport = z.object({
  schemaVersion: z.number().int(),
  dryRun: z.boolean(),
  steps: z.array(importStepReport),
  seconds: z.number(),
  /** What the source cannot give at all (the HTTP API: statistics history, alert rules …). */
  limits: z.array(z.string())
})
export type ImportReportShape = z.infer<typeof importReport>

/** The latest import (or none): its progress while it runs, its report or error once it ended. */
export const importStatusAnswer = z.object({
  state: z.enum(importStates),
  /** The source with its password removed. */
  source: z.string().nullable(),
  dryRun: z.boolean(),
  merge: z.boolean(),
  startedBy: z.string().nullable(),
  /** Unix seconds. */
  startedAt: z.number().int().nullable(),
  /** The step under way (hosts, events …), and its place among the steps. */
  step: z.string().nullable(),
  stepIndex: z.number().int(),
  stepCount: z.number().int(),
  /** The current step's source rows read so far, and how many it counted before it began. */
  rows: z.number().int(),
  expected: z.number().int(),
  /** Seconds the current step still needs at its pace so far; null until it can tell. */
  etaSeconds: z.number().nullable(),
  report: importReport.nullable(),
  /** Why it failed, and the HTTP status the start would have answered with. */
  error: z.string().nullable(),
  errorStatus: z.number().int().nullable()
})
export type ImportStatus = z.infer<typeof importStatusAnswer>

/** The longest source URL accepted: longer is no database URL (and would be kept in memory as status). */
export const MAX_SOURCE_LENGTH = 2048
