import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { collect, M, pairs, table } from './mdm-shared';

/** `lakeward mdm templates|reports`: industry templates and MDM reports. */

function registerTemplates(mdm: Command) {
  const t = mdm.command('templates').description('Industry templates');
  withApiOptions(t.command('list')).action(async (o: ApiOptions) => {
    const l = await apiClient(o).get<{ name: string; title: string; entities: string[] }[]>(`${M}/templates`);
    print(o, l, (v) =>
      table(
        ['template', 'entities', 'title'],
        v.map((x) => [x.name, x.entities.join(','), x.title]),
      ),
    );
  });
  withApiOptions(t.command('show').argument('<name>')).action(async (name: string, o: ApiOptions) => {
    const v = await apiClient(o).get<unknown>(`${M}/templates/${encodeURIComponent(name)}`);
    print(o, v, (x) => JSON.stringify(x, null, 2));
  });
  withApiOptions(
    t
      .command('apply')
      .argument('<name>')
      .option('--target-catalog <catalog>')
      .option('--component <component>', 'entities, match_rules, reference_data, dq_rules (repeat)', collect, []),
  ).action(async (name: string, o: ApiOptions & { targetCatalog?: string; component: string[] }) => {
    const r = await apiClient(o).post<{
      changed: boolean;
      entities: { entity_type: string; model: string; table: string }[];
    }>(`${M}/templates/${encodeURIComponent(name)}/apply`, {
      target_catalog: o.targetCatalog,
      components: o.component.length ? o.component : undefined,
    });
    print(o, r, (v) =>
      [
        v.changed ? `applied ${name}` : `${name}: nothing to change`,
        ...v.entities.map((e) => `${e.entity_type}: model ${e.model}, table ${e.table}`),
      ].join('\n'),
    );
  });
}

interface RunView {
  report_id: string;
  status: string;
  error: string | null;
  completed_at: string | null;
  result: { columns: string[]; rows: Record<string, unknown>[] } | null;
}

function registerReports(mdm: Command) {
  const r = mdm.command('reports').description('MDM reports: built-in and custom');
  withApiOptions(r.command('list')).action(async (o: ApiOptions) => {
    const l = await apiClient(o).get<{ name: string; origin: string; title: string }[]>(`${M}/reports`);
    print(o, l, (v) =>
      table(
        ['report', 'origin', 'title'],
        v.map((x) => [x.name, x.origin, x.title]),
      ),
    );
  });
  withApiOptions(r.command('add').argument('<file>', 'report YAML (- for standard input)')).action(
    async (file: string, o: ApiOptions) => {
      const yaml = readFileSync(file === '-' ? 0 : file, 'utf8');
      const v = await apiClient(o).post<{ name: string }>(`${M}/reports`, { yaml });
      print(o, v, (x) => `saved ${x.name}`);
    },
  );
  withApiOptions(
    r
      .command('run')
      .argument('<name>')
      .option('--from <date>')
      .option('--to <date>')
      .option('--entity-type <type>')
      .option('--param <name=value>', 'a report parameter (repeat)', collect, [])
      .option('--no-wait', 'answer with the report ID at once'),
  ).action(
    async (
      name: string,
      o: ApiOptions & { from?: string; to?: string; entityType?: string; param: string[]; wait: boolean },
    ) => {
      const api = apiClient(o);
      const started = await api.post<{ report_id: string }>(`${M}/reports/${encodeURIComponent(name)}/run`, {
        from: o.from,
        to: o.to,
        filters: o.entityType ? { entity_type: o.entityType } : undefined,
        parameters: o.param.length ? pairs(o.param, '--param') : undefined,
      });
      if (!o.wait) return print(o, started, (v) => v.report_id);
      let run: RunView;
      for (let delay = 200; ; delay = Math.min(delay * 2, 2000)) {
        run = await api.get<RunView>(`${M}/reports/runs/${encodeURIComponent(started.report_id)}`);
        if (run.completed_at) break;
        await new Promise((res) => setTimeout(res, delay));
      }
      print(o, run, (v) =>
        v.result
          ? [
              `${v.report_id}: ${v.status}`,
              table(
                v.result.columns,
                v.result.rows.map((row) => v.result!.columns.map((c) => row[c] as string)),
              ),
            ].join('\n')
          : `${v.report_id}: ${v.status}${v.error ? ` (${v.error})` : ''}`,
      );
      if (run.status !== 'completed') process.exitCode = 1;
    },
  );
  withApiOptions(
    r
      .command('download')
      .argument('<report_id>')
      .requiredOption('--format <format>', 'pdf, png, svg, csv, json or html')
      .requiredOption('--out <file>', 'where to write it (- for standard output)'),
  ).action(async (id: string, o: ApiOptions & { format: string; out: string }) => {
    const api = apiClient(o);
    const headers: Record<string, string> = {};
    const key = o.apiKey ?? process.env.LAKEWARD_API_KEY;
    if (key) headers.Authorization = `Bearer ${key}`;
    const res = await fetch(`${api.baseUrl}${M}/reports/runs/${encodeURIComponent(id)}/download?format=${o.format}`, {
      headers,
    });
    if (!res.ok) throw new Error(`download failed: HTTP ${res.status} ${await res.text()}`);
    const data = Buffer.from(await res.arrayBuffer());
    if (o.out === '-') process.stdout.write(data);
    else {
      writeFileSync(o.out, data);
      console.log(`wrote ${o.out} (${data.length} bytes)`);
    }
  });
}

export function registerMdmCatalogCommands(mdm: Command): void {
  registerTemplates(mdm);
  registerReports(mdm);
}
