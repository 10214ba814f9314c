import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import YAML from 'yaml';
import type { ScheduleView } from '../../schemas/schedules';
import { ApiError, apiClient, print, withApiOptions, type ApiClient, type ApiOptions } from '../http';

interface RunView {
  run_id: string;
  scheduled_at: string | null;
  started_at: string;
  ended_at: string | null;
  outcome: string;
  job_id: string | null;
  reason: string | null;
}

const enc = encodeURIComponent;
const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-');

function scheduleLine(s: ScheduleView): string {
  const cadence = (s.spec.schedule as { interval?: string; cron?: string } | undefined) ?? {};
  const spec = s.kind === 'job' ? String(s.spec.quartz_cron_expression ?? '-') : (cadence.interval ?? cadence.cron);
  const state = s.paused ? `${s.status} (paused)` : s.status;
  return [
    s.schedule_id.padEnd(32),
    state.padEnd(16),
    String(spec).padEnd(20),
    `next ${when(s.next_run_times[0])}`.padEnd(26),
    `last ${when(s.last_run_at)}`.padEnd(26),
    `clones ${s.clones} skipped ${s.skipped} failed ${s.failed}`,
  ].join(' ');
}

function scheduleText(s: ScheduleView & { recent_runs?: RunView[] }): string {
  const lines = [
    scheduleLine(s),
    `  ${s.clone_options.source_catalog} → ${s.clone_options.destination_catalog}, drift_check ${s.drift_check}, max_runs ${s.max_runs}${s.note ? `, note: ${s.note}` : ''}`,
    ...s.next_run_times.slice(0, 3).map((t) => `  next run ${when(t)}`),
    ...(s.recent_runs ?? []).map(runLine),
  ];
  return lines.join('\n');
}

const runLine = (r: RunView) =>
  `  ${when(r.scheduled_at ?? r.started_at)}  ${r.outcome.padEnd(10)} ${r.job_id ?? ''} ${r.reason ?? ''}`.trimEnd();

/** `lakeward schedules …` (manage clone schedules) and `lakeward schedule` (the long-lived scheduler mode). */
export function registerScheduleCommands(program: Command): void {
  const schedules = program.command('schedules').description('Clone schedules (Temporal Schedules)');
  withApiOptions(schedules.command('list').description('Schedules with next and last run times')).action(
    async (opts: ApiOptions) => {
      const list = await apiClient(opts).get<ScheduleView[]>('/api/schedule');
      print(opts, list, (l) => (l.length ? l.map(scheduleLine).join('\n') : 'no schedules'));
    },
  );
  withApiOptions(schedules.command('show').description('One schedule and its recent runs'))
    .argument('<id>', 'schedule id (clone-schedule-<name>)')
    .action(async (id: string, opts: ApiOptions) => {
      print(opts, await apiClient(opts).get<ScheduleView>(`/api/schedule/${enc(id)}`), scheduleText);
    });
  withApiOptions(schedules.command('create').description('Create a schedule from a configuration file (YAML/JSON)'))
    .argument('<file>', 'scheduler configuration: schedule, clone_options, template, notifications')
    .action(async (file: string, opts: ApiOptions) => {
      print(opts, await apiClient(opts).post<ScheduleView>('/api/schedule', readConfig(file)), scheduleText);
    });
  for (const [verb, what] of [
    ['pause', 'Pause a schedule'],
    ['resume', 'Resume a paused schedule'],
    ['trigger', 'Run a schedule now'],
  ] as const) {
    withApiOptions(schedules.command(verb).description(what))
      .argument('<id>', 'schedule id')
      .action(async (id: string, opts: ApiOptions) => {
        const res = await apiClient(opts).post<{ message: string }>(`/api/schedule/${enc(id)}/${verb}`);
        print(opts, res, (r) => r.message);
      });
  }
  withApiOptions(schedules.command('delete').description('Delete a schedule'))
    .argument('<id>', 'schedule id')
    .action(async (id: string, opts: ApiOptions) => {
      const res = await apiClient(opts).request<{ message: string }>('DELETE', `/api/schedule/${enc(id)}`);
      print(opts, res, (r) => r.message);
    });
  withApiOptions(schedules.command('runs').description('Runs of a schedule, newest first'))
    .argument('<id>', 'schedule id')
    .action(async (id: string, opts: ApiOptions) => {
      const runs = await apiClient(opts).get<RunView[]>(`/api/schedule/${enc(id)}/runs`);
      print(opts, runs, (l) => (l.length ? l.map(runLine).join('\n') : 'no runs'));
    });

  withApiOptions(
    program
      .command('schedule')
      .description(
        'Long-lived scheduler: upserts the schedule of a configuration file, follows its runs, and on Ctrl-C / ' +
          'SIGTERM pauses it, waits for the running clone and prints a summary',
      ),
  )
    .requiredOption('-c, --config <file>', 'scheduler configuration (YAML or JSON)')
    .option(
      '--pid-file <file>',
      'pid file (a second scheduler on the same file refuses to start)',
      'lakeward-schedule.pid',
    )
    .option('--run-now', 'trigger a run right after the schedule is upserted')
    .option('--poll-ms <ms>', 'how often runs are polled', '1000')
    .action(async (opts: ApiOptions & { config: string; pidFile: string; runNow?: boolean; pollMs: string }) => {
      process.exitCode = await runScheduler(opts);
    });
}

