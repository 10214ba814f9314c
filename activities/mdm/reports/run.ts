import { sql } from 'drizzle-orm';
import { ident, lit } from '../../data-quality/logic/sql-text';
import { matchTables } from '../logic/match-sql';
import { BusinessCalendar, slaState } from '../logic/sla';
import { goldenAttributes } from '../logic/steward-sql';
import { recordsTable } from '../logic/standardise';
import type { Workspace } from '../../../platform/port';
import type { MdmReportInput, ReportResult } from '../../../schemas/mdm-reports';
import type { Store } from '../../../store/db';
import { listCases } from '../../../store/mdm/cases';
import { listModels } from '../../../store/mdm/repo';

/** Rows a report keeps (the job summary holds them); more are cut and the result says so. */
export const MAX_REPORT_ROWS = 5000;

type Row = Record<string, unknown>;
type Cell = string | number | boolean | null;

const fqn = (t: { catalog: string; schema: string; name: string }) =>
  `${ident(t.catalog)}.${ident(t.schema)}.${ident(t.name)}`;

/** JSON-safe cells: bigints and decimals as numbers, dates as ISO text. */
function cell(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'object' && 'toString' in v) {
    const s = String(v);
    return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : s;
  }
  return String(v);
}

interface Ctx {
  store: Store;
  ws: () => Promise<Workspace>;
  input: MdmReportInput;
}

const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

async function storeRows(ctx: Ctx, query: ReturnType<typeof sql>): Promise<Row[]> {
  const res = (await ctx.store.db.execute(query)) as unknown as { rows: Row[] };
  return res.rows;
}

async function entityTypes(ctx: Ctx): Promise<string[]> {
  if (ctx.input.entityType) return [ctx.input.entityType];
  return (await listModels(ctx.store.db)).map((m) => m.entityType);
}

/** Runs `build(entityType)` on each entity type whose table exists and concatenates the rows. */
async function perEntity(
  ctx: Ctx,
  table: (entityType: string) => { catalog: string; schema: string; name: string },
  build: (entityType: string, columns: string[]) => string | null,
): Promise<Row[]> {
  const ws = await ctx.ws();
  const out: Row[] = [];
  for (const et of await entityTypes(ctx)) {
    const t = table(et);
    if (!(await ws.tableExists(t))) continue;
    const columns = (await ws.describeTable(t)).columns.map((c) => c.name);
    const q = build(et, columns);
    if (q) out.push(...(await ws.query(q)).rows);
  }
  return out;
}

const SOURCE_FIXED = new Set([
  'system',
  'record_id',
  'trust',
  'source_updated_at',
  'row_hash',
  'deleted',
  'ingest_id',
  'changed_at',
  'ingested_at',
]);

