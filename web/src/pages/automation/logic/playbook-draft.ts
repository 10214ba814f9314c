import type { ErrorDetail } from '../../../api/errors';

/**
 * A playbook as the create form holds it (texts), and the request body built from it. Pure logic: each finding
 * names its field the way the server's details do (`actions.1.params.tags`, `trigger_config.cron`).
 */

export interface ParamDraft {
  key: string;
  value: string;
}
export interface ActionDraft {
  type: string;
  on_failure: 'stop' | 'continue';
  params: ParamDraft[];
}
export interface PlaybookDraft {
  name: string;
  description: string;
  trigger_type: string;
  /** schedule trigger */
  cron: string;
  timezone: string;
  /** event triggers: comma-separated table globs, the least severity, job types (job_* triggers) */
  tables: string;
  min_severity: string;
  job_types: string;
  conditions: string;
  max_per_hour: string;
  enabled: boolean;
  actions: ActionDraft[];
}

/** The parameters an action type is usually given (offered as empty rows when the type is chosen). */
export const SUGGESTED_PARAMS: Record<string, string[]> = {
  notify: ['channel', 'message'],
  webhook: ['url', 'secret'],
  pause_schedule: ['schedule_id'],
  resume_schedule: ['schedule_id'],
  tag_table: ['table_fqn', 'tags'],
  run_dq: ['table_fqn'],
  run_pipeline: ['pipeline_id'],
  start_clone: ['source_catalog', 'destination_catalog'],
};

export const newAction = (type: string): ActionDraft => ({
  type,
  on_failure: 'stop',
  params: (SUGGESTED_PARAMS[type] ?? []).map((key) => ({ key, value: '' })),
});

export const EMPTY_PLAYBOOK: PlaybookDraft = {
  name: '',
  description: '',
  trigger_type: 'dq_failure',
  cron: '',
  timezone: 'UTC',
  tables: '',
  min_severity: '',
  job_types: '',
  conditions: '',
  max_per_hour: '5',
  enabled: true,
  actions: [newAction('notify')],
};

/**
 * A parameter's text as the value sent: JSON when it reads as an object, array, number, true, false or null
 * (`{"owner": "dq"}`, `3`), else the text itself (`in_app`, a mustache `{{event.table_fqn}}`). An unreadable
 * `{…` or `[…` is a finding, not a string.
 */
export function paramValue(text: string): { value: unknown } | { error: string } {
  const t = text.trim();
  const jsonish =
    (/^[{[]/.test(t) && !t.startsWith('{{')) ||
    /^(true|false|null)$/.test(t) ||
    /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t);
  if (!jsonish) return { value: text };
  try {
    return { value: JSON.parse(t) as unknown };
  } catch (err) {
    return { error: `not JSON: ${(err as Error).message}` };
  }
}

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** The body of POST /api/playbooks and the findings the form makes itself (parameters). */
export function playbookBody(d: PlaybookDraft): { body: Record<string, unknown>; problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [];
  const actions = d.actions.map((a, i) => {
    const params: Record<string, unknown> = {};
    const seen = new Set<string>();
    a.params.forEach((p, j) => {
      const key = p.key.trim();
      if (!key) {
        if (p.value.trim()) problems.push({ path: `actions.${i}.paramkey.${j}`, message: 'name the parameter' });
        return;
      }
      if (seen.has(key)) return problems.push({ path: `actions.${i}.params.${key}`, message: 'given twice' });
      seen.add(key);
      const v = paramValue(p.value);
      if ('error' in v) problems.push({ path: `actions.${i}.params.${key}`, message: v.error });
      else params[key] = v.value;
    });
    return { type: a.type, on_failure: a.on_failure, params };
  });
  const trigger_config: Record<string, unknown> =
    d.trigger_type === 'schedule'
      ? { cron: d.cron.trim(), timezone: d.timezone.trim() || 'UTC' }
      : {
          ...(list(d.tables).length ? { tables: list(d.tables) } : {}),
          ...(d.min_severity ? { min_severity: d.min_severity } : {}),
          ...(d.trigger_type.startsWith('job_') && list(d.job_types).length ? { job_types: list(d.job_types) } : {}),
        };
  const perHour = paramValue(d.max_per_hour);
  const body = {
    name: d.name.trim(),
    ...(d.description.trim() ? { description: d.description.trim() } : {}),
    trigger_type: d.trigger_type,
    trigger_config,
    ...(d.conditions.trim() ? { conditions: d.conditions.trim() } : {}),
    actions,
    max_executions_per_hour: 'value' in perHour ? perHour.value : d.max_per_hour,
    enabled: d.enabled,
  };
  return { body, problems };
}

/**
 * The form's field for a path: the longest leading part of it that is one of `fields` (`trigger_config.tables.0`
 * → `trigger_config.tables`, a parameter the form has no row for → `actions.0.params`), with what was cut off
 * kept in the message. A path with no such part stays as it is.
 */
export function atField(d: ErrorDetail, fields: Set<string>): ErrorDetail {
  const parts = d.path.split('.');
  for (let n = parts.length; n > 0; n--) {
    const head = parts.slice(0, n).join('.');
    if (!fields.has(head)) continue;
    const rest = parts.slice(n).join('.');
    return { path: head, message: rest ? `${rest}: ${d.message}` : d.message };
  }
  return d;
}

/** Every field path the form has a control (or a group) for, given the draft. */
export function fieldsOf(d: PlaybookDraft): Set<string> {
  const out = [
    'name',
    'description',
    'trigger_type',
    'trigger_config',
    'trigger_config.cron',
    'trigger_config.timezone',
    'trigger_config.tables',
    'trigger_config.min_severity',
    'trigger_config.job_types',
    'conditions',
    'max_executions_per_hour',
    'actions',
  ];
  d.actions.forEach((a, i) => {
    out.push(`actions.${i}`, `actions.${i}.type`, `actions.${i}.on_failure`, `actions.${i}.params`);
    a.params.forEach((p, j) => {
      out.push(`actions.${i}.paramkey.${j}`);
      if (p.key.trim()) out.push(`actions.${i}.params.${p.key.trim()}`);
    });
  });
  return new Set(out);
}