function readConfig(file: string): Record<string, unknown> {
  const text = readFileSync(file, 'utf8');
  const parsed = /\.json$/i.test(file) ? JSON.parse(text) : YAML.parse(text);
  if (!parsed || typeof parsed !== 'object') throw new Error(`${file}: not a scheduler configuration`);
  return parsed as Record<string, unknown>;
}

/** True when a process with this id exists (signal 0 checks without signalling). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the pid file: refuses (returns the holder's pid) while another live process holds it; a stale file (its
 * process is gone) is replaced. The file is created exclusively, so two schedulers starting together cannot
 * both take it.
 */
export function takePidFile(file: string): { ok: true } | { ok: false; holder: number } {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return { ok: true };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder))
        return { ok: false, holder };
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  return { ok: false, holder: Number.parseInt(readFileSync(file, 'utf8').trim(), 10) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stamp = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

async function upsert(api: ApiClient, config: Record<string, unknown>): Promise<ScheduleView> {
  try {
    return await api.post<ScheduleView>('/api/schedule', config);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 409) throw err;
    const name = config.name ?? nameOf(config);
    // Updating with schedule.enabled (default true) also unpauses a schedule an earlier scheduler paused.
    return api.request<ScheduleView>('PUT', `/api/schedule/clone-schedule-${enc(String(name))}`, config);
  }
}

const nameOf = (config: Record<string, unknown>) => {
  const o = (config.clone_options ?? {}) as Record<string, unknown>;
  return `${o.source_catalog ?? o.source}-to-${o.destination_catalog ?? o.destination}`;
};

async function runScheduler(opts: ApiOptions & { config: string; pidFile: string; runNow?: boolean; pollMs: string }) {
  const pidFile = path.resolve(opts.pidFile);
  const taken = takePidFile(pidFile);
  if (!taken.ok) {
    console.error(`lakeward schedule: another scheduler (pid ${taken.holder}) holds ${pidFile}; not starting`);
    return 3;
  }
  const release = () => rmSync(pidFile, { force: true });
  let stopping: string | null = null;
  const onSignal = (signal: string) => {
    if (stopping) return;
    stopping = signal;
    console.log(`${stamp()} ${signal}: stopping once the running clone has finished`);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  const api = apiClient(opts);
  const pollMs = Math.max(100, Number(opts.pollMs) || 1000);
  try {
    const schedule = await upsert(api, { ...readConfig(opts.config) });
    const id = schedule.schedule_id;
    console.log(
      `${stamp()} schedule ${id} active (pid ${process.pid}, pid file ${pidFile}); next run ${when(schedule.next_run_times[0])}`,
    );
    const since = Date.now() - 1000;
    const seen = new Map<string, string>();
    const jobProgress = new Map<string, string>();
    if (opts.runNow) await api.post(`/api/schedule/${enc(id)}/trigger`);
    let paused = false;
    for (;;) {
      const runs = (await api.get<RunView[]>(`/api/schedule/${enc(id)}/runs`)).filter(
        (r) => Date.parse(r.started_at) >= since,
      );
      for (const r of [...runs].reverse()) {
        // A run is reported when it starts, when its clone job is known and when it ends.
        const state = `${r.outcome} ${r.job_id ?? ''}`;
        if (seen.get(r.run_id) === state) continue;
        seen.set(r.run_id, state);
        const what = r.outcome === 'running' ? `started: clone job ${r.job_id ?? '(submitting)'}` : r.outcome;
        console.log(`${stamp()} run ${r.run_id} ${what}${r.reason && r.outcome !== 'running' ? ` — ${r.reason}` : ''}`);
      }
      for (const r of runs.filter((x) => x.outcome === 'running' && x.job_id)) {
        const job = await api.get<{ status: string; progress?: { tables?: string } }>(`/api/jobs/${enc(r.job_id!)}`);
        const line = `${job.status} tables ${job.progress?.tables ?? '-'}`;
        if (jobProgress.get(r.job_id!) !== line) {
          jobProgress.set(r.job_id!, line);
          console.log(`${stamp()}   ${r.job_id} ${line}`);
        }
      }
      if (stopping && !paused) {
        // No new run starts from now on; the one going (if any) is waited for below.
        await api.post(`/api/schedule/${enc(id)}/pause`, { note: `paused by lakeward schedule on ${stopping}` });
        paused = true;
        console.log(`${stamp()} schedule ${id} paused`);
      }
      if (paused) {
        const view = await api.get<ScheduleView>(`/api/schedule/${enc(id)}`);
        if (view.running.length === 0 && !runs.some((r) => r.outcome === 'running')) {
          const count = (o: string) => runs.filter((r) => r.outcome === o).length;
          const failed = runs.filter((r) => ['failed', 'cancelled', 'aborted'].includes(r.outcome)).length;
          console.log(
            `${stamp()} summary: ${runs.length} run${runs.length === 1 ? '' : 's'}, ${count('completed')} cloned, ` +
              `${count('skipped')} skipped by drift check, ${failed} failed` +
              (count('ended') ? `, ${count('ended')} after max_runs` : ''),
          );
          return 0;
        }
      }
      await sleep(pollMs);
    }
  } finally {
    release();
  }
}
