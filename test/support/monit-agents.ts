// Starts real Monit 5.33 agents on 127.0.0.1 for integration tests, following the recipe of
// docs/agent-protocol.md §7. Linux only; needs /usr/bin/monit and /usr/bin/perl
// (perl-base is an essential Debian package).
//
// Process tree per agent: node → reaper (perl) → monit -I → start/stop programs.
// Zombies: the sleeper's start program backgrounds `sleep` and exits, so the sleeper is orphaned.
// Orphans go to the nearest "child subreaper", otherwise to PID 1. In containers whose PID 1 does not
// reap (no init), a killed sleeper would stay a zombie: Monit reports "process with pid N is a zombie"
// (event 2048) before "process is not running" (512), and `kill(pid, 0)` keeps succeeding (agent protocol §7.4
// item 4). So the reaper makes itself a subreaper: every descendant of the agent is reaped at once, and
// the reaper exits only when all of them are gone.
// Abandoned fleets: vitest ends its workers with a signal, so process.on('exit') does not run there.
// The reaper therefore asks for SIGTERM when its parent dies, and then kills all its descendants.
// Both need prctl; on an architecture missing from PRCTL_SYSCALL the harness works without them.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { freePorts } from './ports'

const MONIT = '/usr/bin/monit'
const PERL = '/usr/bin/perl'
const PRCTL_SYSCALL: Partial<Record<NodeJS.Architecture, number>> = { x64: 157, arm64: 167 }
const STOP_GRACE_MS = 5_000
const HTTPD_READY_MS = 10_000

// argv: prctl syscall number (0: none), then the monit command line.
// stdout protocol: the monit pid on the first line, `exit <wait status>` when monit has been reaped.
// After SIGTERM every reaped child triggers a new sweep, which catches descendants orphaned meanwhile.
const REAPER_SCRIPT = String.raw`
my ($nr, @cmd) = @ARGV;
if ($nr) {
  syscall($nr, 36, 1, 0, 0, 0);  # PR_SET_CHILD_SUBREAPER
  syscall($nr, 1, 15, 0, 0, 0);  # PR_SET_PDEATHSIG, SIGTERM
}
$| = 1;
my $pid = fork() // die "fork: $!\n";
if (!$pid) { open(STDOUT, '>&', \*STDERR); exec { $cmd[0] } @cmd; die "exec $cmd[0]: $!\n" }
my $dying = 0;
sub kill_children {
  for my $stat (glob '/proc/[0-9]*/stat') {
    open(my $f, '<', $stat) or next;
    my ($child, $ppid) = (<$f> // '') =~ /^(\d+) .*\) \S+ (\d+) /;
    kill 'KILL', $child if defined $ppid && $ppid == $$;
  }
}
$SIG{PIPE} = 'IGNORE';
$SIG{TERM} = sub { $dying = 1; kill_children() };
print "$pid\n";
while ((my $p = wait()) > 0) { print "exit $?\n" if $p == $pid; kill_children() if $dying }
`

export interface AgentOptions {
  /**
   * `set mmonit` URL, e.g. http://user:pass@127.0.0.1:PORT/collector (credentials: letters and digits). Absent:
   * no `set mmonit`, an agent that only serves its httpd (a pulled agent, issue 30 §1).
   */
  collectorUrl?: string
  count: number
  /** Agent i listens on baseHttpdPort + i - 1. Default: free ports chosen by the OS. */
  baseHttpdPort?: number
  /** `set daemon` period in seconds; also the heartbeat period. Default 1. */
  poll?: number
  /** Adds `and register without credentials`: no `<credentials>` in the payloads. */
  withoutCredentials?: boolean
  /** Agent i is named `${namePrefix}${i}` (its `check system` name). Default `agent`. */
  namePrefix?: string
  /** More control-file text (checks) appended after the standard services. */
  extraChecks?: string
  /**
   * What Monit does when the sleeper is gone: `restart` (default, Monit's implicit rule) starts it again
   * on the same cycle; `alert` only reports it, so it stays failed until startSleeper().
   */
  sleeperOnFailure?: 'restart' | 'alert'
  /** SSL options of the `set mmonit` statement for an https:// collector, e.g. `verify: enable, cacertificatefile: FILE`. */
  collectorSsl?: string
  /** The httpd serves HTTPS (`with ssl { pemfile }`): key and certificate in one file, mode 0600 at most. */
  httpdSsl?: { pemfile: string }
}

