#!/usr/bin/env bash
# Installs the npm packages from package-lock.json. `npm ci` first; if it refuses the lock (some registries
# do not serve other platforms' optional binaries, e.g. @duckdb/node-bindings-darwin-*, so npm cannot record
# them and `npm ci` calls the lock out of sync), `npm install`, which installs the same locked versions.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! npm ci --no-audit --no-fund --loglevel=error; then
  echo "[install] npm ci refused the lock file; installing the locked versions with npm install"
  npm install --no-audit --no-fund --loglevel=error
fi
# The web console (web/) is its own npm package with its own lock. Playwright's browser download is skipped: the
# end-to-end tests drive Debian's chromium (LAKEWARD_CHROMIUM, default /usr/bin/chromium).
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if ! npm --prefix web ci --no-audit --no-fund --loglevel=error; then
  echo "[install] npm ci refused web/package-lock.json; installing the locked versions with npm install"
  npm --prefix web install --no-audit --no-fund --loglevel=error
fi
