/**
 * The clone wizard's controls, derived from the `POST /api/clone` request schema of the server's OpenAPI document:
 * every property gets a labelled control of the kind its schema calls for, in a group. A property the group table
 * does not name still gets a control (under "Other"), so a field added to the API is never left without one.
 */
export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'enum' | 'list' | 'json';

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  $ref?: string;
}

export interface CloneField {
  name: string;
  label: string;
  kind: FieldKind;
  group: string;
  options?: string[];
  required: boolean;
  description?: string;
}

export const GROUPS: Record<string, readonly string[]> = {
  'Source and destination': ['source_catalog', 'destination_catalog', 'template', 'warehouse_id', 'dry_run'],
  'Clone type and load': [
    'clone_type',
    'load_type',
    'as_of_timestamp',
    'as_of_version',
    'source_snapshot_id',
    'target_format',
    'iceberg_physical',
    'location',
    'serverless',
  ],
  'What to clone': [
    'include_schemas',
    'exclude_schemas',
    'include_tables_regex',
    'exclude_tables_regex',
    'include_objects',
    'clone_views',
    'clone_functions',
    'clone_volumes',
    'include_dependencies',
    'volume',
    'volume_max_file_mb',
    'max_tables',
    'where_clauses',
    'order_by_size',
  ],
  Metadata: [
    'copy_permissions',
    'copy_ownership',
    'copy_tags',
    'copy_properties',
    'copy_security',
    'copy_constraints',
    'copy_comments',
    'clone_tbl_properties',
  ],
  'Performance and limits': [
    'max_workers',
    'parallel_tables',
    'max_rps',
    'max_duration_min',
    'throttle',
    'enable_retry',
    'quiesce_source',
  ],
  'Safety and validation': [
    'enable_rollback',
    'auto_rollback',
    'rollback_threshold',
    'validate_after_clone',
    'validate_checksum',
    'compare_dq_after_clone',
    'dq_drift_rollback_pct',
    'dq_gate',
  ],
  Masking: ['auto_mask_pii', 'pii_mask_strategy', 'pii_mask_rules'],
  'Other workspaces': ['target_workspace', 'target_workspaces'],
};

const groupOf = (name: string) => Object.entries(GROUPS).find(([, names]) => names.includes(name))?.[0] ?? 'Other';

const typeOf = (s: JsonSchema): string | undefined =>
  Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;

export function kindOf(s: JsonSchema): FieldKind {
  if (s.enum) return 'enum';
  const t = typeOf(s);
  if (t === 'boolean') return 'boolean';
  if (t === 'integer') return 'integer';
  if (t === 'number') return 'number';
  if (t === 'array') return s.items && typeOf(s.items) === 'string' && !s.items.enum ? 'list' : 'json';
  if (t === 'object' || s.$ref) return 'json';
  return 'text';
}

export const labelOf = (name: string) =>
  (name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' '))
    .replace(/\bid\b/gi, 'ID')
    .replace(/\bpii\b/gi, 'PII')
    .replace(/\bdq\b/gi, 'DQ')
    .replace(/\brps\b/gi, 'RPS')
    .replace(/\bmb\b/gi, 'MB');

export function cloneFields(schema: JsonSchema): CloneField[] {
  const required = new Set(schema.required ?? []);
  const order = Object.values(GROUPS).flat();
  const rank = (n: string) => (order.includes(n) ? order.indexOf(n) : order.length);
  return Object.entries(schema.properties ?? {})
    .map(([name, s]) => ({
      name,
      label: labelOf(name),
      kind: kindOf(s),
      group: groupOf(name),
      options: s.enum?.map(String),
      required: required.has(name),
      description: s.description,
    }))
    .sort((a, b) => rank(a.name) - rank(b.name));
}

/** The request body of a POST /api/clone operation in an OpenAPI document. */
export function cloneRequestSchema(doc: { paths?: Record<string, Record<string, unknown>> }): JsonSchema | undefined {
  const op = doc.paths?.['/api/clone']?.post as
    { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } } | undefined;
  return op?.requestBody?.content?.['application/json']?.schema;
}

/** A control's text → the request value (undefined: leave the field out); throws with a message for bad text. */
export function parseFieldValue(field: CloneField, text: string | boolean): unknown {
  if (field.kind === 'boolean') return text === true;
  const s = String(text).trim();
  if (s === '') return undefined;
  switch (field.kind) {
    case 'integer':
    case 'number': {
      const n = Number(s);
      if (Number.isNaN(n)) throw new Error('must be a number');
      return n;
    }
    case 'list':
      return s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
    case 'json':
      try {
        return JSON.parse(s) as unknown;
      } catch {
        throw new Error('must be JSON');
      }
    default:
      return s;
  }
}

/** A request value → the control's text. */
export function formatFieldValue(field: CloneField, value: unknown): string | boolean {
  if (field.kind === 'boolean') return value === true;
  if (value === undefined || value === null) return '';
  if (field.kind === 'list' && Array.isArray(value)) return value.join(', ');
  if (field.kind === 'json') return JSON.stringify(value);
  return String(value);
}
