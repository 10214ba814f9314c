import {
  LocalJobError,
  pipelineBodyOf,
  pipelineJobSettings,
  quartzOf,
  runOrder,
} from '../../activities/job-clone/logic/local-jobs';

/** The local registry's settings mapping, without servers. */
test('a 5-field cron becomes Quartz: seconds first, ? in the open day field, Sunday = 1; Quartz stays as it is', () => {
  expect(quartzOf('0 2 * * *')).toBe('0 0 2 * * ?');
  expect(quartzOf('30 2 * * 1-5')).toBe('0 30 2 ? * 2-6');
  expect(quartzOf('0 9 * * 0,6')).toBe('0 0 9 ? * 1,7');
  expect(quartzOf('0 9 * * 5-7')).toBe('0 0 9 ? * 6-7,1');
  expect(quartzOf('0 9 * * MON-FRI')).toBe('0 0 9 ? * MON-FRI');
  expect(quartzOf('15 4 1 * *')).toBe('0 15 4 1 * ?');
  expect(quartzOf('0 15 4 ? * MON')).toBe('0 15 4 ? * MON');
});

test('tasks in any order run after what they depend on; a missing dependency or a cycle names the task', () => {
  const t = (k: string, ...d: string[]) => ({
    task_key: k,
    ...(d.length ? { depends_on: d.map((x) => ({ task_key: x })) } : {}),
  });
  expect(runOrder([t('c', 'b'), t('b', 'a'), t('a')]).map((x) => x.task_key)).toEqual(['a', 'b', 'c']);
  expect(runOrder([t('x'), t('y')]).map((x) => x.task_key)).toEqual(['x', 'y']);
  expect(() => runOrder([t('a'), t('b', 'zz')])).toThrow('task b depends on zz, which the job lacks');
  expect(() => runOrder([t('a', 'b'), t('b', 'a')])).toThrow(LocalJobError);
});

test('a pipeline round-trips through its Jobs-shaped settings, schedule and pause included', () => {
  const p = {
    name: 'p',
    description: 'd',
    steps: [
      { type: 'notify', name: 'one', config: { message: 'hi' }, on_failure: 'stop' },
      { type: 'wait', name: 'two', config: { seconds: 5 }, on_failure: { retry: 2 } },
    ],
    schedule: { cron: '0 0 2 * * ?', timezone: 'UTC', paused: true },
  };
  const settings = pipelineJobSettings(p);
  expect(settings.schedule).toEqual({
    quartz_cron_expression: '0 0 2 * * ?',
    timezone_id: 'UTC',
    pause_status: 'PAUSED',
  });
  expect(pipelineBodyOf(settings)).toEqual(p);
  expect(() => pipelineBodyOf({ name: 'x', tasks: [{ task_key: 'nb', notebook_task: {} }] })).toThrow(
    'task nb is not a Lakeward pipeline step',
  );
});
