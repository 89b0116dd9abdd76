// The program channel with real scripts in a temp dir: the environment and arguments it passes (read
// back from /proc/<pid>/environ, exactly as execve got them), stdin, exit status and stderr, output
// bounds, and a program (with a child) that outlives its timeout or an abort: killed, no orphan left.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertItem, AlertNotification } from '../../../../src/shared/api/alerts'
import type { SendContext } from '../../../../src/server/alerting/channel'
import { channelType } from '../../../../src/server/alerting/channels'
import { alertsJson, KILL_GRACE_MS, programChannel, programSettings, rfc2822 } from '../../../../src/server/alerting/channels/program'
import { waitFor } from '../../../support/wait'

const alert = (host: string, service: string, over: Partial<AlertItem> = {}): AlertItem => ({
  hostid: 1,
  host,
  serviceid: 2,
  service,
  servicetype: 3,
  event: 'Nonexist',
  state: 'failed',
  message: 'process is not running',
  date: 1_800_000_000,
  link: `http://overseer.test/#/events/${host}`,
  ...over
})
const one: AlertNotification = {
  id: 'n-7',
  summary: 'sleeper failed on web-1',
  link: 'http://overseer.test/#/events/web-1',
  alerts: [alert('web-1', 'sleeper')]
}
const message = { subject: '[Overseer] sleeper failed on web-1', body: 'sleeper failed on web-1\n* web-1 · sleeper\n' }
const ctx = (over: Partial<SendContext> = {}): SendContext => ({ signal: new AbortController().signal, ...over })

let dir: string

/** Writes an executable bash script; `@DIR@` in its text is the test's temp dir. */
function script(name: string, body: string, mode = 0o755): string {
  const file = path.join(dir, name)
  writeFileSync(file, `#!/bin/bash\n${body.replaceAll('@DIR@', dir)}\n`)
  chmodSync(file, mode)
  return file
}

function settings(args: Record<string, unknown>) {
  return programSettings.parse(args)
}

