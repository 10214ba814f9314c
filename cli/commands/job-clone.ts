import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { textTable } from './workbench';

interface Job {
  job_id: string;
  settings: { name?: string; tasks?: unknown[] };
}
interface CloneResult {
  new_job_id: string;
  name: string;
  warnings: string[];
}

const cloneText = (o: CloneResult) =>
  [`created ${o.new_job_id} (${o.name})`, ...o.warnings.map((w) => `warning: ${w}`)].join('\n');

/** `lakeward job-clone list|show|clone|clone-cross|diff|backup|restore` over /api/job-clone. */
export function registerJobCloneCommands(program: Command): void {
  const jc = program
    .command('job-clone')
    .description('Jobs (Databricks Jobs API; locally Lakeward pipelines): clone, diff, back up');
  withApiOptions(
    jc.command('list').option('--name <name>', 'exact job name').option('--limit <n>', 'at most 100', '25'),
  ).action(async (opts: ApiOptions & { name?: string; limit: string }) => {
    const q = `limit=${Number(opts.limit)}${opts.name ? `&name=${encodeURIComponent(opts.name)}` : ''}`;
    const out = await apiClient(opts).get<{ jobs: Job[] }>(`/api/job-clone?${q}`);
    print(opts, out, (o) =>
      o.jobs.length
        ? textTable(
            ['job_id', 'tasks', 'name'],
            o.jobs.map((j) => [j.job_id, String(j.settings.tasks?.length ?? 0), String(j.settings.name ?? '')]),
          )
        : 'no jobs',
    );
  });
  withApiOptions(jc.command('show <job_id>')).action(async (id: string, opts: ApiOptions) => {
    const out = await apiClient(opts).get<Job>(`/api/job-clone/${encodeURIComponent(id)}`);
    print(opts, out, (o) => JSON.stringify(o.settings, null, 2));
  });
  withApiOptions(
    jc
      .command('clone <job_id>')
      .option('--name <new_name>', 'default <name>_clone')
      .option('--overrides <json>', 'settings keys to set'),
  ).action(async (id: string, opts: ApiOptions & { name?: string; overrides?: string }) => {
    const body = {
      job_id: id,
      ...(opts.name ? { new_name: opts.name } : {}),
      overrides: opts.overrides ? (JSON.parse(opts.overrides) as unknown) : {},
    };
    print(opts, await apiClient(opts).post<CloneResult>('/api/job-clone/clone', body), cloneText);
  });
  withApiOptions(
    jc
      .command('clone-cross <job_id>')
      .description(
        'clone into another workspace: a saved target (--dest-target), or --dest-host with the token from DEST_DATABRICKS_TOKEN (not stored)',
      )
      .option('--dest-target <name>', 'a saved target connection (lakeward target list)')
      .option('--dest-host <url>', 'the destination workspace')
      .option('--name <new_name>', 'default <name>_clone')
      .option('--remap <json>', '{"clusters": {"old": "new"}, "warehouses": {...}}'),
  ).action(
    async (
      id: string,
      opts: ApiOptions & { destTarget?: string; destHost?: string; name?: string; remap?: string },
    ) => {
      let dest: Record<string, string>;
      if (opts.destTarget) dest = { dest_target: opts.destTarget };
      else {
        const token = process.env.DEST_DATABRICKS_TOKEN;
        if (!opts.destHost) throw new Error('give --dest-target <saved target> or --dest-host <url>');
        if (!token) throw new Error('set DEST_DATABRICKS_TOKEN to the destination workspace token');
        dest = { dest_host: opts.destHost, dest_token: token };
      }
      const body = {
        job_id: id,
        ...dest,
        ...(opts.name ? { new_name: opts.name } : {}),
        remap: opts.remap ? (JSON.parse(opts.remap) as unknown) : {},
      };
      print(opts, await apiClient(opts).post<CloneResult>('/api/job-clone/clone-cross-workspace', body), cloneText);
    },
  );
  withApiOptions(jc.command('diff <job_id_a> <job_id_b>').description('exits 1 when they differ')).action(
    async (a: string, b: string, opts: ApiOptions) => {
      const out = await apiClient(opts).post<{
        identical: boolean;
        diffs: { path: string; kind: string; a: unknown; b: unknown }[];
      }>('/api/job-clone/diff', { job_id_a: a, job_id_b: b });
      print(opts, out, (o) =>
        o.identical
          ? 'identical'
          : o.diffs.map((d) => `${d.kind} ${d.path}: ${JSON.stringify(d.a)} → ${JSON.stringify(d.b)}`).join('\n'),
      );
      if (!out.identical) process.exitCode = 1;
    },
  );
  withApiOptions(jc.command('backup <file> <job_ids...>').description('write the definitions to a JSON file')).action(
    async (file: string, ids: string[], opts: ApiOptions) => {
      const out = await apiClient(opts).post<{
        definitions: unknown[];
        results: { job_id: string; status: string; error?: string }[];
      }>('/api/job-clone/backup', { job_ids: ids });
      writeFileSync(file, JSON.stringify({ definitions: out.definitions }, null, 2));
      print(opts, out, (o) =>
        o.results.map((r) => `${r.job_id}: ${r.status}${r.error ? ` — ${r.error}` : ''}`).join('\n'),
      );
      if (out.results.some((r) => r.status !== 'ok')) process.exitCode = 1;
    },
  );
  withApiOptions(jc.command('restore <file>').description('create a job per definition of a backup file')).action(
    async (file: string, opts: ApiOptions) => {
      const body = JSON.parse(readFileSync(file, 'utf8')) as { definitions: unknown[] };
      const out = await apiClient(opts).post<{
        results: { source_job_id: string | null; new_job_id: string | null; status: string; error?: string }[];
      }>('/api/job-clone/restore', { definitions: body.definitions });
      print(opts, out, (o) =>
        o.results
          .map(
            (r) => `${r.source_job_id ?? '?'} → ${r.new_job_id ?? '-'}: ${r.status}${r.error ? ` — ${r.error}` : ''}`,
          )
          .join('\n'),
      );
      if (out.results.some((r) => r.status !== 'ok')) process.exitCode = 1;
    },
  );
}
