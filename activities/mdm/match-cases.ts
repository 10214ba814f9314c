import { inArray } from 'drizzle-orm';
import type { Workspace } from '../../platform/port';
import type { Db } from '../../store/db';
import { mdmCases } from '../../store/mdm/steward-tables';
import { cannotLinksFor, mustLinksFor, openCases, overridesFor, recordKey } from '../../store/mdm/cases';
import type { FsParams } from './logic/em';
import { caseMembersSql, conflictsSql, reviewCasesSql, runCases, suspectedCasesSql } from './logic/match-cases';
import { slaDueAt } from './logic/sla';
import { tables, type MatchStepInput } from './match';

/** What stewards decided that a run honours: approved pairs (edges of 100), rejected pairs, attribute overrides. */
export interface StewardDecisions {
  mustLinks: [string, string][];
  cannotLinks: [string, string][];
  overrides: { entity_id: string | null; records: string[]; attribute: string; value: string | null; by: string }[];
}

const ordered = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);

export async function stewardDecisions(db: Db, entityType: string): Promise<StewardDecisions> {
  const [must, cannot, overrides] = await Promise.all([
    mustLinksFor(db, entityType),
    cannotLinksFor(db, entityType),
    overridesFor(db, entityType),
  ]);
  return {
    mustLinks: must.map((l) => ordered(recordKey(l.a), recordKey(l.b))),
    cannotLinks: cannot.map((l) => ordered(recordKey(l.a), recordKey(l.b))),
    overrides: overrides.map((o) => ({
      entity_id: o.entity_id,
      records: o.records.map(recordKey),
      attribute: o.attribute,
      value: o.value === null || o.value === undefined ? null : String(o.value),
      by: o.created_by,
    })),
  };
}

/**
 * The run's stewardship cases, opened idempotently (a case of the same type over the same records is never opened
 * twice, whatever its status): match_review per golden record under review, suspected_duplicate per pair from
 * review_floor to 74 left apart (not a rejected pair) — negative_match_candidate instead when only a hard
 * identifier's cap kept it below 75 —, conflict_resolution per golden record whose tied
 * survivorship values differ (not on an overridden attribute).
 */
export async function openRunCases(
  ws: Workspace,
  db: Db,
  req: MatchStepInput & { params: FsParams | null; slaCalendar: string | null; decisions: StewardDecisions },
): Promise<{ opened: Record<string, number>; existing: number }> {
  const t = tables(req);
  const review = (await ws.query(reviewCasesSql(req.model, t, req.runId))).rows;
  const suspected = (await ws.query(suspectedCasesSql(req.model, t))).rows;
  const overridden = new Set(req.decisions.overrides.map((o) => `${o.entity_id}|${o.attribute}`));
  const conflicts = (await ws.query(conflictsSql(req.model, t))).rows.filter(
    (c) => !overridden.has(`${c.entity_id}|${c.attribute}`),
  );
  const ids = [...new Set([...review, ...conflicts].map((r) => String(r.entity_id)))];
  const members = ids.length ? (await ws.query(caseMembersSql(t, ids))).rows : [];
  const cannot = new Set(req.decisions.cannotLinks.map(([a, b]) => `${a}|${b}`));
  const cases = runCases(req.model, req.runId, req.params, { review, suspected, conflicts, members }, cannot);
  const result = await openCases(db, cases, slaDueAt(req.slaCalendar) as never);
  const opened: Record<string, number> = {
    match_review: 0,
    suspected_duplicate: 0,
    negative_match_candidate: 0,
    conflict_resolution: 0,
  };
  for (let i = 0; i < result.opened.length; i += 500) {
    const rows = await db
      .select({ type: mdmCases.type })
      .from(mdmCases)
      .where(inArray(mdmCases.id, result.opened.slice(i, i + 500)));
    for (const r of rows) opened[r.type] = (opened[r.type] ?? 0) + 1;
  }
  return { opened, existing: result.existing };
}