const BUILTINS: Record<string, (ctx: Ctx) => Promise<Row[]>> = {
  consolidation_summary: (ctx) =>
    perEntity(
      ctx,
      (et) => matchTables(ctx.input.catalog, et).golden,
      (et, _c) =>
        `SELECT ${lit(et)} AS entity_type, status, count(*) AS golden_records, sum(record_count) AS source_records ` +
        `FROM ${fqn(matchTables(ctx.input.catalog, et).golden)} GROUP BY status ORDER BY status`,
    ),
  match_rule_effectiveness: (ctx) =>
    perEntity(
      ctx,
      (et) => matchTables(ctx.input.catalog, et).pairs,
      (et, cols) =>
        cols.includes('rule') && cols.includes('score')
          ? `SELECT ${lit(et)} AS entity_type, rule, count(*) AS pairs, count_if(score >= 75) AS linked, ` +
            `count_if(score >= 50 AND score < 75) AS review, round(avg(score), 1) AS avg_score ` +
            `FROM ${fqn(matchTables(ctx.input.catalog, et).pairs)} GROUP BY rule ORDER BY rule`
          : null,
    ),
  quality_scorecard: (ctx) =>
    perEntity(
      ctx,
      (et) => matchTables(ctx.input.catalog, et).golden,
      (et, cols) => {
        const g = fqn(matchTables(ctx.input.catalog, et).golden);
        const parts = goldenAttributes(cols).map(
          (a) =>
            `SELECT ${lit(et)} AS entity_type, ${lit(a)} AS attribute, count(*) AS golden_records, ` +
            `round(100.0 * count(${ident(a)}) / greatest(count(*), 1), 1) AS completeness_pct ` +
            `FROM ${g} WHERE status IN ('active', 'under_review')`,
        );
        return parts.length ? parts.join(' UNION ALL ') : null;
      },
    ),
  source_data_quality: (ctx) =>
    perEntity(
      ctx,
      (et) => recordsTable(ctx.input.catalog, et),
      (et, cols) => {
        const attrs = cols.filter((c) => !SOURCE_FIXED.has(c));
        if (!attrs.length) return null;
        const filled = attrs.map((a) => `CASE WHEN ${ident(a)} IS NULL THEN 0 ELSE 1 END`).join(' + ');
        return (
          `SELECT ${lit(et)} AS entity_type, system, count(*) AS records, count_if(deleted) AS deleted, ` +
          `round(100.0 * avg((${filled}) / ${attrs.length}.0), 1) AS completeness_pct ` +
          `FROM ${fqn(recordsTable(ctx.input.catalog, et))} GROUP BY system ORDER BY system`
        );
      },
    ),
  consent_posture: (ctx) =>
    perEntity(
      ctx,
      (et) => matchTables(ctx.input.catalog, et).golden,
      (et, cols) => {
        const g = fqn(matchTables(ctx.input.catalog, et).golden);
        const consent = goldenAttributes(cols).filter((a) => /consent|opt_?in|opt_?out|marketing/.test(a));
        if (!consent.length)
          return (
            `SELECT ${lit(et)} AS entity_type, '(no consent attribute)' AS attribute, 0 AS granted, 0 AS refused, ` +
            `count(*) AS unknown FROM ${g} WHERE status IN ('active', 'under_review')`
          );
        return consent
          .map((a) => {
            const v = `lower(CAST(${ident(a)} AS STRING))`;
            return (
              `SELECT ${lit(et)} AS entity_type, ${lit(a)} AS attribute, ` +
              `count_if(${v} IN ('true', 'yes', 'y', '1', 'granted', 'opt_in')) AS granted, ` +
              `count_if(${v} IN ('false', 'no', 'n', '0', 'refused', 'opt_out')) AS refused, ` +
              `count_if(${ident(a)} IS NULL) AS unknown FROM ${g} WHERE status IN ('active', 'under_review')`
            );
          })
          .join(' UNION ALL ');
      },
    ),
  steward_productivity: (ctx) =>
    storeRows(
      ctx,
      sql`SELECT resolved_by AS steward, resolution->>'action' AS action, count(*)::int AS resolved,
        round(avg(extract(epoch FROM (resolved_at - opened_at)) / 3600)::numeric, 1)::float AS avg_hours_open
        FROM mdm_cases WHERE status = 'resolved' AND resolved_at >= ${ctx.input.from}::date
        AND resolved_at < ${dayAfter(ctx.input.to)}::date
        AND (${ctx.input.entityType}::text IS NULL OR entity_type = ${ctx.input.entityType})
        GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
  stewardship_backlog: async (ctx) => {
    const cal = new BusinessCalendar(ctx.input.slaCalendar);
    const now = new Date();
    const open = await listCases(
      ctx.store.db,
      { status: 'open', entityType: ctx.input.entityType ?? undefined },
      100_000,
    );
    const counts = new Map<string, number>();
    for (const c of open) {
      const key = `${c.type}\u0000${slaState(cal, c.openedAt, c.dueAt, now)}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts]
      .map(([k, n]) => {
        const [type, sla_state] = k.split('\u0000');
        return { type, sla_state, open_cases: n };
      })
      .sort((a, b) => (a.type + a.sla_state < b.type + b.sla_state ? -1 : 1));
  },
  hierarchy_coverage: (ctx) =>
    storeRows(
      ctx,
      sql`SELECT domain, count(*)::int AS codes, count(parent)::int AS with_parent,
        round(100.0 * count(parent) / count(*), 1)::float AS coverage_pct
        FROM mdm_ref_codes GROUP BY domain ORDER BY domain`,
    ),
  audit_summary: (ctx) =>
    storeRows(
      ctx,
      sql`SELECT action, object_type, count(*)::int AS events, count(DISTINCT actor)::int AS actors
        FROM mdm_audit WHERE at >= ${ctx.input.from}::date AND at < ${dayAfter(ctx.input.to)}::date
        GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
  negative_match_growth: async (ctx) => {
    const rows = await storeRows(
      ctx,
      sql`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS created
        FROM mdm_negative_match_rules WHERE created_at < ${dayAfter(ctx.input.to)}::date
        AND (${ctx.input.entityType}::text IS NULL OR entity_type = ${ctx.input.entityType})
        GROUP BY 1 ORDER BY 1`,
    );
    let total = 0;
    return rows
      .map((r) => {
        total += Number(r.created);
        return { day: String(r.day), created: Number(r.created), total_rules: total };
      })
      .filter((r) => r.day >= ctx.input.from);
  },
};

export const builtinRunnable = (name: string) => name in BUILTINS;

/** Runs a report: a built-in's rows, or the custom SQL (already checked and bound by the API) on the workspace. */
export async function runReport(ctx: Ctx): Promise<ReportResult> {
  const { input } = ctx;
  let rows: Row[];
  if (input.kind === 'builtin') {
    const run = BUILTINS[input.report];
    if (!run) throw new Error(`no built-in report ${input.report}`);
    rows = await run(ctx);
  } else {
    const ws = await ctx.ws();
    rows = (await ws.query(`SELECT * FROM (${input.sql}) AS report LIMIT ${MAX_REPORT_ROWS + 1}`)).rows;
  }
  const truncated = rows.length > MAX_REPORT_ROWS;
  const kept = rows
    .slice(0, MAX_REPORT_ROWS)
    .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cell(v)])));
  const columns = kept.length ? Object.keys(kept[0]) : [];
  return {
    report: input.report,
    title: input.title,
    parameters: { ...input.parameters, from: input.from, to: input.to, entity_type: input.entityType },
    columns,
    rows: kept,
    viz: input.viz,
    truncated,
  };
}
