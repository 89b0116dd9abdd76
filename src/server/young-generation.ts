// V8 doubles a thread's young generation (up to 2 × 16 MiB on 64-bit) whenever enough objects have
// survived its collections, and rarely gives it back. Starting the server (migrations, routes, API
// schemas) is such a burst: it left the main thread at its largest young generation for good, some
// 30 MB of an idle server's 110 MB. Holding the growth while the server starts keeps an idle
// server's young generation at its first size; afterwards it grows again under load as it did.
// V8 reads the factor at each growth step, so changing it at run time takes effect at once.
import { setFlagsFromString } from 'node:v8'

const V8_DEFAULT_GROWTH_FACTOR = 2

/** Stops young generations from growing (every thread's); call the returned function to let them grow again. */
export function holdYoungGenerationGrowth(): () => void {
  setFlagsFromString('--semi-space-growth-factor=1')
  return () => setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_GROWTH_FACTOR}`)
}
