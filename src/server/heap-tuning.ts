// V8's heap policy for the server process, set before anything else runs (main.ts imports this first).
// By default V8 lets each thread's heap grow far past what it keeps alive before collecting (a 32 MiB
// young generation, an old generation several times its live size): the server's main and ingest
// threads then held 200-280 MB with 1,000 agents reporting for 30-55 MB of live objects.
// `--optimize-for-size` collects sooner and keeps the young generation small; the collector's
// throughput did not measurably change (docs/performance.md, `npm run bench -- footprint collector`).
// V8 reads this flag as it goes, so setting it at run time works for the threads started afterwards
// and, from their next collection, for this one.
import { setFlagsFromString } from 'node:v8'

if (!process.env.XNOTUNE) setFlagsFromString(process.env.XTUNE ?? '--optimize-for-size')
