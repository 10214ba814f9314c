import {
  applyPlan,
  applyRefusal,
  effectiveStatus,
  type RecommendationStatus,
} from '../../activities/finops/logic/recommendation-state';
import type { RecommendationView } from '../../schemas/finops-recommendations';
import { addNotification } from '../../store/notifications/repo';
import {
  getRecommendation,
  updateRecommendation,
  type RecommendationRow,
} from '../../store/finops/recommendations-repo';
import type { AppDeps } from '../deps';
import { newJobId } from '../jobs/job-id';
import { submitJob } from '../jobs/service';
import { currentCaller } from '../middleware/auth';
import { HttpError, conflict, notFound } from '../middleware/http-error';
import { recommendationApplyJobType } from './recommendations-job-types';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function statusOf(r: RecommendationRow, now = new Date()): RecommendationStatus {
  return effectiveStatus(
    { id: r.id, status: r.status as RecommendationStatus, suppressedUntil: r.suppressedUntil, found: r.found },
    now,
  );
}

export function recommendationView(r: RecommendationRow, now = new Date()): RecommendationView {
  const status = statusOf(r, now);
  return {
    id: r.id,
    type: r.type as RecommendationView['type'],
    source_analyser: r.type,
    subject: r.subject,
    title: r.title,
    action: r.action,
    evidence: r.evidence,
    estimated_savings_usd_month: r.savingsUsdMonth,
    benefit: r.benefit,
    confidence: r.confidence as RecommendationView['confidence'],
    effort: r.effort as RecommendationView['effort'],
    status,
    suppressed_until: status === 'open' ? null : iso(r.suppressedUntil),
    first_seen_at: r.firstSeenAt.toISOString(),
    last_seen_at: r.lastSeenAt.toISOString(),
    suggested_by: r.suggestedBy,
    suggested_at: iso(r.suggestedAt),
    apply_job_id: r.applyJobId,
    applied_by: r.appliedBy,
    applied_at: iso(r.appliedAt),
    apply_result: r.applyResult ?? null,
    error: r.error,
  };
}

export async function requireRecommendation(deps: AppDeps, id: string): Promise<RecommendationRow> {
  const r = await getRecommendation(deps.store.db, id);
  if (!r) throw notFound(`No recommendation ${id}`);
  return r;
}

/**
 * Dismiss (days, default 30) or snooze (days): the finding is hidden from the open list until then, and shows
 * open again afterwards if a refresh still finds it. Only an open recommendation can be put aside (409).
 */
export async function putAside(deps: AppDeps, id: string, status: 'dismissed' | 'snoozed', days: number) {
  const r = await requireRecommendation(deps, id);
  const now = new Date();
  const current = statusOf(r, now);
  if (current !== 'open') throw conflict(`recommendation ${id} is ${current}; only open ones can be ${status}`);
  const until = new Date(now.getTime() + days * 86_400_000);
  const row = await updateRecommendation(deps.store.db, id, [r.status], { status, suppressedUntil: until });
  if (!row) throw conflict(`recommendation ${id} changed meanwhile; try again`);
  return recommendationView(row, now);
}

/**
 * Applies an open, one-click (or auto) recommendation as a `recommendation_apply` job: the row turns
 * `applying` first, so a second apply is 409 at once; a dry run answers what would run and changes nothing.
 */
export async function applyRecommendation(deps: AppDeps, id: string, body: { dry_run: boolean; confirm: boolean }) {
  const r = await requireRecommendation(deps, id);
  const status = statusOf(r);
  const refusal = applyRefusal(r, status, body.confirm || body.dry_run);
  if (refusal)
    throw new HttpError(refusal.status, refusal.status === 409 ? 'CONFLICT' : 'VALIDATION_ERROR', refusal.message, [
      { path: refusal.path, message: refusal.message },
    ]);
  const plan = applyPlan(r);
  const wouldRun = plan.kind === 'warehouse_patch' ? plan.request : plan.sql;
  if (body.dry_run)
    return { kind: 'plan' as const, body: { id, dry_run: true as const, kind: plan.kind, would_run: wouldRun } };
  const jobId = newJobId(recommendationApplyJobType.type);
  const caller = currentCaller().name;
  const claimed = await updateRecommendation(deps.store.db, id, [r.status], {
    status: 'applying',
    applyJobId: jobId,
    appliedBy: caller,
    error: null,
    suppressedUntil: null,
  });
  if (!claimed) throw conflict(`recommendation ${id} changed meanwhile; try again`);
  try {
    const accepted = await submitJob(deps, recommendationApplyJobType, {
      jobId,
      input: { jobId, recommendationId: id },
      createdAt: new Date(),
      row: { request: { recommendation_id: id, type: r.type, subject: r.subject, would_run: wouldRun } },
    });
    return { kind: 'job' as const, body: { ...accepted, recommendation_id: id } };
  } catch (err) {
    await updateRecommendation(deps.store.db, id, ['applying'], { status: 'open', applyJobId: null, appliedBy: null });
    throw err;
  }
}

/** An editor's suggestion to apply: recorded on the recommendation and sent as a notification for admins. */
export async function suggestRecommendation(deps: AppDeps, id: string, note: string | undefined) {
  const r = await requireRecommendation(deps, id);
  const status = statusOf(r);
  if (status !== 'open') throw conflict(`recommendation ${id} is ${status}; only open ones can be suggested`);
  const who = currentCaller().name;
  const row = await updateRecommendation(deps.store.db, id, [r.status], { suggestedBy: who, suggestedAt: new Date() });
  if (!row) throw conflict(`recommendation ${id} changed meanwhile; try again`);
  await addNotification(deps.store.db, {
    type: 'recommendation_suggested',
    message: `${who} suggests applying "${r.title}"${note ? `: ${note}` : ''}`,
    status: 'open',
  });
  return recommendationView(row);
}
