import type { AutomationEvent } from '../../../store/automation/events';

/**
 * The typed events that detections outside the job kernel produce: contract violations and freshness-SLA breaches
 * from a contract validation, schema drift from the catalog monitor. Pure: the producers write what these return
 * in their own transaction.
 */

interface Violation {
  type: string;
  message: string;
  observed?: unknown;
  expected?: unknown;
  column?: string;
}

export interface ContractOutcomeFacts {
  contractId: string;
  name: string;
  version: string;
  severity: 'error' | 'warn';
  tableFqn: string;
  status: 'passed' | 'failed';
  validationId: number;
  jobId: string | null;
  sections: Record<string, { violations: Violation[] }>;
  /** The freshness SLA's property name (`latency`, `freshness`) when the contract has one. */
  slaProperty: string | null;
  now: Date;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** contract.violation for a failed validation, plus sla_breach when its freshness SLA was exceeded. */
export function contractEvents(f: ContractOutcomeFacts): AutomationEvent[] {
  if (f.status !== 'failed') return [];
  const violations = Object.entries(f.sections).flatMap(([section, s]) =>
    (s?.violations ?? []).map((v) => ({ section, type: v.type, column: v.column ?? null, message: v.message })),
  );
  const out: AutomationEvent[] = [
    {
      type: 'contract.violation',
      severity: f.severity === 'warn' ? 'warning' : 'error',
      tableFqn: f.tableFqn,
      jobId: f.jobId,
      message: `contract ${f.contractId} violated on ${f.tableFqn}: ${violations.length} violation(s)`,
      data: {
        contract_id: f.contractId,
        contract_name: f.name,
        version: f.version,
        validation_id: f.validationId,
        violations,
      },
    },
  ];
  const late = (f.sections.sla?.violations ?? []).find((v) => v.type === 'freshness_exceeded');
  if (late && typeof late.observed === 'number' && typeof late.expected === 'number') {
    const hoursLate = round2(late.observed - late.expected);
    out.push({
      type: 'sla_breach',
      tableFqn: f.tableFqn,
      jobId: f.jobId,
      message: `${f.tableFqn} breached the ${f.slaProperty ?? 'freshness'} SLA of contract ${f.contractId}: ${hoursLate} h late`,
      data: {
        sla: f.slaProperty ?? 'freshness',
        expected_by: new Date(f.now.getTime() - hoursLate * 3_600_000).toISOString(),
        hours_late: hoursLate,
        contract_id: f.contractId,
        observed_hours: late.observed,
        allowed_hours: late.expected,
      },
    });
  }
  return out;
}

export interface ColumnChangeFact {
  column: string;
  change: string;
  source_type: string | null;
  dest_type: string | null;
}

/** A stable key of a table's column changes: the same drift seen again is not a new event. */
export function driftKey(changes: ColumnChangeFact[]): string {
  return changes
    .map((c) => `${c.column.toLowerCase()}:${c.change}:${c.source_type ?? ''}:${c.dest_type ?? ''}`)
    .sort()
    .join('|');
}

/** schema.drift of one destination table that no longer matches its source. */
export function schemaDriftEvent(p: {
  sourceCatalog: string;
  destinationCatalog: string;
  table: string;
  changes: ColumnChangeFact[];
}): AutomationEvent {
  const of = (kind: string) => p.changes.filter((c) => c.change === kind).map((c) => c.column);
  const added = of('added');
  const removed = of('removed');
  const changed = p.changes.filter((c) => c.change !== 'added' && c.change !== 'removed').map((c) => c.column);
  return {
    type: 'schema.drift',
    tableFqn: `${p.destinationCatalog}.${p.table}`,
    message: `${p.destinationCatalog}.${p.table} drifted from ${p.sourceCatalog}.${p.table}: ${p.changes.length} column change(s)`,
    data: {
      changes: p.changes,
      added,
      removed,
      changed,
      source_table: `${p.sourceCatalog}.${p.table}`,
      drift_key: driftKey(p.changes),
    },
  };
}
