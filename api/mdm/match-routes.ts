import { z } from 'zod';
import { blockingCountsSql, liveRecordsSql, matchTables, tableOf, lit } from '../../activities/mdm/logic/match-sql';
import { evaluateSql } from '../../activities/mdm/logic/golden-sql';
import { blockingOf, evaluationOf } from '../../activities/mdm/logic/results';
import { parseFqn } from '../../platform/identifiers';
import { type MdmModel } from '../../schemas/mdm';
import {
  BlockingAnalyseBodySchema,
  BlockingAnalysisSchema,
  EntityIdParamsSchema,
  EntityQuerySchema,
  EvaluateBodySchema,
  EvaluationSchema,
  GoldenRecordSchema,
  JobAcceptedSchema,
  JobIdParamsSchema,
  MatchRunBodySchema,
  MatchRunViewSchema,
  type GoldenRecord,
} from '../../schemas/mdm-runs';
import { getJob } from '../../store/jobs/jobs';
import { listModels } from '../../store/mdm/repo';
import type { AppDeps } from '../deps';
import { callerOf } from '../middleware/auth';
import { notFound } from '../middleware/http-error';
import { route } from '../middleware/route';
import { assertMdmWrite, invalid, mdmWorkspace, modelOf, requireModel } from './service';
import { submitMatch } from './submit';

