import { spec, type Spec } from './catalog-spec';

const AGGR = [
  'column!:column',
  'limit!:number',
  'aggr_type:aggr_type - count (default), sum, avg, min, max, count_distinct, stddev, median, …',
  'group_by:columns - evaluate per group; rows of failing groups fail',
  'aggr_params:object - percentile: {percentile: 0.9}',
];
const REF = 'ref_table:table - catalog.schema.table (ref_df_name needs a Spark DataFrame and is refused)';

/** DQX dataset-level functions: each compiles to its own query whose failing rows count as invalid. */
export const DATASET_FUNCTIONS: Spec[] = [
  spec('is_unique', 'dataset', 'dataset', 'No two rows share the column values', [
    'columns!:columns',
    'nulls_distinct:boolean - nulls never collide (default true)',
  ]),
  spec('is_aggr_not_greater_than', 'dataset', 'dataset', 'Aggregate <= limit', AGGR),
  spec('is_aggr_not_less_than', 'dataset', 'dataset', 'Aggregate >= limit', AGGR),
  spec('is_aggr_equal', 'dataset', 'dataset', 'Aggregate = limit (within tolerances)', [
    ...AGGR,
    'abs_tolerance:number',
    'rel_tolerance:number',
  ]),
  spec('is_aggr_not_equal', 'dataset', 'dataset', 'Aggregate <> limit (beyond tolerances)', [
    ...AGGR,
    'abs_tolerance:number',
    'rel_tolerance:number',
  ]),
  spec('has_no_aggr_outliers', 'dataset', 'dataset', 'Aggregate per time interval within sigma of its history', [
    'column!:column',
    'time_column!:column',
    'aggr_type:aggr_type',
    'sigma:number - default 3',
    'lookback_num_intervals:integer - default 30',
    'warmup_num_intervals:integer - default 7',
    'time_interval:string - minute, hour, day (default), week, month',
    'group_by:columns',
    'aggr_params:object',
  ]),
  spec('aggr_matches_dataset', 'dataset', 'dataset', 'Aggregate equals the same aggregate of a reference table', [
    'column!:column',
    REF,
    'ref_df_name:string',
    'ref_column:column - default: column',
    'aggr_type:aggr_type',
    'group_by:columns',
    'ref_group_by:columns',
    'row_filter:sql_expression',
    'ref_row_filter:sql_expression',
    'abs_tolerance:number',
    'rel_tolerance:number',
  ]),
  spec('foreign_key', 'dataset', 'dataset', 'Values exist in the reference table', [
    'columns!:columns',
    'ref_columns!:columns',
    REF,
    'ref_df_name:string',
    'negate:boolean - values must NOT exist there',
  ]),
  spec('sql_query', 'custom', 'dataset', 'Rows the query flags fail', [
    'query!:sql_query - one SELECT; {{input}} (or input_placeholder) names the checked table',
    'input_placeholder:string - default input',
    'merge_columns:columns - join the query back to rows on these; without them the whole table fails',
    'condition_column!:column - boolean column of the query, true = failure',
    'msg:string',
    'name:string',
    'negate:boolean',
  ]),
  spec('compare_datasets', 'dataset', 'dataset', 'Rows differ from or are missing in the reference table', [
    'columns!:columns - key columns',
    'ref_columns!:columns',
    REF,
    'ref_df_name:string',
    'exclude_columns:columns',
    'check_missing_records:boolean',
    'null_safe_row_matching:boolean',
    'null_safe_column_value_matching:boolean',
  ]),
  spec('is_data_fresh_per_time_window', 'temporal', 'dataset', 'Each window has min_records_per_window rows', [
    'column!:column',
    'window_minutes!:integer',
    'min_records_per_window!:integer',
    'lookback_windows:integer',
    'curr_timestamp:string',
  ]),
  spec('has_no_gaps_per_time_window', 'temporal', 'dataset', 'No empty window between the first and last row', [
    'column!:column',
    'window_minutes!:integer',
    'group_by:columns',
    'trailing_gap:boolean - also count empty windows up to now',
    'curr_timestamp:string',
  ]),
  spec('has_valid_schema', 'schema', 'dataset', 'Table has the expected columns and types', [
    'expected_schema:string - DDL such as `id INT, name STRING`',
    REF,
    'ref_df_name:string',
    'columns:columns - only compare these',
    'strict:boolean - no extra columns, same order',
    'exclude_columns:columns',
  ]),
  spec('has_no_outliers', 'dataset', 'dataset', 'Value within 3 MADs (median absolute deviation) of the median', [
    'column!:column',
  ]),
  spec(
    'has_no_row_anomalies',
    'anomaly',
    'dataset',
    'Row anomaly score below threshold (needs a trained model)',
    ['model_name!:string', 'registry_table!:table', 'threshold:number'],
    ['anomaly_model'],
  ),
];