/** The process runs (a zombie no longer does: it waits only to be reaped). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z'
  } catch {
    return false
  }
}

function pidsOf(file: string): number[] {
  return readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).map(Number)
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'overseer-program-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('program channel', () => {
  it('is registered as the program type, with no secret', () => {
    expect(channelType('program')).toBe(programChannel)
    expect(programChannel.secretFields).toEqual([])
  })

  it('runs the program without a shell, with exactly PATH, MONIT_* and OVERSEER_* in its environment, the notification on stdin, output logged', async () => {
    const file = script(
      'record.sh',
      [
        'cat /proc/$$/environ > @DIR@/record.env',
        'printf \'%s\\0\' "$@" > @DIR@/record.args',
        'cat > @DIR@/record.stdin',
        'pwd > @DIR@/record.pwd',
        'echo "to stdout"',
        'echo "to stderr" >&2'
      ].join('\n')
    )
    const args = ['--to', 'ops team', '$(touch @DIR@/pwned)', '; rm -rf /', '"quoted"  ', ''].map((a) => a.replaceAll('@DIR@', dir))
    const r = await programChannel.send(settings({ path: file, arg: args }), one, message, ctx())
    expect(r.ok).toBe(true)
    expect(r.log).toMatch(/^exit status 0 after \d+ ms\nto stdout\nto stderr\n$/)

    const env = Object.fromEntries(
      readFileSync(path.join(dir, 'record.env'), 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((kv) => {
          const i = kv.indexOf('=')
          return [kv.slice(0, i), kv.slice(i + 1)]
        })
    )
    expect(env).toEqual({
      PATH: process.env.PATH,
      MONIT_HOST: 'web-1',
      MONIT_SERVICE: 'sleeper',
      MONIT_DESCRIPTION: 'process is not running',
      MONIT_EVENT: 'Nonexist',
      MONIT_DATE: 'Fri, 15 Jan 2027 08:00:00 +0000',
      MONIT_ACTION: 'alert',
      MONIT_STATE: 'failed',
      OVERSEER_NOTIFICATION_ID: 'n-7',
      OVERSEER_SUMMARY: 'sleeper failed on web-1',
      OVERSEER_LINK: 'http://overseer.test/#/events/web-1',
      OVERSEER_SUBJECT: message.subject,
      OVERSEER_MESSAGE: message.body,
      OVERSEER_ALERT_COUNT: '1',
      OVERSEER_ALERTS_JSON: JSON.stringify(one)
    })
    // The empty argument is dropped (as an empty form argument is); the others arrive verbatim.
    expect(readFileSync(path.join(dir, 'record.args'), 'utf8').split('\0').slice(0, -1)).toEqual(args.slice(0, 5))
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false)
    expect(JSON.parse(readFileSync(path.join(dir, 'record.stdin'), 'utf8'))).toEqual(one)
    expect(readFileSync(path.join(dir, 'record.pwd'), 'utf8')).toBe('/\n')
  })

  it('describes a grouped notification by its first alert in MONIT_*, and all of them in OVERSEER_ALERTS_JSON', async () => {
    const file = script('group.sh', 'cat /proc/$$/environ > @DIR@/group.env')
    const grouped: AlertNotification = {
      id: 'n-8',
      summary: '2 services failed on 2 hosts',
      link: 'http://overseer.test/#/events',
      alerts: [alert('db-1', 'mysqld', { state: 'succeeded', event: 'Connection', date: 1_800_000_060 }), alert('web-1', 'nginx')]
    }
    expect(await programChannel.send(settings({ path: file }), grouped, message, ctx())).toMatchObject({ ok: true })
    const env = readFileSync(path.join(dir, 'group.env'), 'utf8').split('\0')
    expect(env).toEqual(
      expect.arrayContaining([
        'MONIT_HOST=db-1',
        'MONIT_SERVICE=mysqld',
        'MONIT_EVENT=Connection',
        'MONIT_STATE=succeeded',
        'MONIT_DATE=Fri, 15 Jan 2027 08:01:00 +0000',
        'OVERSEER_ALERT_COUNT=2',
        `OVERSEER_ALERTS_JSON=${JSON.stringify(grouped)}`
      ])
    )
  })

  it('keeps OVERSEER_ALERTS_JSON within its bound for a storm (stdin has everything)', async () => {
    const storm: AlertNotification = {
      ...one,
      alerts: Array.from({ length: 2_000 }, (_, i) => alert(`host-${i}`, 'svc', { message: 'x'.repeat(100) }))
    }
    const json = alertsJson(storm)
    expect(json.length).toBeLessThanOrEqual(96 * 1024)
    const cut = JSON.parse(json) as AlertNotification
    expect(cut.alerts.length).toBeGreaterThan(100)
    expect(cut.alerts).toEqual(storm.alerts.slice(0, cut.alerts.length))
    const file = script('storm.sh', 'cat > @DIR@/storm.stdin; echo "$OVERSEER_ALERT_COUNT"')
    const r = await programChannel.send(settings({ path: file }), storm, message, ctx())
    expect(r).toMatchObject({ ok: true, log: expect.stringMatching(/\n2000\n$/) })
    expect(JSON.parse(readFileSync(path.join(dir, 'storm.stdin'), 'utf8'))).toEqual(storm)
  })

  it('says the exit status with the tail of stderr, output logged', async () => {
    const file = script('fail.sh', 'echo "trying"\necho "first problem" >&2\necho "cannot reach pager gateway" >&2\nexit 3')
    const r = await programChannel.send(settings({ path: file }), one, message, ctx())
    expect(r).toEqual({
      ok: false,
      error: `${file} exited with status 3: first problem / cannot reach pager gateway`,
      log: expect.stringMatching(/^exit status 3 after \d+ ms\ntrying\nfirst problem\ncannot reach pager gateway\n$/)
    })
  })

  it('does not wait for the output pipes held by a child left running after a successful exit', async () => {
    // The child holds the pipes past the timeout: waiting for them would end in "did not finish within 10 s".
    const file = script('daemon.sh', 'sleep 30 &\necho $! > @DIR@/daemon.pid\necho started')
    const r = await programChannel.send(settings({ path: file, timeout: 10 }), one, message, ctx())
    expect(r).toMatchObject({ ok: true, log: expect.stringContaining('started') })
    for (const pid of pidsOf(path.join(dir, 'daemon.pid'))) process.kill(pid, 'SIGKILL')
  })

  it('bounds the output it keeps to 64 KiB: the first and last 32 KiB', async () => {
    const file = script('chatty.sh', "echo BEGIN; head -c 300000 /dev/zero | tr '\\0' 'x'; echo; echo END")
    const r = await programChannel.send(settings({ path: file }), one, message, ctx())
    expect(r.ok).toBe(true)
    const log = r.log ?? ''
    expect(log.length).toBeLessThan(64 * 1024 + 200)
    expect(log).toMatch(/^exit status 0 after \d+ ms\nBEGIN\nx+\n\[… \d+ bytes of output left out …\]\nx+\nEND\n$/)
  })

  it('kills the program and its children when the timeout passes: nothing left running', async () => {
    const file = script('sleeper.sh', 'echo $$ > @DIR@/sleeper.pids\nsleep 30 &\necho $! >> @DIR@/sleeper.pids\necho waiting\nwait')
    const started = Date.now()
    const r = await programChannel.send(settings({ path: file, timeout: '1' }), one, message, ctx())
    const took = Date.now() - started
    expect(r).toMatchObject({
      ok: false,
      error: `${file} did not finish within 1 s: killed`,
      log: expect.stringMatching(/^killed after \d+ ms \(timeout 1 s\)\nwaiting\n$/)
    })
    expect(took).toBeGreaterThanOrEqual(1_000)
    const pids = pidsOf(path.join(dir, 'sleeper.pids'))
    expect(pids).toHaveLength(2)
    await waitFor('the script and its sleep to be gone', () => pids.every((p) => !running(p)), 2_000, 20)
  })

  it('kills with SIGKILL, after the grace, a program that ignores SIGTERM', async () => {
    const file = script(
      'stubborn.sh',
      "trap '' TERM\necho $$ > @DIR@/stubborn.pids\nsleep 30 &\necho $! >> @DIR@/stubborn.pids\nwait\nwait"
    )
    const started = Date.now()
    const r = await programChannel.send(settings({ path: file, timeout: 1 }), one, message, ctx())
    const took = Date.now() - started
    expect(r).toMatchObject({ ok: false, error: `${file} did not finish within 1 s: killed` })
    expect(took).toBeGreaterThanOrEqual(1_000 + KILL_GRACE_MS - 50)
    const pids = pidsOf(path.join(dir, 'stubborn.pids'))
    await waitFor('the stubborn script and its sleep to be gone', () => pids.every((p) => !running(p)), 2_000, 20)
  })

  it('kills the program when the delivery is aborted', async () => {
    const file = script('aborted.sh', 'echo $$ > @DIR@/aborted.pids\nsleep 30 &\necho $! >> @DIR@/aborted.pids\nwait')
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('server stopping')), 300)
    const r = await programChannel.send(settings({ path: file }), one, message, ctx({ signal: controller.signal }))
    expect(r).toMatchObject({ ok: false, error: `${file} aborted (server stopping): killed` })
    const pids = pidsOf(path.join(dir, 'aborted.pids'))
    await waitFor('the aborted script and its sleep to be gone', () => pids.every((p) => !running(p)), 2_000, 20)
  })

  it('says clearly when the path cannot be run', async () => {
    const run = async (p: string) => {
      const r = await programChannel.send(settings({ path: p }), one, message, ctx())
      return r.ok ? 'ok' : r.error
    }
    expect(await run(path.join(dir, 'missing.sh'))).toBe(`${path.join(dir, 'missing.sh')} does not exist`)
    const plain = script('not-executable.sh', 'exit 0', 0o644)
    expect(await run(plain)).toBe(`${plain} is not executable (mode 644)`)
    mkdirSync(path.join(dir, 'a-directory'))
    expect(await run(path.join(dir, 'a-directory'))).toBe(`${path.join(dir, 'a-directory')} is a directory, not an executable`)
    const noInterpreter = path.join(dir, 'no-interpreter.sh')
    writeFileSync(noInterpreter, '#!/nonexistent/interpreter\nexit 0\n', { mode: 0o755 })
    expect(await run(noInterpreter)).toBe(`${noInterpreter} cannot be started: it or its interpreter (#! line) does not exist`)
  })
})

describe('program settings', () => {
  const issue = (args: Record<string, unknown>) => {
    const r = programSettings.safeParse({ path: '/usr/local/bin/notify', ...args })
    return r.success ? undefined : `${String(r.error.issues[0].path[0])}: ${r.error.issues[0].message}`
  }

  it('takes form arguments and its stored JSON alike, timeout 30 s by default', () => {
    const parsed = programSettings.parse({ path: ' /usr/local/bin/notify ', arg: ['-v', ' spaced '] })
    expect(parsed).toEqual({ path: '/usr/local/bin/notify', arg: ['-v', ' spaced '], timeout: 30 })
    expect(programSettings.parse(JSON.parse(JSON.stringify(parsed)))).toEqual(parsed)
    expect(programSettings.parse({ path: '/bin/true', arg: 'one', timeout: ['5', '600'] })).toEqual({
      path: '/bin/true',
      arg: ['one'],
      timeout: 600
    })
  })

  it('refuses bad settings with clear messages', () => {
    expect(issue({ path: undefined })).toBe('path: is required')
    expect(issue({ path: 'notify.sh' })).toBe('path: expected the absolute path of an executable, such as /usr/local/bin/notify')
    expect(issue({ path: './bin/notify' })).toMatch(/^path: expected the absolute path/)
    expect(issue({ timeout: '0' })).toBe('timeout: expected a number of seconds from 1 to 600')
    expect(issue({ timeout: '601' })).toBe('timeout: expected a number of seconds from 1 to 600')
    expect(issue({ timeout: '1.5' })).toBe('timeout: expected a number of seconds from 1 to 600')
    expect(issue({ arg: 'a\u0000b' })).toMatch(/^arg: .*must not contain NUL/)
    expect(issue({ arg: Array.from({ length: 65 }, () => 'x') })).toBe('arg: at most 64 values')
  })

  it('formats MONIT_DATE as date -R does, in UTC', () => {
    expect(rfc2822(0)).toBe('Thu, 01 Jan 1970 00:00:00 +0000')
    expect(rfc2822(1_800_000_000)).toBe('Fri, 15 Jan 2027 08:00:00 +0000')
  })
})