/** The u sample: every pair among this many records (about 180,000 pairs). */
/** A golden_records row (and its members) as the API shows it. */
function goldenView(model: MdmModel, row: Record<string, unknown>, members: Record<string, unknown>[]): GoldenRecord {
  const ref = (uid: unknown) => {
    if (typeof uid !== 'string') return null;
    const i = uid.indexOf(':');
    return { system: uid.slice(0, i), record_id: uid.slice(i + 1) };
  };
  const attrs = Object.keys(model.attributes);
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
  return {
    entity_id: String(row.entity_id),
    entity_type: String(row.entity_type),
    status: String(row.status),
    reviewable: Boolean(row.reviewable),
    confidence_score: Number(row.confidence_score),
    attributes: Object.fromEntries(attrs.map((a) => [a, (row[a] as string | null) ?? null])),
    provenance: Object.fromEntries(attrs.map((a) => [a, ref(row[`${a}__source`])])),
    source_records: members.map((m) => ({ system: String(m.system), record_id: String(m.record_id) })),
    merged_into: (row.merged_into as string | null) ?? null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

async function goldenRecords(deps: AppDeps, model: MdmModel, where: string, limit: number, offset: number) {
  const ws = await mdmWorkspace(deps);
  const t = matchTables(deps.config.mdm.catalog, model.entity_type);
  if (!(await ws.tableExists(t.golden)) || !(await ws.tableExists(t.members))) return [];
  const rows = (
    await ws.query(
      `SELECT * FROM ${tableOf(t.golden)} WHERE ${where} ORDER BY entity_id LIMIT ${limit} OFFSET ${offset}`,
    )
  ).rows;
  if (!rows.length) return [];
  const ids = rows.map((r) => lit(String(r.entity_id))).join(', ');
  const members = (
    await ws.query(
      `SELECT entity_id, system, record_id FROM ${tableOf(t.members)} WHERE entity_id IN (${ids}) ORDER BY system, record_id`,
    )
  ).rows;
  return rows.map((r) =>
    goldenView(
      model,
      r,
      members.filter((m) => m.entity_id === r.entity_id),
    ),
  );
}

async function modelsFor(deps: AppDeps, entityType?: string): Promise<MdmModel[]> {
  if (entityType) return [await requireModel(deps, entityType, 'query.entity_type')];
  return (await listModels(deps.store.db)).map(modelOf);
}

/** The golden record with this id, whatever its entity type. */
export async function goldenRecordById(deps: AppDeps, entityId: string): Promise<GoldenRecord | null> {
  for (const model of await modelsFor(deps)) {
    const [g] = await goldenRecords(deps, model, `entity_id = ${lit(entityId)}`, 1, 0);
    if (g) return g;
  }
  return null;
}

export const matchRoutes = [
  route({
    method: 'post',
    path: '/mdm/match/run',
    summary: 'Match an entity type: blocking, training, scoring, clustering and golden records, as an mdm_match job',
    request: { body: MatchRunBodySchema },
    response: { status: 202, description: 'The queued job', schema: JobAcceptedSchema },
    errors: {
      403: 'An access policy refuses writing the MDM catalog (names the rule)',
      409: 'A match run of this entity type has not ended',
      422: 'Unknown entity type',
      429: 'Too many runs waiting',
    },
    handler: async ({ deps, input: { body }, req }) => {
      await assertMdmWrite(deps, callerOf(req));
      return submitMatch(deps, body);
    },
  }),
  route({
    method: 'get',
    path: '/mdm/match/runs/:job_id',
    summary: 'A match run: pairs per rule and band, golden records created, merged and archived, time per step',
    request: { params: JobIdParamsSchema },
    response: { description: 'The run', schema: MatchRunViewSchema },
    errors: { 404: 'No such match run' },
    handler: async ({ deps, input: { params } }) => {
      const row = await getJob(deps.store.db, params.job_id);
      if (!row || row.jobType !== 'mdm_match') throw notFound(`No match run ${params.job_id}`);
      return {
        job_id: row.jobId,
        status: row.status,
        error: row.error,
        created_at: row.createdAt.toISOString(),
        completed_at: row.completedAt?.toISOString() ?? null,
        report: (row.summary as Record<string, unknown> | null) ?? null,
      };
    },
  }),
  route({
    method: 'post',
    path: '/mdm/blocking/analyse',
    summary: 'Candidate pairs each blocking rule would build, from block sizes alone (nothing is compared)',
    role: 'viewer',
    request: { body: BlockingAnalyseBodySchema },
    response: { description: 'Pairs per rule', schema: BlockingAnalysisSchema },
    errors: { 422: 'Unknown entity type, or nothing ingested yet' },
    handler: async ({ deps, input: { body } }) => {
      const model = await requireModel(deps, body.entity_type, 'body.entity_type');
      const ws = await mdmWorkspace(deps);
      const t = matchTables(deps.config.mdm.catalog, body.entity_type);
      if (!(await ws.tableExists(t.records)))
        throw invalid('NOT_INGESTED', 'Nothing to analyse', [
          { path: 'body.entity_type', message: `no records of ${body.entity_type}: POST /api/mdm/ingest first` },
        ]);
      const rules = blockingOf((await ws.query(blockingCountsSql(model, t, liveRecordsSql(model, t)))).rows);
      const records = Number(
        (await ws.query(`SELECT count(*) AS n FROM ${liveRecordsSql(model, t)} r`)).rows[0]?.n ?? 0,
      );
      const total = rules.reduce((n, r) => n + r.pairs, 0);
      const max = deps.config.mdm.max_candidate_pairs;
      return {
        entity_type: body.entity_type,
        records,
        rules,
        total_pairs: total,
        max_candidate_pairs: max,
        over_limit: total > max,
      };
    },
  }),
  route({
    method: 'post',
    path: '/mdm/evaluate',
    summary: 'Pairwise and B-cubed precision, recall and F1 of the golden records against a truth table',
    role: 'viewer',
    request: { body: EvaluateBodySchema },
    response: { description: 'The scores', schema: EvaluationSchema },
    errors: { 422: 'Unknown entity type, no golden records yet, or no such truth table' },
    handler: async ({ deps, input: { body } }) => {
      await requireModel(deps, body.entity_type, 'body.entity_type');
      const ws = await mdmWorkspace(deps);
      const t = matchTables(deps.config.mdm.catalog, body.entity_type);
      if (!(await ws.tableExists(t.members)))
        throw invalid('NOT_MATCHED', 'Nothing to evaluate', [
          { path: 'body.entity_type', message: `no golden records of ${body.entity_type}: run a match first` },
        ]);
      if (!(await ws.tableExists(parseFqn(body.truth_table))))
        throw invalid('NO_TRUTH', 'No truth table', [
          { path: 'body.truth_table', message: `${body.truth_table} not found` },
        ]);
      const e = evaluationOf((await ws.query(evaluateSql(t, body.truth_table))).rows[0] ?? {});
      return { entity_type: body.entity_type, truth_table: body.truth_table, ...e };
    },
  }),
  route({
    method: 'get',
    path: '/mdm/entities',
    summary: 'Golden records by entity type and status, or the one holding a source record (system and record_id)',
    request: { query: EntityQuerySchema },
    response: { description: 'Golden records', schema: z.array(GoldenRecordSchema) },
    errors: { 422: 'Unknown entity type' },
    handler: async ({ deps, input: { query } }) => {
      if ((query.system === undefined) !== (query.record_id === undefined))
        throw invalid('INVALID_QUERY', 'Incomplete record reference', [
          { path: query.system ? 'query.record_id' : 'query.system', message: 'give system and record_id together' },
        ]);
      const out: GoldenRecord[] = [];
      for (const model of await modelsFor(deps, query.entity_type)) {
        const t = matchTables(deps.config.mdm.catalog, model.entity_type);
        const where: string[] = ['TRUE'];
        if (query.status) where.push(`status = ${lit(query.status)}`);
        if (query.system && query.record_id)
          where.push(
            `entity_id IN (SELECT entity_id FROM ${tableOf(t.members)} WHERE system = ${lit(query.system)} AND record_id = ${lit(query.record_id)})`,
          );
        out.push(...(await goldenRecords(deps, model, where.join(' AND '), query.limit, query.offset)));
      }
      return out.slice(0, query.limit);
    },
  }),
  route({
    method: 'get',
    path: '/mdm/entities/:entity_id',
    summary: 'One golden record: surviving values, their provenance, source records, confidence and status',
    request: { params: EntityIdParamsSchema },
    response: { description: 'The golden record', schema: GoldenRecordSchema },
    errors: { 404: 'No such golden record' },
    handler: async ({ deps, input: { params } }) => {
      const g = await goldenRecordById(deps, params.entity_id);
      if (!g) throw notFound(`No golden record ${params.entity_id}`);
      return g;
    },
  }),
];
