// npm run typecheck: the whole tree as editors and tests see it (tsconfig.json), then its two stricter
// halves (tsconfig.node.json: no DOM; tsconfig.web.json: no Node). Checked by TypeScript 7, the native
// compiler (the `typescript-native` devDependency, 3–4 times less CPU than tsc 6 here); TypeScript 6
// stays for typescript-eslint (which needs < 6.1) and editors. One thread: CI runs it beside the tests
// on two cores, where more checkers cost more CPU and save no time.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const tsc = fileURLToPath(new URL('../node_modules/typescript-native/bin/tsc', import.meta.url))
let failed = false
for (const project of ['tsconfig.json', 'tsconfig.node.json', 'tsconfig.web.json']) {
  const run = spawnSync(process.execPath, [tsc, '--noEmit', '--singleThreaded', '-p', project], { stdio: 'inherit' })
  if (run.status !== 0) failed = true
}
process.exit(failed ? 1 : 0)
