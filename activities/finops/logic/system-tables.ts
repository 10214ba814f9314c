/** The local lakehouse's system tables: Databricks' names and columns (the subset Lakeward derives). */
export const SYSTEM_CATALOG = 'system';

export const SYSTEM_TABLES = {
  usage: {
    ref: { catalog: SYSTEM_CATALOG, schema: 'billing', name: 'usage' },
    key: 'record_id',
    columns: [
      ['record_id', 'STRING'],
      ['account_id', 'STRING'],
      ['workspace_id', 'STRING'],
      ['sku_name', 'STRING'],
      ['cloud', 'STRING'],
      ['usage_start_time', 'TIMESTAMP'],
      ['usage_end_time', 'TIMESTAMP'],
      ['usage_date', 'DATE'],
      ['custom_tags', 'MAP<STRING,STRING>'],
      ['usage_unit', 'STRING'],
      ['usage_quantity', 'DECIMAL(38,18)'],
      ['usage_metadata', 'STRUCT<warehouse_id:STRING,job_id:STRING,job_run_id:STRING>'],
      ['identity_metadata', 'STRUCT<run_as:STRING>'],
      ['record_type', 'STRING'],
      ['ingestion_date', 'DATE'],
      ['billing_origin_product', 'STRING'],
      ['usage_type', 'STRING'],
    ],
  },
  list_prices: {
    ref: { catalog: SYSTEM_CATALOG, schema: 'billing', name: 'list_prices' },
    key: 'record_id',
    columns: [
      ['price_start_time', 'TIMESTAMP'],
      ['price_end_time', 'TIMESTAMP'],
      ['account_id', 'STRING'],
      ['sku_name', 'STRING'],
      ['cloud', 'STRING'],
      ['currency_code', 'STRING'],
      ['usage_unit', 'STRING'],
      ['pricing', 'STRUCT<default:DECIMAL(38,18)>'],
      ['record_id', 'STRING'],
    ],
  },
  warehouses: {
    ref: { catalog: SYSTEM_CATALOG, schema: 'compute', name: 'warehouses' },
    key: 'record_id',
    columns: [
      ['warehouse_id', 'STRING'],
      ['workspace_id', 'STRING'],
      ['account_id', 'STRING'],
      ['warehouse_name', 'STRING'],
      ['warehouse_type', 'STRING'],
      ['warehouse_channel', 'STRING'],
      ['warehouse_size', 'STRING'],
      ['min_clusters', 'INT'],
      ['max_clusters', 'INT'],
      ['auto_stop_minutes', 'INT'],
      ['tags', 'MAP<STRING,STRING>'],
      ['change_time', 'TIMESTAMP'],
      ['delete_time', 'TIMESTAMP'],
      ['record_id', 'STRING'],
    ],
  },
  warehouse_events: {
    ref: { catalog: SYSTEM_CATALOG, schema: 'compute', name: 'warehouse_events' },
    key: 'record_id',
    columns: [
      ['account_id', 'STRING'],
      ['workspace_id', 'STRING'],
      ['warehouse_id', 'STRING'],
      ['event_type', 'STRING'],
      ['cluster_count', 'INT'],
      ['event_time', 'TIMESTAMP'],
      ['record_id', 'STRING'],
    ],
  },
  /**
   * The subset of Databricks' query history the job-costs view reads. Locally one row stands for one span a job
   * held a warehouse (its first cluster taken → its last released), tagged as the Databricks adapter tags a job's
   * statements; the key is statement_id (the table has no record_id on Databricks either).
   */
  query_history: {
    ref: { catalog: SYSTEM_CATALOG, schema: 'query', name: 'history' },
    key: 'statement_id',
    columns: [
      ['account_id', 'STRING'],
      ['workspace_id', 'STRING'],
      ['statement_id', 'STRING'],
      ['session_id', 'STRING'],
      ['execution_status', 'STRING'],
      ['compute', 'STRUCT<type:STRING,cluster_id:STRING,warehouse_id:STRING>'],
      ['executed_by', 'STRING'],
      ['statement_text', 'STRING'],
      ['statement_type', 'STRING'],
      ['client_application', 'STRING'],
      ['total_duration_ms', 'BIGINT'],
      ['execution_duration_ms', 'BIGINT'],
      ['start_time', 'TIMESTAMP'],
      ['end_time', 'TIMESTAMP'],
    ],
  },
} as const;

export type SystemTableName = keyof typeof SYSTEM_TABLES;
