import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { collect, M, pairs, table } from './mdm-shared';

interface CaseView {
  case_id: string;
  entity_type: string;
  type: string;
  status: string;
  records: { system: string; record_id: string }[];
  score: number | null;
  assigned_to: string | null;
  due_at: string;
  sla_state: string | null;
  effect?: Record<string, unknown>;
}

const caseLine = (c: CaseView) => [
  c.case_id,
  c.type,
  c.status,
  c.sla_state,
  c.due_at.slice(0, 16),
  c.assigned_to,
  c.score,
  c.records.map((r) => `${r.system}:${r.record_id}`).join(' '),
];
const CASE_HEADER = ['case', 'type', 'status', 'sla', 'due', 'assigned', 'score', 'records'];

function registerCases(mdm: Command) {
  withApiOptions(
    mdm
      .command('cases')
      .description('Stewardship cases (soonest due first)')
      .option('--type <type>')
      .option('--status <status>', 'open or resolved')
      .option('--assigned-to <who>', 'a key name, or me')
      .option('--entity-type <type>')
      .option('--sla-state <state>', 'on_track, at_risk or overdue'),
  ).action(async (o: ApiOptions & Record<string, string | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, key] of [
      ['type', 'type'],
      ['status', 'status'],
      ['assignedTo', 'assigned_to'],
      ['entityType', 'entity_type'],
      ['slaState', 'sla_state'],
    ] as const)
      if (o[k]) q.set(key, o[k] as string);
    const list = await apiClient(o).get<CaseView[]>(`${M}/stewardship?${q}`);
    print(o, list, (cs) => table(CASE_HEADER, cs.map(caseLine)));
  });
  withApiOptions(mdm.command('case').description('One stewardship case').argument('<case_id>')).action(
    async (id: string, o: ApiOptions) => {
      const c = await apiClient(o).get<CaseView>(`${M}/stewardship/${encodeURIComponent(id)}`);
      print(o, c, (v) => table(CASE_HEADER, [caseLine(v)]));
    },
  );
  withApiOptions(
    mdm
      .command('resolve')
      .description('Resolve a case (steward): approve_match, reject, override or close')
      .argument('<case_id>')
      .argument('<action>')
      .option('--notes <text>')
      .option('--set <attr=value>', 'override: an attribute value (repeat)', collect, [])
      .option('--flag-negative-match', 'reject: also add a pair negative-match rule'),
  ).action(
    async (
      id: string,
      action: string,
      o: ApiOptions & { notes?: string; set: string[]; flagNegativeMatch?: boolean },
    ) => {
      const body: Record<string, unknown> = { action };
      if (o.notes) body.notes = o.notes;
      if (o.set.length) body.attribute_overrides = pairs(o.set, '--set');
      if (o.flagNegativeMatch) body.flag_negative_match = true;
      const r = await apiClient(o).post<CaseView>(`${M}/stewardship/${encodeURIComponent(id)}/resolve`, body);
      print(o, r, (v) => `${v.case_id} resolved (${action}): ${JSON.stringify(v.effect ?? {})}`);
    },
  );
  withApiOptions(
    mdm
      .command('override')
      .description("Override a golden record's attributes (steward); kept on every later run")
      .argument('<entity_id>')
      .requiredOption('--set <attr=value>', 'an attribute value (repeat)', collect, []),
  ).action(async (id: string, o: ApiOptions & { set: string[] }) => {
    const r = await apiClient(o).post<{ entity_type: string; attributes: string[] }>(
      `${M}/entities/${encodeURIComponent(id)}/overrides`,
      { attributes: pairs(o.set, '--set') },
    );
    print(o, r, (v) => `${id} (${v.entity_type}): overrode ${v.attributes.join(', ')}`);
  });
  withApiOptions(
    mdm.command('reassign').description('Assign a case to a steward (key name)').argument('<case_id>').argument('<to>'),
  ).action(async (id: string, to: string, o: ApiOptions) => {
    const r = await apiClient(o).post<CaseView>(`${M}/stewardship/${encodeURIComponent(id)}/reassign`, { to });
    print(o, r, (v) => `${v.case_id} assigned to ${v.assigned_to}`);
  });
}

