// The JSON shapes of our reports/events/{list,get,note} answers, shared by the server and the console.

/** One record of reports/events/list. */
export interface EventListEntry {
  id: number
  date: number
  hostname: string
  hostid: number
  servicename: string
  servicenameid: number
  /** The agent's message (M/Monit's api/1 name for it) */
  event: string
  /** The same as `state` (M/Monit's api/1 name for it) */
  eventtype: number
  /** 1 when the event has notes */
  note: number
  servicetype: number
  /** 0 success, 1 error, 2 change */
  state: number
  action: number
  message: string
  /** 1 while the error is current */
  active: number
}

export interface EventNote {
  date: number
  uname: string
  message: string
}

/** reports/events/get (records.event) */
export interface EventDetail {
  id: number
  hostid: number
  host: string
  date: number
  servicename: string
  /** The service type's label, e.g. "Process" */
  servicetype: string
  /** The event's text for its class and state, e.g. "Does not exist" */
  event: string
  eventstate: number
  action: string
  message: string
  note: EventNote[]
  // Ours, additive: what a console needs to offer dismiss and link the service's other events.
  servicenameid: number
  /** 1 while the error is still failing */
  active: number
  dismissed: number
}
