// `Notification`: shown, or `failed` the way Electron ≥ 42 reports an unsigned macOS build.
import { EventEmitter } from 'node:events'
import type { Notification as ElectronNotification, NotificationConstructorOptions } from 'electron'
import { electronEvents, preventableEvent } from './app-events'
import { observer } from './observations'
import { standIn } from './settings'

const emitNotification = electronEvents<ElectronNotification>()

export class Notification extends EventEmitter implements Pick<ElectronNotification, 'show' | 'close' | 'title' | 'body'> {
  title: string
  body: string

  constructor(options: NotificationConstructorOptions = {}) {
    super()
    this.title = options.title ?? ''
    this.body = options.body ?? ''
  }

  static isSupported(): boolean {
    return true
  }

  show(): void {
    const failure = standIn.notificationFailure
    // Electron reports both asynchronously, after show() returned.
    setImmediate(() => {
      if (failure) {
        observer.record({ kind: 'notification-failed', title: this.title, error: failure })
        emitNotification(this, 'failed', preventableEvent(), failure)
      } else {
        observer.record({ kind: 'notification-shown', title: this.title, body: this.body })
        emitNotification(this, 'show', preventableEvent())
      }
    })
  }

  close(): void {
    emitNotification(this, 'close', preventableEvent())
  }
}
