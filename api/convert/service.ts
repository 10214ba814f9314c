import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  pairKind,
  planSteps,
  preflightRefusal,
  quoted,
  rejectedPairs,
  type PlannedStep,
  type TableName,
} from '../../activities/convert/logic/plan';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import { parseFqn } from '../../platform/identifiers';
import type { Workspace } from '../../platform/port';
import type { Grant } from '../../platform/types';
import type { ConvertBatch, ConvertBody, ConvertResult, ConvertTarget } from '../../schemas/convert';
import { recordAudit } from '../../store/audit/repo';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';

/** Runs one planned step through the platform port. */
async function runStep(ws: Workspace, table: TableName, step: PlannedStep): Promise<void> {
  const a = step.action;
  if (a.kind === 'convert') return void (await ws.convertToDelta(table));
  if (a.kind === 'set_properties') return ws.setProperties(table, a.properties);
  if (a.kind === 'purge_deletion_vectors') return ws.purgeDeletionVectors(table);
  if (a.kind === 'create_as')
    return ws.createTableAs({ ref: a.target, query: `SELECT * FROM ${quoted(table)}`, format: a.format });
  if (a.kind === 'rename') return ws.renameTable(a.from, a.to);
  return ws.dropTable(a.table);
}

const securable = (t: TableName) => ({ type: 'TABLE' as const, catalog: t.catalog, schema: t.schema, name: t.name });

/**
 * One target: the matrix, preflight (not on dry run; a failing description lets it proceed), the strategy's steps
 * in order (a failing step ends the target as failed, its error starting with the step's label), and for CTAS
 * strategies the grants and owner captured before and replayed after, best effort (each failure a warning).
 */
export async function convertOne(
  ws: Workspace,
  target: ConvertTarget,
  body: ConvertBody,
  logger: Logger,
  at: Date,
): Promise<ConvertResult> {
  const started = Date.now();
  const table = parseFqn(target.fqn);
  const base = {
    fqn: target.fqn,
    source_format: target.source_format,
    destination_format: target.target_format,
    backup_fqn: null as string | null,
    warnings: [] as string[],
  };
  const done = (r: Omit<ConvertResult, 'duration_ms' | keyof typeof base> & Partial<typeof base>): ConvertResult => ({
    ...base,
    ...r,
    duration_ms: Date.now() - started,
  });
  const kind = pairKind(target.source_format, target.target_format, body.iceberg_physical);
  if (kind === 'identity')
    return done({ strategy_used: null, status: 'skipped', error: `already ${target.source_format}`, steps: [] });
  if (kind === 'rejected') throw new Error('rejected pairs are refused before any target runs');
  const strategy = kind;
  const plan = planSteps(strategy, table, { keepBackup: body.keep_backup, at });
  const backupFqn = plan.backup ? `${plan.backup.catalog}.${plan.backup.schema}.${plan.backup.name}` : null;
  const steps = plan.steps.map((s) => ({
    label: s.label,
    statement: s.statement,
    status: 'planned' as const,
    error: null,
  }));
  if (body.dry_run) {
    for (const s of plan.steps)
      logger.info({ fqn: target.fqn, step: s.label, statement: s.statement }, 'convert dry run: planned step');
    return done({ strategy_used: strategy, status: 'skipped', error: 'dry-run', steps, backup_fqn: backupFqn });
  }
  const facts = await ws.conversionFacts(table).catch((err: unknown) => {
    logger.warn({ fqn: target.fqn, err: rootCauseMessage(err) }, 'convert preflight: description failed; proceeding');
    return null;
  });
  const refusal = facts
    ? preflightRefusal(target.source_format, target.target_format, {
        icebergTransforms: facts.partitionTransforms,
        generatedColumns: facts.generatedColumns,
      })
    : null;
  if (refusal)
    return done({
      strategy_used: strategy,
      status: 'skipped',
      error: refusal,
      steps: steps.map((s) => ({ ...s, status: 'skipped' as const })),
    });
  const ctas = strategy === 'ctas_iceberg' || strategy === 'ctas_parquet';
  const warnings: string[] = [];
  let grants: Grant[] = [];
  let owner: string | null = null;
  if (ctas) {
    grants = await ws.getGrants(securable(table)).catch((err: unknown) => {
      warnings.push(`grants not captured: ${rootCauseMessage(err)}`);
      return [];
    });
    owner = await ws.getOwner(securable(table)).catch((err: unknown) => {
      warnings.push(`owner not captured: ${rootCauseMessage(err)}`);
      return null;
    });
  }
  const ran: ConvertResult['steps'] = [];
  for (const [i, step] of plan.steps.entries()) {
    try {
      await runStep(ws, table, step);
      ran.push({ ...steps[i], status: 'done' });
    } catch (err) {
      const error = `step '${step.label}' failed: ${rootCauseMessage(err)}`;
      ran.push({ ...steps[i], status: 'failed', error });
      ran.push(...steps.slice(i + 1).map((s) => ({ ...s, status: 'skipped' as const })));
      logger.error({ fqn: target.fqn, step: step.label }, error);
      return done({ strategy_used: strategy, status: 'failed', error, steps: ran, warnings, backup_fqn: null });
    }
  }
  if (ctas) {
    for (const g of grants) {
      await ws
        .grant(
          securable(table),
          g.principal,
          g.privileges.filter((p) => p !== 'OWN' && p !== 'OWNERSHIP'),
        )
        .catch((err: unknown) => warnings.push(`grant to ${g.principal} not replayed: ${rootCauseMessage(err)}`));
    }
    if (owner)
      await ws
        .setOwner(securable(table), owner)
        .catch((err: unknown) => warnings.push(`owner ${owner} not replayed: ${rootCauseMessage(err)}`));
    for (const w of warnings) logger.warn({ fqn: target.fqn }, w);
  }
  return done({
    strategy_used: strategy,
    status: 'converted',
    error: null,
    steps: ran,
    warnings,
    backup_fqn: backupFqn,
  });
}

