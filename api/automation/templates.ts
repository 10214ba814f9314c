import type { PlaybookBody } from '../../schemas/automation';

/**
 * Four ready playbooks; each runs for real once its placeholders (a receiver URL and secret, a schedule id) are
 * filled in. POST /api/playbooks with a template's `playbook` (edited) creates it; the templates never change.
 */
export const PLAYBOOK_TEMPLATES: { template_id: string; name: string; description: string; playbook: PlaybookBody }[] =
  [
    {
      template_id: 'dq-failure-notify',
      name: 'DQ failure → notify and call a webhook',
      description: 'A failed quality gate, blocking rule or scheduled DQ run notifies in-app and posts to a receiver',
      playbook: {
        name: 'DQ failure → notify',
        description: 'Notifies and posts the event when data quality fails',
        trigger_type: 'dq_failure',
        trigger_config: { min_severity: 'error' },
        conditions: '',
        actions: [
          {
            type: 'notify',
            params: { channel: 'in_app', message: 'DQ failure on {{event.table_fqn}}: {{event.message}}' },
            on_failure: 'continue',
          },
          {
            type: 'webhook',
            params: { url: 'https://example.invalid/hooks/dq', secret: 'whsec_REPLACE_WITH_BASE64_SECRET' },
            on_failure: 'stop',
          },
        ],
        max_executions_per_hour: 5,
        enabled: true,
      },
    },
    {
      template_id: 'anomaly-rerun-checks',
      name: 'Anomaly → rerun checks',
      description: "A critical anomaly reruns the table's DQ checks and tags it for review",
      playbook: {
        name: 'Anomaly → rerun checks',
        description: 'Reruns the checks of the table whose metric jumped',
        trigger_type: 'anomaly',
        trigger_config: { min_severity: 'warning' },
        conditions: 'event.table_fqn != null',
        actions: [
          { type: 'run_dq', params: { table_fqn: '{{event.table_fqn}}' }, on_failure: 'continue' },
          {
            type: 'tag_table',
            params: { table_fqn: '{{event.table_fqn}}', tags: { dq_review: 'anomaly' } },
            on_failure: 'continue',
          },
        ],
        max_executions_per_hour: 5,
        enabled: true,
      },
    },
    {
      template_id: 'clone-failure-pause',
      name: 'Clone failure → pause its schedule and notify',
      description: 'A failed clone job pauses a schedule (fill in its id) and notifies',
      playbook: {
        name: 'Clone failure → pause schedule',
        description: 'Stops a scheduled clone from failing again until someone looks',
        trigger_type: 'job_failed',
        trigger_config: { job_types: ['clone'] },
        conditions: '',
        actions: [
          { type: 'pause_schedule', params: { schedule_id: 'REPLACE_WITH_SCHEDULE_ID' }, on_failure: 'continue' },
          {
            type: 'notify',
            params: { channel: 'in_app', message: 'Clone {{event.job_id}} failed: {{event.error}}' },
            on_failure: 'continue',
          },
        ],
        max_executions_per_hour: 5,
        enabled: true,
      },
    },
    {
      template_id: 'schema-drift-tag',
      name: 'Schema drift → tag and notify',
      description: 'A drifted table is tagged schema_drift=true and a notification names it',
      playbook: {
        name: 'Schema drift → tag',
        description: 'Marks tables whose schema changed under a clone',
        trigger_type: 'schema_drift',
        trigger_config: {},
        conditions: '',
        actions: [
          {
            type: 'tag_table',
            params: { table_fqn: '{{event.table_fqn}}', tags: { schema_drift: 'true' } },
            on_failure: 'continue',
          },
          {
            type: 'notify',
            params: { channel: 'in_app', message: 'Schema drift on {{event.table_fqn}}' },
            on_failure: 'continue',
          },
        ],
        max_executions_per_hour: 5,
        enabled: true,
      },
    },
  ];