export interface RunningAgent {
  /** 1-based */
  readonly index: number
  /** 32 hex digits, unique per test run; the payloads' `<monit id>`. */
  readonly id: string
  readonly name: string
  readonly dir: string
  readonly httpdPort: number
  /** PID of the current `monit -I` process; changes on restart. */
  pid: number
  readonly httpdUser: 'admin'
  readonly httpdPassword: 'adminpw'
  readonly rcFile: string
  /** The httpd serves HTTPS (httpdSsl). */
  readonly httpdSsl: boolean
}

export interface AgentFleet {
  readonly agents: RunningAgent[]
  /** SIGTERM (the agent sends "Monit 5.33.0 stopped"), then SIGKILL after 5 s. */
  stop(agent: RunningAgent): Promise<void>
  /** SIGKILL: a crash, no goodbye message. */
  kill(agent: RunningAgent): Promise<void>
  /** Stop, then start again with the same dir, id and event queue but without the state file. */
  restart(agent: RunningAgent): Promise<void>
  /** `monit -c rc reload`: same pid, new incarnation, event "Monit reloaded". */
  reload(agent: RunningAgent): Promise<void>
  /** PID of the running sleeper, if there is one. */
  sleeperPid(agent: RunningAgent): number | undefined
  /** SIGKILL the sleeper: event "process is not running", then Monit restarts it. */
  killSleeper(agent: RunningAgent): void
  /** `monit start sleeper`: the agent runs its start program (event "start action done", then "process is running"). */
  startSleeper(agent: RunningAgent): Promise<void>
  /** Append to watched.txt: event "checksum changed" on the next cycle. */
  touchWatched(agent: RunningAgent): void
  /** Stop every agent and sleeper, wait until all are reaped, remove the directories. Idempotent. */
  shutdown(): Promise<void>
}

interface Instance {
  reaper: ChildProcess
  reaperExited: Promise<void>
  monitPid: number
  monitAlive: boolean
  monitExited: Promise<void>
}

interface AgentState {
  agent: RunningAgent
  /** Every instance started; older reapers stay alive while they still hold a sleeper. */
  instances: Instance[]
}

// Ids are printf '%032x' (seed + n): a random seed per test run, a counter across fleets.
const idSeed = BigInt(`0x${randomBytes(15).toString('hex')}`)
let idCounter = 0

// Safety net for a test run that ends without shutdown(): 'exit' handlers must be synchronous, so
// this only kills, monit first so that it cannot restart the sleeper. The reapers are left alone:
// they reap both and then exit by themselves.
const live = new Set<AgentState>()
process.on('exit', () => {
  for (const state of live) {
    for (const inst of state.instances) if (inst.monitAlive) signal(inst.monitPid, 'SIGKILL')
    const sleeper = readSleeperPid(state.agent)
    if (sleeper !== undefined) signal(sleeper, 'SIGKILL')
  }
})

export async function startAgents(opts: AgentOptions): Promise<AgentFleet> {
  const indexes = Array.from({ length: opts.count }, (_, k) => k + 1)
  const base = opts.baseHttpdPort
  const ports = base === undefined ? await freePorts(opts.count) : indexes.map((i) => base + i - 1)
  const states: AgentState[] = indexes.map((index) => ({
    agent: prepareAgent(index, ports[index - 1], opts),
    instances: []
  }))
  for (const state of states) live.add(state)

  const byAgent = new Map(states.map((s) => [s.agent, s]))
  const stateOf = (agent: RunningAgent): AgentState => {
    const state = byAgent.get(agent)
    if (!state) throw new Error(`${agent.name} does not belong to this fleet`)
    return state
  }
  let shuttingDown: Promise<void> | undefined
  const fleet: AgentFleet = {
    agents: states.map((s) => s.agent),
    stop: (agent) => stopInstance(current(stateOf(agent)), 'SIGTERM'),
    kill: (agent) => stopInstance(current(stateOf(agent)), 'SIGKILL'),
    restart: async (agent) => {
      const state = stateOf(agent)
      await stopInstance(current(state), 'SIGTERM')
      // A kept state file would restore monitor flags left by earlier actions; the queue is kept like a real restart.
      fs.rmSync(path.join(agent.dir, 'monit.state'), { force: true })
      await launch(state)
    },
    reload: (agent) => runMonit(['-c', agent.rcFile, 'reload']),
    sleeperPid: (agent) => readSleeperPid(stateOf(agent).agent),
    killSleeper: (agent) => {
      const pid = readSleeperPid(stateOf(agent).agent)
      if (pid !== undefined) signal(pid, 'SIGKILL')
    },
    startSleeper: (agent) => runMonit(['-c', stateOf(agent).agent.rcFile, 'start', 'sleeper']),
    touchWatched: (agent) => fs.appendFileSync(path.join(stateOf(agent).agent.dir, 'watched.txt'), `${Date.now()}\n`),
    shutdown: () => (shuttingDown ??= Promise.all(states.map(shutdownAgent)).then(() => undefined))
  }

  try {
    await Promise.all(states.map(validateAndLaunch))
  } catch (err) {
    await fleet.shutdown()
    throw err
  }
  return fleet
}

