import { DATASET_FUNCTIONS } from './catalog-dataset';
import { GEO_FUNCTIONS } from './catalog-geo';
import { ROW_FUNCTIONS } from './catalog-row';
import type { CheckFunction } from './types';

/** Every canonical DQX check function (87), in DQX's documentation order by group. */
export const CHECK_FUNCTIONS: readonly CheckFunction[] = [...ROW_FUNCTIONS, ...GEO_FUNCTIONS, ...DATASET_FUNCTIONS];

const BY_NAME = new Map(CHECK_FUNCTIONS.map((f) => [f.name, f]));

export function findCheckFunction(name: string): CheckFunction | undefined {
  return BY_NAME.get(name);
}

/**
 * Clone-Xs argument names → DQX names, per function (Clone-Xs stored checks DQX itself would reject).
 * `*` applies to every function.
 */
export const CLONE_XS_ALIASES: Record<string, Record<string, string>> = {
  is_not_in_list: { not_allowed: 'forbidden' },
  regex_match: { pattern: 'regex' },
  is_ipv4_address_in_cidr: { cidr: 'cidr_block' },
  is_ipv6_address_in_cidr: { cidr: 'cidr_block' },
  is_older_than_col2_for_n_days: { column: 'column1' },
  is_data_fresh: { freshness: 'max_age_minutes' },
  foreign_key: { column: 'columns', ref_column: 'ref_columns', ref_df_name: 'ref_table' },
  is_data_fresh_per_time_window: { window: 'window_minutes', min_count: 'min_records_per_window' },
  is_aggr_equal: { expected: 'limit' },
  is_aggr_not_equal: { not_expected: 'limit' },
  compare_datasets: { ref_df_name: 'ref_table' },
  does_not_contain_pii: { pii_types: 'entities' },
};
