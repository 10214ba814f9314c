import type { Command } from 'commander';
import type { ConvertBatch } from '../../schemas/convert';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

/** The conversion report: one block per target with its strategy, status and steps (the plan on a dry run). */
export function convertReport(b: ConvertBatch): string {
  const lines = [
    `${b.dry_run ? 'plan' : 'conversion'} ${b.operation_id}: ${b.total} targets, ${b.converted} converted, ${b.failed} failed, ${b.skipped} skipped`,
  ];
  for (const r of b.results) {
    lines.push(
      `${r.fqn}  ${r.source_format} → ${r.destination_format}  ${r.strategy_used ?? '-'}  ${r.status}` +
        (r.error ? `: ${r.error}` : '') +
        (r.backup_fqn ? `  (backup ${r.backup_fqn})` : ''),
    );
    for (const s of r.steps) lines.push(`  [${s.status}] ${s.label}: ${s.statement}`);
    for (const w of r.warnings) lines.push(`  warning: ${w}`);
  }
  return lines.join('\n');
}

interface ConvertOpts extends ApiOptions {
  from: string;
  to: string;
  icebergPhysical?: boolean;
  backup: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

/** `lakeward convert <fqn…> --from PARQUET --to DELTA`: POST /api/convert-to-delta. */
export function registerConvertCommand(program: Command): void {
  withApiOptions(
    program
      .command('convert')
      .description('Convert tables between DELTA, ICEBERG and PARQUET (the plan with --dry-run)')
      .argument('<fqn...>', 'catalog.schema.table, one or more')
      .requiredOption('--from <format>', 'source format: DELTA, ICEBERG, PARQUET')
      .option('--to <format>', 'target format', 'DELTA')
      .option('--iceberg-physical', 'DELTA → ICEBERG by CTAS instead of UniForm')
      .option('--no-backup', 'drop the source instead of keeping <name>_pre_convert_<utc>')
      .option('--dry-run', 'print the plan of every step, change nothing')
      .option('--yes', 'confirm a destructive conversion (required unless --dry-run)'),
  ).action(async (fqns: string[], opts: ConvertOpts) => {
    const res = await apiClient(opts).post<ConvertBatch>('/api/convert-to-delta', {
      targets: fqns.map((fqn) => ({ fqn, source_format: opts.from, target_format: opts.to })),
      iceberg_physical: Boolean(opts.icebergPhysical),
      keep_backup: opts.backup,
      dry_run: Boolean(opts.dryRun),
      ...(opts.yes ? { confirm_destructive: true } : {}),
    });
    print(opts, res, convertReport);
  });
}
