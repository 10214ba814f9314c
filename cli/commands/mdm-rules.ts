import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { collect, M, table } from './mdm-shared';

/** `lakeward mdm rules …`: negative-match rules (records that must never share a golden record). */

interface RuleView {
  id: string;
  entity_type: string;
  type: string;
  entity_ids: string[] | null;
  records: { system: string; record_id: string }[] | null;
  predicate: string | null;
  reason: string;
  status: string;
  created_by: string;
  blocked_attempts: number;
  under_review?: string[];
}

const members = (r: RuleView) =>
  r.predicate ?? r.entity_ids?.join(' ') ?? (r.records ?? []).map((x) => `${x.system}:${x.record_id}`).join(' ');

const rulesTable = (rules: RuleView[]) =>
  table(
    ['id', 'entity_type', 'type', 'status', 'blocked', 'members', 'reason'],
    rules.map((r) => [r.id, r.entity_type, r.type, r.status, r.blocked_attempts, members(r), r.reason]),
  );

/** `system:record_id` → a record reference (the record id may itself hold colons). */
function recordRef(v: string) {
  const i = v.indexOf(':');
  if (i < 1 || i === v.length - 1) throw new Error(`--record must be system:record_id, not ${v}`);
  return { system: v.slice(0, i), record_id: v.slice(i + 1) };
}

export function registerMdmRuleCommands(mdm: Command): void {
  const rules = mdm.command('rules').description('Negative-match rules: pairs, groups and patterns kept apart');
  withApiOptions(rules.command('list').option('--entity-type <type>').option('--status <status>')).action(
    async (o: ApiOptions & { entityType?: string; status?: string }) => {
      const q = new URLSearchParams();
      if (o.entityType) q.set('entity_type', o.entityType);
      if (o.status) q.set('status', o.status);
      const list = await apiClient(o).get<RuleView[]>(`${M}/negative-match${q.size ? `?${q}` : ''}`);
      print(o, list, rulesTable);
    },
  );
  withApiOptions(rules.command('show').argument('<id>')).action(async (id: string, o: ApiOptions) => {
    print(o, await apiClient(o).get<RuleView>(`${M}/negative-match/${encodeURIComponent(id)}`), (r) => rulesTable([r]));
  });
  withApiOptions(
    rules
      .command('add')
      .description(
        'Add a rule: --entity (golden records) or --record (source records) for pair and group; --predicate for pattern',
      )
      .argument('<entity_type>')
      .requiredOption('--type <type>', 'pair, group or pattern')
      .requiredOption('--reason <text>', 'why the records are different')
      .option('--entity <entity_id>', 'a golden record (repeat)', collect, [])
      .option('--record <system:record_id>', 'a source record (repeat)', collect, [])
      .option('--predicate <sql>', 'pattern: a predicate over a.<attribute> and b.<attribute>'),
  ).action(
    async (
      entityType: string,
      o: ApiOptions & { type: string; reason: string; entity: string[]; record: string[]; predicate?: string },
    ) => {
      const body = {
        entity_type: entityType,
        type: o.type,
        reason: o.reason,
        ...(o.entity.length ? { entity_ids: o.entity } : {}),
        ...(o.record.length ? { records: o.record.map(recordRef) } : {}),
        ...(o.predicate !== undefined ? { predicate: o.predicate } : {}),
      };
      const r = await apiClient(o).post<RuleView>(`${M}/negative-match`, body);
      print(o, r, (v) =>
        [
          rulesTable([v]),
          v.under_review?.length ? `under review until the next run splits them: ${v.under_review.join(' ')}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    },
  );
  for (const status of ['active', 'inactive'] as const)
    withApiOptions(
      rules
        .command(status === 'active' ? 'activate' : 'deactivate')
        .description(status === 'active' ? 'Keep the records apart again' : 'Stop keeping the records apart')
        .argument('<id>'),
    ).action(async (id: string, o: ApiOptions) => {
      const r = await apiClient(o).request<RuleView>('PATCH', `${M}/negative-match/${encodeURIComponent(id)}`, {
        status,
      });
      print(o, r, (v) => rulesTable([v]));
    });
  withApiOptions(rules.command('delete').argument('<id>')).action(async (id: string, o: ApiOptions) => {
    const r = await apiClient(o).request<unknown>('DELETE', `${M}/negative-match/${encodeURIComponent(id)}`);
    print(o, r, () => `rule ${id} deleted`);
  });
}