function prepareAgent(index: number, httpdPort: number, opts: AgentOptions): RunningAgent {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'monit-agent-'))
  const id = (idSeed + BigInt(++idCounter)).toString(16).padStart(32, '0')
  const name = `${opts.namePrefix ?? 'agent'}${index}`
  const rcFile = path.join(dir, 'monitrc')
  fs.mkdirSync(path.join(dir, 'events'))
  fs.writeFileSync(path.join(dir, 'watched.txt'), 'watched\n')
  fs.writeFileSync(path.join(dir, 'monit.id'), id)
  // Monit refuses a control file readable by group or others.
  fs.writeFileSync(rcFile, controlFile({ dir, index, name, httpdPort, opts }), { mode: 0o600 })
  return {
    index,
    id,
    name,
    dir,
    httpdPort,
    pid: 0,
    httpdUser: 'admin',
    httpdPassword: 'adminpw',
    rcFile,
    httpdSsl: opts.httpdSsl !== undefined
  }
}

// Agent protocol §7.2. `$!` and `$(…)` must reach /bin/sh unchanged.
function controlFile(p: { dir: string; index: number; name: string; httpdPort: number; opts: AgentOptions }): string {
  const { dir, index, name, httpdPort, opts } = p
  return `set daemon ${opts.poll ?? 1}
set logfile   ${dir}/monit.log
set pidfile   ${dir}/monit.pid
set idfile    ${dir}/monit.id
set statefile ${dir}/monit.state
set eventqueue basedir ${dir}/events slots 100
${opts.collectorUrl ? `set mmonit ${opts.collectorUrl}${opts.collectorSsl ? ` with ssl { ${opts.collectorSsl} }` : ''}${opts.withoutCredentials ? ' and register without credentials' : ''}\n` : ''}set httpd port ${httpdPort} and use address 127.0.0.1${opts.httpdSsl ? ` with ssl { pemfile: ${opts.httpdSsl.pemfile} }` : ''}
    allow admin:adminpw
    allow guest:guest read-only

check system ${name}

check program ok${index} with path /bin/true
    if status != 0 then alert

check process sleeper with pidfile ${dir}/sleeper.pid
    start program = "/bin/sh -c 'sleep 100000 >/dev/null 2>&1 & echo $! > ${dir}/sleeper.pid'"
    stop program  = "/bin/sh -c 'kill $(cat ${dir}/sleeper.pid)'"
${opts.sleeperOnFailure === 'alert' ? '    if does not exist then alert\n' : ''}
check file f${index} with path ${dir}/watched.txt
    if changed checksum then alert
${opts.extraChecks ?? ''}`
}

async function validateAndLaunch(state: AgentState): Promise<void> {
  await runMonit(['-t', '-c', state.agent.rcFile])
  await launch(state)
}

