/**
 * MDM matching against Splink (DuckDB backend) on the same standardised records.
 *
 *   npx tsx bench/mdm-vs-splink.ts            # 1,000,000 generated records
 *   LAKEWARD_BENCH_MDM_RECORDS=100000 npx tsx bench/mdm-vs-splink.ts
 *
 * Lakeward: synthetic people → ingest (one standardising INSERT … SELECT per source) → a full match run's steps
 * (blocking, comparing, training, scoring, clustering, publishing) on the local lakehouse, timed from blocking to
 * published golden records. Splink (the version pinned in scripts/setup.sh's `bench` extras, in .venv) gets the
 * same standardised records (the run's work table), the same comparison levels, the same blocking rules and the
 * same training (u from random pairs, m by EM per blocking rule), links at P ≥ 0.75 and clusters at 0.75. One
 * evaluator (Python, pairwise and B-cubed against the truth table) scores both. Prints per engine wall time, scored
 * pairs, F1s and peak RSS, then the time ratio (goal < 1) and the F1 difference (goal ≥ 0); then an incremental
 * run with 1 % new records against the full run on the same records (incremental ÷ full).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureRecordsTable, ingestSource } from '../activities/mdm/ingest';
import {
  clusterRecords,
  comparePairs,
  prepareMatch,
  publishGolden,
  scorePairs,
  trainModel,
} from '../activities/mdm/match';
import type { FsParams } from '../activities/mdm/logic/em';
import { writeSynthetic } from '../api/mdm/synthetic-service';
import { LocalWorkspace } from '../platform/local/workspace';

const RECORDS = Number(process.env.LAKEWARD_BENCH_MDM_RECORDS ?? 1_000_000);
const PY = path.resolve(__dirname, '../.venv/bin/python');

const csvCell = (v: unknown) => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const toCsv = (columns: string[], rows: Record<string, unknown>[]) =>
  [columns.join(','), ...rows.map((r) => columns.map((c) => csvCell(r[c])).join(','))].join('\n') + '\n';

async function main() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'lw-bench-mdm-'));
  const out = mkdtempSync(path.join(os.tmpdir(), 'lw-bench-mdm-out-'));
  const ws = new LocalWorkspace({ root, user: 'lakeward' });
  try {
    console.log(`generating ${RECORDS} records …`);
    const syn = await writeSynthetic(ws, { catalog: 'raw', schema: 'people', records: RECORDS, systems: 3, seed: 1 });
    const model = syn.model;
    const catalog = 'clone_audit';
    await ensureRecordsTable(ws, catalog, model);
    for (const source of syn.sources)
      await ingestSource(ws, { ingestId: 'bench', catalog, model, source, ts: '2026-01-01T00:00:00Z' });
    const ingest = async (id: string) => {
      for (const source of syn.sources)
        await ingestSource(ws, { ingestId: id, catalog, model, source, ts: '2026-01-01T00:00:00Z' });
    };
    /** A match run's steps as the mdm_match job runs them (no store: no rules, cases or overrides). */
    const match = async (runId: string, opts: { incremental?: boolean; params?: FsParams } = {}) => {
      const req = { runId, catalog, model, incremental: opts.incremental };
      const steps: Record<string, number> = {};
      const timed = async <T>(name: string, fn: () => Promise<T>) => {
        const t = performance.now();
        const r = await fn();
        steps[name] = Math.round(performance.now() - t);
        return r;
      };
      const started = performance.now();
      await timed('blocking', () => prepareMatch(ws, { ...req, maxPairs: 1e12 }));
      const perRule = await timed('comparing', () => comparePairs(ws, req));
      const params = await timed('training', async () =>
        opts.params ? opts.params : trainModel(ws, { ...req, seed: 42, sampleSize: 600 }),
      );
      await timed('scoring', () => scorePairs(ws, { ...req, params }));
      await timed('clustering', () => clusterRecords(ws, req));
      await timed('publishing', () => publishGolden(ws, { ...req, ts: '2026-01-01T01:00:00Z' }));
      const ms = performance.now() - started;
      return { ms, steps, params, compared: Object.values(perRule).reduce((a, b) => a + b, 0) };
    };
    const full = await match('bench-run');
    const [lakewardMs, steps, scored] = [full.ms, full.steps, full.compared];

    // The same standardised records and Lakeward's clusters, for Splink and the shared evaluator.
    const attrs = Object.keys(model.attributes);
    // names in their comparison form (accents dropped), as Lakeward compares them
    const compared = attrs.map((a) => (model.attributes[a].kind === 'name' ? `${a}__cmp AS ${a}` : a));
    const work = await ws.query(`SELECT uid, ${compared.join(', ')} FROM clone_audit.mdm.match_work_person`);
    writeFileSync(path.join(out, 'records.csv'), toCsv(['uid', ...attrs], work.rows));
    const members = await ws.query(`SELECT uid, entity_id AS cluster FROM clone_audit.mdm.golden_members_person`);
    writeFileSync(path.join(out, 'lakeward.csv'), toCsv(['uid', 'cluster'], members.rows));
    const truth = await ws.query(`SELECT concat(system, ':', record_id) AS uid, entity_id FROM raw.people.truth`);
    writeFileSync(path.join(out, 'truth.csv'), toCsv(['uid', 'entity_id'], truth.rows));

    const py = execFileSync(PY, [path.join(__dirname, 'mdm-splink.py'), out], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const splink = JSON.parse(py.trim().split('\n').pop() ?? '{}') as {
      version: string;
      seconds: number;
      scored_pairs: number;
      peak_rss_mb: number;
      splink: { pairwise_f1: number; b3_f1: number };
      lakeward: { pairwise_f1: number; b3_f1: number };
    };
    const lwRss = Math.round(process.resourceUsage().maxRSS / 1024);

    // Incremental: 1 % of the source rows (keys ending in 07) held back, a full run on the rest, the rows back,
    // then an incremental run, timed against the full run above on the same records.
    const heldOut = (key: string) => `right(CAST(${key} AS STRING), 2) = '07'`;
    for (const s of syn.sources) {
      const [c, sc, name] = s.table_fqn.split('.');
      await ws.createTableAs({
        ref: { catalog: c, schema: sc, name: `held_${name}` },
        query: `SELECT * FROM ${s.table_fqn} WHERE ${heldOut(s.key_column)}`,
        replace: true,
      });
      await ws.deleteWhere({ catalog: c, schema: sc, name }, heldOut(s.key_column));
    }
    await ingest('bench-held');
    const base = await match('bench-base');
    for (const s of syn.sources) {
      const [c, sc, name] = s.table_fqn.split('.');
      await ws.insertQuery({ catalog: c, schema: sc, name }, `SELECT * FROM ${c}.${sc}.held_${name}`);
    }
    await ingest('bench-back');
    const incremental = await match('bench-incremental', { incremental: true, params: base.params });

    console.log(`records ${RECORDS}; Lakeward steps (ms): ${JSON.stringify(steps)}`);
    console.log(
      `lakeward     wall ${(lakewardMs / 1000).toFixed(1)} s  scored pairs ${scored}  pairwise F1 ${splink.lakeward.pairwise_f1}  ` +
        `B-cubed F1 ${splink.lakeward.b3_f1}  peak RSS ${lwRss} MB (this process, generation included)`,
    );
    console.log(
      `splink ${splink.version}  wall ${splink.seconds.toFixed(1)} s  scored pairs ${splink.scored_pairs}  ` +
        `pairwise F1 ${splink.splink.pairwise_f1}  B-cubed F1 ${splink.splink.b3_f1}  peak RSS ${splink.peak_rss_mb} MB`,
    );
    console.log(
      `time ratio lakeward/splink ${(lakewardMs / 1000 / splink.seconds).toFixed(2)} (goal < 1); ` +
        `pairwise F1 difference ${(splink.lakeward.pairwise_f1 - splink.splink.pairwise_f1).toFixed(4)} (goal ≥ 0)`,
    );
    console.log(
      `incremental (1 % new records) ${(incremental.ms / 1000).toFixed(1)} s, compared ${incremental.compared} pairs; ` +
        `full ${(lakewardMs / 1000).toFixed(1)} s; incremental ÷ full ${(incremental.ms / lakewardMs).toFixed(2)}; ` +
        `steps (ms): ${JSON.stringify(incremental.steps)}`,
    );
  } finally {
    await ws.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
