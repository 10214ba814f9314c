import type { Severity, TriggerType } from '../../../schemas/automation';

/** Which trigger an event type fires (data-quality's own incident types included). */
export const TRIGGER_OF_EVENT: Record<string, TriggerType> = {
  'job.failed': 'job_failed',
  'job.succeeded': 'job_succeeded',
  'dq.failure': 'dq_failure',
  gate_failed: 'dq_failure',
  rule_blocked: 'dq_failure',
  scheduled_run_failed: 'dq_failure',
  'dq.anomaly': 'anomaly',
  anomaly_critical: 'anomaly',
  'schema.drift': 'schema_drift',
  'contract.violation': 'contract_violation',
  sla_breach: 'sla_breach',
};

export const EVENT_TYPES_WITH_TRIGGER = Object.keys(TRIGGER_OF_EVENT);

/** Fields every event has (`event.<field>` in a condition or `{{event.<field>}}` in a parameter). */
export const COMMON_FIELDS = ['id', 'type', 'severity', 'table_fqn', 'job_id', 'message', 'occurred_at', 'data'];

/** The fields each trigger's events add; a condition naming anything else is refused when it is saved. */
export const TRIGGER_FIELDS: Record<TriggerType | 'manual', string[]> = {
  job_failed: ['job_type', 'status', 'error', 'source_catalog', 'destination_catalog'],
  job_succeeded: ['job_type', 'status', 'error', 'source_catalog', 'destination_catalog'],
  dq_failure: ['rule', 'rule_id', 'violations', 'reason', 'pass_rate', 'failure_rate', 'failed_checks', 'run_id'],
  anomaly: ['anomaly_id', 'metric', 'column', 'value', 'z_score'],
  schema_drift: ['changes', 'added', 'removed', 'changed'],
  sla_breach: ['sla', 'expected_by', 'hours_late'],
  contract_violation: ['contract_id', 'contract_name', 'violations'],
  schedule: ['scheduled_at'],
  manual: [],
};

export function knownFields(trigger: TriggerType | 'manual'): string[] {
  return [...COMMON_FIELDS, ...TRIGGER_FIELDS[trigger]];
}

const DQ_SEVERITY: Record<string, Severity> = {
  gate_failed: 'error',
  rule_blocked: 'error',
  scheduled_run_failed: 'error',
  anomaly_critical: 'critical',
};

export interface StoredEvent {
  id: number;
  type: string;
  tableFqn: string | null;
  jobId: string | null;
  message: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/**
 * The `event` a playbook sees: the common fields, then every field of its trigger (null when the producer did not
 * give it, so a condition on a known field never fails for a missing key), `data` with the whole payload.
 */
export function eventEnvelope(e: StoredEvent): Record<string, unknown> {
  const trigger = TRIGGER_OF_EVENT[e.type];
  const payload = e.payload ?? {};
  const out: Record<string, unknown> = {
    id: String(e.id),
    type: e.type,
    severity: (payload.severity as string | undefined) ?? DQ_SEVERITY[e.type] ?? 'info',
    table_fqn: e.tableFqn ?? (payload.table_fqn as string | undefined) ?? null,
    job_id: e.jobId,
    message: e.message,
    occurred_at: e.createdAt.toISOString(),
    data: payload,
  };
  for (const f of trigger ? TRIGGER_FIELDS[trigger] : []) out[f] = f in payload ? payload[f] : null;
  return out;
}

/** A manual or scheduled event: the given fields over nulls for every known field. */
export function syntheticEvent(
  trigger: TriggerType | 'manual',
  fields: Record<string, unknown>,
  occurredAt: string,
): Record<string, unknown> {
  const base: Record<string, unknown> = { id: null, type: trigger, severity: 'info', table_fqn: null, job_id: null };
  for (const f of TRIGGER_FIELDS[trigger]) base[f] = null;
  return { ...base, message: `${trigger} event`, occurred_at: occurredAt, data: {}, ...fields };
}
