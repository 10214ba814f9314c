import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import YAML from 'yaml';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { textTable } from './workbench';

interface Playbook {
  playbook_id: string;
  name: string;
  trigger_type: string;
  enabled: boolean;
  max_executions_per_hour: number;
  conditions: string;
  actions: { type: string }[];
}

interface Execution {
  execution_id: string;
  trigger: string;
  status: string;
  dry_run: boolean;
  started_at: string;
  actions: {
    type: string;
    status: string;
    attempts: number;
    output: Record<string, unknown> | null;
    error: string | null;
  }[];
}

/** A playbook file: YAML or JSON with the body of POST /api/playbooks. */
function readBody(file: string): unknown {
  return YAML.parse(readFileSync(file, 'utf8'));
}

const playbookText = (p: Playbook) =>
  [
    `${p.playbook_id}  ${p.name}`,
    `trigger: ${p.trigger_type}${p.conditions ? ` when ${p.conditions}` : ''}`,
    `actions: ${p.actions.map((a) => a.type).join(' → ')}`,
    `limit: ${p.max_executions_per_hour}/hour, ${p.enabled ? 'enabled' : 'disabled'}`,
  ].join('\n');

const executionText = (e: Execution) =>
  [
    `${e.execution_id}  ${e.status}${e.dry_run ? ' (dry run)' : ''}  trigger ${e.trigger}  ${e.started_at}`,
    ...e.actions.map((a) => {
      const status = a.output?.status_code ? ` HTTP ${String(a.output.status_code)}` : '';
      const job = a.output?.job_id ? ` job ${String(a.output.job_id)}` : '';
      return `  ${a.type}: ${a.status}, ${a.attempts} attempt(s)${status}${job}${a.error ? ` — ${a.error}` : ''}`;
    }),
  ].join('\n');

/** `lakeward playbook list|show|create|update|delete|templates|execute|history` over /api/playbooks. */
export function registerAutomationCommands(program: Command): void {
  const pb = program.command('playbook').description('Playbooks: actions that run on events, with an hourly limit');
  withApiOptions(pb.command('list').description('list playbooks')).action(async (opts: ApiOptions) => {
    const out = await apiClient(opts).get<{ playbooks: Playbook[] }>('/api/playbooks');
    print(opts, out, (o) =>
      o.playbooks.length
        ? textTable(
            ['playbook_id', 'trigger', 'limit/h', 'enabled', 'name'],
            o.playbooks.map((p) => [
              p.playbook_id,
              p.trigger_type,
              String(p.max_executions_per_hour),
              String(p.enabled),
              p.name,
            ]),
          )
        : 'no playbooks',
    );
  });
  withApiOptions(pb.command('show <playbook_id>')).action(async (id: string, opts: ApiOptions) => {
    print(opts, await apiClient(opts).get<Playbook>(`/api/playbooks/${encodeURIComponent(id)}`), playbookText);
  });
  withApiOptions(pb.command('create <file>').description('create from a YAML or JSON file')).action(
    async (file: string, opts: ApiOptions) => {
      print(opts, await apiClient(opts).post<Playbook>('/api/playbooks', readBody(file)), playbookText);
    },
  );
  withApiOptions(pb.command('update <playbook_id> <file>').description('replace with a YAML or JSON file')).action(
    async (id: string, file: string, opts: ApiOptions) => {
      const out = await apiClient(opts).request<Playbook>(
        'PUT',
        `/api/playbooks/${encodeURIComponent(id)}`,
        readBody(file),
      );
      print(opts, out, playbookText);
    },
  );
  withApiOptions(pb.command('delete <playbook_id>')).action(async (id: string, opts: ApiOptions) => {
    const out = await apiClient(opts).request<{ playbook_id: string }>(
      'DELETE',
      `/api/playbooks/${encodeURIComponent(id)}`,
    );
    print(opts, out, (o) => `deleted ${o.playbook_id}`);
  });
  withApiOptions(pb.command('templates')).action(async (opts: ApiOptions) => {
    const out = await apiClient(opts).get<{ templates: { template_id: string; name: string; description: string }[] }>(
      '/api/playbooks/templates',
    );
    print(opts, out, (o) => o.templates.map((t) => `${t.template_id}  ${t.name}\n  ${t.description}`).join('\n'));
  });
  withApiOptions(
    pb
      .command('execute <playbook_id>')
      .description('run now, bypassing trigger, condition and limit; exits 1 unless it succeeded')
      .option('--event <json>', 'the event the actions see, as JSON')
      .option('--dry-run', 'render the actions and perform nothing'),
  ).action(async (id: string, opts: ApiOptions & { event?: string; dryRun?: boolean }) => {
    const body = { dry_run: Boolean(opts.dryRun), ...(opts.event ? { event: JSON.parse(opts.event) as unknown } : {}) };
    const out = await apiClient(opts).post<Execution>(`/api/playbooks/${encodeURIComponent(id)}/execute`, body);
    print(opts, out, executionText);
    if (out.status !== 'succeeded') process.exitCode = 1;
  });
  withApiOptions(pb.command('history <playbook_id>').option('--limit <n>', 'executions to show', '20')).action(
    async (id: string, opts: ApiOptions & { limit: string }) => {
      const out = await apiClient(opts).get<{ executions: Execution[] }>(
        `/api/playbooks/${encodeURIComponent(id)}/history?limit=${Number(opts.limit)}`,
      );
      print(opts, out, (o) => (o.executions.length ? o.executions.map(executionText).join('\n') : 'no executions'));
    },
  );
}
