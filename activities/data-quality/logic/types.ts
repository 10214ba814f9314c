/** The data-quality engine's shapes. Names and argument names follow databrickslabs/dqx. */

export type Criticality = 'error' | 'warn';

/** One stored DQX check (for_each_column already expanded to one check per column). */
export interface DqCheck {
  id?: string;
  table_fqn: string;
  name: string;
  check_function: string;
  arguments: Record<string, unknown>;
  criticality: Criticality;
  enabled: boolean;
  /** A Databricks SQL predicate: the check only looks at rows where it holds. */
  filter?: string | null;
  user_metadata?: Record<string, unknown> | null;
}

export type ArgType =
  | 'column'
  | 'columns'
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'list'
  | 'object'
  | 'table'
  | 'sql_expression'
  | 'sql_query'
  | 'aggr_type'
  /** A number, or a date/timestamp string. */
  | 'limit';

export interface CheckArg {
  name: string;
  type: ArgType;
  required: boolean;
  description: string;
}

export type CheckLevel = 'row' | 'dataset';
/** What a workspace must offer to run a function. */
export type CheckNeed = 'spatial' | 'anomaly_model';

export interface CheckFunction {
  name: string;
  category: string;
  level: CheckLevel;
  description: string;
  args: CheckArg[];
  needs?: CheckNeed[];
}

export interface TableShape {
  columns: { name: string; type: string }[];
}

export interface Capabilities {
  /** The engine has geometry functions (Databricks ST_*). The local lakehouse has none. */
  spatial: boolean;
}

export interface CheckIssue {
  /** The offending field, e.g. `arguments.column`, `check_function`, `filter`. */
  path: string;
  message: string;
  /** 400: malformed input (not SQL we accept, wrong shape); 422: well-formed but not valid for this table. */
  status: 400 | 422;
}

export type NormalizeResult = { ok: true; check: DqCheck[]; issues: [] } | { ok: false; issues: CheckIssue[] };

export interface RowScan {
  sql: string;
  /** Alias of COUNT(*) over the whole table. */
  totalAlias: string;
  /** Alias of the count of rows failing at least one error-level row check. */
  errorAnyAlias: string;
  /** Alias of the count of rows failing at least one warn-level row check. */
  warnAnyAlias: string;
  /** Alias of the count of rows failing at least one warn-level and no error-level row check. */
  warnOnlyAlias: string;
  /** One failure-count alias per row-level check, keyed by the check's id (or name when it has no id). */
  checkAliases: { check: string; alias: string }[];
}

export interface DatasetQuery {
  /** The check's id (or name when it has no id). */
  check: string;
  /** One row with one column `failures`: how many of the table's rows fail the check. */
  sql: string;
  /** The DQX function name. */
  kind: string;
}

export interface CompiledRun {
  rowScan: RowScan | null;
  datasetQueries: DatasetQuery[];
  /** At most sampleLimit failing rows, each with every table column plus FAILED_CHECKS_COLUMN. */
  samplesSql: string | null;
}

export interface HistogramBin {
  range_min: number;
  range_max: number;
  count: number;
}

/** One column of a profile. `count` is the table's row count; min/max are numbers, ISO strings or null. */
export interface ColumnProfile {
  name: string;
  type: string;
  count: number;
  nulls: number;
  distinct: number;
  min: number | string | null;
  max: number | string | null;
  mean: number | null;
  stddev: number | null;
  min_length: number | null;
  max_length: number | null;
  avg_length: number | null;
  /** Count of empty (after trim) strings; 0 for non-string columns. Optional for older profiles. */
  empty?: number;
  histogram: { bins: HistogramBin[] };
  top_values: { value: unknown; count: number }[];
}

export interface Profile {
  table_fqn: string;
  row_count: number;
  columns: ColumnProfile[];
  profiled_at?: string;
}

export type DriftType = 'new_column' | 'removed_column' | 'changed_pattern' | 'uncovered';

export interface DriftRecommendation {
  type: DriftType;
  severity: 'info' | 'warning';
  column: string;
  description: string;
  suggested_check?: DqCheck;
  orphan_check_ids?: string[];
}

export interface ProfileDrift {
  table_fqn: string;
  new_columns: string[];
  removed_columns: string[];
  recommendations: DriftRecommendation[];
  total_recommendations: number;
}

export interface YamlImportItem {
  check?: DqCheck;
  status: 'created' | 'rejected';
  /** Position in the file (0-based) and why it was rejected. */
  index: number;
  reason?: string;
}
