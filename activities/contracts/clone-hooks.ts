import type { Client } from '@temporalio/client';
import type { Store } from '../../store/db';
import { contractsOfTable, validationsOf } from '../../store/contracts/repo';
import type { CloneHooks } from '../clone/deps';
import { documentToValidate } from './run';
import { contractSettings } from './logic';
import { validateOnTable } from './validate-table';
import { recordValidation } from '../../store/contracts/repo';
import { enforcementEventOf } from './events';

/**
 * Contracts at clone time. After each table is copied, every contract attached to the SOURCE table is validated
 * on the DESTINATION table (one `contract_validations` row each, with the job id); at the job's end a failure
 * of a contract of severity error fails the job, one of severity warn adds a warning, the summary lists the
 * validations, and the failures go to each contract's enforcement endpoint (a workflow of its own, retried).
 */
export function createContractCloneHooks(deps: { store: Store; client?: Client; taskQueue?: string }): CloneHooks {
  const db = deps.store.db;
  return {
    async afterTableCloned({ ctx, target, result }) {
      if (ctx.options.dry_run) return [];
      const source = `${ctx.options.source_catalog}.${result.schema}.${result.table}`;
      const names = await contractsOfTable(db, source);
      const warnings: string[] = [];
      const dest = `${ctx.target.destinationCatalog}.${result.schema}.${result.table}`;
      for (const name of names) {
        const found = await documentToValidate(deps.store, name);
        if (!found) continue;
        // An activity retry must not store a second row for the same table of the same job.
        const done = await validationsOf(db, { name, jobId: ctx.jobId }, 1000);
        if (done.some((v) => v.tableFqn === dest)) continue;
        const outcome = await validateOnTable(target, found.doc, dest, new Date());
        const settings = contractSettings(found.doc);
        await recordValidation(db, {
          contractId: found.doc.id,
          name,
          version: found.version,
          tableFqn: dest,
          status: outcome.status,
          severity: settings.severity,
          trigger: 'clone',
          jobId: ctx.jobId,
          violationCount: outcome.violation_count,
          sections: { ...outcome.sections, drift: outcome.drift },
          createdBy: 'clone',
        });
        if (outcome.status === 'failed')
          warnings.push(`contract ${found.doc.id} failed on ${dest}: ${outcome.violation_count} violation(s)`);
      }
      return warnings;
    },

    async afterJob({ jobId, summary }) {
      const rows = await validationsOf(db, { jobId }, 1000);
      if (rows.length === 0) return;
      const failed = rows.filter((r) => r.status === 'failed');
      const blocking = failed.filter((r) => r.severity === 'error');
      const extra: Record<string, unknown> = {
        contract_validations: rows.map((r) => ({
          contract_id: r.contractId,
          table_fqn: r.tableFqn,
          status: r.status,
          severity: r.severity,
          violation_count: r.violationCount,
          validation_id: r.id,
        })),
      };
      for (const name of new Set(failed.map((r) => r.name))) {
        const found = await documentToValidate(deps.store, name);
        const endpoint = found ? contractSettings(found.doc).enforcementEndpoint : null;
        if (!found || !endpoint || !deps.client || !deps.taskQueue) continue;
        const event = enforcementEventOf(
          found.doc.id,
          found.version,
          'clone',
          jobId,
          rows.filter((r) => r.name === name),
        );
        await deps.client.workflow
          .start('contractEnforcementWorkflow', {
            taskQueue: deps.taskQueue,
            workflowId: `contract-enforce-${jobId}-${name}`,
            args: [{ endpoint, event }],
          })
          .catch((err: unknown) => {
            // Already started by an earlier attempt of this activity.
            if ((err as Error).name !== 'WorkflowExecutionAlreadyStartedError') throw err;
          });
      }
      const text = (r: (typeof rows)[number]) =>
        `contract ${r.contractId} failed on ${r.tableFqn} (${r.violationCount} violation(s))`;
      if (blocking.length && summary.status !== 'failed') {
        extra.status = 'failed';
        extra.error = blocking.map(text).join('; ');
      }
      const warn = failed.filter((r) => r.severity !== 'error');
      if (warn.length) extra.warnings = [...summary.warnings, ...warn.map(text)];
      return extra;
    },
  };
}
