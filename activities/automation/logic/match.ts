import { SEVERITIES, type Severity, type TriggerType } from '../../../schemas/automation';
import { TRIGGER_OF_EVENT } from './event-shape';

export interface TriggerSpec {
  triggerType: TriggerType;
  triggerConfig: { tables?: string[]; min_severity?: Severity; job_types?: string[]; contract_ids?: string[] };
}

/** `prod.*.orders` → a case-insensitive whole-name match, `*` standing for any run of characters. */
export function globMatches(glob: string, name: string): boolean {
  const re = glob
    .split('*')
    .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${re}$`, 'i').test(name);
}

/** Whether an event (its envelope) fires a playbook's trigger: its type, job types, tables and least severity. */
export function triggerMatches(t: TriggerSpec, event: Record<string, unknown>): boolean {
  if (TRIGGER_OF_EVENT[event.type as string] !== t.triggerType) return false;
  const c = t.triggerConfig;
  if (c.job_types?.length && !c.job_types.includes(String(event.job_type))) return false;
  if (c.contract_ids?.length && !c.contract_ids.includes(String(event.contract_id))) return false;
  if (c.tables?.length) {
    const table = event.table_fqn;
    if (typeof table !== 'string' || !c.tables.some((g) => globMatches(g, table))) return false;
  }
  if (c.min_severity) {
    const rank = SEVERITIES.indexOf(event.severity as Severity);
    if (rank < SEVERITIES.indexOf(c.min_severity)) return false;
  }
  return true;
}
