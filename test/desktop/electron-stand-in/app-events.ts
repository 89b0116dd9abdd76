// Electron's Event as its listeners get it: preventDefault() and defaultPrevented.

export function preventableEvent(): Electron.Event {
  let prevented = false
  return { preventDefault: () => void (prevented = true), get defaultPrevented() { return prevented } } as Electron.Event
}
