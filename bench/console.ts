// Console time-to-interactive at fleet size: every monitoring screen (SCREENS) served by the built server
// holding 10,000 hosts, loaded in Debian's chromium (playwright-core) by a logged-in user, and the size of
// the scripts the console loads first and each screen needs (out/renderer: the entry, its static imports,
// the screen's chunks).
//
// What is measured, per full page load (about:blank first, so every load starts the app from scratch):
//   rendered  navigation start → the screen's data on screen (the dashboard's summary, attention list
//             and events chart all loaded; the first row of a list; a service's figures and charts),
//             seen by a MutationObserver installed before the page's own scripts run;
//   TTI       the later of "rendered" and the end of the last long task (> 50 ms on the main thread),
//             once the main thread has then stayed free of long tasks for 100 ms: the page answers input;
// The first load has a cold HTTP cache and is shown apart; the p50 is over the warm loads that follow.
// A screen to measure is one more SCREENS entry.
//
// Then reports/uptime/list alone on SQLite and PostgreSQL (uptime-list.ts).
//
// Sizing: BENCH_CONSOLE_HOSTS (10000), BENCH_CONSOLE_LOADS (9 warm loads per screen), BENCH_MAX_SECONDS (180);
// BENCH_CONSOLE_PORT: a fixed port for the server (default: any free one).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { removeDir } from '../test/support/built-server'
import { readFirstLoad, screenScriptBytes } from '../test/support/first-load'
import { Deadline, databaseSize, envInt, fixed, int, percentile, printRows, startPlainServer, verdict, type Benchmark } from './support'
import { FIXTURES, populate } from './status'
import { measureUptimeList } from './uptime-list'

const TTI_TARGET_MS = 1000
/** The entry script's budget, in Vite's kB (test/renderer/first-load-budget.test.ts guards it too). */
const FIRST_SCRIPT_TARGET_KB = 500
const ADMIN = { user: 'admin', password: 'benchadmin' }
const DATABASE_FILE = 'overseer.sqlite'
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const QUIET_MS = 100
/** How long a screen may take to show its data before it counts as never ready. */
const READY_TIMEOUT_MS = 30_000

interface Screen {
  name: string
  hash: string
  /** Present once the screen shows its data. */
  ready: string
  /** Its chunk (app/routes.ts loads it with the route), for the size of the scripts it needs. */
  chunk: string
}

// Host 1 is the first host filled in: the heartbeat fixture's agent, whose services include 'sleeper'.
const SCREENS: readonly Screen[] = [
  { name: 'dashboard', hash: '#/', ready: '[data-testid="dashboard"][data-ready]', chunk: 'dashboard' },
  { name: 'hosts list', hash: '#/hosts', ready: '[data-host-row]', chunk: 'hosts-list' },
  { name: 'services list', hash: '#/services', ready: '[data-service-row]', chunk: 'services' },
  { name: 'host page', hash: '#/hosts/1', ready: '[data-testid="host-detail"] [data-service]', chunk: 'host-detail' },
  {
    name: 'service page',
    hash: '#/hosts/1/services/sleeper',
    ready: '[data-testid="service-charts"] :is([data-chart], [data-testid="no-history"])',
    chunk: 'service-detail'
  },
  { name: 'events', hash: '#/events', ready: '[data-event-id]', chunk: 'events' },
  { name: 'uptime', hash: '#/uptime', ready: '[data-item]', chunk: 'uptime' }
]

export const consoleBenchmark: Benchmark = {
  name: 'console',
  description: 'console time-to-interactive of every monitoring screen in chromium at 10,000 hosts, and its first script',
  run: runConsoleBenchmark
}

interface Load {
  renderedMs: number
  ttiMs: number
  longTasks: number
  longestTaskMs: number
}

