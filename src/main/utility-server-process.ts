// Electron adapter: the headless server (out/main/server.js) in an Electron utility process, behind
// the supervisor's ServerProcess interface. Its output goes to the log file.
import type { Writable } from 'node:stream'
import { utilityProcess } from 'electron'
import { STOP_REQUEST } from '../shared/desktop-api'
import type { ServerLauncher, ServerProcess } from './supervisor'

export function utilityServerLauncher(serverScript: string, log: Writable): ServerLauncher {
  return (args) => {
    const child = utilityProcess.fork(serverScript, args, { serviceName: 'Overseer server', stdio: 'pipe' })
    child.stdout?.pipe(log, { end: false })
    child.stderr?.pipe(log, { end: false })
    // A V8 fatal error in the server: without a listener, Electron's EventEmitter throws it in the main
    // process. The exit that follows is what the supervisor acts on (a crash: restart).
    child.on('error', (type, location, report) => {
      log.write(`${new Date().toISOString()} ERROR desktop: the server process ended with a ${type} at ${location}\n${report}\n`)
    })
    const process: ServerProcess = {
      get pid() {
        return child.pid
      },
      onMessage: (listener) => child.on('message', listener),
      onExit: (listener) => child.once('exit', (code) => listener(code)),
      // A message rather than kill(): kill() is SIGTERM on POSIX but a hard stop on Windows.
      terminate: () => child.postMessage(STOP_REQUEST),
      forceKill: () => void child.kill()
    }
    return process
  }
}