/** Starts `monit -I` under a reaper and waits until its httpd answers with this agent's id. */
async function launch(state: AgentState): Promise<void> {
  const { agent } = state
  // In the foreground Monit writes every log line to stdout as well, plus errors from before the
  // logfile is open; a file of its own keeps monit.log free of duplicates.
  const outFile = path.join(agent.dir, 'monit.out')
  const out = fs.openSync(outFile, 'a')
  const reaper = spawn(PERL, ['-e', REAPER_SCRIPT, String(PRCTL_SYSCALL[process.arch] ?? 0), MONIT, '-I', '-c', agent.rcFile], {
    stdio: ['ignore', 'pipe', out]
  })
  fs.closeSync(out)
  const lines = reaper.stdout
  if (!lines) throw new Error('no stdout pipe to the reaper')
  const inst = await new Promise<Instance>((resolve, reject) => {
    let markExited!: () => void
    const monitExited = new Promise<void>((r) => (markExited = r))
    const reaperExited = new Promise<void>((r) => reaper.once('exit', () => r()))
    let started: Instance | undefined
    const exited = (): void => {
      if (!started) return reject(new Error(`${agent.name}: monit did not start\n${readText(outFile).slice(-2000)}`))
      started.monitAlive = false
      markExited()
    }
    reaper.once('error', reject)
    void reaperExited.then(exited)
    createInterface({ input: lines }).on('line', (line) => {
      if (started) {
        if (line.startsWith('exit')) exited()
        return
      }
      started = { reaper, reaperExited, monitPid: Number(line), monitAlive: true, monitExited }
      resolve(started)
    })
  })
  state.instances.push(inst)
  agent.pid = inst.monitPid
  await waitForHttpd(agent, inst, outFile)
}

/** Waits until the agent's own httpd answers; another process may hold the port (Monit then runs without httpd). */
async function waitForHttpd(agent: RunningAgent, inst: Instance, outFile: string): Promise<void> {
  const deadline = Date.now() + HTTPD_READY_MS
  while ((await getId(agent)) !== agent.id) {
    const out = readText(outFile)
    if (!inst.monitAlive || out.includes('HTTP server -- Cannot bind') || Date.now() > deadline) {
      throw new Error(`${agent.name}: httpd did not come up on 127.0.0.1:${agent.httpdPort}\n${out.slice(-2000)}`)
    }
    await sleep(50)
  }
}

async function stopInstance(inst: Instance, sig: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (!inst.monitAlive) return
  signal(inst.monitPid, sig)
  if (await settlesWithin(inst.monitExited, STOP_GRACE_MS)) return
  signal(inst.monitPid, 'SIGKILL')
  await inst.monitExited
}

async function shutdownAgent(state: AgentState): Promise<void> {
  const last = state.instances.at(-1)
  if (last) await stopInstance(last, 'SIGTERM')
  // Monit leaves its services running when it stops; the sleeper is the only one that outlives it.
  const sleeper = readSleeperPid(state.agent)
  if (sleeper !== undefined) signal(sleeper, 'SIGKILL')
  for (const inst of state.instances) {
    if (await settlesWithin(inst.reaperExited, STOP_GRACE_MS)) continue
    if (inst.reaper.pid !== undefined) signal(inst.reaper.pid, 'SIGKILL')
    await inst.reaperExited
  }
  live.delete(state)
  fs.rmSync(state.agent.dir, { recursive: true, force: true })
}

function current(state: AgentState): Instance {
  const inst = state.instances.at(-1)
  if (!inst) throw new Error(`${state.agent.name} was never started`)
  return inst
}

/** The pid in sleeper.pid, if that process is still our `sleep` (not a zombie, not a reused pid). */
function readSleeperPid(agent: RunningAgent): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(agent.dir, 'sleeper.pid'), 'utf8').trim())
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    return argv[0] === 'sleep' && argv[1] === '100000' ? pid : undefined
  } catch {
    return undefined
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err
  }
}

function runMonit(args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(MONIT, args, (err, stdout, stderr) =>
      err ? reject(new Error(`monit ${args.join(' ')} failed: ${stderr || stdout || err.message}`)) : resolve()
    )
  )
}

/** GET /_getid (agent protocol §5.2), or undefined when nothing usable answers. */
function getId(agent: RunningAgent): Promise<string | undefined> {
  return new Promise((resolve) => {
    // Any certificate: this only waits for the agent to answer (what the server accepts is tested elsewhere).
    const req = (agent.httpdSsl ? https : http).get(
      {
        rejectUnauthorized: false,
        host: '127.0.0.1',
        port: agent.httpdPort,
        path: '/_getid',
        agent: false,
        auth: `${agent.httpdUser}:${agent.httpdPassword}`,
        timeout: 1_000
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve(res.statusCode === 200 ? body.trim() : undefined))
        res.on('error', () => resolve(undefined))
      }
    )
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(undefined))
  })
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)))
  try {
    return await Promise.race([promise.then(() => true), timeout])
  } finally {
    clearTimeout(timer)
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}
