import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { unwrap, type ErrorDetail } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView, FieldErrorSummary } from '../../shell/ErrorView';
import { createRequestValidator } from '../clone/validate';
import { fieldDetails, subSchema, under } from '../forms/nested';
import { ActionButton, Field, requestSchemaOf, textFields, useFieldErrors } from '../quality/form';
import { ActionsEditor } from './ActionsEditor';
import { atField, EMPTY_PLAYBOOK, fieldsOf, playbookBody, type PlaybookDraft } from './logic/playbook-draft';

const SEVERITIES = ['info', 'warning', 'error', 'critical'];
const enumOf = (s: object | undefined) => ((s as { enum?: string[] } | undefined)?.enum ?? []).map(String);

/**
 * A new playbook from scratch (POST /api/playbooks): name, trigger and its configuration, an optional CEL
 * condition, the actions (add, remove, each one's type, parameters and what a failure does). The trigger and
 * action types are the server schema's; ajv checks the body and each action before sending, the server's
 * findings land at their fields.
 */
export function PlaybookForm() {
  const { api, doc } = useConsole();
  const qc = useQueryClient();
  const [d, setD] = useState<PlaybookDraft>(EMPTY_PLAYBOOK);
  const set = (patch: Partial<PlaybookDraft>) => setD((x) => ({ ...x, ...patch }));
  const errors = useFieldErrors();
  const { root, action, triggers, actionTypes } = useMemo(() => {
    const body = requestSchemaOf(doc, '/api/playbooks');
    const act = subSchema(doc, body, 'actions', '[]');
    return {
      root: body ? createRequestValidator(doc, body) : null,
      action: act ? createRequestValidator(doc, act) : null,
      triggers: enumOf(subSchema(doc, body, 'trigger_type')),
      actionTypes: enumOf(subSchema(doc, body, 'actions', '[]', 'type')),
    };
  }, [doc]);
  const show = (details: ErrorDetail[]) => {
    const fields = fieldsOf(d);
    errors.show(details.map((x) => atField(x, fields)));
  };
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => unwrap(api.client.POST('/api/playbooks', { body: body as never })),
    onSuccess: () => {
      setD(EMPTY_PLAYBOOK);
      errors.clear();
      void qc.invalidateQueries({ queryKey: ['playbooks'] });
    },
    onError: (err) => {
      const details = fieldDetails(err);
      if (details) show(details);
    },
  });
  const submit = () => {
    const { body, problems } = playbookBody(d);
    const actions = body.actions as Record<string, unknown>[];
    const found = [
      ...(root?.(body) ?? []).filter((p) => p.path !== 'actions' || actions.length === 0),
      ...actions.flatMap((a, i) => under(`actions.${i}`, action?.(a) ?? [])),
      ...problems,
    ];
    if (found.length) return show(found);
    errors.clear();
    create.mutate(body);
  };
  const text = textFields(errors);
  return (
    <form
      noValidate
      aria-labelledby="playbook-scratch-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h3 id="playbook-scratch-title">New playbook from scratch</h3>
      <FieldErrorSummary details={errors.errors} labelOf={(p) => p.replace(/\./g, ' ')} />
      {create.isError && !errors.errors.length && <ErrorView error={create.error} onRetry={submit} />}
      {create.isSuccess && (
        <p role="status" data-testid="playbook-created">
          ✓ Created the playbook {create.data.name} ({create.data.playbook_id})
        </p>
      )}
      <div className="row-actions">
        {text('name', 'Name (required)', d.name, (v) => set({ name: v }))}
        {text('description', 'Description (optional)', d.description, (v) => set({ description: v }))}
      </div>
      <fieldset>
        <legend>Trigger: what starts it</legend>
        <div className="row-actions">
          <Field name="trigger_type" label="Event or schedule" errors={errors}>
            {(p) => (
              <select {...p} value={d.trigger_type} onChange={(e) => set({ trigger_type: e.target.value })}>
                {triggers.map((t) => (
                  <option key={t} value={t}>
                    {t.replace(/_/g, ' ')}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {d.trigger_type === 'schedule' ? (
            <>
              {text(
                'trigger_config.cron',
                'Cron expression (required)',
                d.cron,
                (v) => set({ cron: v }),
                'minute hour day-of-month month day-of-week, e.g. 0 6 * * *',
              )}
              {text('trigger_config.timezone', 'Time zone (IANA)', d.timezone, (v) => set({ timezone: v }))}
            </>
          ) : (
            <>
              {text(
                'trigger_config.tables',
                'Only these tables (optional)',
                d.tables,
                (v) => set({ tables: v }),
                'comma-separated catalog.schema.table, * as a wildcard',
              )}
              <Field name="trigger_config.min_severity" label="Least severity" errors={errors}>
                {(p) => (
                  <select {...p} value={d.min_severity} onChange={(e) => set({ min_severity: e.target.value })}>
                    <option value="">any</option>
                    {SEVERITIES.map((s) => (
                      <option key={s}>{s}</option>
                    ))}
                  </select>
                )}
              </Field>
              {d.trigger_type.startsWith('job_') &&
                text('trigger_config.job_types', 'Only these job types (optional)', d.job_types, (v) =>
                  set({ job_types: v }),
                )}
            </>
          )}
        </div>
        <div className="row-actions">
          {text(
            'conditions',
            'Condition (optional CEL over event)',
            d.conditions,
            (v) => set({ conditions: v }),
            'e.g. event.severity == "critical"; empty: always',
          )}
        </div>
      </fieldset>
      <ActionsEditor actions={d.actions} types={actionTypes} errors={errors} onChange={(actions) => set({ actions })} />
      <div className="row-actions">
        {text('max_executions_per_hour', 'Runs per hour at most', d.max_per_hour, (v) => set({ max_per_hour: v }))}
        <label className="field checkbox">
          <input type="checkbox" checked={d.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          Enabled
        </label>
      </div>
      <ActionButton type="submit" operation="post /api/playbooks" disabled={create.isPending}>
        Create this playbook
      </ActionButton>
    </form>
  );
}
