import { nextCronFire } from '../../activities/automation/logic/cron-next';

/** The instant a playbook's cron workflow sleeps until (pure). */
test('the next firing is strictly after the given instant, in the trigger timezone', () => {
  const at = new Date('2026-03-28T05:00:00Z');
  expect(nextCronFire('0 6 * * *', undefined, at)?.toISOString()).toBe('2026-03-28T06:00:00.000Z');
  // At the firing instant itself, the next one is a day later.
  expect(nextCronFire('0 6 * * *', 'UTC', new Date('2026-03-28T06:00:00Z'))?.toISOString()).toBe(
    '2026-03-29T06:00:00.000Z',
  );
  // 06:00 in Paris: 05:00Z in winter, 04:00Z after the switch to summer time on 29 March 2026.
  expect(nextCronFire('0 6 * * *', 'Europe/Paris', at)?.toISOString()).toBe('2026-03-29T04:00:00.000Z');
  expect(nextCronFire('*/15 * * * *', 'UTC', new Date('2026-03-28T05:07:00Z'))?.toISOString()).toBe(
    '2026-03-28T05:15:00.000Z',
  );
});
