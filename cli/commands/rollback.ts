import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

interface LogView {
  log_id: string;
  job_id: string;
  destination_catalog: string | null;
  status: string;
  created_at: string;
  counts: {
    tables_restored: number;
    tables_created: number;
    schemas: number;
    views: number;
    functions: number;
    volumes: number;
    catalog_created: boolean;
    total_objects: number;
  };
}

interface RollbackAnswer {
  rollbacks: {
    log_id: string;
    workflow_id: string;
    status?: string;
    result?: {
      status: string;
      restored: number;
      dropped: number;
      failed: number;
      steps: { fqn: string; outcome: string; error?: string }[];
    };
  }[];
}

/** `lakeward rollback <job-id>` / `--log <id>` (waits for the rollback workflow) and `lakeward rollback logs`. */
export function registerRollbackCommand(program: Command): void {
  const cmd = program.command('rollback').description('Roll back a clone job, or list rollback logs');
  withApiOptions(cmd.command('run', { isDefault: true }).argument('[job-id]', 'the clone job to roll back'))
    .option('--log <log-id>', 'roll back one rollback log instead of every log of a job')
    .option('--no-wait', 'return once the rollback workflow has started')
    .action(async (jobId: string | undefined, opts: ApiOptions & { log?: string; wait: boolean }) => {
      if (!jobId && !opts.log) throw new Error('give a job id or --log <log-id>');
      const body = opts.log ? { log_id: opts.log, wait: opts.wait } : { job_id: jobId, wait: opts.wait };
      const answer = await apiClient(opts).post<RollbackAnswer>('/api/rollback', body);
      print(opts, answer, (a) =>
        a.rollbacks
          .map((r) => {
            if (!r.result) return `${r.log_id}: ${r.status} (workflow ${r.workflow_id})`;
            const failures = r.result.steps
              .filter((s) => s.outcome === 'failed')
              .map((s) => `\n  failed ${s.fqn}: ${s.error}`);
            return `${r.log_id}: ${r.result.status} — ${r.result.restored} restored, ${r.result.dropped} dropped, ${r.result.failed} failed${failures.join('')}`;
          })
          .join('\n'),
      );
      if (answer.rollbacks.some((r) => r.result && r.result.status !== 'rolled_back')) process.exitCode = 1;
    });
  withApiOptions(cmd.command('logs').description('Rollback logs with what each recorded'))
    .option('--job <job-id>', 'only this job')
    .action(async (opts: ApiOptions & { job?: string }) => {
      const res = await apiClient(opts).get<{ logs: LogView[] }>(
        `/api/rollback/logs${opts.job ? `?job_id=${encodeURIComponent(opts.job)}` : ''}`,
      );
      print(
        opts,
        res,
        (r) =>
          r.logs
            .map(
              (l) =>
                `${l.log_id}  ${l.job_id}  ${l.destination_catalog ?? '-'}  ${l.status}  restore ${l.counts.tables_restored}, drop ${l.counts.total_objects - l.counts.tables_restored}${l.counts.catalog_created ? ' (incl. catalog)' : ''}`,
            )
            .join('\n') || 'no rollback logs',
      );
    });
}
