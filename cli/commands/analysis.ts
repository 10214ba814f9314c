import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

type Row = Record<string, unknown>;
interface ObjectDiff {
  only_in_source: string[];
  only_in_dest: string[];
}
interface Diff {
  in_sync: boolean;
  schemas: ObjectDiff;
  tables: ObjectDiff;
  views: ObjectDiff;
  functions: ObjectDiff;
  volumes: ObjectDiff;
  schema_changes: {
    table: string;
    changes: { column: string; change: string; source_type: string | null; dest_type: string | null }[];
  }[];
}

/** A plain text table: a header row, then one row per item, columns padded to their widest cell. */
export function textTable(header: string[], rows: unknown[][]): string {
  const cells = [
    header,
    ...rows.map((r) =>
      r.map((c) => (c === null || c === undefined ? '' : typeof c === 'object' ? JSON.stringify(c) : String(c))),
    ),
  ];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]?.length ?? 0)));
  return cells
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function diffText(d: Diff): string {
  const rows: unknown[][] = [];
  for (const kind of ['schemas', 'tables', 'views', 'functions', 'volumes'] as const) {
    for (const n of d[kind].only_in_source) rows.push([kind.slice(0, -1), n, 'only in source']);
    for (const n of d[kind].only_in_dest) rows.push([kind.slice(0, -1), n, 'only in destination']);
  }
  for (const c of d.schema_changes)
    for (const ch of c.changes)
      rows.push([
        'column',
        `${c.table}.${ch.column}`,
        `${ch.change.replace('_', ' ')} (${ch.source_type ?? '-'} → ${ch.dest_type ?? '-'})`,
      ]);
  if (rows.length === 0) return 'in sync: no differences';
  return textTable(['kind', 'name', 'difference'], rows);
}

const pairCommand = (program: Command, name: string, description: string) =>
  withApiOptions(
    program
      .command(name)
      .description(description)
      .argument('<source_catalog>')
      .argument('<destination_catalog>')
      .option('--exclude-schemas <list>', 'comma-separated schemas to leave out'),
  );
const list = (s?: string) =>
  s
    ? s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : [];

