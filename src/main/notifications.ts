// Electron adapter: native notifications for server alerts, throttled, opening the event on click.
import { Notification } from 'electron'
import type { DesktopAlert, DesktopNotification } from '../shared/desktop-api'
import { alertNotification, alertSubject, channelNotification, heldBackNotification, type NotificationContent } from './alert-notification'
import { defaultThrottle, NotificationThrottle } from './notification-throttle'

export interface NotifierOptions {
  /** The user's setting and the tray's pause, combined. */
  enabled(): boolean
  origin(): string
  log(line: string): void
  /** Shows the console window at `url`. */
  open(url: string): void
}

export class AlertNotifier {
  private readonly throttle = new NotificationThrottle(defaultThrottle)
  /** Electron drops the click handler of a notification that was garbage-collected: keep them. */
  private readonly visible = new Set<Notification>()
  private readonly summaryTimer: NodeJS.Timeout

  constructor(private readonly options: NotifierOptions) {
    this.summaryTimer = setInterval(() => this.showHeldBack(), defaultThrottle.windowMs)
  }

  notify(alert: DesktopAlert): void {
    if (!this.options.enabled() || !Notification.isSupported()) return
    if (this.throttle.admit(alertSubject(alert), Date.now())) this.show(alertNotification(alert, this.options.origin()))
  }

  /** Alert rules group and pace their own notifications: no throttle here. */
  notifyChannel(notification: DesktopNotification): void {
    if (!this.options.enabled() || !Notification.isSupported()) return
    this.show(channelNotification(notification, this.options.origin()))
  }

  dispose(): void {
    clearInterval(this.summaryTimer)
  }

  private showHeldBack(): void {
    const held = this.throttle.takeHeldBack()
    if (held > 0 && this.options.enabled()) this.show(heldBackNotification(held, this.options.origin()))
  }

  private show(content: NotificationContent): void {
    const notification = new Notification({ title: content.title, body: content.body })
    this.visible.add(notification)
    notification.on('click', () => {
      this.visible.delete(notification)
      this.options.open(content.url)
    })
    notification.on('close', () => this.visible.delete(notification))
    // Electron ≥ 42 on macOS shows notifications only from a signed app; an unsigned build gets this.
    notification.on('failed', (_event, error) => {
      this.visible.delete(notification)
      this.options.log(`a notification could not be shown ("${content.title}"): ${error}`)
    })
    notification.show()
  }
}
