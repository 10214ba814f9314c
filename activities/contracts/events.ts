import type { ContractValidationRow } from '../../store/contracts/repo';
import type { EnforcementEvent } from './enforce';

type Violations = Record<string, { violations?: { type: string; message: string }[] }>;

/** The failure event of a contract's failed validation rows. */
export function enforcementEventOf(
  contractId: string,
  version: string,
  trigger: string,
  jobId: string | null,
  rows: Pick<ContractValidationRow, 'status' | 'tableFqn' | 'id' | 'sections' | 'severity'>[],
): EnforcementEvent {
  const failed = rows.filter((r) => r.status === 'failed');
  return {
    event: 'contract_validation_failed',
    contract_id: contractId,
    version,
    trigger,
    job_id: jobId,
    severity: failed[0]?.severity === 'warn' ? 'warn' : 'error',
    occurred_at: new Date().toISOString(),
    failures: failed.map((r) => ({
      table_fqn: r.tableFqn,
      validation_id: r.id,
      violations: Object.values(r.sections as Violations).flatMap((s) =>
        (s?.violations ?? []).map((v) => ({ type: v.type, message: v.message })),
      ),
    })),
  };
}