async function runConsoleBenchmark(): Promise<void> {
  const hosts = envInt('BENCH_CONSOLE_HOSTS', 10_000)
  const loads = envInt('BENCH_CONSOLE_LOADS', 9)
  const deadline = new Deadline(envInt('BENCH_MAX_SECONDS', 180))
  const firstScript = printFirstLoad()
  const dataDir = mkdtempSync(join(tmpdir(), 'overseer-bench-console-'))
  try {
    const { seconds } = populate(dataDir, hosts, deadline)
    console.log(
      `population: ${int(hosts)} hosts in ${fixed(seconds, 2)} s (payloads ${FIXTURES.join(', ')} in turn); ` +
        `database ${databaseSize(dataDir, DATABASE_FILE)}`
    )
    const port = process.env.BENCH_CONSOLE_PORT
    const server = await startPlainServer(dataDir, ['--init-admin', `${ADMIN.user}:${ADMIN.password}`, ...(port ? ['--port', port] : [])])
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync'
      ]
    })
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      await context.addInitScript({ content: observerScript(SCREENS.map((s) => s.ready)) })
      const page = await context.newPage()
      await logIn(page, server.baseUrl)
      console.log(`chromium ${browser.version()} (${CHROMIUM}), viewport 1280×800; 1 cold load then ${loads} warm loads per screen`)
      const verdicts = [
        verdict(
          `first script < ${FIRST_SCRIPT_TARGET_KB} kB`,
          firstScript < FIRST_SCRIPT_TARGET_KB * KB,
          `${fixed(firstScript / KB, 1)} kB`
        )
      ]
      for (const screen of SCREENS) {
        const measured: Load[] = []
        try {
          for (let i = 0; i <= loads; i++) {
            deadline.check(`loading the ${screen.name}`)
            measured.push(await loadOnce(page, server.baseUrl, screen))
          }
        } catch (error) {
          // A screen that never shows its data fails its target; the others are still measured.
          if (!(error instanceof Error && error.name === 'TimeoutError')) throw error
          console.log(`\n  ${screen.name} (${screen.hash}): not ready within ${READY_TIMEOUT_MS / 1000} s`)
          verdicts.push(verdict(`${screen.name} TTI p50 < ${TTI_TARGET_MS} ms (${int(hosts)} hosts)`, false, 'never ready'))
          continue
        }
        const [cold, ...warm] = measured
        const rendered = warm.map((l) => l.renderedMs).sort((a, b) => a - b)
        const tti = warm.map((l) => l.ttiMs).sort((a, b) => a - b)
        console.log(`\n  ${screen.name} (${screen.hash})`)
        printRows(
          [
            [
              'cold load',
              `rendered ${fixed(cold.renderedMs, 0)} ms, TTI ${fixed(cold.ttiMs, 0)} ms, ${cold.longTasks} long task(s), longest ${fixed(cold.longestTaskMs, 0)} ms`
            ],
            ['warm rendered', `p50 ${fixed(percentile(rendered, 50), 0)} ms, max ${fixed(percentile(rendered, 100), 0)} ms`],
            ['warm TTI', `p50 ${fixed(percentile(tti, 50), 0)} ms, max ${fixed(percentile(tti, 100), 0)} ms`],
            ['scripts it needs', `${fixed(screenScriptBytes(screen.chunk) / KB, 1)} kB (the first load and its chunks)`],
            [
              'long tasks',
              `${warm.reduce((n, l) => n + l.longTasks, 0)} over ${warm.length} warm loads, longest ${fixed(Math.max(...warm.map((l) => l.longestTaskMs)), 0)} ms`
            ]
          ],
          '    '
        )
        verdicts.push(
          verdict(
            `${screen.name} TTI p50 < ${TTI_TARGET_MS} ms (${int(hosts)} hosts)`,
            percentile(tti, 50) < TTI_TARGET_MS,
            `p50 ${fixed(percentile(tti, 50), 0)} ms`
          )
        )
      }
      console.log('')
      for (const line of verdicts) console.log(line)
    } finally {
      await browser.close()
      const code = await server.stop()
      if (code !== 0) console.log(`server exited with code ${code}:\n${server.output()}`)
    }
  } finally {
    removeDir(dataDir)
  }
  // The uptime screen's request on its own, on both engines (issue 28).
  for (const line of await measureUptimeList(hosts)) console.log(line)
}

const KB = 1000

/** Prints the built console's first load; returns the entry script's size in bytes. */
function printFirstLoad(): number {
  const { entry, scripts } = readFirstLoad()
  const total = [...scripts.values()].reduce((sum, s) => sum + s.bytes, 0)
  const entryBytes = scripts.get(entry)!.bytes
  console.log(
    `first load: entry script ${fixed(entryBytes / KB, 1)} kB, with its static imports ${fixed(total / KB, 1)} kB in ${scripts.size} files`
  )
  return entryBytes
}

async function logIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/`)
  await page.getByLabel('User name').fill(ADMIN.user)
  await page.getByLabel('Password').fill(ADMIN.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor()
}

/**
 * Runs before the page's scripts on every load: records when each ready selector first matches and
 * every long task, in performance.now() time (0 = navigation start).
 */
function observerScript(selectors: readonly string[]): string {
  return `(() => {
    const seen = window.__benchSeen = {}
    const longTasks = window.__benchLongTasks = []
    new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push([e.startTime, e.duration]) })
      .observe({ type: 'longtask', buffered: true })
    const selectors = ${JSON.stringify(selectors)}
    const check = () => { for (const s of selectors) if (!(s in seen) && document.querySelector(s)) seen[s] = performance.now() }
    new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true })
  })()`
}

async function loadOnce(page: Page, baseUrl: string, screen: Screen): Promise<Load> {
  await page.goto('about:blank')
  await page.goto(`${baseUrl}/${screen.hash}`, { waitUntil: 'commit' })
  await page.waitForSelector(screen.ready, { timeout: READY_TIMEOUT_MS })
  // A string, not a function: tsx's name helpers do not exist in the page.
  return page.evaluate<Load>(`(async () => {
    const renderedMs = window.__benchSeen[${JSON.stringify(screen.ready)}]
    const tasks = window.__benchLongTasks
    const lastLongTaskEnd = () => Math.max(0, ...tasks.map(([start, duration]) => start + duration))
    while (performance.now() - Math.max(renderedMs, lastLongTaskEnd()) < ${QUIET_MS}) await new Promise((r) => setTimeout(r, 10))
    return {
      renderedMs, ttiMs: Math.max(renderedMs, lastLongTaskEnd()),
      longTasks: tasks.length, longestTaskMs: Math.max(0, ...tasks.map(([, d]) => d))
    }
  })()`)
}
