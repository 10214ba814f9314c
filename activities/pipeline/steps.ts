import { ApplicationFailure } from '@temporalio/common';
import type { Config } from '../../config/load';
import type { Workspace } from '../../platform/port';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import { automationCipher } from '../../store/automation/secrets';
import { deliverWebhook } from '../automation/webhook';
import { DEFAULT_GATE_MIN_PASS_RATE } from '../../schemas/data-quality';
import type { Step } from '../../schemas/pipeline';
import type { Store } from '../../store/db';
import { addNotification } from '../../store/notifications/repo';
import type { AutomationServices } from '../automation/services';
import { validateContract } from '../contracts/run';
import { evaluateGate } from '../data-quality/ops';
import { checkUserSql } from '../data-quality/logic/sql-guard';
import { splitFqn } from '../data-quality/logic/sql-text';
import { tableWriteOf, type TableWrite } from './logic/write-sql';

export interface StepDeps {
  config: Config;
  store: Store;
  workspaces: WorkspaceResolver;
  services?: AutomationServices;
}

/** A step that ran and did not succeed: final for this attempt (the pipeline's on_failure decides what next). */
export const stepFailed = (message: string, output?: Record<string, unknown>) =>
  ApplicationFailure.create({ nonRetryable: true, type: 'StepFailed', message, details: output ? [output] : [] });

/** The step types that run as child jobs of the kernel, with the playbook action that submits them. */
export const JOB_STEPS = { clone: 'start_clone', sync: 'start_sync', dq_run: 'run_dq' } as const;
export type JobStepType = keyof typeof JOB_STEPS;
export const isJobStep = (type: string): type is JobStepType => type in JOB_STEPS;

export function services(deps: StepDeps): AutomationServices {
  if (!deps.services) throw stepFailed('this worker has no job services wired (workers/stack.ts)');
  return deps.services;
}

const refOf = (fqn: string) => {
  const [catalog, schema, name] = splitFqn(fqn);
  return { catalog, schema, name };
};
const plain = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)));

/** One custom_sql write through the port's table writes (each a new version of the table). */
async function runTableWrite(ws: Workspace, w: TableWrite): Promise<Record<string, unknown>> {
  const ref = refOf(w.fqn);
  const out = { table_fqn: w.fqn, operation: w.kind };
  switch (w.kind) {
    case 'insert':
      return { ...out, ...(await ws.insertQuery(ref, w.query)) };
    case 'overwrite':
      return { ...out, ...(await ws.overwriteQuery(ref, w.query)) };
    case 'delete':
      return { ...out, ...(await ws.deleteWhere(ref, w.predicate)) };
    case 'update':
      return { ...out, ...(await ws.updateWhere(ref, w.set, w.predicate)) };
  }
}

/** Runs one step that is not a job, a wait or an approval; answers its output or throws stepFailed. */
export async function runInlineStep(deps: StepDeps, runId: string, step: Step): Promise<Record<string, unknown>> {
  const c = step.config as Record<string, unknown>;
  switch (step.type) {
    case 'validate': {
      const out = await services(deps).validateCatalogs(c);
      if (!out.passed) throw stepFailed(`validation failed: ${String(out.mismatched_tables)}`, out);
      return out;
    }
    case 'convert': {
      const out = await services(deps).convertTables(c);
      if (out.failed > 0) throw stepFailed(`${out.failed} conversion(s) failed`, out);
      return out;
    }
    case 'gate': {
      const ws = await deps.workspaces.default();
      const g = await evaluateGate(ws, deps.store, {
        gateId: `${runId}-${step.name}`,
        table_fqn: c.table_fqn as string,
        suite_id: (c.suite_id as string | undefined) ?? null,
        min_pass_rate: (c.min_pass_rate as number | undefined) ?? DEFAULT_GATE_MIN_PASS_RATE,
        executedBy: 'pipeline',
      });
      const out = { ...g } as Record<string, unknown>;
      if (!g.passed) throw stepFailed(`gate failed: ${g.reason}`, out);
      return out;
    }
    case 'contract_validate': {
      const ws = await deps.workspaces.default();
      const r = await validateContract(
        deps.store,
        ws,
        {
          name: c.name as string,
          version: c.version as string | undefined,
          tableFqn: c.table_fqn as string | undefined,
          trigger: 'api',
          jobId: runId,
          by: 'pipeline',
        },
        new Date(),
      );
      const out = plain(r) as Record<string, unknown>;
      if (r.status === 'failed') throw stepFailed(`contract ${r.contract_id} is violated`, out);
      return out;
    }
    case 'optimize': {
      const ws = await deps.workspaces.default();
      return { table_fqn: c.table_fqn, ...(plain(await ws.optimizeTable(refOf(c.table_fqn as string))) as object) };
    }
    case 'vacuum': {
      const ws = await deps.workspaces.default();
      const r = await ws.vacuumTable(refOf(c.table_fqn as string), {
        retentionHours: c.retention_hours as number | undefined,
      });
      return { table_fqn: c.table_fqn, ...(plain(r) as object) };
    }
    case 'notify': {
      const row = await addNotification(deps.store.db, {
        type: 'pipeline',
        message: c.message as string,
        status: 'info',
        jobId: runId,
      });
      return { notification_id: row.id };
    }
    case 'webhook': {
      let secret: string;
      try {
        secret = automationCipher(deps.config).open(c.secret_sealed as Record<string, string>);
      } catch {
        throw stepFailed(
          'webhook: the stored secret cannot be decrypted with this key (automation.secrets_key changed?)',
        );
      }
      const { timeout_seconds: timeout, deny_private_networks: deny } = deps.config.automation.webhooks;
      return deliverWebhook({
        url: c.url as string,
        secret,
        headers: (c.headers as Record<string, string> | undefined) ?? {},
        webhookId: `${runId}-${step.name}`,
        type: 'pipeline.step',
        data: { run_id: runId, step: step.name },
        timeoutMs: timeout * 1000,
        denyPrivateNetworks: deny,
      });
    }
    case 'custom_sql': {
      const sql = c.sql as string;
      if (!c.allow_write) {
        const problem = checkUserSql(sql, 'query');
        if (problem) throw stepFailed(`custom_sql is read-only: the statement ${problem}`);
      }
      const ws = await deps.workspaces.default();
      const write = c.allow_write ? tableWriteOf(sql) : null;
      if (write) return runTableWrite(ws, write);
      if (c.allow_write && checkUserSql(sql, 'query'))
        throw stepFailed(
          'custom_sql with allow_write runs INSERT INTO … SELECT|WITH|VALUES, INSERT OVERWRITE … SELECT|WITH, ' +
            'DELETE FROM … [WHERE], UPDATE … SET … [WHERE] on a catalog.schema.table, or a read-only query',
        );
      const r = await ws.query(sql);
      return { row_count: r.rows.length, rows: plain(r.rows.slice(0, 100)) as Record<string, unknown>[] };
    }
    default:
      throw stepFailed(`step type ${step.type} does not run here`);
  }
}
