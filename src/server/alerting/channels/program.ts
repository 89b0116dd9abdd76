// The `program` channel (issue 13): runs an executable, as M/Monit's "execute" action does, with the
// alert in its environment (MONIT_* as M/Monit documents them, plus MONIT_STATE and OVERSEER_*), and the
// whole notification as JSON on its standard input. No shell: the path and each argument go to execve
// as they are, so nothing in an alert can inject a command.
//
// The environment is built from nothing but PATH and the variables below: the server's own environment
// may hold secrets (OVERSEER_INIT_ADMIN's password, cloud credentials, tokens of the service manager)
// that a notification script has no business seeing, and an explicit environment makes the program
// behave the same whichever way the server was started. A program that needs more sets it itself.
//
// The program runs in its own process group (session) and in `/`; on timeout or abort the whole group
// gets SIGTERM, then SIGKILL after a short grace, so a script's children (a `sleep`, a `curl`) die with it.
// Output (stdout and stderr as they interleave) is kept up to 64 KiB (the first and last 32 KiB) for
// the delivery log. Exit status 0 is delivered; anything else is an error with the tail of stderr.
import { spawn, type ChildProcess } from 'node:child_process'
import { constants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import { programSettings, type ProgramSettings } from '../../../shared/alert-channel-settings/program'
import type { AlertItem, AlertNotification } from '../../../shared/api/alerts'
import type { ChannelType, RenderedMessage, SendContext, SendResult } from '../channel'

/** From SIGTERM to SIGKILL of the process group. */
export const KILL_GRACE_MS = 1_000
/** Output kept for the log: the first and the last half. */
export const OUTPUT_LIMIT = 64 * 1024
/** OVERSEER_ALERTS_JSON at most (Linux refuses an environment string over 128 KiB); stdin has it all. */
export const ALERTS_JSON_LIMIT = 96 * 1024
/** Any other variable at most. */
const VALUE_LIMIT = 16 * 1024
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

// The settings' rules are shared with the console (its tests read them from here).
export { programSettings }

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** RFC 2822 date in UTC, as `date -R -u` prints it: `Fri, 15 Jan 2027 08:00:00 +0000`. */
export function rfc2822(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000)
  const p = (n: number) => String(n).padStart(2, '0')
  return `${DAYS[d.getUTCDay()]}, ${p(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`
}

function bounded(s: string, max = VALUE_LIMIT): string {
  const clean = s.replace(/\u0000/g, '')
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}

/** The notification as JSON, its alert list cut (from the end) until it fits `limit` characters. */
export function alertsJson(notification: AlertNotification, limit = ALERTS_JSON_LIMIT): string {
  let json = JSON.stringify(notification)
  let n = notification.alerts.length
  while (json.length > limit && n > 0) {
    n = Math.min(n - 1, Math.floor((n * limit) / json.length))
    json = JSON.stringify({ ...notification, alerts: notification.alerts.slice(0, n) })
  }
  return json.length > limit
    ? JSON.stringify({ id: notification.id, summary: bounded(notification.summary, 1024), link: notification.link, alerts: [] })
    : json
}

/**
 * The program's whole environment. MONIT_* describe the notification's first alert (a grouped
 * notification lists all of them in OVERSEER_ALERTS_JSON and on stdin).
 */
export function programEnvironment(
  notification: AlertNotification,
  message: RenderedMessage,
  path = process.env.PATH
): Record<string, string> {
  const first: Partial<AlertItem> = notification.alerts[0] ?? {}
  const env: Record<string, string> = {
    PATH: path || DEFAULT_PATH,
    MONIT_HOST: bounded(first.host ?? ''),
    MONIT_SERVICE: bounded(first.service ?? ''),
    MONIT_DESCRIPTION: bounded(first.message ?? ''),
    MONIT_EVENT: bounded(first.event ?? ''),
    MONIT_DATE: first.date !== undefined ? rfc2822(first.date) : '',
    // M/Monit passes the action Monit took; an alert rule's program is always run for an alert.
    MONIT_ACTION: 'alert',
    MONIT_STATE: first.state ?? '',
    OVERSEER_NOTIFICATION_ID: bounded(notification.id),
    OVERSEER_SUMMARY: bounded(notification.summary),
    OVERSEER_LINK: bounded(notification.link),
    OVERSEER_SUBJECT: bounded(message.subject),
    OVERSEER_MESSAGE: bounded(message.body),
    OVERSEER_ALERT_COUNT: String(notification.alerts.length),
    OVERSEER_ALERTS_JSON: alertsJson(notification)
  }
  // Windows cannot start most programs without these; they hold no secrets.
  if (process.platform === 'win32') {
    for (const k of ['SystemRoot', 'SYSTEMROOT', 'windir', 'PATHEXT', 'TEMP', 'TMP', 'ComSpec']) {
      const v = process.env[k]
      if (v !== undefined) env[k] = v
    }
  }
  return env
}

