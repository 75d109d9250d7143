#!/usr/bin/env bash
# `npm run lint`: ESLint (TypeScript, React hooks and the layering rules of
# docs/decisions/0012-lint-layering.md), Prettier's check, the lock file's check and the check
# that every reference to a document resolves inside the repository. Runs all four, so one run
# shows every problem, and fails when any of them fails. ESLint and Prettier
# keep a cache in node_modules/.cache keyed by file content; a fresh clone (CI) runs cold.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
# A warning fails the run too: what is worth a warning is worth fixing now.
npx eslint --max-warnings 0 --cache --cache-strategy content --cache-location node_modules/.cache/eslint/ . || status=1
npx prettier --check --cache --cache-strategy content --log-level warn . || status=1
node scripts/check-lock.mjs || status=1
node scripts/check-doc-refs.mjs || status=1
exit $status
