/**
 * The environment and flag layers of the configuration, each a partial config tree plus a map from
 * dotted key path to where the value came from (so errors can say "from LAKEWARD_PORT").
 */
export type Tree = { [key: string]: unknown };
export interface Layer {
  values: Tree;
  sources: Map<string, string>;
}

/** Values users change at the command line. Every field is optional; absent means "not given". */
export interface ConfigFlags {
  config?: string;
  dataDir?: string;
  host?: string;
  port?: number | string;
  apiKey?: string;
  temporalAddress?: string;
  temporalPort?: number | string;
  uiPort?: number | string;
  databaseUrl?: string;
  logLevel?: string;
  webPort?: number | string;
  webHost?: string;
  webApiUrl?: string;
}

/** Environment variable → config key. Only variables that are set (and non-empty) count. */
const ENV_KEYS: Record<string, string> = {
  LAKEWARD_DATA_DIR: 'data_dir',
  LAKEWARD_LOG_LEVEL: 'log_level',
  LAKEWARD_HOST: 'api_server.host',
  LAKEWARD_PORT: 'api_server.port',
  LAKEWARD_API_KEY: 'api_server.api_key',
  LAKEWARD_TASK_QUEUE: 'temporal.task_queue',
  LAKEWARD_PREBUNDLED_WORKFLOWS: 'temporal.prebundled_workflows',
  LAKEWARD_WORKSPACE_ROOT: 'workspace.root',
  TEMPORAL_ADDRESS: 'temporal.address',
  TEMPORAL_NAMESPACE: 'temporal.namespace',
  DATABASE_URL: 'database_url',
  DATABRICKS_HOST: 'workspace.host',
  DATABRICKS_TOKEN: 'workspace.token',
  DATABRICKS_WAREHOUSE_ID: 'workspace.warehouse_id',
  LAKEWARD_METRICS_BIND: 'metrics.bind',
  LAKEWARD_WORKER_METRICS_PORT: 'worker.metrics_port',
  LAKEWARD_TEMPORAL_METRICS_PORT: 'worker.temporal_metrics_port',
  LAKEWARD_WORKER_LOCAL_THREADS: 'worker.local_threads',
  LAKEWARD_LOG_FORMAT: 'log_format',
  LAKEWARD_WEB_PORT: 'web.port',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'tracing.otlp_endpoint',
  OTEL_SERVICE_NAME: 'tracing.service_name',
};

const FLAG_KEYS: Record<keyof Omit<ConfigFlags, 'config'>, [string, string]> = {
  dataDir: ['data_dir', '--data-dir'],
  host: ['api_server.host', '--host'],
  port: ['api_server.port', '--port'],
  apiKey: ['api_server.api_key', '--api-key'],
  temporalAddress: ['temporal.address', '--temporal-address'],
  temporalPort: ['temporal.port', '--temporal-port'],
  uiPort: ['temporal.ui_port', '--ui-port'],
  databaseUrl: ['database_url', '--database-url'],
  logLevel: ['log_level', '--log-level'],
  webPort: ['web.port', '--web-port'],
  webHost: ['web.host', '--web-host'],
  webApiUrl: ['web.api_url', '--api-url'],
};

export function setPath(tree: Tree, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = tree;
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) node[key] = {};
    node = node[key] as Tree;
  }
  node[keys[keys.length - 1]] = value;
}

/** Keys whose environment/flag text is a number or boolean; every other value stays text (an API key may be digits). */
const TYPED_KEYS = new Set([
  'api_server.port',
  'temporal.port',
  'temporal.ui_port',
  'temporal.prebundled_workflows',
  'worker.metrics_port',
  'worker.temporal_metrics_port',
  'worker.local_threads',
  'web.port',
]);

/** Whole numbers and true/false become typed, so `LAKEWARD_PORT=abc` fails validation naming the key. */
function scalar(key: string, value: string | number): unknown {
  if (typeof value !== 'string' || !TYPED_KEYS.has(key)) return value;
  if (/^\d+$/.test(value)) return Number(value);
  return value === 'true' ? true : value === 'false' ? false : value;
}

export function envLayer(env: NodeJS.ProcessEnv): Layer {
  const layer: Layer = { values: {}, sources: new Map() };
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    setPath(layer.values, key, scalar(key, raw));
    layer.sources.set(key, `from ${name}`);
  }
  return layer;
}

export function flagLayer(flags: ConfigFlags): Layer {
  const layer: Layer = { values: {}, sources: new Map() };
  for (const [field, [key, flag]] of Object.entries(FLAG_KEYS)) {
    const raw = flags[field as keyof typeof FLAG_KEYS];
    if (raw === undefined) continue;
    setPath(layer.values, key, scalar(key, raw));
    layer.sources.set(key, `from ${flag}`);
  }
  return layer;
}

/** Deep merge of plain objects; arrays and scalars of `over` replace those of `base`. */
export function merge(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prev = out[key];
    const bothObjects = [prev, value].every((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
    out[key] = bothObjects ? merge(prev as Tree, value as Tree) : value;
  }
  return out;
}
