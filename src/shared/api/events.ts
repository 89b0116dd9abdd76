// The contracts of reports/events/{list,get,summary,dismiss,note}, shared by the server and the console.
import { z } from 'zod'
import { sortedPageOf, type SortDir } from './common'

import type { EventSortKey } from './keys'

export { eventSortKeys, type EventSortKey } from './keys'

export const eventNote = z.object({ date: z.number().int(), uname: z.string(), message: z.string() })
export type EventNote = z.infer<typeof eventNote>

/** One record of reports/events/list. */
export const eventListEntry = z.object({
  id: z.number().int(),
  date: z.number().int(),
  hostname: z.string(),
  hostid: z.number().int(),
  servicename: z.string(),
  servicenameid: z.number().int(),
  event: z.string().describe("The agent's message (M/Monit's api/1 name for it)"),
  eventtype: z.number().int().describe("The same as `state` (M/Monit's api/1 name for it)"),
  note: z.number().int().describe('1 when the event has notes'),
  servicetype: z.number().int(),
  state: z.number().int().describe('0 success, 1 error, 2 change'),
  action: z.number().int(),
  message: z.string(),
  active: z.number().int().describe('1 while the error is current'),
  notes: z.array(eventNote).optional().describe("Ours, with notes=1: the event's notes, oldest first")
})
export type EventListEntry = z.infer<typeof eventListEntry>

export const eventListAnswer = sortedPageOf(eventListEntry)
/** As the server answers it: `sort` is one of the keys. */
export type EventPage = z.infer<typeof eventListAnswer> & { sort: EventSortKey; dir: SortDir }

/** reports/events/get (records.event) */
export const eventDetail = z.object({
  id: z.number().int(),
  hostid: z.number().int(),
  host: z.string(),
  date: z.number().int(),
  servicename: z.string(),
  servicetype: z.string().describe('The service type\'s label, e.g. "Process"'),
  event: z.string().describe('The event\'s text for its class and state, e.g. "Does not exist"'),
  eventstate: z.number().int(),
  action: z.string(),
  message: z.string(),
  note: z.array(eventNote),
  // Ours, additive: what a console needs to offer dismiss and link the service's other events.
  servicenameid: z.number().int(),
  active: z.number().int().describe('1 while the error is still failing'),
  dismissed: z.number().int()
})
export type EventDetail = z.infer<typeof eventDetail>

export const eventGetAnswer = z.object({ records: z.object({ event: eventDetail }) })
export type EventGetAnswer = z.infer<typeof eventGetAnswer>

/** 144 samples of 10 minutes over the last 24 hours; each pair is [sample start, count]. */
export const eventSummaryAnswer = z.object({
  datefrom: z.number().int(),
  dateto: z.number().int(),
  events: z.array(
    z.object({
      label: z.enum(['Failed', 'Changed', 'Succeeded']),
      data: z.array(z.tuple([z.number().int(), z.number().int()]))
    })
  )
})
export type EventSummary = z.infer<typeof eventSummaryAnswer>
