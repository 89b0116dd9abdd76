import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests start real servers and real Monit agents: run files one at a time on 2 cores.
    fileParallelism: false,
    testTimeout: 20_000,
    hookTimeout: 30_000
  }
})
