import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { table } from './warehouses';

interface Rec {
  id: string;
  type: string;
  subject: string;
  title: string;
  estimated_savings_usd_month: number | null;
  confidence: string;
  effort: string;
  status: string;
  error: string | null;
}
interface RecList {
  recommendations: Rec[];
  total_savings_usd_month: number;
}
interface Accepted {
  job_id: string;
  status: string;
  message: string;
  result?: Record<string, unknown> | null;
}

const BASE = '/api/finops/recommendations';
const one = (id: string) => `${BASE}/${encodeURIComponent(id)}`;
const usd = (n: number | null) => (n === null ? '—' : `$${n.toFixed(2)}/mo`);
const rows = (rs: Rec[]) =>
  table(
    ['id', 'type', 'subject', 'saving', 'confidence', 'status'],
    rs.map((r) => [r.id, r.type, r.subject, usd(r.estimated_savings_usd_month), r.confidence, r.status]),
  );
const listText = (x: RecList) =>
  x.recommendations.length
    ? `${rows(x.recommendations)}\nestimated saving ${usd(x.total_savings_usd_month)}`
    : 'no recommendations';
const recText = (r: Rec) => `${rows([r])}\n${r.title}${r.error ? `\nlast apply failed: ${r.error}` : ''}`;

/** The subcommands of `recommendations` (also under `finops recommendations`). */
function addSubcommands(recs: Command): void {
  withApiOptions(
    recs
      .command('list')
      .description('Recommendations (open unless --status says otherwise)')
      .option('--status <status>', 'open | applying | applied | dismissed | snoozed | resolved | all', 'open')
      .option('--type <type>', 'one analyser only'),
  ).action(async (opts: ApiOptions & { status: string; type?: string }) => {
    const q = new URLSearchParams({ status: opts.status, ...(opts.type && { type: opts.type }) });
    print(opts, await apiClient(opts).get<RecList>(`${BASE}?${q}`), listText);
  });
  withApiOptions(recs.command('applied').description('Applied recommendations')).action(async (opts: ApiOptions) => {
    print(opts, await apiClient(opts).get<RecList>(`${BASE}/applied`), listText);
  });
  withApiOptions(recs.command('show <id>').description('One recommendation')).action(
    async (id: string, opts: ApiOptions) => print(opts, await apiClient(opts).get<Rec>(one(id)), recText),
  );
  withApiOptions(
    recs.command('refresh').description('Run the analysers as a job').option('--wait', 'wait for the result'),
  ).action(async (opts: ApiOptions & { wait?: boolean }) => {
    const r = await apiClient(opts).post<Accepted>(`${BASE}/refresh`, { wait: !!opts.wait });
    print(opts, r, (x) =>
      x.result ? `${x.job_id} ${x.status}: ${JSON.stringify(x.result)}` : `${x.job_id}: ${x.message}`,
    );
  });
  withApiOptions(
    recs
      .command('apply <id>')
      .description('Apply (admin) as a job; --dry-run prints what would run')
      .option('--dry-run', 'run nothing')
      .option('--confirm', 'needed to drop a table'),
  ).action(async (id: string, opts: ApiOptions & { dryRun?: boolean; confirm?: boolean }) => {
    const r = await apiClient(opts).post<Accepted | { would_run: string }>(`${one(id)}/apply`, {
      dry_run: !!opts.dryRun,
      confirm: !!opts.confirm,
    });
    print(opts, r, (x) => ('would_run' in x ? `would run: ${x.would_run}` : `${x.job_id}: ${x.message}`));
  });
  withApiOptions(
    recs.command('dismiss <id>').description('Hide for --days (default 30)').option('--days <n>', 'days', '30'),
  ).action(async (id: string, opts: ApiOptions & { days: string }) => {
    print(opts, await apiClient(opts).post<Rec>(`${one(id)}/dismiss`, { days: Number(opts.days) }), recText);
  });
  withApiOptions(
    recs.command('snooze <id>').description('Hide for --days').requiredOption('--days <n>', 'days'),
  ).action(async (id: string, opts: ApiOptions & { days: string }) => {
    print(opts, await apiClient(opts).post<Rec>(`${one(id)}/snooze`, { days: Number(opts.days) }), recText);
  });
  withApiOptions(
    recs.command('suggest <id>').description('Suggest applying (editors)').option('--note <text>', 'why'),
  ).action(async (id: string, opts: ApiOptions & { note?: string }) => {
    print(opts, await apiClient(opts).post<Rec>(`${one(id)}/suggest`, opts.note ? { note: opts.note } : {}), recText);
  });
}

/** `lakeward recommendations …` and `lakeward finops recommendations …`: cost recommendations through the API. */
export function registerRecommendationCommands(program: Command): void {
  addSubcommands(program.command('recommendations').description('Cost recommendations (list, refresh, apply …)'));
  const finops = program.command('finops').description('Cost management');
  addSubcommands(finops.command('recommendations').description('Cost recommendations (list, refresh, apply …)'));
}
