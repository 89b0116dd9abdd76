// What hostile bodies cost the Monit parser (the ingest thread's first step), in this process, no server:
//   1. each hostile shape of bench/hostile-messages.ts at n/8 and at n repetitions (BENCH_PARSER_N,
//      default 100,000): a linear parser takes about 8 times as long for 8 times the input, a
//      quadratic one 64 times; the target is under 32 times;
//   2. 3 MiB of random bytes (full of control characters) against 3 MiB of spaces: the noise must not
//      cost much more to refuse than the plainest body of its size (before: 12–15 times as long).
// Each figure is the fastest of BENCH_PARSER_RUNS (7) parses: the one least disturbed by other work.
import { MessageParseError, parseMonitMessage } from '../src/server/monit/parse-message'
import { HOSTILE_SHAPES, NOISE_BYTES, randomNoise, spaces } from './hostile-messages'
import { envInt, fixed, int, printRows, verdict, type Benchmark } from './support'

/** Time for 8 times the input, as a multiple of the time for the input: linear 8, quadratic 64. */
const MAX_GROWTH = 32
/** Time to refuse the noise, as a multiple of the time to refuse as many spaces. */
const MAX_NOISE_RATIO = 5

export const parserBenchmark: Benchmark = {
  name: 'parser',
  description: 'Monit parser on hostile bodies: growth from n/8 to n repetitions, noise vs spaces',
  run: runParserBenchmark
}

/** Fastest of `runs` parses of `body`, in ms; a refusal counts like a parse. */
function fastestParseMs(body: Buffer, runs: number): number {
  let fastest = Number.POSITIVE_INFINITY
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    try {
      parseMonitMessage(body)
    } catch (error) {
      if (!(error instanceof MessageParseError)) throw error
    }
    fastest = Math.min(fastest, performance.now() - started)
  }
  return fastest
}

async function runParserBenchmark(): Promise<void> {
  const n = envInt('BENCH_PARSER_N', 100_000)
  const runs = envInt('BENCH_PARSER_RUNS', 7)
  console.log(`hostile shapes at ${int(n / 8)} and ${int(n)} repetitions, fastest of ${runs} parses each:`)
  const growths = Object.entries(HOSTILE_SHAPES).map(([shape, body]) => {
    const small = Buffer.from(body(Math.floor(n / 8)))
    const large = Buffer.from(body(n))
    const smallMs = fastestParseMs(small, runs)
    const largeMs = fastestParseMs(large, runs)
    return { shape, smallMs, largeMs, growth: largeMs / smallMs, bytes: large.length }
  })
  printRows(
    growths.map((g) => [
      g.shape,
      `${fixed(g.smallMs, 2).padStart(7)} ms → ${fixed(g.largeMs, 2).padStart(7)} ms (${int(g.bytes / 1024)} KiB): ×${fixed(g.growth, 1)}`
    ])
  )
  const worst = growths.reduce((a, b) => (b.growth > a.growth ? b : a))
  console.log(
    verdict(
      `every shape under ×${MAX_GROWTH} for 8 times the input (linear ×8, quadratic ×64)`,
      worst.growth < MAX_GROWTH,
      `worst ×${fixed(worst.growth, 1)}: ${worst.shape}`
    )
  )

  const noiseMs = fastestParseMs(randomNoise(), runs)
  const spacesMs = fastestParseMs(spaces(), runs)
  const noiseRatio = noiseMs / spacesMs
  console.log(`refusing ${int(NOISE_BYTES / 2 ** 20)} MiB, fastest of ${runs}:`)
  printRows([
    ['random bytes', `${fixed(noiseMs, 1)} ms`],
    ['spaces', `${fixed(spacesMs, 1)} ms`]
  ])
  console.log(verdict(`random bytes under ×${MAX_NOISE_RATIO} the spaces`, noiseRatio < MAX_NOISE_RATIO, `×${fixed(noiseRatio, 1)}`))
}
