/**
 * What on_failure rollback can undo of each step kind (pure). A step that changes tables has its tables' state
 * recorded before it runs (a rollback log, as a clone job keeps one): tables that existed go back to their
 * version then, and tables (or a schema) it created are dropped, by the clone rollback workflow. Every other kind
 * says why there is nothing to undo.
 */

export type UndoPlan =
  /** A clone step: its child clone job recorded rollback logs of its own (with enable_rollback). */
  | { kind: 'clone_job' }
  /** Record these objects before the step runs. */
  | { kind: 'record'; objects: { type: 'table' | 'schema'; fqn: string }[] }
  /** An incremental sync: the destination catalog, schema and every table of the source schema there. */
  | {
      kind: 'record_sync';
      source: { catalog: string; schema: string };
      destination: { catalog: string; schema: string };
    }
  | { kind: 'none'; reason: string };

interface StepLike {
  type: string;
  config: Record<string, unknown>;
}

const NOTHING: Record<string, string> = {
  validate: 'validate reads tables only',
  gate: 'a gate reads tables only (its result is a record, kept)',
  contract_validate: 'a contract validation reads tables only (its result and events are records, kept)',
  dq_run: 'a quality run reads tables only (its results are records, kept)',
  wait: 'a wait changes nothing',
  approval: 'an approval changes nothing',
  notify: 'a notification cannot be unsent',
  webhook: 'a delivered webhook cannot be recalled',
  vacuum:
    'VACUUM deletes data files no kept version needs; they cannot be put back (the rows of the table are unchanged)',
  convert:
    'a conversion changes the table format, so there is no earlier version of it to restore (keep_backup keeps the original at backup_fqn)',
};

/** Three-part names an INSERT, UPDATE, DELETE, MERGE or TRUNCATE writes to. */
const WRITE_TARGET =
  /\b(?:insert\s+(?:into|overwrite)(?:\s+table)?|update|delete\s+from|merge\s+into|truncate\s+table)\s+((?:`[^`]+`|[A-Za-z0-9_$-]+)\.(?:`[^`]+`|[A-Za-z0-9_$-]+)\.(?:`[^`]+`|[A-Za-z0-9_$-]+))/gi;

/** The tables a write statement names as its targets, in order, each once (backticks removed). */
export function writeTargets(sql: string): string[] {
  const out: string[] = [];
  for (const m of sql.matchAll(WRITE_TARGET)) {
    const fqn = m[1].replace(/`/g, '');
    if (!out.includes(fqn)) out.push(fqn);
  }
  return out;
}

export function undoPlanOf(step: StepLike): UndoPlan {
  const c = step.config;
  switch (step.type) {
    case 'clone':
      return { kind: 'clone_job' };
    case 'sync':
      if (c.dry_run) return { kind: 'none', reason: 'a dry-run sync writes nothing' };
      return {
        kind: 'record_sync',
        source: { catalog: String(c.source_catalog), schema: String(c.schema_name) },
        destination: { catalog: String(c.destination_catalog), schema: String(c.schema_name) },
      };
    case 'optimize':
      return { kind: 'record', objects: [{ type: 'table', fqn: String(c.table_fqn) }] };
    case 'custom_sql': {
      if (!c.allow_write) return { kind: 'none', reason: 'a read-only statement changes nothing' };
      const tables = writeTargets(String(c.sql));
      if (!tables.length)
        return {
          kind: 'none',
          reason:
            'the statement names no catalog.schema.table as an INSERT, UPDATE, DELETE, MERGE or TRUNCATE target (DDL is not undone)',
        };
      return { kind: 'record', objects: tables.map((fqn) => ({ type: 'table' as const, fqn })) };
    }
    default:
      return { kind: 'none', reason: NOTHING[step.type] ?? `${step.type} steps are not undone` };
  }
}

/** The rollback log of one step of one run (its before-image is kept under this job id). */
export const stepLogJobId = (runId: string, stepName: string) => `${runId}:${stepName}`;
