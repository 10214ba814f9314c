import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

interface IacOptions extends ApiOptions {
  source: string;
  dest: string;
  jobName: string;
  warehouse: string;
  cloneType?: string;
  schedule?: string;
  timezone?: string;
  schemas?: string;
  format?: string;
  filesRoot?: string;
  out?: string;
}

/**
 * `lakeward generate-job workflow|terraform`: a clone as a scheduled Databricks job (Jobs 2.2 JSON, an Asset Bundle
 * or Terraform). `lakeward generate <kind>` is the demo-data generator; this is its own command.
 */
export function registerIacCommands(program: Command): void {
  withApiOptions(
    program
      .command('generate-job')
      .description('a clone as a scheduled Databricks job: workflow (Jobs 2.2 JSON or Asset Bundle) or terraform')
      .argument('<form>', 'workflow | terraform')
      .requiredOption('--source <catalog>', 'source catalog')
      .requiredOption('--dest <catalog>', 'destination catalog')
      .requiredOption('--job-name <name>', 'the job name')
      .requiredOption('--warehouse <id>', 'the SQL warehouse the tasks run on')
      .option('--clone-type <t>', 'DEEP (default) or SHALLOW')
      .option('--schedule <quartz>', 'Quartz cron, such as "0 0 2 * * ?"')
      .option('--timezone <tz>', 'default UTC')
      .option('--schemas <list>', 'comma-separated schemas to include')
      .option('--format <f>', 'workflow: json (default) or bundle')
      .option('--files-root <path>', 'workspace folder of the SQL files')
      .option('--out <dir>', 'write the files (and job.json or main.tf) into this folder'),
  ).action(async (form: string, opts: IacOptions) => {
    if (!['workflow', 'terraform'].includes(form)) throw new Error(`unknown form ${form}: workflow or terraform`);
    const body = Object.fromEntries(
      Object.entries({
        source_catalog: opts.source,
        destination_catalog: opts.dest,
        job_name: opts.jobName,
        warehouse_id: opts.warehouse,
        clone_type: opts.cloneType?.toUpperCase(),
        schedule: opts.schedule,
        timezone: opts.timezone,
        include_schemas: opts.schemas?.split(',').map((s) => s.trim()),
        files_root: opts.filesRoot,
        ...(form === 'workflow' ? { format: opts.format } : {}),
      }).filter(([, v]) => v !== undefined),
    );
    const api = apiClient(opts);
    const write = (files: { path: string; content: string }[]) => {
      for (const f of files) {
        const target = path.join(opts.out!, f.path.replace(/^\/+/, ''));
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, f.content);
      }
      return files.map((f) => `wrote ${path.join(opts.out!, f.path.replace(/^\/+/, ''))}`).join('\n');
    };
    if (form === 'terraform') {
      const out = await api.post<{ hcl: string; tables: number }>('/api/generate/terraform', body);
      print(opts, out, (o) => (opts.out ? write([{ path: 'main.tf', content: o.hcl }]) : o.hcl));
      return;
    }
    const out = await api.post<{ job?: unknown; files: { path: string; content: string }[]; tables: number }>(
      '/api/generate/workflow',
      body,
    );
    print(opts, out, (o) => {
      const files = o.job ? [{ path: 'job.json', content: JSON.stringify(o.job, null, 2) }, ...o.files] : o.files;
      return opts.out ? write(files) : files.map((f) => `--- ${f.path}\n${f.content}`).join('\n');
    });
  });
}

interface StreamingOptions extends ApiOptions {
  source: string;
  dest: string;
  schema: string;
  tables?: string;
  views?: string;
  keys: string[];
  targetSchema?: string;
  name?: string;
  out?: string;
}

/** `lakeward generate-streaming`: the Lakeflow pipeline keeping a schema clone current (POST …/streaming-clone-generator/generate). */
export function registerStreamingGeneratorCommand(program: Command): void {
  withApiOptions(
    program
      .command('generate-streaming')
      .description('a Lakeflow pipeline keeping a schema clone current (AUTO CDC over the change data feed)')
      .requiredOption('--source <catalog>', 'source catalog')
      .requiredOption('--dest <catalog>', 'destination catalog')
      .requiredOption('--schema <name>', 'source schema')
      .option('--tables <list>', 'comma-separated streaming tables')
      .option('--views <list>', 'comma-separated materialized views')
      .option(
        '--keys <table=a+b>',
        'merge keys of a streaming table (repeatable)',
        (v: string, acc: string[]) => [...acc, v],
        [],
      )
      .option('--target-schema <name>', 'default: the source schema name')
      .option('--name <pipeline>', 'pipeline name')
      .option('--out <dir>', 'write pipeline.json and the source files into this folder'),
  ).action(async (opts: StreamingOptions) => {
    const keys = new Map(opts.keys.map((k) => [k.split('=')[0], k.split('=')[1]?.split('+') ?? []]));
    const list = (s?: string) =>
      s
        ? s
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean)
        : [];
    const advanced = [
      ...list(opts.tables).map((name) => (keys.has(name) ? { name, keys: keys.get(name) } : name)),
      ...list(opts.views).map((name) => ({ name, table_type: 'materialized_view' })),
    ];
    const out = await apiClient(opts).post<{ pipeline: unknown; files: { path: string; content: string }[] }>(
      '/api/streaming-clone-generator/generate',
      {
        source_catalog: opts.source,
        destination_catalog: opts.dest,
        schema_name: opts.schema,
        advanced_tables: advanced,
        ...(opts.targetSchema ? { target_schema: opts.targetSchema } : {}),
        ...(opts.name ? { pipeline_name: opts.name } : {}),
      },
    );
    print(opts, out, (o) => {
      const files = [{ path: 'pipeline.json', content: JSON.stringify(o.pipeline, null, 2) }, ...o.files];
      if (!opts.out) return files.map((f) => `--- ${f.path}\n${f.content}`).join('\n');
      return files
        .map((f) => {
          const target = path.join(opts.out!, path.basename(f.path));
          writeFileSync(target, f.content);
          return `wrote ${target}`;
        })
        .join('\n');
    });
  });
}
