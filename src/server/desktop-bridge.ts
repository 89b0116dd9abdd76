// Tells the desktop shell (the parent process) what its tray and notifications need: how many hosts
// show each LED, new error events and hosts going silent, and whether the first-run setup is pending.
// Electron-free: the parent is reached through Node's IPC channel (child_process.fork) or Electron's
// utility-process port, whichever this process has.
import type { AlertNotification } from '../shared/api/alerts'
import { EventClassId, EventState, Led } from '../shared/codes'
import type { LiveChange, LiveEvent } from '../shared/live'
import { STOP_REQUEST, type DesktopAlert, type LedCounts, type ServerToShellMessage } from '../shared/desktop-api'
import type { RenderedMessage } from './alerting/channel'
import type { ChangeFeed } from './live/change-feed'
import type { Store } from './store/store'

export interface ParentChannel {
  /** Resolves once the message is handed to the parent (so that the process may exit right after). */
  send(message: ServerToShellMessage): Promise<void>
  /** Calls `listener` when the parent asks for a clean shutdown or goes away. */
  onStopRequest(listener: () => void): void
}

interface UtilityParentPort {
  postMessage(message: unknown): void
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown
}

/** The channel to the process that started this one, if it gave us one. */
export function parentChannel(): ParentChannel | undefined {
  if (process.send) {
    return {
      send: (message) =>
        new Promise<void>((done) => {
          // A parent that is gone is not an error worth failing for: the server keeps collecting.
          if (!process.connected) return done()
          process.send!(message, undefined, undefined, () => done())
        }),
      // A parent that disappears (the shell crashed) must not leave an orphan server behind.
      onStopRequest: (listener) => process.on('disconnect', listener)
    }
  }
  const port = (process as { parentPort?: UtilityParentPort }).parentPort
  if (port) {
    return {
      send: (message) => {
        port.postMessage(message)
        return new Promise<void>((done) => setImmediate(done))
      },
      // Electron's utility process has no SIGTERM on Windows: the shell asks with a message instead.
      onStopRequest: (listener) => {
        port.on('message', ({ data }) => {
          if ((data as { type?: unknown } | null)?.type === STOP_REQUEST.type) listener()
        })
      }
    }
  }
  return undefined
}

const ledNames: Record<number, keyof LedCounts> = { [Led.Red]: 'red', [Led.Orange]: 'orange', [Led.Green]: 'green', [Led.Gray]: 'gray' }
const ledName = (led: number): keyof LedCounts => ledNames[led] ?? 'gray'

/** Hosts per LED colour, kept up to date one host at a time (a change costs O(1), not a count of all hosts). */
class LedTally {
  private readonly ledByHost = new Map<number, keyof LedCounts>()
  private readonly counts: LedCounts = { red: 0, orange: 0, green: 0, gray: 0 }

  get current(): LedCounts {
    return { ...this.counts }
  }

  /** True when the host's colour changed. */
  set(hostId: number, led: number): boolean {
    const before = this.ledByHost.get(hostId)
    const after = ledName(led)
    if (before === after) return false
    if (before) this.counts[before]--
    this.counts[after]++
    this.ledByHost.set(hostId, after)
    return true
  }

  /** True when the host was counted. */
  remove(hostId: number): boolean {
    const before = this.ledByHost.get(hostId)
    if (!before) return false
    this.counts[before]--
    this.ledByHost.delete(hostId)
    return true
  }

  apply(change: LiveChange): boolean {
    switch (change.kind) {
      case 'host-changed':
      case 'heartbeat':
        return this.set(change.hostId, change.led)
      case 'host-removed':
        return this.remove(change.hostId)
      default:
        return false
    }
  }
}

/**
 * Subscribes to the change feed and forwards what the shell needs; returns the unsubscribe function.
 * Every failed event becomes a native notification until an enabled `desktop` alert channel exists:
 * from then on its rules decide (grouping, mutes, inhibition), and a second notification per event
 * would only repeat them.
 */
export function startDesktopBridge(store: Store, feed: ChangeFeed, parent: ParentChannel): () => void {
  const channels = store.alertChannels
  const tally = new LedTally()
  for (const host of store.status.hostPage({}, 'hostname', 'asc', 0, Number.MAX_SAFE_INTEGER)) {
    tally.set(host.id, host.led)
  }
  void parent.send({ type: 'setup', needed: store.users.count() === 0 })
  void parent.send({ type: 'hosts', leds: tally.current })
  return feed.subscribe(({ change }) => {
    if (change.kind === 'event') {
      const alert = alertOf(change)
      if (alert && !channels.anyEnabled('desktop')) void parent.send({ type: 'alert', alert })
    } else if (tally.apply(change)) {
      void parent.send({ type: 'hosts', leds: tally.current })
    }
  })
}

function alertOf(change: Extract<LiveChange, { kind: 'event' }>): DesktopAlert | undefined {
  const event: LiveEvent = change.event
  if (event.state !== EventState.Failed) return undefined
  return {
    kind: event.eventClass === EventClassId.Heartbeat ? 'host-dead' : 'error',
    eventId: event.id,
    hostId: change.hostId,
    hostname: change.hostname,
    service: event.service,
    eventClass: event.eventClass,
    message: event.message,
    date: event.date
  }
}

/** The `desktop` alert channel's way to the shell (SendContext.desktop): the rendered text becomes a native notification. */
export function desktopNotifier(parent: ParentChannel): (notification: AlertNotification, message: RenderedMessage) => boolean {
  return (notification, message) => {
    void parent.send({
      type: 'notification',
      notification: { id: notification.id, title: message.subject, body: message.body, link: notification.link }
    })
    return true
  }
}