/** Keeps the first and last halves of a stream of bytes, and how much was left out between them. */
class Capture {
  private head: Buffer[] = []
  private headBytes = 0
  private tail: Buffer[] = []
  private tailBytes = 0
  private skipped = 0
  constructor(
    private readonly headLimit: number,
    private readonly tailLimit: number
  ) {}

  add(chunk: Buffer): void {
    if (this.headBytes < this.headLimit) {
      const take = chunk.subarray(0, this.headLimit - this.headBytes)
      this.head.push(take)
      this.headBytes += take.length
      chunk = chunk.subarray(take.length)
      if (chunk.length === 0) return
    }
    this.tail.push(chunk)
    this.tailBytes += chunk.length
    while (this.tailBytes > this.tailLimit) {
      const over = this.tailBytes - this.tailLimit
      const first = this.tail[0]
      if (first.length <= over) {
        this.tail.shift()
        this.tailBytes -= first.length
        this.skipped += first.length
      } else {
        this.tail[0] = first.subarray(over)
        this.tailBytes -= over
        this.skipped += over
      }
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8')
    const tail = Buffer.concat(this.tail).toString('utf8')
    if (this.skipped === 0) return head + tail
    return this.headLimit > 0 ? `${head}\n[… ${this.skipped} bytes of output left out …]\n${tail}` : `…${tail}`
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    if (process.platform === 'win32') {
      spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => {})
    } else {
      process.kill(-child.pid, signal)
    }
  } catch {
    // the group is gone already
  }
}

function groupAlive(pid: number): boolean {
  if (process.platform === 'win32') return false
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Why the path cannot be run, in plain words; undefined when it looks runnable. */
async function unrunnable(path: string): Promise<string | undefined> {
  try {
    const st = await stat(path)
    if (st.isDirectory()) return `${path} is a directory, not an executable`
    if (!st.isFile()) return `${path} is not a regular file`
    if (process.platform !== 'win32') {
      try {
        await access(path, constants.X_OK)
      } catch {
        return `${path} is not executable (mode ${(st.mode & 0o777).toString(8).padStart(3, '0')})`
      }
    }
    return undefined
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return `${path} does not exist`
    if (code === 'EACCES') return `${path} cannot be reached (permission denied)`
    return `${path}: ${(err as Error).message}`
  }
}

function spawnError(path: string, err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOENT':
      return `${path} cannot be started: it or its interpreter (#! line) does not exist`
    case 'EACCES':
      return `${path} cannot be started: permission denied`
    case 'ENOEXEC':
      return `${path} cannot be started: not an executable format (a script needs a #! line)`
    default:
      return `${path} cannot be started: ${err.message}`
  }
}

function tailOf(s: string, max = 300): string {
  const t = s
    .trim()
    .replace(/\s*\n\s*/g, ' / ')
    .replace(/[ \t]+/g, ' ')
  return t.length > max ? `…${t.slice(t.length - max)}` : t
}

