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
  keptPairsSql,
  levelCount,
  matchTables,
  pairsSql,
  patternCountsSql,
  samplePatternsSql,
  scoredPairsSql,
  workSql,
  lit,
  type MatchTables,
} from './logic/match-sql';
import { allLabelsSql, assignSql, edgesSql, labelChangesSql, labelStepSql, linkedLabelsSql } from './logic/cluster-sql';
import {
  goldenSql,
  membersSql,
  overriddenCountSql,
  publishCountsSql,
  withOverridesSql,
  type OverridesByAttribute,
} from './logic/golden-sql';
import type { StewardDecisions } from './match-cases';
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

/** The run's live records, then the pair counts; above `maxPairs` the run stops here, naming the largest rule. */
export async function prepareMatch(
  ws: Workspace,
  req: MatchStepInput & { maxPairs: number; incremental?: boolean },
): Promise<{ records: number; changed: number; blocking: BlockingCount[] }> {
  const t = tables(req);
  if (!(await ws.tableExists(t.records)))
    throw new InvalidInputError(`no records of ${req.model.entity_type} yet: run an ingest first`);
  if (req.incremental) {
    if (!(await ws.tableExists(t.work)) || !(await ws.tableExists(t.pairs)))
      throw new InvalidInputError(`no earlier match run of ${req.model.entity_type} to continue: run mode full`);
    await ws.createTableAs({ ref: t.workPrev, query: `SELECT * FROM ${tableName(t.work)}`, replace: true });
  }
  const query = workSql(req.model, t, req.incremental ? t.workPrev : undefined);
  await ws.createTableAs({ ref: t.work, query, replace: true });
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
  // The previous scores of pairs between unchanged records stay; only pairs holding a changed record are compared.
  if (req.incremental) await ws.createTableAs({ ref: t.pairsKept, query: keptPairsSql(t), replace: true });
  return { records, changed, blocking };
}

const tableName = (t: { catalog: string; schema: string; name: string }) => `${t.catalog}.${t.schema}.${t.name}`;

/** Builds every candidate pair once with its comparison levels; answers pairs per rule. */
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

/** Scores every candidate pair (0–100); answers the bands per rule. */
export async function scorePairs(
  ws: Workspace,
  req: MatchStepInput & { params: FsParams; mustLinks?: [string, string][]; incremental?: boolean },
): Promise<{ per_rule: Record<string, Bands & { pairs: number }>; bands: Bands }> {
  const t = tables(req);
  const scored = scoredPairsSql(req.model, t, req.params, req.mustLinks ?? [], req.runId);
  const query = req.incremental ? `${scored} UNION ALL SELECT * FROM ${tableName(t.pairsKept)}` : scored;
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

/**
 * Connected components of the edges scoring ≥ 75, in SQL: the edges once, then label steps over the linked records
 * until none changes; every live record's label last (its own when it links to nothing).
 */
export async function clusterRecords(
  ws: Workspace,
  req: MatchStepInput,
  onStep: () => void = () => undefined,
): Promise<{ iterations: number; clusters: number }> {
  const t = tables(req);
  await ws.createTableAs({ ref: t.edges, query: edgesSql(t), replace: true });
  await ws.createTableAs({ ref: t.linkedA, query: linkedLabelsSql(t), replace: true });
  let [from, to] = [t.linkedA, t.linkedB];
  let iterations = 0;
  for (;;) {
    iterations++;
    await ws.createTableAs({ ref: to, query: labelStepSql(t, from), replace: true });
    onStep();
    const changed = num((await ws.query(labelChangesSql(from, to))).rows[0]?.changed);
    [from, to] = [to, from];
    if (changed === 0) break;
  }
  await ws.createTableAs({ ref: t.labels, query: allLabelsSql(t, from), replace: true });
  const clusters = num((await ws.query(`SELECT count(DISTINCT label) AS n FROM ${tableName(t.labels)}`)).rows[0]?.n);
  return { iterations, clusters };
}

export interface PublishCounts {
  created: number;
  merged: number;
  archived: number;
  active: number;
  under_review: number;
  /** Golden records with a steward's value in some attribute. */
  overridden: number;
}

/**
 * Steward overrides win over survivorship on every run: each attribute's overridden golden records (by id, or the
 * one now holding the override's first record, from the run's id assignment) with the value and who set it.
 */
export async function overridesByAttribute(
  ws: Workspace,
  req: MatchStepInput & { overrides: StewardDecisions['overrides'] },
): Promise<OverridesByAttribute> {
  const t = tables(req);
  const known = req.overrides.filter((o) => o.attribute in req.model.attributes);
  const out: OverridesByAttribute = new Map();
  if (!known.length) return out;
  const uids = [...new Set(known.flatMap((o) => o.records.slice(0, 1)))];
  const holder = new Map<string, string>();
  if (uids.length)
    for (const r of (
      await ws.query(`SELECT uid, entity_id FROM ${tableName(t.assign)} WHERE uid IN (${uids.map(lit).join(', ')})`)
    ).rows)
      holder.set(String(r.uid), String(r.entity_id));
  for (const o of known) {
    const id = o.entity_id ?? holder.get(o.records[0]);
    if (!id) continue;
    if (!out.has(o.attribute)) out.set(o.attribute, new Map());
    out.get(o.attribute)!.set(id, { value: o.value, by: o.by });
  }
  return out;
}

/**
 * Stable ids, survivorship, status and the steward overrides; the golden records are published by one overwrite,
 * then the membership.
 */
export async function publishGolden(
  ws: Workspace,
  req: MatchStepInput & { ts: string; overrides?: StewardDecisions['overrides'] },
): Promise<PublishCounts> {
  const t = tables(req);
  const hasPrevious = (await ws.tableExists(t.golden)) && (await ws.tableExists(t.members));
  await ws.createTableAs({ ref: t.assign, query: assignSql(t, t.labels, req.runId, hasPrevious), replace: true });
  const overrides = await overridesByAttribute(ws, { ...req, overrides: req.overrides ?? [] });
  const golden = withOverridesSql(
    req.model,
    goldenSql(req.model, t, req.runId, req.model.entity_type, req.ts, hasPrevious),
    overrides,
  );
  if (hasPrevious) await ws.overwriteQuery(t.golden, golden);
  else await ws.createTableAs({ ref: t.golden, query: golden });
  if (hasPrevious) await ws.overwriteQuery(t.members, membersSql(t, req.runId));
  else await ws.createTableAs({ ref: t.members, query: membersSql(t, req.runId) });
  const overridden = overrides.size ? num((await ws.query(overriddenCountSql(req.model, t))).rows[0]?.n) : 0;
  const r = (await ws.query(publishCountsSql(t, req.runId))).rows[0] ?? {};
  return {
    created: num(r.created),
    merged: num(r.merged),
    archived: num(r.archived),
    active: num(r.active),
    under_review: num(r.under_review),
    overridden,
  };
}