interface CodeView {
  code: string;
  description: string | null;
  aliases: string[];
  parent: string | null;
  valid_from: string | null;
  valid_to: string | null;
}

function registerReference(mdm: Command) {
  const ref = mdm.command('reference').description('Reference data: domains, codes, aliases');
  withApiOptions(ref.command('list').description('Domains')).action(async (o: ApiOptions) => {
    const ds = await apiClient(o).get<
      { name: string; builtin: boolean; code_count: number; description: string | null }[]
    >(`${M}/reference-data`);
    print(o, ds, (l) =>
      table(
        ['domain', 'codes', 'builtin', 'description'],
        l.map((d) => [d.name, d.code_count, d.builtin ? 'yes' : 'no', d.description]),
      ),
    );
  });
  withApiOptions(ref.command('show').argument('<domain>')).action(async (domain: string, o: ApiOptions) => {
    const d = await apiClient(o).get<{ codes: CodeView[] }>(`${M}/reference-data/${encodeURIComponent(domain)}`);
    print(o, d, (v) =>
      table(
        ['code', 'parent', 'valid_from', 'valid_to', 'aliases', 'description'],
        v.codes.map((c) => [c.code, c.parent, c.valid_from, c.valid_to, c.aliases.join(', '), c.description]),
      ),
    );
  });
  withApiOptions(
    ref
      .command('add')
      .argument('<domain>')
      .argument('<code>')
      .option('--description <text>')
      .option('--alias <alias>', 'repeat for more', collect, [])
      .option('--parent <code>')
      .option('--valid-from <date>')
      .option('--valid-to <date>'),
  ).action(
    async (
      domain: string,
      code: string,
      o: ApiOptions & { description?: string; alias: string[]; parent?: string; validFrom?: string; validTo?: string },
    ) => {
      const c = await apiClient(o).post<CodeView>(`${M}/reference-data/${encodeURIComponent(domain)}`, {
        code,
        description: o.description,
        aliases: o.alias,
        parent: o.parent,
        valid_from: o.validFrom,
        valid_to: o.validTo,
      });
      print(o, c, (v) => `added ${domain}/${v.code}`);
    },
  );
  withApiOptions(
    ref
      .command('import')
      .description('Import codes from a CSV file (header code, description, aliases, valid_from[, valid_to, parent])')
      .argument('<domain>')
      .argument('<file>', 'CSV (- for standard input)'),
  ).action(async (domain: string, file: string, o: ApiOptions) => {
    const csv = readFileSync(file === '-' ? 0 : file, 'utf8');
    const r = await apiClient(o).request<{
      created: number;
      updated: number;
      failed: number;
      lines: { line: number; code: string | null; status: string; message?: string }[];
    }>('POST', `${M}/reference-data/${encodeURIComponent(domain)}/import`, { csv });
    print(o, r, (v) =>
      [
        `${v.created} created, ${v.updated} updated, ${v.failed} failed`,
        ...v.lines.filter((l) => l.message).map((l) => `line ${l.line} ${l.code ?? ''}: ${l.status}: ${l.message}`),
      ].join('\n'),
    );
    if (r.failed) process.exitCode = 1;
  });
  withApiOptions(
    ref.command('resolve').description('The code a value stands for').argument('<domain>').argument('<value>'),
  ).action(async (domain: string, value: string, o: ApiOptions) => {
    const r = await apiClient(o).get<{ code: string | null; valid: boolean }>(
      `${M}/reference-data/${encodeURIComponent(domain)}/resolve?${new URLSearchParams({ value })}`,
    );
    print(o, r, (v) => (v.code ? `${v.code}${v.valid ? '' : ' (not valid today)'}` : 'no code'));
    if (!r.code) process.exitCode = 1;
  });
}

/** `lakeward mdm cases|case|resolve|reassign|override|reference`: stewardship and reference data. */
export function registerMdmStewardCommands(mdm: Command): void {
  registerCases(mdm);
  registerReference(mdm);
}
