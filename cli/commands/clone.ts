import type { Command } from 'commander';
import { followJob } from '../job-follow';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { barView, lineView } from '../progress';
import { addCloneFlags, cloneBodyFromFlags } from './clone-flags';
import { summaryText, type JobRecord } from './job-text';

interface CloneCliOptions extends ApiOptions {
  wait?: boolean;
  [flag: string]: unknown;
}

/**
 * `lakeward clone SOURCE DEST [flags] [--wait]`: queues a clone job; with --wait shows live progress (bars on a
 * terminal, one line per event otherwise or with --json) and ends with the summary. Exit code 0 when the job
 * completed with no failed table, 1 otherwise.
 */
export function registerCloneCommand(program: Command): void {
  const cmd = program
    .command('clone')
    .description('Clone a catalog (queued as a job); every clone request field has a flag')
    .argument('<source>', 'source catalog')
    .argument('<destination>', 'destination catalog')
    .option('--wait', 'follow the job with a live progress bar until it ends, then print the summary');
  addCloneFlags(withApiOptions(cmd)).action(async (source: string, destination: string, opts: CloneCliOptions) => {
    const api = apiClient(opts);
    const accepted = await api.post<{ job_id: string; status: string; message: string }>(
      '/api/clone',
      cloneBodyFromFlags(source, destination, opts),
    );
    if (!opts.wait) return print(opts, accepted, (a) => `${a.job_id} ${a.status}: ${a.message}`);
    if (!opts.json) console.log(`${accepted.job_id} ${accepted.status}: ${accepted.message}`);
    const view = process.stdout.isTTY && !opts.json ? barView() : lineView((line) => console.log(line), opts.json);
    // Ctrl-C stops watching, not the job.
    process.once('SIGINT', () => {
      view.stop();
      console.error(
        `\n${accepted.job_id} continues in the background; stop it with: lakeward cancel ${accepted.job_id}`,
      );
      process.exit(130);
    });
    try {
      await followJob(api, opts.apiKey ?? process.env.LAKEWARD_API_KEY, accepted.job_id, view);
    } finally {
      view.stop();
    }
    const job = await api.get<JobRecord>(`/api/clone/${accepted.job_id}`);
    print(opts, job, summaryText);
    if (job.status !== 'completed' || (job.tables_failed ?? 0) > 0) process.exitCode = 1;
  });
}
