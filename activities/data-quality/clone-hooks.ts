import { ApplicationFailure } from '@temporalio/common';
import type { Workspace } from '../../platform/port';
import { DEFAULT_GATE_MIN_PASS_RATE } from '../../schemas/data-quality';
import type { Store } from '../../store/db';
import { listDqEvents, listInlineRules, recordDqEvent } from '../../store/data-quality/ops';
import type { TargetContext } from '../../workflows/clone/engine-types';
import type { CloneHooks } from '../clone/deps';
import { chooseSchemas, nameSelected, selectionFor, whereClauseFor } from '../clone/selection';
import { evaluateChecks } from './evaluate';
import { violationPredicate, type InlineRule } from './logic/inline-rules';
import { ident, tableSql } from './logic/sql-text';
import { evaluateGate, ruleCheck, ruleOf } from './ops';

/** The quarantine table of a destination table: `<table>_quarantine`, in the destination table's schema. */
export const quarantineName = (table: string) => `${table}_quarantine`;

/** Failure type of a clone stopped by data quality (non-retryable: the data, not the platform, must change). */
export const DQ_BLOCKED = 'DqBlocked';

const blocked = (message: string) => ApplicationFailure.create({ type: DQ_BLOCKED, message, nonRetryable: true });

const fqnParts = (fqn: string) => fqn.split('.');

async function columnsOf(ws: Workspace, fqn: string) {
  const [catalog, schema, name] = fqnParts(fqn);
  return (await ws.describeTable({ catalog, schema, name })).columns.map((c) => ({ name: c.name, type: c.type }));
}

/** Active rules of the clone's source tables that the clone's selection copies. */
async function rulesOfClone(store: Store, ctx: TargetContext, source: Workspace, actions: string[]) {
  const o = ctx.options;
  const rows = await listInlineRules(store.db, { active: true, tablePrefix: `${o.source_catalog}.` });
  const rules = rows.map(ruleOf).filter((r) => actions.includes(r.action));
  if (rules.length === 0) return [];
  const sel = selectionFor(o);
  const schemas = new Set(
    chooseSchemas(
      (await source.listSchemas(o.source_catalog)).map((s) => s.name),
      sel,
    ).schemas.map((s) => s.toLowerCase()),
  );
  return rules.filter((r) => {
    const [, schema, table] = fqnParts(r.table_fqn);
    return schemas.has(schema.toLowerCase()) && nameSelected(table, sel);
  });
}

/** Violations of a rule on the rows the clone copies from its source table (where_clauses scope them). */
async function sourceViolations(source: Workspace, ctx: TargetContext, rule: InlineRule): Promise<number> {
  const [, schema, table] = fqnParts(rule.table_fqn);
  const columns = await columnsOf(source, rule.table_fqn);
  const where = whereClauseFor(schema, table, ctx.options.where_clauses ?? {});
  const check = { ...ruleCheck(rule, columns), filter: where ?? null };
  const ev = await evaluateChecks(source, rule.table_fqn, [check], { columns });
  return ev.failures.get(check.id ?? check.name) ?? 0;
}

const ruleText = (r: InlineRule) => `inline rule ${r.name} (${r.check_type}, ${r.severity}, ${r.action})`;

/**
 * The clone's data-quality hooks: the quality gate and blocking rules before the target is touched (a failing one
 * ends the job failed with its reason; nothing is written), then per copied table the log and quarantine rules,
 * and the job summary's account of every gate and rule (from the typed DQ events of the job).
 */
