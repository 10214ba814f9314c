import { ApplicationFailure } from '@temporalio/common';
import type { Workspace } from '../../platform/port';
import type { Store } from '../../store/db';
import { asDqxCheck, enabledChecks } from '../../store/data-quality/checks';
import { listInlineRules, recordDqEvent } from '../../store/data-quality/ops';
import { quarantineName } from '../data-quality/clone-hooks';
import { ruleCheck, ruleOf } from '../data-quality/ops';
import { findCheckFunction } from '../data-quality/logic/catalog';
import { violationPredicate } from '../data-quality/logic/inline-rules';
import { ident, splitFqn, tableSql } from '../data-quality/logic/sql-text';
import type { DqCheck } from '../data-quality/logic/types';

const invalid = (message: string) => ApplicationFailure.create({ nonRetryable: true, type: 'InvalidInput', message });

/** Checks the DQ engine can turn into a per-row predicate (which rows to move). */
const hasRowPredicate = (c: DqCheck) =>
  findCheckFunction(c.check_function)?.level === 'row' || ['is_unique', 'foreign_key'].includes(c.check_function);

function stringList(v: unknown, key: string): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || !x))
    throw invalid(`quarantine: params.${key} must be a list of names`);
  return v as string[];
}

/**
 * The `quarantine` action through the DQ engine: the rows of `table_fqn` that fail its active inline rules and its
 * enabled row-level checks (or only the `rules` / `check_ids` named) move to `<table>_quarantine` in the same
 * schema (created on first use, appended to afterwards), then are deleted from the table; a `rule_quarantined`
 * DQ event records it. A table without such rules or checks is refused.
 */
export async function quarantineTable(
  deps: { store: Store; ws: Workspace },
  params: Record<string, unknown>,
  ctx: { playbookId: string; executionId: string },
): Promise<Record<string, unknown>> {
  const fqn = params.table_fqn;
  if (typeof fqn !== 'string' || !tableSql(fqn))
    throw invalid('quarantine: params.table_fqn must be catalog.schema.table');
  const ruleNames = stringList(params.rules, 'rules');
  const checkIds = stringList(params.check_ids, 'check_ids');
  const [catalog, schema, name] = splitFqn(fqn);
  const ref = { catalog, schema, name };
  if (!(await deps.ws.tableExists(ref))) throw invalid(`quarantine: table ${fqn} does not exist`);
  const columns = (await deps.ws.describeTable(ref)).columns.map((c) => ({ name: c.name, type: c.type }));
  const relation = tableSql(fqn)!;

  const allRules =
    checkIds && !ruleNames ? [] : await listInlineRules(deps.store.db, { active: true, tablePrefix: fqn });
  const rules = allRules
    .map(ruleOf)
    .filter((r) => r.table_fqn.toLowerCase() === fqn.toLowerCase() && (!ruleNames || ruleNames.includes(r.name)));
  const missing = ruleNames?.filter((n) => !rules.some((r) => r.name === n)) ?? [];
  if (missing.length) throw invalid(`quarantine: no active inline rule ${missing.join(', ')} on ${fqn}`);
  const checks =
    ruleNames && !checkIds
      ? []
      : (await enabledChecks(deps.store.db, fqn, checkIds))
          .map((r) => asDqxCheck(r) as DqCheck)
          .filter(hasRowPredicate);
  if (checkIds && checks.length !== checkIds.length)
    throw invalid(`quarantine: check_ids must name enabled row-level checks of ${fqn}`);

  const preds: string[] = [];
  for (const r of rules) {
    try {
      preds.push(violationPredicate(ruleCheck(r, columns), { columns }, relation));
    } catch (err) {
      throw invalid(`quarantine: ${(err as Error).message}`);
    }
  }
  for (const c of checks) preds.push(violationPredicate(c, { columns }, relation));
  if (!preds.length) throw invalid(`quarantine: ${fqn} has no active inline rules or enabled row-level checks`);

  const pred = preds.map((p) => `(${p})`).join(' OR ');
  const q = { catalog, schema, name: quarantineName(name) };
  const qFqn = `${catalog}.${schema}.${q.name}`;
  const select = `SELECT ${columns.map((c) => ident(c.name)).join(', ')} FROM ${relation} WHERE ${pred}`;
  if (await deps.ws.tableExists(q)) await deps.ws.insertQuery(q, select);
  else await deps.ws.createTableAs({ ref: q, query: select });
  const moved = (await deps.ws.deleteWhere(ref, pred)).numDeletedRows;
  const names = [...rules.map((r) => r.name), ...checks.map((c) => c.name)];
  await recordDqEvent(deps.store.db, {
    type: 'rule_quarantined',
    tableFqn: fqn,
    message: `playbook ${ctx.playbookId}: ${moved} row(s) of ${fqn} failing ${names.join(', ')} moved to ${qFqn}`,
    payload: {
      rules: names,
      action: 'quarantine',
      violations: moved,
      quarantine_table: qFqn,
      playbook_id: ctx.playbookId,
      execution_id: ctx.executionId,
    },
  });
  return { table_fqn: fqn, quarantine_table: qFqn, moved, rules: names };
}
