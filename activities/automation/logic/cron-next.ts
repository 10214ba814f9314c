import { Cron } from 'croner';

/**
 * The next time a playbook's 5-field cron fires strictly after `after`, in `timezone` (IANA, default UTC), or null
 * when it never fires again. Pure and deterministic (croner computes from the given instant only), so the cron
 * workflow calls it with the workflow clock.
 */
export function nextCronFire(cron: string, timezone: string | undefined, after: Date): Date | null {
  return new Cron(cron, { timezone: timezone ?? 'UTC', paused: true }).nextRun(after);
}
