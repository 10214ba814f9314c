#!/usr/bin/env bash
# Full fuzz run: schemathesis over every operation in /api/openapi.json against a real embedded stack
# (`lakeward dev`: Temporal dev server, worker, API, local lakehouse seeded with the demo catalog) in a temp folder.
# The bounded form runs inside `npm test` (test/fuzz/schemathesis.test.ts); this is the long one.
#   bash scripts/fuzz.sh                          200 examples per operation, all phases, a random seed
#   FUZZ_MAX_EXAMPLES=1000 FUZZ_SEED=7 bash scripts/fuzz.sh
#   FUZZ_URL=http://127.0.0.1:8080 bash scripts/fuzz.sh   fuzz a stack that is already running
# Extra arguments go to `schemathesis run` (e.g. --include-path-regex '^/api/clone'). Exit code: schemathesis's.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
ST="$ROOT/.venv/bin/schemathesis"
[ -x "$ST" ] || bash scripts/setup.sh --oracles
MAX_EXAMPLES=${FUZZ_MAX_EXAMPLES:-200}
SEED=${FUZZ_SEED:-$RANDOM}
REPORT_DIR=${FUZZ_REPORT_DIR:-$ROOT/.lakeward/fuzz-report}

log() { printf '[fuzz] %s\n' "$*"; }
free_port() { node -e 's=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

URL=${FUZZ_URL:-}
DEV_PID=""
DATA=""
cleanup() {
  if [ -n "$DEV_PID" ] && kill -0 "$DEV_PID" 2>/dev/null; then
    kill -INT "$DEV_PID" && wait "$DEV_PID" || true
  fi
  [ -n "$DATA" ] && rm -rf "$DATA"
}
trap cleanup EXIT

if [ -z "$URL" ]; then
  DATA=$(mktemp -d "${TMPDIR:-/tmp}/lakeward-fuzz-XXXXXX")
  PORT=$(free_port)
  log "seeding the demo catalog into $DATA/workspace"
  bin/lakeward demo seed --workspace "$DATA/workspace" --catalog demo_sales >/dev/null
  log "starting lakeward dev on port $PORT (log: $DATA/dev.log)"
  env -u DATABASE_URL -u TEMPORAL_ADDRESS -u LAKEWARD_API_KEY LAKEWARD_LOG_LEVEL=warn \
    bin/lakeward dev --data-dir "$DATA" --port "$PORT" \
    --temporal-port "$(free_port)" --ui-port "$(free_port)" >"$DATA/dev.log" 2>&1 &
  DEV_PID=$!
  URL="http://127.0.0.1:$PORT"
  for _ in $(seq 1 180); do
    curl -fsS "$URL/api/health" 2>/dev/null | grep -q '"status":"ok"' && break
    kill -0 "$DEV_PID" 2>/dev/null || { cat "$DATA/dev.log"; log "lakeward dev stopped"; exit 1; }
    sleep 1
  done
fi

if [ -z "${LAKEWARD_FUZZ_JOB_ID:-}" ]; then
  # A real job, so job operations reach past their 404 (fuzzing an existing stack: set LAKEWARD_FUZZ_JOB_ID).
  LAKEWARD_FUZZ_JOB_ID=$(curl -fsS -X POST "$URL/api/clone" -H 'Content-Type: application/json' \
    -d '{"source_catalog":"demo_sales","destination_catalog":"demo_fuzz_copy"}' |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).job_id))') ||
    LAKEWARD_FUZZ_JOB_ID=unknown-job
fi
export LAKEWARD_FUZZ_JOB_ID
log "schemathesis: $URL/api/openapi.json, $MAX_EXAMPLES examples per operation, seed $SEED (report: $REPORT_DIR)"
set +e
"$ST" --config-file test/fuzz/schemathesis.toml run "$URL/api/openapi.json" --url "$URL" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --max-examples "$MAX_EXAMPLES" --seed "$SEED" --workers 2 --request-timeout 30 \
  --report junit,ndjson --report-dir "$REPORT_DIR" "$@"
STATUS=$?
set -e
[ $STATUS -eq 0 ] && log "no failures" || log "schemathesis found failures (exit $STATUS); reproduce with FUZZ_SEED=$SEED"
exit $STATUS
