/**
 * The local lakehouse's jobs as Jobs API 2.2 settings, and back (pure): a Lakeward pipeline is one task per step
 * (each depending on the step before); a clone schedule or persistent scheduled job is one `clone` task. Lakeward's
 * own definition rides in each task (`lakeward_step`, `lakeward_clone`) so a clone, a backup or a restore loses
 * nothing; the top-level `schedule` / `trigger` are what a Jobs reader expects (Quartz cron, pause_status).
 */
import type { Json } from './settings';

export class LocalJobError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

export type PauseStatus = 'PAUSED' | 'UNPAUSED';

/**
 * A 5-field cron (`min hour dom mon dow`) as Quartz (`sec min hour dom mon dow`, `?` in the day field left open,
 * Sunday = 1). An expression of 6 or 7 fields is Quartz already and is kept as it is.
 */
export function quartzOf(cron: string): string {
  const f = cron.trim().split(/\s+/);
  if (f.length !== 5) return f.join(' ');
  const [min, hour, dom, mon, dow] = f;
  if (dow === '*' || dow === '?') return `0 ${min} ${hour} ${dom === '?' ? '*' : dom} ${mon} ?`;
  return `0 ${min} ${hour} ${dom === '*' ? '?' : dom} ${mon} ${quartzDays(dow)}`;
}

/** Cron day-of-week numbers (0 or 7 = Sunday) as Quartz's (1 = Sunday … 7 = Saturday); names stay. */
function quartzDays(dow: string): string {
  const day = (n: string) => String((Number(n) % 7) + 1);
  return dow
    .split(',')
    .map((part) => {
      const range = /^(\d)-(\d)(\/\d+)?$/.exec(part);
      if (range) {
        const [, a, b, step = ''] = range;
        // a range ending on Sunday (…-7) wraps in Quartz: Fri-Sun is 6-7,1
        if (b === '7' && a !== '0') return `${day(a)}-7${step},1`;
        return `${day(a)}-${day(b)}${step}`;
      }
      return /^\d$/.test(part) ? day(part) : part;
    })
    .join(',');
}

/** A Jobs `schedule` block (Quartz cron, time zone, pause status). */
export function jobsSchedule(cron: string, timezone: string, paused: boolean): Json {
  return {
    quartz_cron_expression: quartzOf(cron),
    timezone_id: timezone,
    pause_status: paused ? 'PAUSED' : 'UNPAUSED',
  };
}

/** Whether settings ask for a paused job: its schedule's, trigger's or continuous block's pause_status. */
export function pausedIn(settings: Json): boolean {
  return ['schedule', 'trigger', 'continuous'].some(
    (k) => ((settings[k] as Json | undefined)?.pause_status as string | undefined) === 'PAUSED',
  );
}

interface StepLike {
  type: string;
  name: string;
  config: Json;
  on_failure: unknown;
}

/** A pipeline as Jobs-shaped settings: one task per step (task_key = step name, depending on the step before). */
export function pipelineJobSettings(p: {
  name: string;
  description: string;
  steps: StepLike[];
  schedule?: { cron: string; timezone: string; paused?: boolean } | null;
}): Json {
  return {
    name: p.name,
    description: p.description,
    max_concurrent_runs: 1,
    ...(p.schedule ? { schedule: jobsSchedule(p.schedule.cron, p.schedule.timezone, !!p.schedule.paused) } : {}),
    tasks: p.steps.map((s, i) => ({
      task_key: s.name,
      ...(i ? { depends_on: [{ task_key: p.steps[i - 1].name }] } : {}),
      lakeward_step: { type: s.type, config: s.config, on_failure: s.on_failure },
    })),
  };
}

/**
 * The tasks in an order that runs every task after the ones it depends on (Kahn's algorithm, ties in array
 * order). A pipeline runs its steps one after another, so tasks listed in any order give the same pipeline; an
 * unknown dependency or a cycle is refused naming the task.
 */
export function runOrder(tasks: Json[]): Json[] {
  const keys = tasks.map((t, i) => {
    if (typeof t.task_key !== 'string' || !t.task_key)
      throw new LocalJobError(`task ${i} has no task_key`, `settings.tasks.${i}.task_key`);
    return t.task_key;
  });
  const deps = tasks.map((t, i) =>
    ((t.depends_on as { task_key?: unknown }[] | undefined) ?? []).map((d) => {
      const k = String(d.task_key);
      if (!keys.includes(k))
        throw new LocalJobError(
          `task ${keys[i]} depends on ${k}, which the job lacks`,
          `settings.tasks.${i}.depends_on`,
        );
      return k;
    }),
  );
  const done = new Set<string>();
  const out: Json[] = [];
  while (out.length < tasks.length) {
    const next = tasks.findIndex((_, i) => !done.has(keys[i]) && deps[i].every((d) => done.has(d)));
    if (next < 0) {
      const stuck = keys.filter((k) => !done.has(k));
      throw new LocalJobError(`the tasks' depends_on form a cycle among ${stuck.join(', ')}`, 'settings.tasks');
    }
    done.add(keys[next]);
    out.push(tasks[next]);
  }
  return out;
}

