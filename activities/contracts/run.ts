import { InvalidInputError, NotFoundError } from '../../platform/errors';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Workspace } from '../../platform/port';
import type { Store } from '../../store/db';
import { eventsCommitted, recordEvent } from '../../store/automation/events';
import { attachmentsOf, getContract, getVersion, recordValidation } from '../../store/contracts/repo';
import { contractSettings, describedTable, type OdcsDocument, type ValidationOutcome } from './logic';
import { contractEvents } from '../automation/logic/producers';
import { validateOnTable } from './validate-table';

export interface ContractValidateInput {
  /** Contract name (`orders`). */
  name: string;
  /** A version (published, or the open draft's); default the newest published one, else the open draft. */
  version?: string;
  /** Default: the tables it is attached to, else the table its first schema object names. */
  tableFqn?: string;
  trigger: 'api' | 'schedule' | 'clone';
  jobId?: string;
  by: string;
}

export interface ContractValidateResult {
  contract_id: string;
  name: string;
  version: string;
  severity: 'error' | 'warn';
  enforcement_endpoint: string | null;
  status: 'passed' | 'failed';
  results: (ValidationOutcome & { validation_id: number })[];
}

/** The document a validation uses (see ContractValidateInput.version); a NotFound failure when there is none. */
export async function documentToValidate(store: Store, name: string, version?: string) {
  const c = await getContract(store.db, name);
  if (!c) return null;
  if (version && c.draft && c.draft.id === `${name}@${version}`) return { version, doc: c.draft as OdcsDocument };
  const v = version ?? c.latestVersion;
  if (v) {
    const row = await getVersion(store.db, name, v);
    return row ? { version: v, doc: row.document as OdcsDocument } : null;
  }
  return c.draft ? { version: (c.draft.id as string).split('@')[1], doc: c.draft as OdcsDocument } : null;
}

/** Validates a contract on each of its tables and stores one `contract_validations` row per table. */
export async function validateContract(
  store: Store,
  ws: Workspace,
  input: ContractValidateInput,
  now: Date,
): Promise<ContractValidateResult> {
  const found = await documentToValidate(store, input.name, input.version);
  if (!found) throw new NotFoundError(`no contract ${input.name}${input.version ? `@${input.version}` : ''}`);
  const { doc, version } = found;
  const settings = contractSettings(doc);
  const attached = await attachmentsOf(store.db, input.name);
  const described = describedTable(doc);
  const tables = input.tableFqn ? [input.tableFqn] : attached.length ? attached : described ? [described] : [];
  if (tables.length === 0)
    throw new InvalidInputError(`contract ${input.name} is attached to no table and its schema names none`);
  const results: ContractValidateResult['results'] = [];
  for (const table of tables) {
    const outcome = await validateOnTable(ws, doc, table, now);
    // A failed validation and its contract.violation / sla_breach events are written together.
    const row = await store.db.transaction(async (tx) => {
      const saved = await recordValidation(tx, {
        contractId: doc.id,
        name: input.name,
        version,
        tableFqn: table,
        status: outcome.status,
        severity: settings.severity,
        trigger: input.trigger,
        jobId: input.jobId ?? null,
        violationCount: outcome.violation_count,
        sections: { ...outcome.sections, drift: outcome.drift },
        createdBy: input.by,
      });
      const events = contractEvents({
        contractId: doc.id,
        name: input.name,
        version,
        severity: settings.severity,
        tableFqn: table,
        status: outcome.status,
        validationId: saved.id,
        jobId: input.jobId ?? null,
        sections: outcome.sections,
        slaProperty: doc.slaProperties?.find((s) => /^(latency|freshness|ly)$/i.test(s.property))?.property ?? null,
        now,
      });
      for (const e of events) await recordEvent(tx, e);
      return saved;
    });
    if (outcome.status === 'failed') eventsCommitted();
    results.push({ ...outcome, validation_id: row.id });
  }
  return {
    contract_id: doc.id,
    name: input.name,
    version,
    severity: settings.severity,
    enforcement_endpoint: settings.enforcementEndpoint,
    status: results.some((r) => r.status === 'failed') ? 'failed' : 'passed',
    results,
  };
}

export type { WorkspaceResolver };
