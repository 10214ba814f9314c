import { and, desc, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { IngestBodySchema, MatchRunBodySchema } from '../../schemas/mdm-runs';
import { listSources } from '../../store/mdm/repo';
import { jobs } from '../../store/schema';
import type { AppDeps } from '../deps';
import { newJobId } from '../jobs/job-id';
import { submitJob } from '../jobs/service';
import { HttpError } from '../middleware/http-error';
import { mdmIngestJobType } from './job-types';
import { mdmMatchJobType } from './match-job-type';
import { ensureBuiltins, mappingTable, publishMapping } from './reference-service';
import { actorOf, invalid, mdmWorkspace, requireModel, sourceOf } from './service';

/**
 * Submitting the two MDM jobs through the job kernel, as `POST /api/mdm/ingest` and `POST /api/mdm/match/run` do
 * (after the caller's write check) and as a model's Schedule does (ingest, then match).
 */

const SAMPLE_RECORDS = 600;

/** A match run of the entity type that has not ended (a second one is a 409). */
export async function runningMatch(deps: AppDeps, entityType: string) {
  const rows = await deps.store.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.jobType, 'mdm_match'), isNull(jobs.completedAt)));
  return rows.find((r) => (r.request as { entity_type?: string } | null)?.entity_type === entityType);
}

/** The model (λ, m, u) of the entity type's last completed match run, if any. */
export async function lastTrained(deps: AppDeps, entityType: string) {
  const rows = await deps.store.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.jobType, 'mdm_match'), eq(jobs.status, 'completed')))
    .orderBy(desc(jobs.completedAt));
  const row = rows.find((r) => (r.request as { entity_type?: string } | null)?.entity_type === entityType);
  const training = (row?.summary as { training?: { lambda: number; m: number[][]; u: number[][] } } | null)?.training;
  return training ? { lambda: training.lambda, m: training.m, u: training.u } : null;
}

/** Queues an mdm_ingest job of the entity type's sources (or `systems`); 422 naming the field otherwise. */
export async function submitIngest(deps: AppDeps, body: z.infer<typeof IngestBodySchema>) {
  const model = await requireModel(deps, body.entity_type, 'body.entity_type');
  // code attributes read <mdm.catalog>.mdm.reference_aliases: written now if reference data never was
  if (Object.values(model.attributes).some((a) => a.kind === 'code')) {
    await ensureBuiltins(deps.store.db);
    const ws = await mdmWorkspace(deps);
    if (!(await ws.tableExists(mappingTable(deps.config.mdm.catalog)))) await publishMapping(deps, ws);
  }
  const all = (await listSources(deps.store.db, body.entity_type)).map(sourceOf);
  const unknown = (body.systems ?? []).filter((s) => !all.some((x) => x.system === s));
  if (unknown.length)
    throw invalid(
      'UNKNOWN_SYSTEM',
      'Unknown system',
      unknown.map((s) => ({
        path: 'body.systems',
        message: `'${s}' is not a source of ${body.entity_type}`,
      })),
    );
  const sources = body.systems ? all.filter((s) => body.systems?.includes(s.system)) : all;
  if (sources.length === 0)
    throw invalid('NO_SOURCES', 'Nothing to ingest', [
      { path: 'body.entity_type', message: `no sources registered for ${body.entity_type}: POST /api/mdm/sources` },
    ]);
  const jobId = newJobId('mdm_ingest');
  const input = { jobId, entityType: body.entity_type, catalog: deps.config.mdm.catalog, model, sources };
  const request = { entity_type: body.entity_type, systems: sources.map((s) => s.system) };
  return submitJob(deps, mdmIngestJobType, {
    jobId,
    input,
    createdAt: new Date(),
    row: { request, user: actorOf(deps) },
  });
}

/** Queues an mdm_match job (incremental by default once a run completed); 409 while one runs. */
export async function submitMatch(deps: AppDeps, body: z.output<typeof MatchRunBodySchema>) {
  const model = await requireModel(deps, body.entity_type, 'body.entity_type');
  const running = await runningMatch(deps, body.entity_type);
  if (running)
    throw new HttpError(409, 'MATCH_RUNNING', `Match run ${running.jobId} of ${body.entity_type} has not ended`, [
      { path: 'body.entity_type', message: `run ${running.jobId} is ${running.status}` },
    ]);
  const previous = await lastTrained(deps, body.entity_type);
  const mode = body.mode ?? (previous ? 'incremental' : 'full');
  if (!previous && (mode === 'incremental' || !body.retrain))
    throw invalid('NO_EARLIER_RUN', 'Nothing to continue from', [
      {
        path: mode === 'incremental' ? 'body.mode' : 'body.retrain',
        message: `no completed match run of ${body.entity_type} yet: run mode full with retrain first`,
      },
    ]);
  const jobId = newJobId('mdm_match');
  const input = {
    jobId,
    entityType: body.entity_type,
    catalog: deps.config.mdm.catalog,
    model,
    mode,
    previousParams: mode === 'incremental' || !body.retrain ? previous : null,
    maxPairs: deps.config.mdm.max_candidate_pairs,
    seed: body.seed,
    sampleSize: SAMPLE_RECORDS,
    slaCalendar: deps.config.mdm.sla_calendar ?? null,
  };
  const request = { entity_type: body.entity_type, mode, retrain: body.retrain, seed: body.seed };
  return submitJob(deps, mdmMatchJobType, {
    jobId,
    input,
    createdAt: new Date(),
    row: { request, user: actorOf(deps) },
  });
}
