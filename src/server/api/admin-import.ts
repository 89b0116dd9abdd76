// admin/import/mmonit/start|status|cancel (issue 27, our extension): `overseer import-mmonit` run by the
// server itself for the console's first-run setup and Administration. The job (jobs/mmonit-import-job.ts)
// runs it on its own thread, one at a time; here the arguments are checked as the command line checks
// them, and the start is audited with the source's password removed.
import { arg } from '../../shared/api/args'
import { emptyAnswer } from '../../shared/api/common'
import { importStatusAnswer, MAX_SOURCE_LENGTH } from '../../shared/api/mmonit-import'
import { endpoint, type ApiEndpoint } from '../http/api'
import { badArgument, HttpError } from '../http/errors'
import { ImportBusyError, withoutPassword, type MMonitImportJob } from '../jobs/mmonit-import-job'
import { actorOf, detailOf } from './audit'
import type { ApiDeps } from './deps'

/** How long start waits for the import to open its source and claim the target, so that refusals come as its answer. */
const SETTLE_MS = 10_000

const SOURCE = /^(sqlite:.+|mysql:\/\/.+|postgres(ql)?:\/\/.+|https?:\/\/.+)$/i

export function adminImportEndpoints({ store, mmonitImport }: ApiDeps): ApiEndpoint[] {
  if (!mmonitImport) return []
  const job: MMonitImportJob = mmonitImport
  return [
    endpoint({
      path: 'admin/import/mmonit/start',
      summary: 'Starts importing M/Monit (its database or its HTTP API); answers once it has begun, ended or failed',
      extension: true,
      answer: importStatusAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: {
        source: arg.required(MAX_SOURCE_LENGTH),
        dryrun: arg.bool().optional(),
        merge: arg.bool().optional(),
        since: arg.text(40).optional(),
        nohistory: arg.bool().optional()
      },
      handle: async (ctx) => {
        const { params: p } = ctx
        const from = p.source.trim()
        if (!SOURCE.test(from))
          throw badArgument('source', 'expected sqlite:PATH, mysql://…, postgresql://… or an M/Monit URL https://user:password@host:port')
        if (!from.startsWith('sqlite:') && !URL.canParse(from)) throw badArgument('source', 'is not a valid URL')
        const since = p.since ? sinceOf(p.since) : undefined
        // The HTTP API has no statistics history to give (as --from-api).
        const history = !p.nohistory && !/^https?:/i.test(from)
        const request = { from, since, history, dryRun: p.dryrun ?? false, merge: p.merge ?? false }
        let status
        try {
          status = await job.start(request, ctx.principal.uname, SETTLE_MS)
        } catch (e) {
          if (e instanceof ImportBusyError) throw new HttpError(409, e.message)
          throw e
        }
        // Every import started is recorded, refused by its source or target or not: who, from where, how it began.
        store.auditLog.record(actorOf(ctx), {
          action: 'mmonit-import.start',
          target: `mmonit ${withoutPassword(from)}`,
          detail: detailOf({
            dryRun: request.dryRun,
            merge: request.merge,
            since: p.since,
            history,
            outcome: status.state,
            error: status.error
          })
        })
        if (status.state === 'failed' && status.errorStatus !== null)
          throw new HttpError(status.errorStatus, status.error ?? 'the import failed')
        return status
      }
    }),
    endpoint({
      path: 'admin/import/mmonit/status',
      summary: "The latest import's progress, report or error",
      extension: true,
      answer: importStatusAnswer,
      methods: ['GET'],
      access: 'admin',
      params: {},
      handle: () => job.status()
    }),
    endpoint({
      path: 'admin/import/mmonit/cancel',
      summary: 'Stops the running import after its current batch (409 when none runs)',
      extension: true,
      answer: emptyAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: {},
      handle: (ctx) => {
        if (!job.cancel()) throw new HttpError(409, 'no import is running')
        store.auditLog.record(actorOf(ctx), { action: 'mmonit-import.cancel', target: `mmonit ${job.status().source ?? ''}` })
        return {}
      }
    })
  ]
}

/** Unix seconds of a YYYY-MM-DD date (UTC midnight) or an ISO 8601 time, as --since takes it. */
function sinceOf(value: string): number {
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || !Number.isFinite(ms)) throw badArgument('since', 'expected YYYY-MM-DD or an ISO 8601 time')
  return Math.floor(ms / 1000)
}