/**
 * POST /api/convert-to-delta: every HUDI pair refused up front (422 naming them), then each target in order;
 * one audit row per target with its strategy_used, under one operation id.
 */
export async function convertTables(deps: AppDeps, ws: Workspace, body: ConvertBody): Promise<ConvertBatch> {
  const rejected = rejectedPairs(body.targets);
  if (rejected.length)
    throw new HttpError(422, 'UNSUPPORTED_CONVERSION', `unsupported conversion pairs: ${rejected.join(', ')}`, [
      ...body.targets
        .map((t, i) => ({ t, i }))
        .filter(({ t }) => pairKind(t.source_format, t.target_format, false) === 'rejected')
        .map(({ t, i }) => ({
          path: `body.targets.${i}`,
          message: `${t.source_format}→${t.target_format} is not supported`,
        })),
    ]);
  const operationId = `convert-${randomUUID()}`;
  const at = new Date();
  const results: ConvertResult[] = [];
  for (const target of body.targets) {
    const r = await convertOne(ws, target, body, deps.logger, at).catch((err: unknown): ConvertResult => ({
      fqn: target.fqn,
      source_format: target.source_format,
      destination_format: target.target_format,
      strategy_used: null,
      status: 'failed',
      duration_ms: 0,
      error: rootCauseMessage(err),
      backup_fqn: null,
      steps: [],
      warnings: [],
    }));
    results.push(r);
    await recordAudit(deps.store.db, {
      jobId: operationId,
      action: 'convert_table',
      status: r.status,
      error: r.error,
      details: {
        fqn: r.fqn,
        source_format: r.source_format,
        destination_format: r.destination_format,
        strategy_used: r.strategy_used,
        dry_run: body.dry_run,
        duration_ms: r.duration_ms,
        backup_fqn: r.backup_fqn,
      },
    });
  }
  return {
    operation_id: operationId,
    dry_run: body.dry_run,
    total: results.length,
    converted: results.filter((r) => r.status === 'converted').length,
    failed: results.filter((r) => r.status === 'failed').length,
    skipped: results.filter((r) => r.status === 'skipped').length,
    results,
  };
}
