import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { seedDemo, type DemoScale } from '../../platform/local/demo/seed';
import { seedLargeTable } from '../../platform/local/demo/large-table';

/** `lakeward demo ...`: demo data for the embedded local lakehouse. */
function defaultRoot(): string {
  if (process.env.LAKEWARD_WORKSPACE_ROOT) return path.resolve(process.env.LAKEWARD_WORKSPACE_ROOT);
  return path.resolve(process.env.LAKEWARD_DATA_DIR ?? '.lakeward', 'workspace');
}

function positiveInt(value: string): number {
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive whole number');
  return n;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

export function registerDemoCommands(program: Command): void {
  const demo = program.command('demo').description('demo data for the local lakehouse');

  demo
    .command('seed')
    .description('build a demo catalog (schemas, related tables, views, functions, a volume, grants, tags, history)')
    .option('--workspace <dir>', 'local workspace root folder', defaultRoot())
    .option('--catalog <name>', 'catalog to create', 'demo_sales')
    .addOption(new Option('--scale <scale>', 'how many tables').choices(['small', 'medium', 'large']).default('small'))
    .action(async (opts: { workspace: string; catalog: string; scale: DemoScale }) => {
      let last = 0;
      const summary = await seedDemo({
        root: opts.workspace,
        catalog: opts.catalog,
        scale: opts.scale,
        onProgress: (p) => {
          const pct = Math.floor((100 * p.done) / p.total);
          if (pct >= last + 10 || p.done === p.total) {
            last = pct;
            out(`  ${String(pct).padStart(3)}%  ${p.step}`);
          }
        },
      });
      out(
        `Seeded catalog ${summary.catalog} (${summary.scale}) in ${summary.root} in ${(summary.elapsedMs / 1000).toFixed(1)} s:`,
      );
      out(
        `  schemas:   ${summary.schemas.length} (${summary.schemas.slice(0, 6).join(', ')}${summary.schemas.length > 6 ? ', ...' : ''})`,
      );
      out(
        `  tables:    ${summary.tables} (${summary.rows.toLocaleString('en-US')} rows; one Parquet table, change data feed on sales.orders)`,
      );
      out(`  views:     ${summary.views} (sales.top_customers is a view over sales.customer_orders)`);
      out(
        `  functions: ${summary.functions} (sales.mask_ssn masks customers.ssn; crm.region_filter filters crm.accounts)`,
      );
      out(`  volumes:   ${summary.volumes} (ops.landing_zone with 4 files)`);
      out(
        `  governance: owners, grants to data_engineers, analysts and finance; tags incl. pii=email|phone|ssn; CHECK constraints`,
      );
      out(`Try: lakeward ... query "SELECT * FROM ${summary.catalog}.sales.top_customers"`);
    });

  demo
    .command('seed-large')
    .description('build one large table (default 10,000,000 rows) for benchmarks')
    .option('--workspace <dir>', 'local workspace root folder', defaultRoot())
    .option('--catalog <name>', 'catalog (created when missing)', 'bench')
    .option('--rows <n>', 'row count', positiveInt, 10_000_000)
    .action(async (opts: { workspace: string; catalog: string; rows: number }) => {
      const r = await seedLargeTable({ root: opts.workspace, catalog: opts.catalog, rows: opts.rows });
      out(
        `Built ${r.table} with ${r.rows.toLocaleString('en-US')} rows (${(r.bytes / 1e6).toFixed(1)} MB) in ${(r.elapsedMs / 1000).toFixed(1)} s`,
      );
    });
}
