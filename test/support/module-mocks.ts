// Test files that replace a module (vi.mock): they need a module graph of their own, so vitest.config.mts
// runs them isolated while the others share their worker processes.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export const mocksModules = (root: string, file: string): boolean => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(root, file), 'utf8'))
