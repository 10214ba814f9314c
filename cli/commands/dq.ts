import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { registerDqOpsCommands } from './dq-ops';

const G = '/api/governance/dqx';

interface CheckView {
  id: string;
  table_fqn: string;
  name: string;
  check_function: string;
  arguments: Record<string, unknown>;
  criticality: string;
  enabled: boolean;
}
interface RunView {
  run_id: string;
  table_fqn: string;
  status: string;
  error: string | null;
  total_rows: number;
  valid_rows: number;
  invalid_rows: number;
  warning_rows: number;
  pass_rate: number;
  execution_time_ms: number;
  check_results: { name: string; check_function: string; criticality: string; failures: number; failure_pct: number }[];
}
interface Sample {
  row_data: Record<string, unknown>;
  failed_checks: { errors: string[]; warnings: string[] };
}

const q = (params: Record<string, string | undefined>) => {
  const s = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  return s.size ? `?${s}` : '';
};

/** The readable run report: totals, then per check its failures and share, then the sample rows. */
export function runReport(run: RunView, samples: Sample[]): string {
  if (run.status !== 'completed') return `${run.table_fqn}: run ${run.run_id} failed: ${run.error}`;
  const lines = [
    `${run.table_fqn}  run ${run.run_id}  ${run.execution_time_ms} ms`,
    `pass rate ${run.pass_rate}%: ${run.valid_rows} of ${run.total_rows} rows valid, ${run.invalid_rows} invalid, ` +
      `${run.warning_rows} with warnings only`,
    '',
  ];
  const width = Math.max(5, ...run.check_results.map((c) => c.name.length));
  lines.push(`${'check'.padEnd(width)}  level  failures  share`);
  for (const c of run.check_results)
    lines.push(
      `${c.name.padEnd(width)}  ${c.criticality.padEnd(5)}  ${String(c.failures).padStart(8)}  ${c.failure_pct.toFixed(2).padStart(6)}%`,
    );
  if (samples.length) {
    lines.push('', `sample failing rows (${samples.length}):`);
    for (const s of samples) {
      const failed = [...s.failed_checks.errors, ...s.failed_checks.warnings.map((w) => `${w} (warn)`)].join(', ');
      lines.push(`  ${JSON.stringify(s.row_data)}  ← ${failed}`);
    }
  }
  return lines.join('\n');
}

/**
 * `lakeward dq checks|add|run|profile|generate|export|import|coverage` and the operations (dq-ops.ts: schedule, gate,
 * rules, anomalies, impact, root-cause, suite): data quality through the API.
 */
