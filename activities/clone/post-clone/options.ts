import type { CloneOptions } from '../../../schemas/clone';

/** Safety options that have no wire default; resolved here so every caller agrees. */
export const SAFETY_DEFAULTS = { auto_rollback: false, rollback_threshold: 5.0 } as const;

export const autoRollbackOn = (o: Pick<CloneOptions, 'auto_rollback' | 'enable_rollback'>): boolean =>
  (o.auto_rollback ?? SAFETY_DEFAULTS.auto_rollback) && o.enable_rollback !== false;

export const rollbackThreshold = (o: Pick<CloneOptions, 'rollback_threshold'>): number =>
  o.rollback_threshold ?? SAFETY_DEFAULTS.rollback_threshold;
