#!/usr/bin/env bash
# The whole test suite: type-check, lint, format check, build, vitest (unit, HTTP, real Monit agents) on
# SQLite and again on PostgreSQL (a throwaway cluster, scripts/postgres.sh), Playwright on Debian's
# chromium. Ends with one line "N passed, N failed[, N skipped]".
set -uo pipefail
cd "$(dirname "$0")/.."
export VITE_CONFIG_NATIVE_IGNORE_WARNING=true

step() { local s=$SECONDS r=0; "$@" || r=$?; echo "[test] $* took $((SECONDS - s))s (rc=$r)"; return $r; }

rm -rf reports && mkdir -p reports/screenshots
rc=0
step npm run -s typecheck || rc=1
step npm run -s lint || rc=1
step npm run -s format:check || rc=1
step npx electron-vite build || rc=1
step npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json || rc=1
PLAYWRIGHT_JSON_OUTPUT_NAME=reports/playwright.json step npx playwright test --reporter=list,json || rc=1
# The same suites with every store on PostgreSQL (test/support/test-database.ts).
pg_dir=$(mktemp -d /tmp/overseer-test-pg.XXXXXX)
if pg_url=$(scripts/postgres.sh start "$pg_dir" "${TEST_POSTGRES_PORT:-54329}"); then
  export OVERSEER_TEST_POSTGRES=$pg_url
  step npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest-postgres.json || rc=1
  PLAYWRIGHT_JSON_OUTPUT_NAME=reports/playwright-postgres.json step npx playwright test --reporter=list,json || rc=1
  unset OVERSEER_TEST_POSTGRES
else
  echo "[test] PostgreSQL did not start"
  rc=1
fi
scripts/postgres.sh stop "$pg_dir"
rm -rf "$pg_dir"

node -e '
const fs = require("fs"); let p = 0, f = 0, s = 0
for (const file of ["reports/vitest.json", "reports/vitest-postgres.json"]) {
  try { const v = JSON.parse(fs.readFileSync(file)); p += v.numPassedTests; f += v.numFailedTests; s += v.numPendingTests + v.numTodoTests } catch { f++ }
}
for (const file of ["reports/playwright.json", "reports/playwright-postgres.json"]) {
  try { const w = JSON.parse(fs.readFileSync(file)).stats; p += w.expected + w.flaky; f += w.unexpected; s += w.skipped } catch { f++ }
}
if (process.argv[1] === "1" && f === 0) f = 1 // a failed type-check, lint, format check or build counts too
console.log(`${p} passed, ${f} failed` + (s ? `, ${s} skipped` : ""))' "$rc"
exit $rc
