import { z } from 'zod';
import { DEFAULT_TASK_QUEUE } from '../workflows/task-queues';
import { RoleSchema } from '../schemas/governance';
import { DqGateConfigSchema } from '../schemas/data-quality';
import { costSchema } from './cost';

/**
 * The service configuration: one YAML file (`config/lakeward.yaml`), environment variables and flags.
 * Every object is strict, so a misspelt key fails start-up naming it instead of being ignored.
 */
const port = z.number().int().min(1).max(65535);
const nullableString = z.string().min(1).nullable().default(null);

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const apiServerSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: port.default(8080),
  /** The key clients send as `Authorization: Bearer <key>`; null turns authentication off. */
  api_key: nullableString,
  /** Name of an environment variable holding the key (used when api_key is null). */
  api_key_env: nullableString,
  /** Named keys with a role each (the single api_key is an admin key); none at all turns authentication off. */
  keys: z
    .array(
      z
        .strictObject({
          name: z.string().regex(/^[A-Za-z0-9_.@-]{1,100}$/, 'expected letters, digits, _ . @ -'),
          key: nullableString,
          key_env: nullableString,
          role: RoleSchema,
        })
        .refine((k) => (k.key === null) !== (k.key_env === null), 'set exactly one of key and key_env'),
    )
    .default([])
    .refine((keys) => new Set(keys.map((k) => k.name)).size === keys.length, 'key names must be unique'),
  cors_origins: z.array(z.string().min(1)).default(['http://localhost:8000']),
  /** Largest accepted JSON body, in the `bytes` notation Express understands (`1mb`, `512kb`). */
  json_limit: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'expected a size like 512kb or 1mb')
    .default('1mb'),
});

const temporalSchema = z.strictObject({
  /** host:port of a Temporal cluster; null starts the embedded dev server (`lakeward dev`). */
  address: nullableString,
  namespace: z.string().min(1).default('default'),
  task_queue: z.string().min(1).default(DEFAULT_TASK_QUEUE),
  /** gRPC port of the embedded dev server. */
  port: port.default(7233),
  /** Web UI port of the embedded dev server. */
  ui_port: port.default(8233),
  /**
   * Base URL of the Temporal Web UI that job pages link to (`<ui_url>/namespaces/<ns>/workflows/<job_id>`);
   * null: the embedded dev server's UI (`http://localhost:<ui_port>`) when address is null, else none.
   */
  ui_url: z.url().nullable().default(null),
  /** Use the pre-built workflow bundle (dist/workflow-bundle.js) when present instead of bundling from source. */
  prebundled_workflows: z.boolean().default(false),
});

const workspaceSchema = z.strictObject({
  kind: z.enum(['local', 'databricks']).default('local'),
  /** Root folder of the local lakehouse; null means `<data_dir>/workspace`. */
  root: nullableString,
  host: nullableString,
  token: nullableString,
  warehouse_id: nullableString,
  auth_method: z.enum(['token', 'service_principal', 'profile']).default('token'),
  client_id: nullableString,
  client_secret: nullableString,
  tenant_id: nullableString,
  profile: nullableString,
});

/** An IANA zone name the runtime knows (`UTC`, `Europe/Berlin`); Intl throws a RangeError for any other. */
const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const cloneSchema = z.strictObject({
  max_workers: z.number().int().min(1).max(64).default(4),
  parallel_tables: z.number().int().min(1).max(64).default(1),
  max_retries: z.number().int().min(0).max(20).default(3),
  max_concurrent: z.number().int().min(1).default(1),
  max_queue_size: z.number().int().min(0).default(10),
  request_timeout_minutes: z.number().int().min(1).default(120),
  rollback_threshold: z.number().min(0).nullable().default(null),
  max_rps: z.number().min(0).default(0),
  volume_max_file_mb: z.number().int().min(1).default(500),
  dq_drift_rollback_pct: z.number().min(0).max(100).default(5),
  /** Quality gate of every clone (a request or template dq_gate replaces it); null: no gate. */
  dq_gate: DqGateConfigSchema.nullable().default(null),
  /** Targets of one fan-out clone (target_workspaces, POST /api/multi-clone) that run at once. */
  fanout_max_parallel: z.number().int().min(1).max(64).default(4),
  /** Warehouse used when a request names none. */
  warehouse_id: nullableString,
  /** Time zone that throttle schedule windows (`22:00-06:00`, `sat,sun`) are read in; every worker reads the same. */
  throttle_timezone: z
    .string()
    .min(1)
    .refine(isTimeZone, 'expected an IANA time zone such as UTC or Europe/Berlin')
    .default('UTC'),
});

