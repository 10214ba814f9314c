import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ApiError, apiClient, print, withApiOptions, type ApiOptions } from '../http';

const F = '/api/compliance/frameworks';

interface Framework {
  id: string;
  name: string;
  version: string;
  control_count: number;
  score: number | null;
  last_assessed: string | null;
}
interface ControlResult {
  control_id: string;
  control_name: string;
  status: string;
  evidence_count: number;
  sources: { evidence_type: string; state: string; evidence_summary: string }[];
}
interface Assessment {
  framework_id: string;
  framework_name: string;
  total_controls: number;
  met_controls: number;
  partial_controls: number;
  gap_controls: number;
  score: number;
  assessed_at: string;
  evidence: ControlResult[];
}
interface GapRecord {
  control_id: string;
  control_name: string;
  status: string;
  evidence_type: string;
  state: string;
  evidence_summary: string;
}

const pct = (s: number | null) => (s === null ? '-' : `${(s * 100).toFixed(1)}%`);
const enc = encodeURIComponent;

export function frameworkLines(fs: Framework[]): string {
  return fs
    .map(
      (f) =>
        `${f.id.padEnd(14)} ${pct(f.score).padStart(6)}  ${String(f.control_count).padStart(3)} controls  ${f.last_assessed ?? 'never assessed'}  ${f.name}`,
    )
    .join('\n');
}

export function assessmentText(a: Assessment): string {
  const head = `${a.framework_name}: score ${pct(a.score)} (${a.met_controls} met, ${a.partial_controls} partial, ${a.gap_controls} gap of ${a.total_controls}) at ${a.assessed_at}`;
  const rows = a.evidence.flatMap((c) => [
    `  ${c.status.padEnd(7)} ${c.control_id}  ${c.control_name}`,
    ...c.sources.map((s) => `            ${s.evidence_type} [${s.state}] ${s.evidence_summary}`),
  ]);
  return [head, ...rows].join('\n');
}

const gapLines = (gs: GapRecord[]) =>
  gs.length === 0
    ? 'no gaps'
    : gs
        .map((g) => `${g.status.padEnd(7)} ${g.control_id}  ${g.evidence_type} [${g.state}] ${g.evidence_summary}`)
        .join('\n');

/** The dossier bytes (a PDF is binary, so this reads the body as bytes instead of text). */
async function fetchReport(opts: ApiOptions, body: Record<string, unknown>): Promise<Buffer> {
  const client = apiClient(opts);
  const key = opts.apiKey ?? process.env.LAKEWARD_API_KEY;
  const res = await fetch(`${client.baseUrl}/api/compliance/reports`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!res.ok) {
    const e = (JSON.parse(bytes.toString('utf8') || '{}') as { error?: { code?: string; message?: string } }).error;
    throw new ApiError(res.status, e?.code ?? `HTTP_${res.status}`, e?.message ?? res.statusText);
  }
  return bytes;
}

/**
 * `lakeward compliance frameworks|assess <name>|gaps <name>|trend <name>|load-template <file>|report <name>
 * --format pdf|json --out <file>|governance`: compliance frameworks, their assessments and the dossier.
 */
export function registerComplianceCommands(program: Command): void {
  const c = program.command('compliance').description('Compliance frameworks, assessments and reports');
  withApiOptions(c.command('frameworks').description('Frameworks with their latest score')).action(
    async (opts: ApiOptions) => print(opts, await apiClient(opts).get<Framework[]>(F), frameworkLines),
  );
  withApiOptions(c.command('assess').argument('<name>').description('Assess a framework now')).action(
    async (name: string, opts: ApiOptions) =>
      print(opts, await apiClient(opts).post<Assessment>(`${F}/${enc(name)}/assess`), assessmentText),
  );
  withApiOptions(c.command('gaps').argument('<name>').option('--status <status>', 'gap, partial or all', 'all')).action(
    async (name: string, opts: ApiOptions & { status: string }) =>
      print(
        opts,
        await apiClient(opts).get<GapRecord[]>(`${F}/${enc(name)}/gaps?status=${enc(opts.status)}`),
        gapLines,
      ),
  );
  withApiOptions(c.command('trend').argument('<name>')).action(async (name: string, opts: ApiOptions) =>
    print(
      opts,
      await apiClient(opts).get<{ score: number; assessed_at: string }[]>(`${F}/${enc(name)}/trend`),
      (ts) => ts.map((t) => `${t.assessed_at}  ${pct(t.score)}`).join('\n') || 'no assessments',
    ),
  );
  withApiOptions(
    c.command('load-template').argument('<file>', 'framework YAML').option('--replace', 'replace a custom framework'),
  ).action(async (file: string, opts: ApiOptions & { replace?: boolean }) => {
    const body = { yaml: readFileSync(file, 'utf8'), replace: Boolean(opts.replace) };
    print(opts, await apiClient(opts).post<Framework>(`${F}/load-template`, body), (f) => frameworkLines([f]));
  });
  withApiOptions(
    c
      .command('report')
      .argument('<name>')
      .option('--format <format>', 'pdf or json', 'pdf')
      .requiredOption('--out <file>', 'where to write the dossier')
      .option('--from <date>', 'period start (default: 30 days ago)')
      .option('--to <date>', 'period end (default: now)'),
  ).action(async (name: string, opts: ApiOptions & { format: string; out: string; from?: string; to?: string }) => {
    const now = new Date();
    const body = {
      framework_id: name,
      period_start: opts.from ?? new Date(now.getTime() - 30 * 86_400_000).toISOString(),
      period_end: opts.to ?? now.toISOString(),
      format: opts.format.toUpperCase(),
    };
    const bytes = await fetchReport(opts, body);
    writeFileSync(opts.out, bytes);
    const summary = { out: opts.out, format: body.format, bytes: bytes.length };
    print(opts, summary, (s) => `wrote ${s.format} dossier of ${name} to ${s.out} (${s.bytes} bytes)`);
  });
  withApiOptions(
    c
      .command('governance')
      .description('Catalog governance report: owners, grants, tag coverage, PII masking')
      .option('--catalog <catalog>')
      .option(
        '--type <report_type>',
        'data_governance, pii_audit, permission_audit, tag_coverage, ownership_audit, full_report',
      ),
  ).action(async (opts: ApiOptions & { catalog?: string; type?: string }) => {
    type Report = {
      overall_score: number;
      overall_status: string;
      sections: { name: string; score: number; status: string; summary: string }[];
    };
    const body = {
      ...(opts.catalog ? { catalog: opts.catalog } : {}),
      ...(opts.type ? { report_type: opts.type } : {}),
    };
    print(opts, await apiClient(opts).post<Report>('/api/compliance', body), (r) =>
      [
        `overall ${r.overall_score} ${r.overall_status}`,
        ...r.sections.map(
          (s) => `  ${s.name.padEnd(14)} ${String(s.score).padStart(3)} ${s.status.padEnd(13)} ${s.summary}`,
        ),
      ].join('\n'),
    );
  });
}
