#!/usr/bin/env bash
# Quick start: install (npm packages, temporal binaries), then run the main job on the embedded defaults:
# the stack comes up, the demo catalog is seeded and cloned with live progress. Extra args go to
# `lakeward quickstart` (for example --exit, --clone-type SHALLOW, --data-dir /tmp/lw).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[quickstart] installing npm packages"
  bash scripts/npm-install.sh
fi
LAKEWARD_SKIP_PY_ORACLES=${LAKEWARD_SKIP_PY_ORACLES:-1} bash scripts/setup.sh
exec node_modules/.bin/tsx cli/main.ts quickstart "$@"
