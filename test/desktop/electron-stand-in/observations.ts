// What the stand-in Electron saw the app do, in order: the test's view of the screen. In the app
// process (register.ts) each observation is also sent to the test over the IPC channel.
import { EventEmitter } from 'node:events'

export type Observation =
  | { kind: 'window-created'; window: number; preload: string | undefined; sandbox: boolean | undefined }
  | { kind: 'window-load'; window: number; url: string }
  | { kind: 'window-load-failed'; window: number; url: string; errorCode: number }
  | { kind: 'window-shown'; window: number }
  | { kind: 'window-focused'; window: number }
  | { kind: 'window-hidden'; window: number }
  | { kind: 'window-reloaded'; window: number }
  | { kind: 'tray-image'; file: string; empty: boolean }
  | { kind: 'tray-tooltip'; text: string }
  | { kind: 'tray-menu'; labels: string[] }
  | { kind: 'notification-shown'; title: string; body: string }
  | { kind: 'notification-failed'; title: string; error: string }
  | { kind: 'dialog'; title: string; message: string; buttons: string[] }
  | { kind: 'utility-process-forked'; pid: number; modulePath: string; args: string[] }
  | { kind: 'utility-process-exited'; pid: number; code: number }
  | { kind: 'login-item-set'; settings: Electron.Settings }
  | { kind: 'second-instance'; argv: string[] }
  | { kind: 'quit' }

class Observer extends EventEmitter<{ observed: [Observation] }> {
  readonly seen: Observation[] = []

  record(observation: Observation): void {
    this.seen.push(observation)
    this.emit('observed', observation)
  }
}

export const observer = new Observer()
