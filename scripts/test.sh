#!/usr/bin/env bash
# `npm test`: lint (`npm run lint`: ESLint with the layering rules, Prettier, the lock check),
# type check, build, Vitest (units and the domain suite on PGlite, then the HTTP tests against
# a started server), the domain suite again on PostgreSQL and the cluster suite (two server
# processes on one database) when TEST_DATABASE_URL is set, and the Playwright journeys in
# Chromium with JavaScript on and off.
#
# Two lanes share the machine (docs/product/engineering.md#keeping-the-run-short): once the build
# is there, the journeys run in the background (their output kept in tests/.tmp/playwright.log)
# while the Vitest steps run in front; then the journeys' output follows, live to their end.
# Ends with one line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p tests/.tmp
rm -f tests/.tmp/vitest-*.json tests/.tmp/playwright.json tests/.tmp/playwright.log tests/.tmp/lint.json tests/.tmp/tsc.json
status=0
# Each step's heading says when it began (seconds since the run started), so a slow step shows in the log.
step() { echo; echo "== [${SECONDS}s] $*"; }

step "Build, with lint and type check beside it"
# Each is mostly one process on one core. The build is what the HTTP tests and the journeys need,
# so lint and the type check yield it the cores (nice) and go on beside the Vitest steps; their
# output is shown after them.
npx react-router typegen || status=1
nice -n 10 npm run --silent lint > tests/.tmp/lint.log 2>&1 &
lint_pid=$!
nice -n 10 npx tsc > tests/.tmp/tsc.log 2>&1 &
tsc_pid=$!
if ! npx react-router build > tests/.tmp/build.log 2>&1; then cat tests/.tmp/build.log; echo "build failed"; exit 1; fi
echo "-- build (true)"

step "Playwright: journeys in Chromium, JavaScript on and off, in the background"
bash scripts/ensure-chromium.sh || status=1
# With a PostgreSQL server at hand the journeys' site runs on it (a database of its own, recreated
# empty), as in production; without one, on PGlite.
if [ -n "${TEST_DATABASE_URL:-}" ] && [ -z "${E2E_DATABASE_URL:-}" ]; then
  export E2E_DATABASE_URL="${TEST_DATABASE_URL%/*}/shodka_e2e"
fi
npx playwright test > tests/.tmp/playwright.log 2>&1 &
playwright_pid=$!
echo "-- output in tests/.tmp/playwright.log, shown after the Vitest steps"

step "Vitest: units, domain on PGlite, HTTP"
# TEST_DATABASE_URL is left out here so this step really runs on PGlite; the next one uses it.
env -u TEST_DATABASE_URL npx vitest run --project domain --project domain-mocks --project api --reporter=default --reporter=json --outputFile.json=tests/.tmp/vitest-pglite.json || status=1

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  step "Vitest: domain suite on PostgreSQL ($TEST_DATABASE_URL)"
  npx vitest run --project domain --project domain-mocks --reporter=default --reporter=json --outputFile.json=tests/.tmp/vitest-postgres.json || status=1
  step "Vitest: two server processes on one PostgreSQL database"
  npx vitest run --project cluster --reporter=default --reporter=json --outputFile.json=tests/.tmp/vitest-cluster.json || status=1
fi

step "Lint and type check"
# A failed lint or type check fails the run and counts as one failure each in the closing line.
if wait $lint_pid; then lint_ok=true; else lint_ok=false; status=1; fi
echo "{\"step\": \"lint\", \"ok\": $lint_ok}" > tests/.tmp/lint.json
echo "-- lint ($lint_ok)"; cat tests/.tmp/lint.log
if wait $tsc_pid; then tsc_ok=true; else tsc_ok=false; status=1; fi
echo "{\"step\": \"type check\", \"ok\": $tsc_ok}" > tests/.tmp/tsc.json
echo "-- type check ($tsc_ok)"; cat tests/.tmp/tsc.log

step "Playwright: the journeys' output so far, then live to their end"
tail -n +1 -f --pid=$playwright_pid tests/.tmp/playwright.log
wait $playwright_pid || status=1

reports=(tests/.tmp/lint.json tests/.tmp/tsc.json tests/.tmp/vitest-pglite.json)
if [ -n "${TEST_DATABASE_URL:-}" ]; then reports+=(tests/.tmp/vitest-postgres.json tests/.tmp/vitest-cluster.json); fi
reports+=(tests/.tmp/playwright.json)
echo; echo "== [${SECONDS}s] Summary"
node scripts/test-summary.mjs "${reports[@]}" || status=1
exit $status