export function createDqCloneHooks(deps: { store: Store }): CloneHooks {
  const db = deps.store.db;
  return {
    async beforeTarget({ ctx, source }) {
      const o = ctx.options;
      const gate = o.dq_gate;
      if (gate && gate.enabled !== false) {
        const result = await evaluateGate(source, deps.store, {
          gateId: `${ctx.jobId}-gate`,
          table_fqn: gate.table_fqn,
          suite_id: gate.suite_id,
          min_pass_rate: gate.min_pass_rate ?? DEFAULT_GATE_MIN_PASS_RATE,
          executedBy: 'clone',
        });
        const payload = { ...result } as Record<string, unknown>;
        if (!result.passed) {
          await recordDqEvent(db, {
            type: 'gate_failed',
            tableFqn: result.table_fqn,
            jobId: ctx.jobId,
            message: `Clone ${o.source_catalog} → ${ctx.target.destinationCatalog} blocked: ${result.reason}`,
            payload,
          });
          throw blocked(result.reason);
        }
        await recordDqEvent(db, {
          type: 'gate_passed',
          tableFqn: result.table_fqn,
          jobId: ctx.jobId,
          message: result.reason,
          payload,
        });
      }
      for (const rule of await rulesOfClone(deps.store, ctx, source, ['block'])) {
        const violations = await sourceViolations(source, ctx, rule);
        if (violations === 0) continue;
        const message = `${ruleText(rule)} found ${violations} violating row(s) in ${rule.table_fqn}: clone aborted before any table was written`;
        await recordDqEvent(db, {
          type: 'rule_blocked',
          tableFqn: rule.table_fqn,
          jobId: ctx.jobId,
          message,
          payload: { rule_id: rule.id, rule: rule.name, action: 'block', violations },
        });
        throw blocked(message);
      }
    },

    async afterTableCloned({ ctx, source, target, result }) {
      if (ctx.options.dry_run) return [];
      const srcFqn = `${ctx.options.source_catalog}.${result.schema}.${result.table}`.toLowerCase();
      const rules = (await rulesOfClone(deps.store, ctx, source, ['log', 'quarantine'])).filter(
        (r) => r.table_fqn.toLowerCase() === srcFqn,
      );
      const warnings: string[] = [];
      const dest = { catalog: ctx.target.destinationCatalog, schema: result.schema, name: result.table };
      const destFqn = `${dest.catalog}.${dest.schema}.${dest.name}`;
      for (const rule of rules.filter((r) => r.action === 'log')) {
        const violations = await sourceViolations(source, ctx, rule);
        await recordDqEvent(db, {
          type: 'rule_logged',
          tableFqn: rule.table_fqn,
          jobId: ctx.jobId,
          message: `${ruleText(rule)}: ${violations} violating row(s) in ${rule.table_fqn}, copied as they are`,
          payload: { rule_id: rule.id, rule: rule.name, action: 'log', violations, destination: destFqn },
        });
        if (violations)
          warnings.push(`${ruleText(rule)}: ${violations} violating row(s) in ${result.schema}.${result.table}`);
      }
      const quarantine = rules.filter((r) => r.action === 'quarantine');
      if (quarantine.length) {
        const columns = await columnsOf(target, destFqn);
        const t = tableSql(destFqn)!;
        const preds = quarantine.map((r) =>
          violationPredicate(ruleCheck({ ...r, table_fqn: destFqn }, columns), { columns }, t),
        );
        const pred = preds.map((p) => `(${p})`).join(' OR ');
        const q = { ...dest, name: quarantineName(dest.name) };
        const cols = columns.map((c) => ident(c.name)).join(', ');
        await target.createTableAs({ ref: q, query: `SELECT ${cols} FROM ${t} WHERE ${pred}`, replace: true });
        const moved = (await target.deleteWhere(dest, pred)).numDeletedRows;
        const qFqn = `${q.catalog}.${q.schema}.${q.name}`;
        await recordDqEvent(db, {
          type: 'rule_quarantined',
          tableFqn: quarantine[0].table_fqn,
          jobId: ctx.jobId,
          message: `${quarantine.map(ruleText).join(', ')}: ${moved} violating row(s) of ${destFqn} moved to ${qFqn}`,
          payload: {
            rules: quarantine.map((r) => r.name),
            action: 'quarantine',
            violations: moved,
            destination: destFqn,
            quarantine_table: qFqn,
          },
        });
        if (moved) warnings.push(`${moved} row(s) of ${result.schema}.${result.table} quarantined in ${qFqn}`);
      }
      return warnings;
    },

    async afterJob({ jobId }) {
      const events = await listDqEvents(db, { jobId });
      if (events.length === 0) return;
      const gate = events.find((e) => e.type === 'gate_passed' || e.type === 'gate_failed');
      const rules = events
        .filter((e) => e.type.startsWith('rule_'))
        .map((e) => ({ ...e.payload, table_fqn: e.tableFqn, message: e.message }));
      return { ...(gate ? { dq_gate: gate.payload } : {}), ...(rules.length ? { dq_inline_rules: rules } : {}) };
    },
  };
}