/** Data-quality operations: anomaly detection over each DQ run's metrics. */
const dataQualitySchema = z.strictObject({
  /** Days of observations in a metric's rolling baseline. */
  anomaly_baseline_days: z.number().int().min(1).max(3650).default(30),
  /** A metric outside mean ± k·σ of its baseline is anomalous. */
  anomaly_k: z.number().positive().max(100).default(3),
  /** Nothing is flagged until the baseline holds this many observations. */
  anomaly_min_baseline_samples: z.number().int().min(1).max(100000).default(14),
});

/** AI explanations: an external model API and, for the local lakehouse, named OpenAI-compatible endpoints. */
const aiSchema = z.strictObject({
  /** Used when a request names no serving endpoint (X-Databricks-Model); null → template answers only. */
  external: z
    .strictObject({
      provider: z.enum(['openai', 'anthropic']).default('openai'),
      /** OpenAI-compatible base URL (default https://api.openai.com/v1) or Anthropic's (https://api.anthropic.com). */
      base_url: z.url().nullable().default(null),
      api_key: z.string().nullable().default(null),
      /** Name of an environment variable holding the key (instead of api_key). */
      api_key_env: z.string().nullable().default(null),
      model: z.string().min(1),
    })
    .nullable()
    .default(null),
  /** Serving endpoint name → OpenAI-compatible base URL, for X-Databricks-Model on the local lakehouse. */
  local_serving_endpoints: z.record(z.string().min(1).max(255), z.url()).default({}),
});

/** Playbooks: outgoing webhooks, e-mail and the key that seals action secrets at rest. */
const automationSchema = z.strictObject({
  /** AES-256-GCM key for webhook and SMTP secrets in playbooks (as targets.credentials_key; null → that key). */
  secrets_key: z.string().nullable().default(null),
  webhooks: z
    .strictObject({
      /** Refuse webhook URLs that resolve to loopback, private or link-local addresses. */
      deny_private_networks: z.boolean().default(false),
      timeout_seconds: z.number().int().min(1).max(60).default(10),
      max_attempts: z.number().int().min(1).max(10).default(5),
    })
    .prefault({}),
  /** SMTP server for notify actions with channel email (nodemailer); null host → e-mail is refused. */
  smtp: z
    .strictObject({
      host: z.string().min(1).nullable().default(null),
      port: port.default(587),
      secure: z.boolean().default(false),
      user: z.string().nullable().default(null),
      password: z.string().nullable().default(null),
      from: z.string().min(3).default('lakeward@localhost'),
    })
    .prefault({}),
});

/** OpenTelemetry traces: off unless an OTLP endpoint is set (here or OTEL_EXPORTER_OTLP_ENDPOINT). */
const tracingSchema = z.strictObject({
  /** Base URL of an OTLP/HTTP collector (`http://collector:4318`); spans go to `<endpoint>/v1/traces`. */
  otlp_endpoint: z.url().nullable().default(null),
  /** `service.name` of every span (OTEL_SERVICE_NAME). */
  service_name: z.string().min(1).default('lakeward'),
});

/** A TCP port, or null/0 for "not served". */
const optionalPort = z.number().int().min(0).max(65535).nullable();

/** Prometheus metrics of the API process (see the README's Metrics section). */
const metricsSchema = z.strictObject({
  /**
   * `host:port` of a separate listener that serves `GET /metrics` without the API key (for a scraper on a private
   * network); null serves `/metrics` on the API port, behind the API key like every route except health.
   */
  bind: z
    .string()
    .regex(/^[^\s:]+:\d{1,5}$/, 'expected host:port, e.g. 0.0.0.0:9464')
    .nullable()
    .default(null),
});

/** The web console's server (`lakeward web`, and `lakeward dev` beside the API). */
const webSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: port.default(8000),
  /** The API that `/api` and its WebSockets are proxied to; null: this configuration's api_server address. */
  api_url: z.url().nullable().default(null),
});