async function send(
  settings: ProgramSettings,
  notification: AlertNotification,
  message: RenderedMessage,
  context: SendContext
): Promise<SendResult> {
  const path = settings.path
  if (context.signal.aborted) return { ok: false, error: `${path} not started: aborted` }
  const problem = await unrunnable(path)
  if (problem) return { ok: false, error: problem }

  const started = Date.now()
  const output = new Capture(OUTPUT_LIMIT / 2, OUTPUT_LIMIT / 2)
  const stderrTail = new Capture(0, 1024)
  let child: ChildProcess
  try {
    child = spawn(path, settings.arg, {
      env: programEnvironment(notification, message),
      cwd: '/',
      shell: false,
      detached: process.platform !== 'win32',
      windowsHide: true,
      stdio: ['pipe', 'pipe', 'pipe']
    })
  } catch (err) {
    return { ok: false, error: spawnError(path, err as NodeJS.ErrnoException) }
  }

  return new Promise<SendResult>((resolve) => {
    let stopped: 'timeout' | 'abort' | undefined
    let settled = false
    let graceTimer: NodeJS.Timeout | undefined
    let graceEnds = 0
    let hardKilled = false
    const killHard = () => {
      clearTimeout(graceTimer)
      if (hardKilled) return
      hardKilled = true
      killGroup(child, 'SIGKILL')
    }

    const stop = (why: 'timeout' | 'abort') => {
      if (stopped || settled) return
      stopped = why
      killGroup(child, 'SIGTERM')
      graceEnds = Date.now() + KILL_GRACE_MS
      graceTimer = setTimeout(killHard, KILL_GRACE_MS)
      graceTimer.unref()
    }
    const timer = setTimeout(() => stop('timeout'), settings.timeout * 1000)
    const onAbort = () => stop('abort')
    context.signal.addEventListener('abort', onAbort, { once: true })

    child.stdout?.on('data', (c: Buffer) => output.add(c))
    child.stderr?.on('data', (c: Buffer) => {
      output.add(c)
      stderrTail.add(c)
    })
    // A program that does not read its input closes the pipe: not an error.
    child.stdin?.on('error', () => {})
    child.stdin?.end(JSON.stringify(notification))

    const finish = (result: SendResult) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      context.signal.removeEventListener('abort', onAbort)
      resolve(result)
    }
    const log = (first: string) => {
      const out = output.text()
      return out ? `${first}\n${out}` : first
    }

    child.once('error', (err: NodeJS.ErrnoException) => {
      // Failed to start (no 'exit' follows), or failed to be killed (ignored: the group kill stands).
      if (child.pid === undefined) finish({ ok: false, error: spawnError(path, err) })
    })

    child.once('exit', (code, signal) => {
      void (async () => {
        if (stopped && child.pid !== undefined && !hardKilled) {
          // The leader is gone after SIGTERM; its children get the rest of the grace, then SIGKILL.
          // (After SIGKILL nothing is waited for: it cannot be refused, and a killed child may stay a
          // zombie for a while until init reaps it, which the group check cannot tell from running.)
          while (groupAlive(child.pid) && Date.now() < graceEnds) await sleep(20)
          if (groupAlive(child.pid)) killHard()
          clearTimeout(graceTimer)
        }
        // Let the pipes drain; a child left running that holds them open is not waited for.
        await Promise.race([new Promise((r) => child.once('close', r)), sleep(200)])
        child.stdout?.destroy()
        child.stderr?.destroy()
        const ms = Date.now() - started
        if (stopped === 'timeout') {
          return finish({
            ok: false,
            error: `${path} did not finish within ${settings.timeout} s: killed`,
            log: log(`killed after ${ms} ms (timeout ${settings.timeout} s)`)
          })
        }
        if (stopped === 'abort') {
          const reason = context.signal.reason instanceof Error ? context.signal.reason.message : ''
          return finish({
            ok: false,
            error: `${path} aborted${reason ? ` (${reason})` : ''}: killed`,
            log: log(`killed after ${ms} ms (aborted)`)
          })
        }
        if (code === 0) return finish({ ok: true, log: log(`exit status 0 after ${ms} ms`) })
        const stderr = tailOf(stderrTail.text())
        if (code !== null) {
          return finish({
            ok: false,
            error: `${path} exited with status ${code}${stderr ? `: ${stderr}` : ''}`,
            log: log(`exit status ${code} after ${ms} ms`)
          })
        }
        return finish({
          ok: false,
          error: `${path} was killed by ${signal}${stderr ? `: ${stderr}` : ''}`,
          log: log(`killed by ${signal} after ${ms} ms`)
        })
      })()
    })
  })
}

export const programChannel: ChannelType<ProgramSettings> = {
  type: 'program',
  settings: programSettings,
  secretFields: [],
  send
}
