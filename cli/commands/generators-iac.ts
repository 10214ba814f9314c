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
