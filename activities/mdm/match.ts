import { createHash } from 'node:crypto';
import { InvalidInputError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { MdmModel } from '../../schemas/mdm';
import { initialParams, trainPerRule, uFromSample, type FsParams, type PatternCount } from './logic/em';
import {
  attributesOf,
  bandsSql,
  blockingAttributes,
  blockingCountsSql,
  gammaColumn,
  incrementalCandidatesSql,
  levelCount,
  matchTables,
  pairsSql,
  patternCountsSql,
  samplePatternsSql,
  scoredPairsSql,
  workSql,
  type MatchTables,
  type WorkRun,
} from './logic/match-sql';
import { blockingOf, type BlockingCount } from './logic/results';

const num = (v: unknown) => Number(v ?? 0);

export interface MatchStepInput {
  runId: string;
  catalog: string;
  model: MdmModel;
}

export const tables = (req: MatchStepInput): MatchTables => matchTables(req.catalog, req.model.entity_type);

/** Candidate pairs per blocking rule from block sizes (an upper bound for later rules: OR-ed pairs count once). */
export async function blockingCounts(ws: Workspace, req: MatchStepInput, from?: string): Promise<BlockingCount[]> {
  return blockingOf((await ws.query(blockingCountsSql(req.model, tables(req), from))).rows);
}

/** The model a work table was built under (a changed model makes every record count as changed). */
const modelKey = (model: MdmModel) => createHash('md5').update(JSON.stringify(model)).digest('hex');

/** A table's columns (none when it does not exist). */
async function columnsOf(ws: Workspace, t: MatchTables['work']): Promise<string[]> {
  if (!(await ws.tableExists(t))) return [];
  return (await ws.query(`SELECT * FROM ${tableName(t)} LIMIT 0`)).columns.map((c) => c.name);
}

/**
 * Incremental runs: which work table the records are compared with. None (every record counts as changed) when
 * the previous work table was built under another model, or by a run that did not publish (its pairs and golden
 * records are not the work table's); the run's own when this is a retry after the work table was written.
 */
async function workRun(ws: Workspace, req: MatchStepInput & { incremental?: boolean }): Promise<WorkRun | 'built'> {
  const t = tables(req);
  const run: WorkRun = { runId: req.runId, modelKey: modelKey(req.model) };
  if (!req.incremental) return run;
  if (!(await ws.tableExists(t.work)) || !(await ws.tableExists(t.pairs)))
    throw new InvalidInputError(`no earlier match run of ${req.model.entity_type} to continue: run mode full`);
  if (!(await columnsOf(ws, t.work)).includes('model_key')) return run;
  const last = (await ws.query(`SELECT run_id, model_key FROM ${tableName(t.work)} LIMIT 1`)).rows[0];
  if (last?.run_id === req.runId) return 'built';
  if (!(await columnsOf(ws, t.members)).includes('run_id') || last?.model_key !== run.modelKey) return run;
  const published = (await ws.query(`SELECT run_id FROM ${tableName(t.members)} LIMIT 1`)).rows[0];
  return published?.run_id === last?.run_id ? { ...run, previous: t.work } : run;
}

/**
 * The run's live records, then the pair counts; above `maxPairs` the run stops here, naming the largest rule.
 * Incremental runs flag the records new or changed since the previous run's work table, read in the statement
 * that replaces it (no copy of it).
 */
export async function prepareMatch(
  ws: Workspace,
  req: MatchStepInput & { maxPairs: number; incremental?: boolean },
): Promise<{ records: number; changed: number; blocking: BlockingCount[] }> {
  const t = tables(req);
  if (!(await ws.tableExists(t.records)))
    throw new InvalidInputError(`no records of ${req.model.entity_type} yet: run an ingest first`);
  const run = await workRun(ws, req);
  if (run !== 'built') await ws.createTableAs({ ref: t.work, query: workSql(req.model, t, run), replace: true });
  const counts = (await ws.query(`SELECT count(*) AS n, count_if(c) AS changed FROM ${tableName(t.work)}`)).rows[0];
  const [records, changed] = [num(counts?.n), num(counts?.changed)];
  const blocking = await blockingCounts(ws, req);
  const total = blocking.reduce((n, b) => n + b.pairs, 0);
  if (total > req.maxPairs) {
    const largest = blocking.reduce((a, b) => (b.pairs > a.pairs ? b : a));
    throw new InvalidInputError(
      `blocking rule '${largest.rule}' yields ${largest.pairs} candidate pairs (all rules: ${total}), more than ` +
        `mdm.max_candidate_pairs ${req.maxPairs}: make the rule narrower`,
    );
  }
  return { records, changed, blocking };
}

const tableName = (t: { catalog: string; schema: string; name: string }) => `${t.catalog}.${t.schema}.${t.name}`;

/** Builds every candidate pair once with its comparison levels (incremental: those holding a changed record). */
export async function comparePairs(
  ws: Workspace,
  req: MatchStepInput & { incremental?: boolean },
): Promise<Record<string, number>> {
  const t = tables(req);
  const query = pairsSql(req.model, t, req.runId, req.incremental);
  await ws.createTableAs({ ref: t.candidates, query, replace: true });
  const rows = (await ws.query(`SELECT rule, count(*) AS n FROM ${tableName(t.candidates)} GROUP BY rule`)).rows;
  return Object.fromEntries(req.model.blocking_rules.map((r) => [r.name, num(rows.find((x) => x.rule === r.name)?.n)]));
}

const toPatterns = (model: MdmModel, rows: Record<string, unknown>[]): PatternCount[] =>
  rows.map((r) => ({ levels: attributesOf(model).map((a) => num(r[gammaColumn(a)])), count: num(r.n) }));

/**
 * u from the agreement levels of every pair among a seeded sample of records (nearly all non-matches); m by EM
 * over the candidate pairs' pattern counts (one scan), u held fixed; λ, the probability that two random records
 * match, from the expected matches among the candidate pairs.
 */
export async function trainModel(
  ws: Workspace,
  req: MatchStepInput & { seed: number; sampleSize: number },
): Promise<FsParams & { iterations: number; patterns: number }> {
  const t = tables(req);
  const levels = attributesOf(req.model).map((a) => levelCount(req.model, a));
  const sample = toPatterns(
    req.model,
    (await ws.query(samplePatternsSql(req.model, t, req.seed, req.sampleSize))).rows,
  );
  const u = uFromSample(levels, sample);
  const rows = (await ws.query(patternCountsSql(req.model, t))).rows;
  if (rows.length === 0) return { ...initialParams(levels, u), iterations: 0, patterns: 0 };
  const attrs = attributesOf(req.model);
  const rules = req.model.blocking_rules.map((r) => r.name);
  const byRule = rules.map((name) =>
    toPatterns(
      req.model,
      rows.filter((r) => r.rule === name),
    ),
  );
  const blocked = rules.map((_, i) => blockingAttributes(req.model, i).map((a) => attrs.indexOf(a)));
  const records = num((await ws.query(`SELECT count(*) AS n FROM ${tableName(t.work)}`)).rows[0]?.n);
  const candidates = toPatterns(
    req.model,
    rows.map((r) => ({ ...r, n: r.own })),
  ).filter((p) => p.count > 0);
  const population = (records * (records - 1)) / 2;
  const fitted = trainPerRule(byRule, blocked, initialParams(levels, u), { candidates, population });
  return { ...fitted, patterns: rows.length };
}

export interface Bands {
  merged: number;
  reviewable: number;
  suspected: number;
  apart: number;
}

/** Scores every candidate pair (0–100), an incremental run's and the kept ones alike; answers the bands per rule. */
export async function scorePairs(
  ws: Workspace,
  req: MatchStepInput & { params: FsParams; mustLinks?: [string, string][]; incremental?: boolean },
): Promise<{ per_rule: Record<string, Bands & { pairs: number }>; bands: Bands }> {
  const t = tables(req);
  // Incremental: the previous pairs between unchanged records are scored again with this run's, from their levels.
  const from = req.incremental ? incrementalCandidatesSql(req.model, t) : undefined;
  const query = scoredPairsSql(req.model, t, req.params, req.mustLinks ?? [], req.runId, from);
  await ws.createTableAs({ ref: t.pairs, query, replace: true });
  const rows = (await ws.query(bandsSql(t, req.model.review_floor))).rows;
  const per_rule = Object.fromEntries(
    rows.map((r) => [
      String(r.rule),
      {
        pairs: num(r.pairs),
        merged: num(r.merged),
        reviewable: num(r.reviewable),
        suspected: num(r.suspected),
        apart: num(r.apart),
      },
    ]),
  );
  const bands: Bands = { merged: 0, reviewable: 0, suspected: 0, apart: 0 };
  for (const b of Object.values(per_rule)) for (const k of Object.keys(bands) as (keyof Bands)[]) bands[k] += b[k];
  return { per_rule, bands };
}
