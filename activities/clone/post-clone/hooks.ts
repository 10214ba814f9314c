import { setTimeout as delay } from 'node:timers/promises';
import { cancellationSignal, type CloneHooks } from '../deps';
import type { Workspace } from '../../../platform/port';
import type { TargetContext } from '../../../workflows/clone/engine-types';
import { claimTableStart } from '../../../store/clone/throttle-starts';
import { compareSchemaDq } from './post-clone';
import { limitsAt } from '../logic/throttle-limits';
import { recordBeforeChange, type SafetyDeps } from '../rollback/activities';
import type { ObjectRef } from '../rollback/objects';
import { jobLimiter, rateLimited, type RateLimitScope } from '../token-bucket';

const recording = (ctx: TargetContext) => ctx.options.enable_rollback && !ctx.options.dry_run;

/** The hooks' dependencies: the safety features' plus where the job's max_rps bucket lives (as the engine's). */
export type SafetyHookDeps = SafetyDeps & { rateLimitScope?: RateLimitScope };

/**
 * The deps with every workspace behind the job's max_rps limiter: what the hooks read and record (rollback's
 * before-images, the DQ comparison) are platform calls of the job like the copy's own, and count towards its rate.
 */
export function throttled(deps: SafetyHookDeps, ctx: TargetContext): SafetyDeps {
  const rate = limitsAt(ctx.options, new Date(), ctx.throttleTimezone).max_rps;
  if (!(rate > 0)) return deps;
  const limiter = jobLimiter(deps.db, ctx.jobId, rate, deps.rateLimitScope);
  return {
    ...deps,
    resolveWorkspace: async (ref) => rateLimited(await deps.resolveWorkspace(ref), limiter, cancellationSignal()),
  };
}

function record(deps: SafetyHookDeps, ctx: TargetContext, objects: ObjectRef[]): Promise<string> {
  return recordBeforeChange(throttled(deps, ctx), {
    jobId: ctx.jobId,
    sourceCatalog: ctx.options.source_catalog,
    target: ctx.target,
    objects,
  });
}

/**
 * The destination workspace of a job, recording every catalog, schema, view, function and volume before it
 * is created (whether it existed decides whether rollback drops it). Covers every create call site of the
 * engine without each one knowing about rollback.
 */
export function recordingWorkspace(deps: SafetyHookDeps, ctx: TargetContext, ws: Workspace): Workspace {
  const before: Partial<Record<keyof Workspace, (args: unknown[]) => ObjectRef>> = {
    createCatalog: ([o]) => ({ type: 'catalog', fqn: (o as { name: string }).name }),
    createSchema: ([o]) => ({
      type: 'schema',
      fqn: `${(o as { catalog: string }).catalog}.${(o as { name: string }).name}`,
    }),
    createView: ([o]) => ({ type: 'view', fqn: refFqn(o) }),
    createFunction: ([o]) => ({ type: 'function', fqn: refFqn(o) }),
    createVolume: ([o]) => ({ type: 'volume', fqn: refFqn(o) }),
  };
  return new Proxy(ws, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      const describe = before[prop as keyof Workspace];
      if (typeof value !== 'function' || !describe) return value;
      return async (...args: unknown[]) => {
        await record(deps, ctx, [describe(args)]);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

function refFqn(o: unknown): string {
  const { catalog, schema, name } = (o as { ref: { catalog: string; schema: string; name: string } }).ref;
  return `${catalog}.${schema}.${name}`;
}

/** Waits until the job-wide tables_per_minute cap in force lets this table start (0 = no cap). */
async function awaitStartSlot(deps: SafetyDeps, ctx: TargetContext, table: string): Promise<void> {
  // The engine's activities heartbeat on their own while this waits, and a cancel that arrives ends the wait at
  // once with the cancellation (a wait of up to a minute must not hold a cancelled job in `cancelling`).
  const signal = cancellationSignal();
  for (;;) {
    if (signal?.aborted) throw signal.reason;
    const cap = limitsAt(ctx.options, new Date(), ctx.throttleTimezone).tables_per_minute;
    if (cap <= 0) return;
    const wait = await claimTableStart(deps.db, ctx.jobId, `${ctx.target.label}:${table}`, cap);
    if (wait <= 0) return;
    await delay(Math.min(wait, 5000), undefined, { signal }).catch((err: unknown) => {
      throw signal?.aborted ? signal.reason : err;
    });
  }
}

/** Engine hooks plus the destination wrapper (CloneHooks.wrapTarget once the engine calls it). */
export type SafetyHooks = CloneHooks & { wrapTarget(ctx: TargetContext, ws: Workspace): Workspace };

/** The clone engine hooks of the safety features: rollback recording and the per-schema DQ comparison. */
export function createSafetyHooks(deps: SafetyHookDeps): SafetyHooks {
  return {
    wrapTarget(ctx, ws) {
      return recording(ctx) ? recordingWorkspace(deps, ctx, ws) : ws;
    },
    async beforeTableTouched({ ctx, ref }) {
      await awaitStartSlot(deps, ctx, `${ref.schema}.${ref.name}`);
      if (recording(ctx)) await record(deps, ctx, [{ type: 'table', fqn: `${ref.catalog}.${ref.schema}.${ref.name}` }]);
    },
    async afterSchema({ ctx, schema }) {
      if (!ctx.options.compare_dq_after_clone || ctx.options.dry_run) return [];
      const comparisons = await compareSchemaDq(throttled(deps, ctx), ctx, schema);
      return comparisons
        .filter((c) => c.error !== undefined || c.max_drift_pct > ctx.options.dq_drift_rollback_pct)
        .map(
          (c) =>
            `dq ${c.schema}.${c.table}: ${c.error ?? `drift ${c.max_drift_pct}% > ${ctx.options.dq_drift_rollback_pct}%`}`,
        );
    },
  };
}
