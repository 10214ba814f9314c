import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import YAML from 'yaml';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { textTable } from './workbench';

interface Pipeline {
  pipeline_id: string;
  name: string;
  description: string;
  steps: { type: string; name: string; on_failure: unknown }[];
}

interface Run {
  run_id: string;
  pipeline_name: string;
  status: string;
  error: string | null;
  created_at: string;
  steps: {
    name: string;
    type: string;
    status: string;
    attempts: number;
    child_job_id: string | null;
    error: string | null;
  }[];
}

const enc = encodeURIComponent;
const onFailure = (o: unknown) =>
  typeof o === 'object' && o ? `retry ${String((o as { retry: number }).retry)}` : String(o);

const pipelineText = (p: Pipeline) =>
  [
    `${p.pipeline_id}  ${p.name}`,
    ...p.steps.map((s, i) => `  ${i + 1}. ${s.name} (${s.type}, on failure ${onFailure(s.on_failure)})`),
  ].join('\n');

const runText = (r: Run) =>
  [
    `${r.run_id}  ${r.status}  ${r.pipeline_name}${r.error ? ` — ${r.error}` : ''}`,
    ...r.steps.map(
      (s) =>
        `  ${s.name} (${s.type}): ${s.status}, ${s.attempts} attempt(s)${s.child_job_id ? ` job ${s.child_job_id}` : ''}${s.error ? ` — ${s.error}` : ''}`,
    ),
  ].join('\n');

/** `lakeward pipeline list|show|create|delete|run|runs|status|cancel|approve|reject|templates|from-template`. */
export function registerPipelineCommands(program: Command): void {
  const pl = program.command('pipeline').description('Pipelines: ordered steps run as one job');
  withApiOptions(pl.command('list').description('list pipelines')).action(async (opts: ApiOptions) => {
    const out = await apiClient(opts).get<{ pipelines: Pipeline[] }>('/api/pipeline/pipelines');
    print(opts, out, (o) =>
      o.pipelines.length
        ? textTable(
            ['pipeline_id', 'steps', 'name'],
            o.pipelines.map((p) => [p.pipeline_id, p.steps.map((s) => s.name).join(' → '), p.name]),
          )
        : 'no pipelines',
    );
  });
  withApiOptions(pl.command('show <pipeline_id>')).action(async (id: string, opts: ApiOptions) => {
    print(opts, await apiClient(opts).get<Pipeline>(`/api/pipeline/pipelines/${enc(id)}`), pipelineText);
  });
  withApiOptions(pl.command('create <file>').description('create from a YAML or JSON file')).action(
    async (file: string, opts: ApiOptions) => {
      const body = YAML.parse(readFileSync(file, 'utf8')) as unknown;
      print(opts, await apiClient(opts).post<Pipeline>('/api/pipeline/pipelines', body), pipelineText);
    },
  );
  withApiOptions(pl.command('delete <pipeline_id>')).action(async (id: string, opts: ApiOptions) => {
    const out = await apiClient(opts).request<{ pipeline_id: string }>('DELETE', `/api/pipeline/pipelines/${enc(id)}`);
    print(opts, out, (o) => `deleted ${o.pipeline_id}`);
  });
  withApiOptions(
    pl
      .command('run <pipeline_id>')
      .description('queue a run; with --wait, follow it to its end (exit 1 unless it completed)')
      .option('--wait', 'wait for the run to end'),
  ).action(async (id: string, opts: ApiOptions & { wait?: boolean }) => {
    const client = apiClient(opts);
    const queued = await client.post<{ run_id: string }>(`/api/pipeline/pipelines/${enc(id)}/run`);
    if (!opts.wait) return print(opts, queued, (o) => `queued run ${o.run_id}`);
    for (;;) {
      const r = await client.get<Run>(`/api/pipeline/runs/${enc(queued.run_id)}`);
      if (['completed', 'failed', 'cancelled'].includes(r.status)) {
        print(opts, r, runText);
        if (r.status !== 'completed') process.exitCode = 1;
        return;
      }
      await new Promise((res) => setTimeout(res, 1000));
    }
  });
  withApiOptions(
    pl.command('runs').option('--pipeline <id>', 'runs of one pipeline').option('--limit <n>', 'runs', '20'),
  ).action(async (opts: ApiOptions & { pipeline?: string; limit: string }) => {
    const q = `limit=${Number(opts.limit)}${opts.pipeline ? `&pipeline_id=${enc(opts.pipeline)}` : ''}`;
    const out = await apiClient(opts).get<{ runs: Run[] }>(`/api/pipeline/runs?${q}`);
    print(opts, out, (o) =>
      o.runs.length
        ? textTable(
            ['run_id', 'status', 'pipeline', 'created_at'],
            o.runs.map((r) => [r.run_id, r.status, r.pipeline_name, r.created_at]),
          )
        : 'no runs',
    );
  });
  withApiOptions(pl.command('status <run_id>').description('a run and its steps')).action(
    async (id: string, opts: ApiOptions) => {
      print(opts, await apiClient(opts).get<Run>(`/api/pipeline/runs/${enc(id)}`), runText);
    },
  );
  withApiOptions(pl.command('cancel <run_id>')).action(async (id: string, opts: ApiOptions) => {
    const out = await apiClient(opts).post<{ status: string; message: string }>(`/api/pipeline/runs/${enc(id)}/cancel`);
    print(opts, out, (o) => `${o.status}: ${o.message}`);
  });
  for (const verb of ['approve', 'reject'] as const)
    withApiOptions(pl.command(`${verb} <run_id> <step>`).description(`${verb} an approval step`)).action(
      async (id: string, step: string, opts: ApiOptions) => {
        const out = await apiClient(opts).post<{ decision: string }>(
          `/api/pipeline/runs/${enc(id)}/steps/${enc(step)}/${verb}`,
        );
        print(opts, out, (o) => `${step}: ${o.decision}`);
      },
    );
  withApiOptions(pl.command('templates')).action(async (opts: ApiOptions) => {
    const out = await apiClient(opts).get<{ templates: { template_name: string; description: string }[] }>(
      '/api/pipeline/templates',
    );
    print(opts, out, (o) => o.templates.map((t) => `${t.template_name}\n  ${t.description}`).join('\n'));
  });
  withApiOptions(
    pl
      .command('from-template <template_name>')
      .description('create a pipeline from a template')
      .option('--name <name>', 'the new pipeline name')
      .option('--overrides <json>', 'per step name, config keys to override, as JSON'),
  ).action(async (name: string, opts: ApiOptions & { name?: string; overrides?: string }) => {
    const body = {
      ...(opts.name ? { name: opts.name } : {}),
      overrides: opts.overrides ? (JSON.parse(opts.overrides) as unknown) : {},
    };
    print(
      opts,
      await apiClient(opts).post<Pipeline>(`/api/pipeline/templates/${enc(name)}/create`, body),
      pipelineText,
    );
  });
}
