import { and, count, eq, max, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { ident } from '../../activities/data-quality/logic/sql-text';
import { windowStart, type EvidenceFacts } from '../../activities/compliance/logic';
import { parseFqn } from '../../platform/identifiers';
import type { EvidenceSource } from '../../schemas/compliance';
import type { Db } from '../../store/db';
import { contractValidations } from '../../store/contracts/tables';
import { accessPolicies, audit, cloneChecks, dqxRunResults, quiesceGrants } from '../../store/schema';
import type { AppDeps } from '../deps';
import { configuredKeys } from '../middleware/auth';

/** What a source found, what its records are called in a summary, and why there is none when that is known. */
export interface Collected extends EvidenceFacts {
  noun: string;
  reason?: string;
}

const NONE = { count: 0, freshCount: 0, newestAt: null };
const asDate = (v: unknown): Date | null => (v == null ? null : v instanceof Date ? v : new Date(String(v)));

/** count, fresh count and newest time of the rows of `table` matching `where`, by its time column `at`. */
async function countRows(db: Db, table: PgTable, at: PgColumn, since: Date, where?: SQL): Promise<EvidenceFacts> {
  const [row] = await db
    .select({
      n: count(),
      fresh: sql<number>`count(*) filter (where ${at} >= ${since.toISOString()}::timestamptz)`,
      newest: max(at),
    })
    .from(table)
    .where(where);
  return { count: Number(row?.n ?? 0), freshCount: Number(row?.fresh ?? 0), newestAt: asDate(row?.newest) };
}

/** Erasure requests from a workspace table (filter is a SQL predicate on it), read through the platform port. */
async function rtbfRequests(
  deps: AppDeps,
  s: Extract<EvidenceSource, { type: 'rtbf_request' }>,
  since: Date,
): Promise<Collected> {
  const noun = `RTBF requests${s.filter ? ` (${s.filter})` : ''}`;
  if (!s.table) return { ...NONE, noun, reason: 'no RTBF request table is named (evidence source field `table`)' };
  const ref = parseFqn(s.table);
  const t = `${ident(ref.catalog)}.${ident(ref.schema)}.${ident(ref.name)}`;
  const at = ident(s.time_column);
  const stamp = since.toISOString().replace('T', ' ').replace('Z', '');
  const ws = await deps.workspaces.default();
  const { rows } = await ws.query(
    `SELECT count(*) AS n, sum(CASE WHEN ${at} >= TIMESTAMP '${stamp}' THEN 1 ELSE 0 END) AS fresh, ` +
      `max(${at}) AS newest FROM ${t}${s.filter ? ` WHERE (${s.filter})` : ''}`,
  );
  const r = rows[0] ?? {};
  return { count: Number(r.n ?? 0), freshCount: Number(r.fresh ?? 0), newestAt: asDate(r.newest), noun };
}

/** The API keys and access policies in effect now: evidence that is as fresh as the assessment. */
async function roleConfiguration(deps: AppDeps, now: Date): Promise<Collected> {
  const keys = configuredKeys(deps.config.api_server);
  const [p] = await deps.store.db.select({ n: count() }).from(accessPolicies);
  const roles = [...new Set(keys.map((k) => k.role))].sort();
  const noun = `API keys with roles${roles.length ? ` (${roles.join(', ')})` : ''} and ${Number(p?.n ?? 0)} access policies`;
  if (keys.length === 0)
    return { ...NONE, noun, reason: 'authentication is off: no API keys are configured (api_server.keys)' };
  return { count: keys.length, freshCount: keys.length, newestAt: now, noun };
}

/** The evidence of one source at `now`, over its freshness window of `days`. */
export async function collect(deps: AppDeps, s: EvidenceSource, now: Date, days: number): Promise<Collected> {
  const db = deps.store.db;
  const since = windowStart(now, days);
  switch (s.type) {
    case 'audit_log':
      return {
        ...(await countRows(db, audit, audit.createdAt, since, eq(audit.action, s.op_type))),
        noun: `audit rows (${s.op_type})`,
      };
    case 'dq_rule': {
      const named = sql`${dqxRunResults.checkResults} @> ${JSON.stringify([{ name: s.rule_name }])}::jsonb`;
      const where = s.rule_name === '*' ? undefined : named;
      const noun = s.rule_name === '*' ? 'data-quality runs' : `data-quality runs of ${s.rule_name}`;
      return { ...(await countRows(db, dqxRunResults, dqxRunResults.executedAt, since, where)), noun };
    }
    case 'clone_validation': {
      const where = and(eq(cloneChecks.kind, 'validation'), eq(cloneChecks.passed, true));
      return {
        ...(await countRows(db, cloneChecks, cloneChecks.checkedAt, since, where)),
        noun: 'passed clone validations',
      };
    }
    case 'quiesce_record':
      return { ...(await countRows(db, quiesceGrants, quiesceGrants.createdAt, since)), noun: 'quiesce grant records' };
    case 'provenance_signature': {
      const where = eq(audit.action, 'provenance_signed');
      return { ...(await countRows(db, audit, audit.createdAt, since, where)), noun: 'signed provenance manifests' };
    }
    case 'role_config':
      return roleConfiguration(deps, now);
    case 'contract_validation': {
      const found = await countRows(db, contractValidations, contractValidations.createdAt, since);
      return { ...found, noun: 'data-contract validations' };
    }
    case 'rtbf_request':
      return rtbfRequests(deps, s, since);
  }
}
