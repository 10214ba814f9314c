import type { MdmModel } from '../../../schemas/mdm';
import { levelWeight, type FsParams } from './em';
import { attributesOf, gammaColumn, ident, lit, levelCount, SCORE_LINK, tableOf, type MatchTables } from './match-sql';
import { survivorKeys, survivorRowsSql } from './golden-sql';

/**
 * What a match run leaves to stewards, as SQL over the run's tables and the shaping of the rows into cases:
 * golden records under review (75–94), pairs from review_floor to 74 left apart, and tied survivorship values
 * that differ. Pure: no I/O.
 */

export interface RecordRef {
  system: string;
  record_id: string;
}

export interface CaseAttribute {
  attribute: string;
  values: (string | null)[];
  weight: number | null;
  level?: string | null;
}

export interface RunCase {
  entity_type: string;
  type: 'match_review' | 'suspected_duplicate' | 'conflict_resolution' | 'negative_match_candidate';
  records: RecordRef[];
  score: number | null;
  attributes: CaseAttribute[];
  entity_ids: string[];
  run_id: string;
  details?: Record<string, unknown>;
}

/** A pair's comparison levels and both values of every attribute. */
function pairColumns(model: MdmModel): string {
  return attributesOf(model)
    .flatMap((a) => [
      `p.${ident(gammaColumn(a))}`,
      `l.${ident(a)} AS ${ident(`l__${a}`)}`,
      `r.${ident(a)} AS ${ident(`r__${a}`)}`,
    ])
    .join(', ');
}

/** Under-review golden records of this run with their weakest linking pair (the lowest score ≥ 75 inside). */
export function reviewCasesSql(model: MdmModel, t: MatchTables, runId: string): string {
  return (
    `SELECT * FROM (SELECT g.entity_id, g.confidence_score, p.uid_l, p.uid_r, p.score, ${pairColumns(model)}, ` +
    `row_number() OVER (PARTITION BY g.entity_id ORDER BY p.score, p.uid_l, p.uid_r) AS rk ` +
    `FROM ${tableOf(t.golden)} g JOIN ${tableOf(t.assign)} a ON a.entity_id = g.entity_id ` +
    `JOIN ${tableOf(t.pairs)} p ON p.uid_l = a.uid JOIN ${tableOf(t.assign)} b ON b.uid = p.uid_r AND b.entity_id = g.entity_id ` +
    `JOIN ${tableOf(t.work)} l ON l.uid = p.uid_l JOIN ${tableOf(t.work)} r ON r.uid = p.uid_r ` +
    `WHERE g.status = 'under_review' AND g.run_id = ${lit(runId)} AND p.score >= ${SCORE_LINK}) x WHERE rk = 1`
  );
}

/** The records of golden records that cases name (every record of an under-review or conflicting cluster). */
export const caseMembersSql = (t: MatchTables, entityIds: string[]) =>
  `SELECT a.entity_id, w.system, w.record_id FROM ${tableOf(t.assign)} a JOIN ${tableOf(t.work)} w ON w.uid = a.uid ` +
  `WHERE a.entity_id IN (${entityIds.map(lit).join(', ')}) ORDER BY a.entity_id, w.system, w.record_id`;

/** Pairs scoring from review_floor up to (not including) 75 whose records ended in different golden records. */
export function suspectedCasesSql(model: MdmModel, t: MatchTables): string {
  return (
    `SELECT p.uid_l, p.uid_r, p.score, a.entity_id AS entity_l, b.entity_id AS entity_r, ${pairColumns(model)} ` +
    `FROM ${tableOf(t.pairs)} p JOIN ${tableOf(t.assign)} a ON a.uid = p.uid_l JOIN ${tableOf(t.assign)} b ON b.uid = p.uid_r ` +
    `JOIN ${tableOf(t.work)} l ON l.uid = p.uid_l JOIN ${tableOf(t.work)} r ON r.uid = p.uid_r ` +
    `WHERE p.score >= ${model.review_floor} AND p.score < ${SCORE_LINK} AND a.entity_id <> b.entity_id ORDER BY p.uid_l, p.uid_r`
  );
}

/**
 * Tied survivorship values that differ: per golden record and attribute, the distinct non-null values ranked
 * first by the strategy's keys alone (before the value and record-id tie-break), where there are two or more.
 */
export function conflictsSql(model: MdmModel, t: MatchTables): string {
  const rows = survivorRowsSql(model, t);
  const parts = attributesOf(model).map(
    (a) =>
      `SELECT DISTINCT entity_id, ${lit(a)} AS attribute, CAST(${ident(a)} AS STRING) AS value FROM (SELECT entity_id, ${ident(a)}, ` +
      `rank() OVER (PARTITION BY entity_id ORDER BY ${survivorKeys(model, a).join(', ')}) AS rk FROM (${rows}) s ` +
      `WHERE ${ident(a)} IS NOT NULL) x WHERE rk = 1`,
  );
  return (
    `SELECT entity_id, attribute, value FROM (SELECT *, count(*) OVER (PARTITION BY entity_id, attribute) AS nv ` +
    `FROM (${parts.join(' UNION ALL ')}) d) c WHERE nv > 1 ORDER BY entity_id, attribute, value`
  );
}

