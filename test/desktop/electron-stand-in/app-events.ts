// Electron's Event as its listeners get it: preventDefault() and defaultPrevented.

export function preventableEvent(): Electron.Event {
  let prevented = false
  return {
    preventDefault: () => void (prevented = true),
    get defaultPrevented() {
      return prevented
    }
  } as Electron.Event
}

/** What a click with no modifier key held reports (tray and menu clicks). */
export const noModifierKeys: Electron.KeyboardEvent = {
  shiftKey: false,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  triggeredByAccelerator: false
}

/**
 * An emitter for the events of Electron's class T whose arguments the type-checker compares with
 * electron.d.ts: the real T's `on` must accept a listener of exactly the emitted argument types (its
 * overload for that event is found as for a call). Wrong types or extra arguments do not compile.
 */
export function electronEvents<T>() {
  return <E extends string, A extends unknown[]>(
    target: NodeJS.EventEmitter,
    event: E,
    ...args: A & (T extends { on(event: E, listener: (...args: A) => void): unknown } ? unknown : never)
  ): void => void target.emit(event, ...args)
}