/** A pipeline body from Jobs-shaped settings (the tasks in run order); what is not a pipeline step is refused. */
export function pipelineBodyOf(settings: Json): {
  name: string;
  description: string;
  steps: StepLike[];
  schedule?: { cron: string; timezone: string; paused: boolean };
} {
  const tasks = (settings.tasks as Json[] | undefined) ?? [];
  const steps = runOrder(tasks).map((t) => {
    const step = t.lakeward_step as { type?: string; config?: Json; on_failure?: unknown } | undefined;
    if (!step?.type)
      throw new LocalJobError(
        `task ${String(t.task_key)} is not a Lakeward pipeline step (lakeward_step)`,
        'settings.tasks',
      );
    return {
      type: step.type,
      name: String(t.task_key),
      config: step.config ?? {},
      on_failure: step.on_failure ?? 'stop',
    };
  });
  const s = settings.schedule as Json | undefined;
  return {
    name: String(settings.name ?? 'job'),
    description: String(settings.description ?? ''),
    steps,
    ...(s && typeof s.quartz_cron_expression === 'string'
      ? {
          schedule: {
            cron: s.quartz_cron_expression,
            timezone: typeof s.timezone_id === 'string' ? s.timezone_id : 'UTC',
            paused: pausedIn(settings),
          },
        }
      : {}),
  };
}

/** What a clone schedule (kind schedule) or persistent scheduled job (kind job) keeps, as its job task carries it. */
export interface ScheduleDefinition {
  kind: 'schedule' | 'job';
  spec: Json;
  clone_request: Json;
  drift_check: boolean;
  max_runs: number;
}

const PERIOD_UNITS: Record<string, string> = { m: 'MINUTES', h: 'HOURS', d: 'DAYS' };

/** A schedule as Jobs-shaped settings: its cron as `schedule` (an interval as `trigger.periodic`), one clone task. */
export function scheduleJobSettings(name: string, d: ScheduleDefinition, paused: boolean): Json {
  const pause_status: PauseStatus = paused ? 'PAUSED' : 'UNPAUSED';
  let when: Json = {};
  if (d.kind === 'job') {
    if (typeof d.spec.quartz_cron_expression === 'string')
      when = {
        schedule: {
          quartz_cron_expression: d.spec.quartz_cron_expression,
          timezone_id: d.spec.timezone_id ?? 'UTC',
          pause_status,
        },
      };
  } else {
    const s = (d.spec.schedule as Json | undefined) ?? {};
    if (typeof s.cron === 'string') when = { schedule: jobsSchedule(s.cron, String(s.timezone ?? 'UTC'), paused) };
    else if (typeof s.interval === 'string') {
      const m = /^(\d+)([mhd])$/.exec(s.interval);
      if (m) when = { trigger: { pause_status, periodic: { interval: Number(m[1]), unit: PERIOD_UNITS[m[2]] } } };
    }
  }
  return {
    name,
    max_concurrent_runs: 1,
    ...when,
    tasks: [{ task_key: 'clone', lakeward_clone: d }],
  };
}

/** The schedule a single `lakeward_clone` task stands for, or null when the settings are not one. */
export function scheduleDefinitionOf(settings: Json): ScheduleDefinition | null {
  const tasks = (settings.tasks as Json[] | undefined) ?? [];
  if (tasks.length !== 1 || !tasks[0].lakeward_clone) return null;
  const d = tasks[0].lakeward_clone as Partial<ScheduleDefinition>;
  if ((d.kind !== 'schedule' && d.kind !== 'job') || !d.spec || !d.clone_request)
    throw new LocalJobError(
      'lakeward_clone needs kind (schedule or job), spec and clone_request',
      'settings.tasks.0.lakeward_clone',
    );
  return {
    kind: d.kind,
    spec: d.spec,
    clone_request: d.clone_request,
    drift_check: !!d.drift_check,
    max_runs: Number(d.max_runs ?? 0),
  };
}
