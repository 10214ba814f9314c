import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { followJob } from '../job-follow';
import { lineView } from '../progress';

const KINDS = ['documents', 'media', 'knowledge', 'logs', 'code'];

interface GenerateOptions extends ApiOptions {
  catalog?: string;
  schema?: string;
  volume?: string;
  destination?: string;
  types?: string;
  count: string[];
  seed?: string;
  asOf?: string;
  ifExists?: string;
  aiTokenBudget?: string;
  linesPerFile?: string;
  daysBack?: string;
  preview?: boolean;
  listTypes?: boolean;
  wait?: boolean;
}

const int = (v: string | undefined) => (v === undefined ? undefined : Number(v));

/** `--count pdf=20 --count eml=5` → `{pdf: 20, eml: 5}`. */
function counts(pairs: string[]): Record<string, number> | undefined {
  if (pairs.length === 0) return undefined;
  return Object.fromEntries(
    pairs.map((p) => {
      const [type, n] = p.split('=');
      if (!type || n === undefined) throw new Error(`--count wants type=number, got ${JSON.stringify(p)}`);
      return [type, Number(n)];
    }),
  );
}

function body(kind: string, o: GenerateOptions): Record<string, unknown> {
  const b: Record<string, unknown> = {
    catalog: o.catalog,
    schema: o.schema,
    volume: o.volume,
    destination: o.destination,
    types: o.types?.split(',').map((t) => t.trim()),
    counts: counts(o.count),
    seed: int(o.seed),
    as_of: o.asOf,
    if_exists: o.ifExists,
    ai_token_budget: int(o.aiTokenBudget),
  };
  if (kind === 'logs') Object.assign(b, { lines_per_file: int(o.linesPerFile), days_back: int(o.daysBack) });
  return Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined));
}

/** `lakeward generate <kind>`: seeded demo data into a volume and a table, as a job (or a preview, or the types). */
export function registerGeneratorCommands(program: Command): void {
  withApiOptions(
    program
      .command('generate')
      .description(`seeded demo data: ${KINDS.join(', ')}`)
      .argument('<kind>', KINDS.join(' | '))
      .option('--catalog <name>', 'an existing catalog')
      .option('--schema <name>', 'schema (default demo_unstructured; created if missing)')
      .option('--volume <name>', 'volume (default demo_unstructured; created if missing)')
      .option('--destination <d>', 'volume | volume_with_catalog (default) | direct_table')
      .option('--types <list>', 'comma-separated types (default: those of --count, else all)')
      .option('--count <type=n>', 'items of a type (repeatable)', (v: string, acc: string[]) => [...acc, v], [])
      .option('--seed <n>', 'seed (default 42): the same seed and as-of give the same bytes')
      .option('--as-of <date>', 'YYYY-MM-DD (default today)')
      .option('--if-exists <x>', 'replace | append | fail (default)')
      .option('--ai-token-budget <n>', '0–10,000,000 (default 50,000)')
      .option('--lines-per-file <n>', 'logs: 1–100,000 (default 1,000)')
      .option('--days-back <n>', 'logs: 1–365 (default 7)')
      .option('--preview', 'print files, bytes and seconds; write nothing')
      .option('--list-types', 'print the kind’s types and whether their libraries are installed')
      .option('--wait', 'follow the job until it ends; exit 1 unless it completed'),
  ).action(async (kind: string, opts: GenerateOptions) => {
    if (!KINDS.includes(kind)) throw new Error(`unknown kind ${JSON.stringify(kind)}: one of ${KINDS.join(', ')}`);
    const api = apiClient(opts);
    const base = `/api/generate/demo-${kind}`;
    if (opts.listTypes) {
      const t = await api.get<{
        types: { type: string; library: string | null; available: boolean; install: string | null }[];
      }>(`${base}/types`);
      print(opts, t, (x) =>
        x.types
          .map((y) => `${y.type.padEnd(14)}${y.library ?? '-'}${y.available ? '' : `  MISSING: ${y.install}`}`)
          .join('\n'),
      );
      return;
    }
    if (!opts.catalog) throw new Error('--catalog is required');
    if (opts.preview) {
      const p = await api.post<{ files: number; bytes: number; seconds: number; rows: number }>(
        `${base}/preview`,
        body(kind, opts),
      );
      print(opts, p, (x) => `${x.files} files, ${x.bytes} bytes, ${x.rows} rows, about ${x.seconds} s`);
      return;
    }
    const accepted = await api.post<{ job_id: string }>(base, body(kind, opts));
    if (!opts.wait) {
      print(opts, accepted, (a) => `generate job ${a.job_id} queued`);
      return;
    }
    const view = lineView((line) => process.stderr.write(`${line}\n`), false);
    try {
      await followJob(api, opts.apiKey ?? process.env.LAKEWARD_API_KEY, accepted.job_id, view);
    } finally {
      view.stop();
    }
    const job = await api.get<{
      job_id: string;
      status: string;
      error?: string | null;
      result?: { files_written?: number; rows_committed?: number; volume_path?: string | null; table?: string | null };
    }>(`/api/jobs/${encodeURIComponent(accepted.job_id)}`);
    print(opts, job, (j) => {
      const r = j.result ?? {};
      const where = [r.volume_path, r.table].filter(Boolean).join(' and ');
      return `job ${j.job_id} ${j.status}${j.error ? `: ${j.error}` : ''}${
        j.status === 'completed'
          ? ` — ${r.files_written ?? 0} files, ${r.rows_committed ?? 0} rows${where ? ` in ${where}` : ''}`
          : ''
      }`;
    });
    if (job.status !== 'completed') process.exitCode = 1;
  });
}
