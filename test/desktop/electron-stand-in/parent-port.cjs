// Loaded (--require) into the server the stand-in forks: gives it Electron's utility-process side,
// `process.parentPort` (postMessage out, {data} events in), instead of Node's process.send, so the
// server takes the branch it takes under Electron. Plain JS: the server runs under plain node.
'use strict'
const { EventEmitter } = require('node:events')

// Worker threads inherit --require but have no IPC channel: only the main thread gets a port.
if (process.send) {
  const send = process.send.bind(process)
  const parentPort = new EventEmitter()
  parentPort.postMessage = (message) => send(message)
  process.on('message', (data) => parentPort.emit('message', { data, ports: [] }))
  // Electron ends its utility processes with the main process; a forked child would outlive it.
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'))
  process.send = undefined
  process.parentPort = parentPort
}
