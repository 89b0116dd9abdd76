import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { E2E_PORT as PORT } from './e2e/support/console'
import { databaseFor } from './test/support/test-database'

// The e2e suite drives Debian's chromium (Playwright cannot download its own browser here) against
// the built headless server, with a fresh data directory per run (and, with OVERSEER_TEST_POSTGRES set,
// its own PostgreSQL database: test/support/test-database.ts).
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'overseer-e2e-'))
const database = databaseFor(dataDir)

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [['list']],
  // The PostgreSQL smoke run writes elsewhere (scripts/test-all.sh): each run empties its own folder.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  // A trace records every step of every test, kept or not: a quarter of the suite's CPU (admin and glance
  // specs: 53 CPU-s with it, 40 without). A failure still leaves its screenshot and page snapshot;
  // E2E_TRACE=1 records traces when a failure needs one.
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    reducedMotion: 'reduce'
  },
  projects: [
    {
      name: 'debian-chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync'
          ]
        }
      }
    }
  ],
  webServer: {
    command: `node out/main/server.js --host 127.0.0.1 --port ${PORT} --data-dir ${dataDir}${database ? ` --database ${database}` : ''} --init-admin admin:e2eadmin --init-collector monit:e2ecollect`,
    url: `http://127.0.0.1:${PORT}/health`,
    reuseExistingServer: false,
    stdout: process.env.E2E_SERVER_LOG ? 'pipe' : 'ignore',
    timeout: 30_000
  }
})