/** A worker process's own endpoints. */
const workerSchema = z.strictObject({
  /** Address the worker's metrics server listens on. */
  metrics_host: z.string().min(1).default('127.0.0.1'),
  /** Port of the worker's `GET /metrics` (Lakeward and Temporal SDK series); 0 or null: no metrics server. */
  metrics_port: optionalPort.default(9464),
  /**
   * Loopback port the Temporal SDK's own Prometheus exporter binds (Runtime telemetry); the worker's `/metrics`
   * merges it in. 0 or null: no SDK metrics.
   */
  temporal_metrics_port: optionalPort.default(9465),
  /**
   * Threads (in a process that runs a worker) that run the local lakehouse's metadata calls and shallow clones, so
   * their synchronous file-system work leaves the main thread (Temporal, the store, other activities); 0: none.
   */
  local_threads: z.number().int().min(0).max(16).default(2),
});

export const configSchema = z.strictObject({
  data_dir: z.string().min(1).default('.lakeward'),
  log_level: z.enum(LOG_LEVELS).default('info'),
  /** `json` (pino lines) or `pretty` (one readable line each); null: pretty in `lakeward dev` on a terminal. */
  log_format: z.enum(['json', 'pretty']).nullable().default(null),
  /** postgres://… selects a Postgres server; null keeps the embedded PGlite store in `<data_dir>/pglite`. */
  database_url: nullableString,
  api_server: apiServerSchema.prefault({}),
  temporal: temporalSchema.prefault({}),
  workspace: workspaceSchema.prefault({}),
  clone: cloneSchema.prefault({}),
  data_quality: dataQualitySchema.prefault({}),
  automation: automationSchema.prefault({}),
  ai: aiSchema.prefault({}),
  cache: z.strictObject({ ttl_seconds: z.number().int().min(0).default(300) }).prefault({}),
  /** Ed25519 signing key for clone provenance (PEM; may be `${ENV_NAME}`); null → generated in the data folder. */
  provenance: z.strictObject({ private_key: z.string().nullable().default(null) }).prefault({}),
  /** Signing in to a workspace (`/api/auth/*`): server-side sessions behind an HttpOnly cookie. */
  auth: z
    .strictObject({
      /** AES-256-GCM key for session rows (as targets.credentials_key; null → that key, else the key file). */
      session_key: z.string().nullable().default(null),
      /** A session unused this long ends. */
      idle_hours: z
        .number()
        .positive()
        .max(24 * 30)
        .default(12),
      /** A session ends this long after sign-in, however much it is used. */
      absolute_days: z.number().positive().max(365).default(7),
      /** The role a signed-in session has when API keys are configured and no key is sent (keys always win). */
      session_role: z.enum(['viewer', 'editor', 'steward', 'admin']).default('viewer'),
      /** The cookie's Secure flag: auto = when the request came over https (or a trusted proxy says so). */
      cookie_secure: z.union([z.boolean(), z.literal('auto')]).default('auto'),
      /** Entra ID authority for cloud (Azure) service principals; sovereign clouds differ. */
      azure_authority_host: z.string().url().default('https://login.microsoftonline.com'),
      /** OAuth user login (U2M): the OAuth app's client id (Databricks' public CLI client by default). */
      oauth_client_id: z.string().min(1).default('databricks-cli'),
      /** Where the workspace sends the browser back; null → `<this API>/api/auth/oauth-callback` from the request. */
      oauth_redirect_url: z.string().url().nullable().default(null),
      /** Azure Resource Manager for the Azure CLI wizard (`/api/auth/cloud/*`); sovereign clouds differ. */
      azure_management_url: z.string().url().default('https://management.azure.com'),
    })
    .prefault({}),
  /** Saved target connections: AES-256-GCM key for their credentials (text; null → a key file in the data folder). */
  targets: z.strictObject({ credentials_key: z.string().nullable().default(null) }).prefault({}),
  metrics: metricsSchema.prefault({}),
  web: webSchema.prefault({}),
  /** Prices of the usage ledger (see config/cost.ts). */
  cost: costSchema.prefault({}),
  worker: workerSchema.prefault({}),
  tracing: tracingSchema.prefault({}),
  /** Master data management: the catalog whose `mdm` schema holds source records, match pairs and golden records. */
  mdm: z
    .strictObject({
      catalog: z.string().min(1).max(255).default('clone_audit'),
      /** A match run whose blocking rules would build more candidate pairs fails before comparing any. */
      max_candidate_pairs: z.number().int().min(1).default(50_000_000),
      /** Holidays skipped by stewardship SLAs besides weekends: a date-holidays code (US, GB, DE-BY); '' = none. */
      sla_calendar: z.string().max(32).default('US'),
    })
    .prefault({}),
});

/** The validated configuration, with relative paths still as written (see `loadConfig` for resolution). */
export type LakewardConfig = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