/** `lakeward diff|validate|sample|lineage|impact|monitor`: the analysis reads through the API. */
export function registerAnalysisCommands(program: Command): void {
  pairCommand(program, 'diff', 'Objects on one side only, and tables whose columns differ').action(
    async (source: string, dest: string, opts: ApiOptions & { excludeSchemas?: string }) => {
      const d = await apiClient(opts).post<Diff>('/api/diff', {
        source_catalog: source,
        destination_catalog: dest,
        exclude_schemas: list(opts.excludeSchemas),
      });
      print(opts, d, diffText);
    },
  );

  pairCommand(program, 'validate', 'Row counts (and --checksum) per table, source against destination')
    .option('--checksum', 'also compare order-independent checksums')
    .action(
      async (source: string, dest: string, opts: ApiOptions & { excludeSchemas?: string; checksum?: boolean }) => {
        const v = await apiClient(opts).post<{
          passed: boolean;
          matched: number;
          mismatched: number;
          errors: number;
          tables: Row[];
        }>('/api/validate', {
          source_catalog: source,
          destination_catalog: dest,
          exclude_schemas: list(opts.excludeSchemas),
          checksum: !!opts.checksum,
        });
        print(opts, v, (x) =>
          [
            textTable(
              ['table', 'source rows', 'dest rows', 'checksum', 'result'],
              x.tables.map((t) => [
                `${t.schema}.${t.table}`,
                t.source_rows,
                t.target_rows,
                t.checksum_match === undefined ? '' : t.checksum_match ? 'equal' : 'differs',
                t.error ?? (t.match ? 'ok' : 'MISMATCH'),
              ]),
            ),
            '',
            `${x.passed ? 'passed' : 'FAILED'}: ${x.matched} matched, ${x.mismatched} mismatched, ${x.errors} errors`,
          ].join('\n'),
        );
        if (!v.passed) process.exitCode = 1;
      },
    );

  pairCommand(program, 'monitor', 'Schema drift (and --counts count drift) between a source and its clone')
    .option('--counts', 'also compare row counts')
    .option('--no-drift', 'skip the schema drift check')
    .action(async (source: string, dest: string, opts: ApiOptions & { counts?: boolean; drift?: boolean }) => {
      const qs = new URLSearchParams({
        source_catalog: source,
        destination_catalog: dest,
        check_counts: String(!!opts.counts),
        check_drift: String(opts.drift !== false),
      });
      const m = await apiClient(opts).post<{ in_sync: boolean; tables: Row[] }>(`/api/monitor?${qs}`);
      print(opts, m, (x) =>
        [
          textTable(
            ['table', 'verdict', 'source rows', 'dest rows'],
            x.tables.map((t) => [t.table, t.verdict, t.source_rows, t.dest_rows]),
          ),
          '',
          x.in_sync ? 'in sync' : 'OUT OF SYNC',
        ].join('\n'),
      );
      if (!m.in_sync) process.exitCode = 1;
    });

  withApiOptions(
    program
      .command('sample')
      .description('Rows of a table (masks and row filters apply); with --compare <catalog>, side by side')
      .argument('<table>', 'catalog.schema.table')
      .option('--limit <n>', 'rows (at most 1000)', (v) => Number(v))
      .option('--compare <destination_catalog>', 'compare with the same table in this catalog')
      .option('--order-by <column>', 'order both sides by this column (with --compare)'),
  ).action(async (table: string, opts: ApiOptions & { limit?: number; compare?: string; orderBy?: string }) => {
    const [catalog, schema_name, table_name] = table.split('.');
    const api = apiClient(opts);
    if (opts.compare) {
      const c = await api.post<{
        match: boolean;
        differences: number;
        rows: { index: number; source: Row | null; dest: Row | null; differing_columns: string[] }[];
      }>('/api/sample/compare', {
        source_catalog: catalog,
        destination_catalog: opts.compare,
        schema_name,
        table_name,
        limit: opts.limit,
        order_by: opts.orderBy,
      });
      print(opts, c, (x) =>
        [
          textTable(
            ['#', 'source', 'destination', 'differs in'],
            x.rows.map((r) => [r.index, r.source, r.dest, r.differing_columns.join(', ')]),
          ),
          '',
          x.match ? 'rows match' : `${x.differences} row(s) differ`,
        ].join('\n'),
      );
      return;
    }
    const s = await api.post<{ columns: { name: string }[]; rows: Row[] }>('/api/sample', {
      catalog,
      schema_name,
      table_name,
      limit: opts.limit,
    });
    print(opts, s, (x) =>
      textTable(
        x.columns.map((c) => c.name),
        x.rows.map((r) => x.columns.map((c) => r[c.name])),
      ),
    );
  });

  withApiOptions(
    program
      .command('lineage')
      .description('Lineage edges of a catalog, or of one table (schema.table)')
      .argument('<catalog>')
      .argument('[table]', 'schema.table'),
  ).action(async (catalog: string, table: string | undefined, opts: ApiOptions) => {
    const l = await apiClient(opts).post<{ edges: Row[]; upstream: string[]; downstream: string[] }>('/api/lineage', {
      catalog,
      table,
    });
    print(opts, l, (x) =>
      [
        textTable(
          ['source', 'target', 'kind', 'job'],
          x.edges.map((e) => [e.source, e.target, e.kind, e.job_id]),
        ),
        ...(table
          ? ['', `upstream: ${x.upstream.join(', ') || '-'}`, `downstream: ${x.downstream.join(', ') || '-'}`]
          : []),
      ].join('\n'),
    );
  });

  withApiOptions(
    program
      .command('impact')
      .description('What depends on a catalog, a schema or a table, and the risk of changing it')
      .argument('<catalog>')
      .argument('[schema]')
      .argument('[table]'),
  ).action(async (catalog: string, schema: string | undefined, table: string | undefined, opts: ApiOptions) => {
    const i = await apiClient(opts).post<{
      downstream_tables: string[];
      downstream_views: string[];
      downstream_functions: string[];
      referencing_jobs: { job_id: string; status: string }[];
      total_affected: number;
      risk_level: string;
      risk_reason: string;
    }>('/api/impact', { catalog, schema, table });
    print(opts, i, (x) =>
      [
        textTable(
          ['kind', 'name'],
          [
            ...x.downstream_views.map((n) => ['view', n]),
            ...x.downstream_tables.map((n) => ['table', n]),
            ...x.downstream_functions.map((n) => ['function', n]),
            ...x.referencing_jobs.map((j) => ['job', `${j.job_id} (${j.status})`]),
          ],
        ),
        '',
        `${x.total_affected} affected; risk ${x.risk_level} (${x.risk_reason})`,
      ].join('\n'),
    );
  });
}
