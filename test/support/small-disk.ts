// A real file system that fills up: a small tmpfs mounted for the test (needs root, as in CI and this
// repository's containers), and a ballast file that takes all its free space until freed.
import { execFileSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface SmallDisk {
  /** The mount point. */
  dir: string
  /** Writes the ballast until the file system refuses (ENOSPC). */
  fill(): void
  /** Deletes the ballast: the space is back. */
  free(): void
  unmount(): void
}

export function mountSmallDisk(sizeMiB: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'overseer-small-disk-'))
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', dir])
  const ballast = join(dir, 'ballast')
  return {
    dir,
    fill() {
      const fd = openSync(ballast, 'a')
      const chunk = Buffer.alloc(64 * 1024)
      try {
        // Bounded: a tmpfs of sizeMiB takes at most that many bytes.
        for (let written = 0; written <= sizeMiB * 1024 * 1024;) written += writeSync(fd, chunk)
        throw new Error(`the ${sizeMiB} MiB tmpfs at ${dir} never filled up`)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err
      } finally {
        closeSync(fd)
      }
    },
    free: () => rmSync(ballast, { force: true }),
    unmount() {
      execFileSync('umount', [dir])
      rmdirSync(dir)
    }
  }
}
