import { Context } from '@temporalio/activity';
import type { Workspace } from '../../platform/port';
import type { TableRef } from '../../platform/types';
import type { Db } from '../../store/db';
import type { CloneSummary, TableResult, WorkspaceRef } from '../../workflows/clone/definitions';
import type { TargetContext } from '../../workflows/clone/engine-types';
import { stopOnCancel } from './heartbeat';
import { limitsAt } from './logic/throttle-limits';
import { jobLimiter, rateLimited, type RateLimitScope } from './token-bucket';

/**
 * Extension points for the safety features (rollback recording, validation, DQ comparison, masking).
 * Each runs inside the clone's own activities, so it adds no workflow history; a hook that throws fails
 * that step like any other error (a PlatformError keeps its retry classification).
 */
export interface CloneHooks {
  /** Before a target's destination is touched at all (the quality gate, blocking inline rules): throw to stop. */
  beforeTarget?(e: { ctx: TargetContext; source: Workspace }): Promise<void>;
  /** Before a destination table is created or replaced: record what is there now (rollback). */
  beforeTableTouched?(e: { ctx: TargetContext; target: Workspace; ref: TableRef }): Promise<void>;
  /** After a table's data and metadata arrived (per-table validation, masking). Returns warnings. */
  afterTableCloned?(e: {
    ctx: TargetContext;
    source: Workspace;
    target: Workspace;
    result: TableResult;
  }): Promise<string[] | void>;
  /** After every object of a schema is done (DQ comparison, schema validation). Returns warnings. */
  afterSchema?(e: {
    ctx: TargetContext;
    schema: string;
    source: Workspace;
    target: Workspace;
  }): Promise<string[] | void>;
  /** Wraps a target's destination workspace (rollback records every object before it is created). */
  wrapTarget?(ctx: TargetContext, target: Workspace): Workspace;
  /** After the whole job, with its summary (reports, notifications, auto-rollback). May add summary fields. */
  afterJob?(e: { jobId: string; summary: CloneSummary }): Promise<Record<string, unknown> | void>;
}

export interface CloneActivityDeps {
  db: Db;
  /** Workspaces are cached per reference by the caller (see workspace-cache.ts). */
  resolveWorkspace(ref: WorkspaceRef): Promise<Workspace>;
  hooks?: CloneHooks[];
  /** Where a job's max_rps bucket lives (see RateLimitScope): `store` unless the store is PGlite. */
  rateLimitScope?: RateLimitScope;
}

/**
 * Source and target workspaces of a job's target, behind the job's max_rps bucket (shared by every worker on
 * the store), stopping on cancellation.
 */
export async function workspacesFor(
  deps: CloneActivityDeps,
  ctx: TargetContext,
): Promise<{ src: Workspace; dst: Workspace }> {
  // The throttle preset in force when this step starts sets the rate (a schedule window may change it).
  const rate = limitsAt(ctx.options, new Date(), ctx.throttleTimezone).max_rps;
  const bucket = jobLimiter(deps.db, ctx.jobId, rate, deps.rateLimitScope);
  const [src, dst] = await Promise.all([
    deps.resolveWorkspace(ctx.source),
    deps.resolveWorkspace(ctx.target.workspace),
  ]);
  const signal = cancellationSignal();
  let target = stopOnCancel(rateLimited(dst, bucket, signal));
  for (const h of deps.hooks ?? []) if (h.wrapTarget) target = h.wrapTarget(ctx, target);
  return { src: stopOnCancel(rateLimited(src, bucket, signal)), dst: target };
}

/** The current activity's cancellation signal; none outside an activity (planning helpers, tests). */
export function cancellationSignal(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined;
  }
}

/** Calls one hook on every registered hook set, in order, collecting returned warnings. */
export async function runHooks<K extends keyof CloneHooks>(
  deps: CloneActivityDeps,
  name: K,
  event: Parameters<NonNullable<CloneHooks[K]>>[0],
): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const h of deps.hooks ?? []) {
    const fn = h[name] as ((e: typeof event) => Promise<unknown>) | undefined;
    if (fn) out.push(await fn.call(h, event));
  }
  return out;
}

export const sourceRef = (ctx: TargetContext, schema: string, name: string): TableRef => ({
  catalog: ctx.options.source_catalog,
  schema,
  name,
});
export const targetRef = (ctx: TargetContext, schema: string, name: string): TableRef => ({
  catalog: ctx.target.destinationCatalog,
  schema,
  name,
});
