#!/usr/bin/env bash
# Quick start: install (npm packages, temporal binaries), then run the main job on the embedded defaults:
# the stack comes up (with the web console, built first), the demo catalog is seeded and cloned with live progress. Extra args go to
# `lakeward quickstart` (for example --exit, --clone-type SHALLOW, --data-dir /tmp/lw).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[quickstart] installing npm packages"
  bash scripts/npm-install.sh
fi
LAKEWARD_SKIP_PY_ORACLES=${LAKEWARD_SKIP_PY_ORACLES:-1} bash scripts/setup.sh
# The web console is served beside the API once built; it is built when missing or older than its sources.
if [ ! -f web/dist/index.html ] || [ -n "$(find web/src web/index.html web/package-lock.json -newer web/dist/index.html -print -quit 2>/dev/null)" ]; then
  echo "[quickstart] building the web console (npm run web:build)"
  npm run --silent web:build >/dev/null || echo "[quickstart] the web console did not build; the API runs without it"
fi
exec node_modules/.bin/tsx cli/main.ts quickstart "$@"
