import type { WorkspaceRef } from '../clone/definitions';

export const STREAM_WORKFLOW_TYPE = 'syncStreamWorkflow';

/** A continuous sync stream's workflow input (workflow id = stream id). Never secrets. */
export interface StreamInput {
  streamId: string;
  /** The workspace holding both catalogs. */
  workspace: WorkspaceRef;
  sourceCatalog: string;
  destinationCatalog: string;
  /** `schema.table` names. */
  tables: string[];
  /** Merge keys per table, resolved when the stream started. */
  keys: Record<string, string[]>;
  triggerMs: number;
  /** Cycles one run makes before it continues as new (history stays small). */
  cyclesPerRun?: number;
}

/** What one cycle did: per table the applied version after it, the source version seen, and any failure. */
export interface CycleResult {
  applied: Record<string, number>;
  sourceVersions: Record<string, number>;
  rows: { inserted: number; updated: number; deleted: number };
  errors: string[];
}