const ref = (uid: string): RecordRef => {
  const i = uid.indexOf(':');
  return { system: uid.slice(0, i), record_id: uid.slice(i + 1) };
};
const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** Both values of each attribute with the weight its comparison level carries under the trained model. */
export function pairAttributes(
  model: MdmModel,
  params: FsParams | null,
  row: Record<string, unknown>,
): CaseAttribute[] {
  return attributesOf(model).map((a, i) => {
    const g = row[gammaColumn(a)];
    const level = g === null || g === undefined ? null : Number(g);
    const weight =
      params && level !== null && level >= 0 ? Math.round(levelWeight(params, i, level) * 100) / 100 : null;
    return {
      attribute: a,
      values: [str(row[`l__${a}`]), str(row[`r__${a}`])],
      weight,
      level: level === null ? null : String(level),
    };
  });
}

/**
 * A pair kept apart only by a hard identifier: some hard identifier present on both sides disagrees, and the
 * score without that cap (100 × P(match) from the trained weights) would have linked the records (≥ 75). These
 * look like one entity but say they are two (twins, a reused address and phone): a steward either merges them or
 * confirms them apart with a negative-match rule. Null for any other pair, or without a trained model.
 */
export function hardIdentifierConflict(
  model: MdmModel,
  params: FsParams | null,
  row: Record<string, unknown>,
): { differing: string[]; uncapped_score: number } | null {
  if (!params) return null;
  const attrs = attributesOf(model);
  const level = (a: string) => {
    const g = row[gammaColumn(a)];
    return g === null || g === undefined ? -1 : Number(g);
  };
  const differing = attrs.filter((a) => model.attributes[a].hard_identifier && level(a) === 0);
  if (!differing.length) return null;
  // a deterministic rule (every attribute at its exact level) would not be capped either way
  let w = Math.log2(params.lambda / (1 - params.lambda));
  attrs.forEach((a, i) => {
    const l = level(a);
    if (l >= 0 && l < levelCount(model, a)) w += levelWeight(params, i, l);
  });
  const uncapped = Math.round(1000 / (1 + 2 ** -w)) / 10;
  return uncapped >= SCORE_LINK ? { differing, uncapped_score: uncapped } : null;
}

/** The cases of a run from the rows of the three queries (and the records of the golden records they name). */
export function runCases(
  model: MdmModel,
  runId: string,
  params: FsParams | null,
  rows: {
    review: Record<string, unknown>[];
    suspected: Record<string, unknown>[];
    conflicts: Record<string, unknown>[];
    members: Record<string, unknown>[];
  },
  cannotLink: Set<string>,
): RunCase[] {
  const membersOf = (id: string) =>
    rows.members
      .filter((m) => m.entity_id === id)
      .map((m) => ({ system: String(m.system), record_id: String(m.record_id) }));
  const base = { entity_type: model.entity_type, run_id: runId };
  const review: RunCase[] = rows.review.map((r) => ({
    ...base,
    type: 'match_review',
    records: membersOf(String(r.entity_id)),
    score: Number(r.confidence_score),
    attributes: pairAttributes(model, params, r),
    entity_ids: [String(r.entity_id)],
    details: { weakest_pair: [ref(String(r.uid_l)), ref(String(r.uid_r))], weakest_score: Number(r.score) },
  }));
  const suspected: RunCase[] = rows.suspected
    .filter((r) => !cannotLink.has(`${r.uid_l}|${r.uid_r}`))
    .map((r) => {
      const conflict = hardIdentifierConflict(model, params, r);
      return {
        ...base,
        type: conflict ? ('negative_match_candidate' as const) : ('suspected_duplicate' as const),
        records: [ref(String(r.uid_l)), ref(String(r.uid_r))],
        score: Number(r.score),
        attributes: pairAttributes(model, params, r),
        entity_ids: [String(r.entity_l), String(r.entity_r)],
        ...(conflict
          ? { details: { hard_identifiers_differ: conflict.differing, uncapped_score: conflict.uncapped_score } }
          : {}),
      };
    });
  const byEntity = new Map<string, Map<string, string[]>>();
  for (const c of rows.conflicts) {
    const e = String(c.entity_id);
    if (!byEntity.has(e)) byEntity.set(e, new Map());
    const attrs = byEntity.get(e)!;
    attrs.set(String(c.attribute), [...(attrs.get(String(c.attribute)) ?? []), String(c.value)]);
  }
  const conflicts: RunCase[] = [...byEntity].map(([e, attrs]) => ({
    ...base,
    type: 'conflict_resolution',
    records: membersOf(e),
    score: null,
    attributes: [...attrs].map(([attribute, values]) => ({ attribute, values, weight: null })),
    entity_ids: [e],
    details: { conflicts: Object.fromEntries(attrs) },
  }));
  return [...review, ...suspected, ...conflicts];
}
