import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

const DQ = '/api/data-quality';
type O = ApiOptions & Record<string, string | undefined>;
type Row = Record<string, unknown>;
const q = (params: Record<string, string | undefined>) => {
  const s = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  return s.size ? `?${s}` : '';
};
const enc = encodeURIComponent;
const lines = (rows: Row[], line: (r: Row) => string, empty: string) => rows.map(line).join('\n') || empty;

/** `lakeward dq schedule|gate|rules|anomalies|impact|root-cause|suite`: data-quality operations through the API. */
export function registerDqOpsCommands(dq: Command): void {
  const sched = dq.command('schedule').description('DQ schedules (Temporal Schedules)');
  withApiOptions(sched.command('list')).action(async (opts: O) => {
    const rows = await apiClient(opts).get<Row[]>(`${DQ}/schedules`);
    print(opts, rows, (rs) =>
      lines(
        rs,
        (s) =>
          `${s.id}  ${String(s.status).padEnd(6)}  ${s.cron}  ${s.schedule_type} ${s.table_fqn ?? s.suite_id ?? ''}  ${s.name}` +
          `  last ${s.last_run_at ?? '-'} ${s.last_run_status ?? ''}  next ${s.next_run_at ?? '-'}`,
        'no schedules',
      ),
    );
  });
  withApiOptions(
    sched
      .command('create')
      .argument('<name>')
      .argument('<cron>', 'standard 5-field cron, e.g. "0 * * * *"')
      .option('--type <type>', 'table, checks, suite or all', 'table')
      .option('--table <table_fqn>')
      .option('--suite <suite>')
      .option('--checks <ids>', 'comma-separated check ids'),
  ).action(async (name: string, cron: string, opts: O) => {
    const body = {
      name,
      cron,
      schedule_type: opts.type,
      ...(opts.table ? { table_fqn: opts.table } : {}),
      ...(opts.suite ? { suite_id: opts.suite } : {}),
      ...(opts.checks ? { check_ids: opts.checks.split(',') } : {}),
    };
    const s = await apiClient(opts).post<Row>(`${DQ}/schedules`, body);
    print(opts, s, (x) => `created ${x.id}  next run ${x.next_run_at}`);
  });
  for (const verb of ['pause', 'resume', 'run'] as const)
    withApiOptions(sched.command(verb).argument('<id>')).action(async (id: string, opts: O) => {
      const r = await apiClient(opts).post<Row>(`${DQ}/schedules/${enc(id)}/${verb}`, {});
      print(opts, r, (x) => (verb === 'run' ? `${id}: triggered` : `${id}: ${x.status}`));
    });
  withApiOptions(sched.command('delete').argument('<id>')).action(async (id: string, opts: O) => {
    const r = await apiClient(opts).request<Row>('DELETE', `${DQ}/schedules/${enc(id)}`);
    print(opts, r, () => `${id}: deleted`);
  });

  withApiOptions(
    dq
      .command('gate')
      .description('Evaluate the quality gate (exit status 1 when it does not pass)')
      .argument('[table_fqn]')
      .option('--suite <suite>')
      .option('--min-pass-rate <pct>', 'percent', '95'),
  ).action(async (table: string | undefined, opts: O) => {
    const body = { table_fqn: table, suite_id: opts.suite, min_pass_rate: Number(opts.minPassRate) };
    const g = await apiClient(opts).post<{ passed: boolean; reason: string }>(`${DQ}/gate/evaluate`, body);
    print(opts, g, (x) => x.reason);
    if (!g.passed) process.exitCode = 1;
  });

  const rules = dq.command('rules').description('Inline rules applied during clones');
  withApiOptions(rules.command('list').argument('[table_fqn]')).action(async (table: string | undefined, opts: O) => {
    const rows = await apiClient(opts).get<Row[]>(`/data-quality/dqx/rules${q({ table_fqn: table })}`);
    print(opts, rows, (rs) =>
      lines(
        rs,
        (r) =>
          `${r.id}  ${r.active ? 'active  ' : 'inactive'}  ${String(r.action).padEnd(10)}  ${String(r.severity).padEnd(8)}  ` +
          `${r.table_fqn}  ${r.name}: ${r.check_type}(${r.column ?? ''}) ${JSON.stringify(r.params)}`,
        'no rules',
      ),
    );
  });
  withApiOptions(
    rules
      .command('add')
      .argument('<table_fqn>')
      .argument('<name>')
      .argument('<check_type>', 'not_null, unique, range, regex, referential or expression')
      .option('--column <column>')
      .option('--params <json>', 'e.g. {"min":0,"max":100}', '{}')
      .option('--severity <severity>', 'info, warning or critical', 'warning')
      .option('--action <action>', 'log, block or quarantine', 'log')
      .option('--activate', 'active at once'),
  ).action(async (table: string, name: string, checkType: string, opts: O & { activate?: boolean }) => {
    const body = {
      table_fqn: table,
      name,
      check_type: checkType,
      column: opts.column,
      params: JSON.parse(opts.params ?? '{}') as unknown,
      severity: opts.severity,
      action: opts.action,
      active: Boolean(opts.activate),
    };
    const r = await apiClient(opts).post<Row>('/data-quality/dqx/rules', body);
    print(opts, r, (x) => `created ${x.id}  (${x.check_function}, ${x.active ? 'active' : 'inactive'})`);
  });
  withApiOptions(rules.command('test').argument('<id>')).action(async (id: string, opts: O) => {
    const t = await apiClient(opts).post<{ sample_rows: number; violations: number; samples: Row[] }>(
      `/data-quality/dqx/rules/${enc(id)}/test`,
      {},
    );
    print(opts, t, (x) =>
      [
        `${x.violations} violation(s) in ${x.sample_rows} sampled rows`,
        ...x.samples.map((s) => `  ${JSON.stringify(s)}`),
      ].join('\n'),
    );
  });
  for (const verb of ['activate', 'deactivate'] as const)
    withApiOptions(rules.command(verb).argument('<id>')).action(async (id: string, opts: O) => {
      const r = await apiClient(opts).post<Row>(`/data-quality/dqx/rules/${enc(id)}/${verb}`, {});
      print(opts, r, (x) => `${id}: ${x.active ? 'active' : 'inactive'}`);
    });

  const anomalies = dq.command('anomalies').description('Metric anomalies and their triage');
  withApiOptions(anomalies.command('list').option('--status <status>').option('--severity <severity>')).action(
    async (opts: O) => {
      const rows = await apiClient(opts).get<Row[]>(
        `${DQ}/anomalies${q({ status: opts.status, severity: opts.severity })}`,
      );
      print(opts, rows, (rs) =>
        lines(
          rs,
          (a) => {
            const range = a.expected_range as { min: number; max: number };
            const col = a.column ? `.${a.column}` : '';
            return `${a.id}  ${String(a.severity).padEnd(8)}  ${String(a.status).padEnd(14)}  ${a.table_fqn}${col} ${a.metric} = ${a.observed_value} (expected ${range.min.toFixed(3)} … ${range.max.toFixed(3)})  ${a.detected_at}`;
          },
          'no anomalies',
        ),
      );
    },
  );
  for (const [verb, path] of [
    ['ack', 'acknowledge'],
    ['resolve', 'resolve'],
    ['false-positive', 'false-positive'],
  ] as const)
    withApiOptions(anomalies.command(verb).argument('<id>')).action(async (id: string, opts: O) => {
      const a = await apiClient(opts).post<Row>(`${DQ}/anomalies/${enc(id)}/${path}`, {});
      print(opts, a, (x) => `${id}: ${x.status}`);
    });

  withApiOptions(dq.command('impact').argument('<table_fqn>')).action(async (table: string, opts: O) => {
    const i = await apiClient(opts).get<{
      downstream_tables: string[];
      downstream_views: { catalog: string; schema: string; view: string }[];
      referencing_jobs: { job_id: string; job_name: string }[];
      total_affected: number;
      risk_level: string;
    }>(`${DQ}/impact/${enc(table)}`);
    print(opts, i, (x) =>
      [
        `${table}: ${x.total_affected} affected, risk ${x.risk_level}`,
        ...x.downstream_tables.map((t) => `  table ${t}`),
        ...x.downstream_views.map((v) => `  view  ${v.catalog}.${v.schema}.${v.view}`),
        ...x.referencing_jobs.map((j) => `  job   ${j.job_id} (${j.job_name})`),
      ].join('\n'),
    );
  });
  withApiOptions(dq.command('root-cause').argument('<table_fqn>').option('--hours <n>', 'window', '24')).action(
    async (table: string, opts: O) => {
      const r = await apiClient(opts).get<{
        probable_causes: { type: string; confidence: number; description: string }[];
      }>(`${DQ}/root-cause/${enc(table)}${q({ hours: opts.hours })}`);
      print(opts, r, (x) =>
        lines(
          x.probable_causes as unknown as Row[],
          (c) => `${Number(c.confidence).toFixed(2)}  ${c.type}: ${c.description}`,
          'no probable cause found',
        ),
      );
    },
  );

  const suite = dq.command('suite').description('Expectation suites (Great Expectations JSON)');
  withApiOptions(suite.command('list')).action(async (opts: O) => {
    const rows = await apiClient(opts).get<Row[]>(`/data-quality/expectations/suites`);
    print(opts, rows, (rs) =>
      lines(
        rs,
        (s) =>
          `${s.name}  ${s.table_fqn}  ${(s.expectations as unknown[]).length} expectations  last validated ${s.last_validated_at ?? '-'}`,
        'no suites',
      ),
    );
  });
  withApiOptions(
    suite
      .command('import')
      .argument('<file>', 'GX suite JSON')
      .requiredOption('--table <table_fqn>')
      .option('--name <name>'),
  ).action(async (file: string, opts: O) => {
    const body = {
      table_fqn: opts.table,
      gx_suite: JSON.parse(readFileSync(file, 'utf8')) as unknown,
      ...(opts.name ? { name: opts.name } : {}),
    };
    const s = await apiClient(opts).post<{
      name: string;
      expectations: unknown[];
      unsupported: { expectation_type: string; reason: string }[];
    }>(`/data-quality/expectations/suites`, body);
    print(opts, s, (x) =>
      [
        `suite ${x.name}: ${x.expectations.length} expectations imported, ${x.unsupported.length} unsupported`,
        ...x.unsupported.map((u) => `  unsupported ${u.expectation_type}: ${u.reason}`),
      ].join('\n'),
    );
  });
  withApiOptions(suite.command('validate').argument('<name>')).action(async (name: string, opts: O) => {
    const v = await apiClient(opts).post<{
      success: boolean;
      statistics: { successful_expectations: number; evaluated_expectations: number };
      results: { expectation_type: string; success: boolean; unexpected_count: number; error?: string | null }[];
    }>(`/data-quality/expectations/suites/${enc(name)}/validate`, {});
    print(opts, v, (x) =>
      [
        `${name}: ${x.statistics.successful_expectations} of ${x.statistics.evaluated_expectations} expectations met`,
        ...x.results.map(
          (r) =>
            `  ${r.success ? 'ok  ' : 'FAIL'}  ${r.expectation_type}  ${r.error ?? `${r.unexpected_count} unexpected`}`,
        ),
      ].join('\n'),
    );
    if (!v.success) process.exitCode = 1;
  });
  withApiOptions(suite.command('docs').argument('<name>').option('-o, --output <file>')).action(
    async (name: string, opts: O) => {
      const html = await apiClient(opts).get<string>(`/data-quality/expectations/suites/${enc(name)}/docs`);
      if (opts.output) writeFileSync(opts.output, html);
      else process.stdout.write(html);
    },
  );
}
