import type { Command } from 'commander';
import { ApiError, apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { lineView, type StreamEvent } from '../progress';
import { jobLine, jobText, type JobRecord } from './job-text';

/** `lakeward jobs`, `lakeward job ID`, `lakeward cancel ID`, `lakeward logs ID` — jobs of every type. */
export function registerJobCommands(program: Command): void {
  withApiOptions(program.command('jobs').description('List jobs of every type, newest first'))
    .option('--type <type>', 'only jobs of this type (clone, …)')
    .option(
      '--status <status>',
      'only jobs in this status (queued, running, cancelling, completed, failed, cancelled, aborted)',
    )
    .option('--limit <n>', 'at most this many', '50')
    .action(async (opts: ApiOptions & { type?: string; status?: string; limit: string }) => {
      const query = new URLSearchParams({
        limit: opts.limit,
        ...(opts.type ? { type: opts.type } : {}),
        ...(opts.status ? { status: opts.status } : {}),
      });
      const jobs = await apiClient(opts).get<JobRecord[]>(`/api/jobs?${query}`);
      print(opts, jobs, (list) => (list.length ? list.map(jobLine).join('\n') : 'no jobs'));
    });

  withApiOptions(program.command('job').description('Show one job: status, progress, summary and log'))
    .argument('<id>', 'job id')
    .action(async (id: string, opts: ApiOptions) => {
      const api = apiClient(opts);
      const job = await api.get<JobRecord>(`/api/jobs/${encodeURIComponent(id)}`);
      // A clone's own record adds its summary fields (tables, bytes, warnings).
      const full = job.job_type === 'clone' ? await api.get<JobRecord>(`/api/clone/${encodeURIComponent(id)}`) : job;
      print(opts, full, jobText);
    });

  withApiOptions(program.command('cancel').description('Cancel a queued or running job'))
    .argument('<id>', 'job id')
    .action(async (id: string, opts: ApiOptions) => {
      const res = await apiClient(opts).post<{ status: string; job_id: string; message: string }>(
        `/api/jobs/${encodeURIComponent(id)}/cancel`,
      );
      print(opts, res, (r) => `${r.job_id} ${r.status}: ${r.message}`);
    });

  withApiOptions(program.command('logs').description("Print a job's log, following it until the job ends"))
    .argument('<id>', 'job id')
    .option('--no-follow', 'print what is logged so far and stop')
    .action(async (id: string, opts: ApiOptions & { follow: boolean }) => {
      const view = lineView((line) => console.log(line), opts.json);
      for await (const event of streamLogs(opts, id, opts.follow)) view.event(event);
    });
}

/** Reads GET /api/jobs/{id}/logs (NDJSON) as it arrives. */
async function* streamLogs(opts: ApiOptions, id: string, follow: boolean): AsyncGenerator<StreamEvent> {
  const api = apiClient(opts);
  const key = opts.apiKey ?? process.env.LAKEWARD_API_KEY;
  const url = `${api.baseUrl}/api/jobs/${encodeURIComponent(id)}/logs?follow=${follow}`;
  const res = await fetch(url, {
    headers: { Accept: 'application/x-ndjson', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
  });
  if (!res.ok || !res.body) {
    // The error body is the common JSON error; let the API client's error path describe it.
    await api.get(`/api/jobs/${encodeURIComponent(id)}`);
    throw new ApiError(res.status, `HTTP_${res.status}`, await res.text());
  }
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) yield JSON.parse(line) as StreamEvent;
    }
  }
}
