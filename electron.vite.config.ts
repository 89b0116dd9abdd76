import { resolve } from 'node:path'
import { defineConfig, externalizeDepsPlugin } from 'electron-vite'
import react from '@vitejs/plugin-react'

// Main builds two entries: the Electron shell (index) and the headless server (server), which must
// also run under plain Node from 22.12 on (package.json engines) — hence the node22 target rather
// than Electron's own Node (docs/development.md G11).
export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      target: 'node22',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          server: resolve(__dirname, 'src/server/main.ts')
        },
        // V8 keeps a script's source for as long as the process runs, in two bytes a character once
        // one is not ASCII: without comments and with escapes the server holds ~1 MB less.
        output: { comments: false, charset: 'ascii' }
      }
    }
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } } }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    // Minified: the console loads over the LAN too, and its time-to-interactive is a target.
    build: { minify: true, rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } } }
  }
})