export function registerDqCommand(program: Command): void {
  const dq = program.command('dq').description('Data-quality checks, runs, profiles and coverage');
  registerDqOpsCommands(dq);

  withApiOptions(dq.command('checks').argument('[table_fqn]', 'only this table')).action(
    async (table: string | undefined, opts: ApiOptions) => {
      const checks = await apiClient(opts).get<CheckView[]>(`${G}/checks${q({ table_fqn: table })}`);
      print(
        opts,
        checks,
        (cs) =>
          cs
            .map(
              (c) =>
                `${c.id}  ${c.enabled ? 'on ' : 'off'}  ${c.criticality.padEnd(5)}  ${c.table_fqn}  ${c.name}: ` +
                `${c.check_function}(${JSON.stringify(c.arguments)})`,
            )
            .join('\n') || 'no checks',
      );
    },
  );

  withApiOptions(
    dq
      .command('add')
      .argument('<table_fqn>')
      .argument('<function>', 'DQX check function, e.g. is_not_null')
      .option('--args <json>', 'arguments as JSON, e.g. {"column":"id"}', '{}')
      .option('--criticality <level>', 'error or warn', 'error')
      .option('--name <name>')
      .option('--filter <predicate>'),
  ).action(async (table: string, fn: string, opts: ApiOptions & Record<string, string | undefined>) => {
    const body = {
      table_fqn: table,
      check_function: fn,
      arguments: JSON.parse(opts.args ?? '{}') as unknown,
      criticality: opts.criticality,
      ...(opts.name ? { name: opts.name } : {}),
      ...(opts.filter ? { filter: opts.filter } : {}),
    };
    const created = await apiClient(opts).post<CheckView[]>(`${G}/checks`, body);
    print(opts, created, (cs) => cs.map((c) => `created ${c.id}  ${c.name}`).join('\n'));
  });

  withApiOptions(
    dq
      .command('run')
      .argument('<scope>', 'catalog.schema.table, catalog.schema.all, catalog.all or all')
      .option('--checks <ids>', 'comma-separated check ids'),
  ).action(async (scope: string, opts: ApiOptions & { checks?: string }) => {
    const api = apiClient(opts);
    const body = { table_fqn: scope, ...(opts.checks ? { check_ids: opts.checks.split(',') } : {}) };
    const answer = await api.post<RunView | { results: RunView[] } | { job_id: string; message: string }>(
      `${G}/run`,
      body,
    );
    const runs = 'results' in answer ? answer.results : 'run_id' in answer && 'check_results' in answer ? [answer] : [];
    if (opts.json || runs.length === 0) {
      print(opts, answer, (a) => ('message' in a ? a.message : JSON.stringify(a)));
      return;
    }
    const reports = [];
    for (const run of runs) {
      const samples = await api.get<Sample[]>(`/api/data-quality/failure-samples${q({ run_id: run.run_id })}`);
      reports.push(runReport(run, samples));
    }
    console.log(reports.join('\n\n'));
  });

  withApiOptions(dq.command('profile').argument('<table_fqn>')).action(async (table: string, opts: ApiOptions) => {
    const p = await apiClient(opts).post<{
      row_count: number;
      columns: { name: string; type: string; nulls: number; distinct: number; min: unknown; max: unknown }[];
    }>(`${G}/profile`, { table_fqn: table });
    print(opts, p, (x) =>
      [
        `${table}: ${x.row_count} rows`,
        ...x.columns.map(
          (c) =>
            `  ${c.name} ${c.type}: ${c.nulls} nulls, ${c.distinct} distinct, min ${String(c.min)}, max ${String(c.max)}`,
        ),
      ].join('\n'),
    );
  });

  withApiOptions(dq.command('generate').argument('<table_fqn>')).action(async (table: string, opts: ApiOptions) => {
    const g = await apiClient(opts).post<{ created: number; already_present: number; checks: CheckView[] }>(
      `${G}/generate`,
      { table_fqn: table },
    );
    print(opts, g, (x) =>
      [
        `${x.created} checks created, ${x.already_present} already present`,
        ...x.checks.map((c) => `  ${c.id}  ${c.name}`),
      ].join('\n'),
    );
  });

  withApiOptions(dq.command('export').argument('[table_fqn]').option('-o, --output <file>')).action(
    async (table: string | undefined, opts: ApiOptions & { output?: string }) => {
      const data = await apiClient(opts).get<unknown>(`${G}/checks/export${q({ table_fqn: table })}`);
      const text = typeof data === 'string' ? data : `${JSON.stringify(data)}\n`;
      if (opts.output) writeFileSync(opts.output, text);
      else process.stdout.write(text);
    },
  );

  withApiOptions(dq.command('import').argument('<file>', 'DQX YAML file').option('--table <table_fqn>')).action(
    async (file: string, opts: ApiOptions & { table?: string }) => {
      const body = { yaml_content: readFileSync(file, 'utf8'), ...(opts.table ? { table_fqn: opts.table } : {}) };
      const r = await apiClient(opts).post<{
        created: number;
        updated: number;
        rejected: number;
        items: { index: number; status: string; reason: string | null }[];
      }>(`${G}/checks/import`, body);
      print(opts, r, (x) =>
        [
          `${x.created} created, ${x.updated} updated, ${x.rejected} rejected`,
          ...x.items.filter((i) => i.status === 'rejected').map((i) => `  item ${i.index}: ${i.reason}`),
        ].join('\n'),
      );
    },
  );

  withApiOptions(dq.command('coverage').argument('<catalog>')).action(async (catalog: string, opts: ApiOptions) => {
    const c = await apiClient(opts).get<{
      total_tables: number;
      covered: number;
      coverage_pct: number;
      uncovered_tables: { table_fqn: string }[];
    }>(`/api/data-quality/coverage/${encodeURIComponent(catalog)}`);
    print(opts, c, (x) =>
      [
        `${catalog}: ${x.covered} of ${x.total_tables} tables have checks (${x.coverage_pct}%)`,
        ...x.uncovered_tables.map((t) => `  uncovered: ${t.table_fqn}`),
      ].join('\n'),
    );
  });
}
