import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { unwrap, type ErrorDetail } from '../../api/errors';
import type { components } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView, FieldErrorSummary } from '../../shell/ErrorView';
import { createRequestValidator } from '../clone/validate';
import { fieldDetails, subSchema, under } from '../forms/nested';
import { ActionButton, Field, requestSchemaOf, textFields, useFieldErrors } from '../quality/form';

type Body = components['schemas']['ScheduleConfig'];
type View = components['schemas']['ScheduleView'];

interface Draft {
  name: string;
  when: 'cron' | 'interval';
  cron: string;
  interval: string;
  timezone: string;
  source: string;
  destination: string;
  clone_type: 'DEEP' | 'SHALLOW';
  schemas: string;
  drift_check: boolean;
  enabled: boolean;
}
const EMPTY: Draft = {
  name: '',
  when: 'cron',
  cron: '',
  interval: '',
  timezone: 'UTC',
  source: '',
  destination: '',
  clone_type: 'DEEP',
  schemas: '',
  drift_check: false,
  enabled: true,
};

const LABELS: Record<string, string> = {
  name: 'Name',
  'schedule.cron': 'Cron expression',
  'schedule.interval': 'Interval',
  'schedule.timezone': 'Time zone',
  'clone_options.source_catalog': 'Source catalog',
  'clone_options.destination_catalog': 'Destination catalog',
  'clone_options.include_schemas': 'Only these schemas',
};

/** The request body from the form (what is left empty is left out, so the server's defaults apply). */
export function scheduleBody(d: Draft): Body {
  const schemas = d.schemas
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    ...(d.name.trim() ? { name: d.name.trim() } : {}),
    schedule: {
      ...(d.when === 'cron' ? { cron: d.cron.trim() } : { interval: d.interval.trim() }),
      timezone: d.timezone.trim() || 'UTC',
      drift_check: d.drift_check,
      enabled: d.enabled,
    },
    clone_options: {
      source_catalog: d.source,
      destination_catalog: d.destination.trim(),
      clone_type: d.clone_type,
      ...(schemas.length ? { include_schemas: schemas } : {}),
    },
  } as Body;
}

/**
 * A new clone schedule from scratch (POST /api/schedule): every field of the request a labelled control,
 * pre-validated with ajv against the server's ScheduleConfig schema (its parts, so a finding names its field);
 * the cron expression is checked by the server and its error shown at the field.
 */
export function ScheduleForm({ onCreated }: { onCreated: (s: View) => void }) {
  const { api, doc } = useConsole();
  const qc = useQueryClient();
  const [d, setD] = useState<Draft>(EMPTY);
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const errors = useFieldErrors();
  const catalogs = useQuery({ queryKey: ['catalogs'], queryFn: () => unwrap(api.client.GET('/api/catalogs')) });
  const validate = useMemo(() => {
    const root = requestSchemaOf(doc, '/api/schedule');
    const part = (key: string) => {
      const s = subSchema(doc, root, key);
      return s ? createRequestValidator(doc, s) : null;
    };
    return {
      root: root ? createRequestValidator(doc, root) : null,
      schedule: part('schedule'),
      clone: part('clone_options'),
    };
  }, [doc]);
  const create = useMutation({
    mutationFn: (body: Body) => unwrap(api.client.POST('/api/schedule', { body })),
    onSuccess: (s) => {
      setD(EMPTY);
      errors.clear();
      onCreated(s);
      void qc.invalidateQueries({ queryKey: ['schedules'] });
    },
    onError: (err) => {
      const details = fieldDetails(err);
      if (details) errors.show(details);
    },
  });
  const submit = () => {
    const body = scheduleBody(d);
    const problems: ErrorDetail[] = [
      ...(validate.root?.(body) ?? []).filter((p) => p.path === 'name'),
      ...under('schedule', validate.schedule?.(body.schedule as Record<string, unknown>) ?? []),
      ...under('clone_options', validate.clone?.(body.clone_options as Record<string, unknown>) ?? []),
    ];
    if (problems.length) return errors.show(problems);
    errors.clear();
    create.mutate(body);
  };
  const text = textFields(errors);
  return (
    <form
      noValidate
      aria-labelledby="schedule-new-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2 id="schedule-new-title">New clone schedule</h2>
      <FieldErrorSummary details={errors.errors} labelOf={(p) => LABELS[p] ?? p} />
      {create.isError && !errors.errors.length && <ErrorView error={create.error} onRetry={submit} />}
      {catalogs.isError && <ErrorView error={catalogs.error} onRetry={() => void catalogs.refetch()} />}
      <div className="row-actions">
        {text('name', 'Name (letters, digits, - and _)', d.name, (v) => set({ name: v }))}
        <Field name="clone_options.source_catalog" label="Source catalog (required)" errors={errors}>
          {(p) => (
            <select {...p} value={d.source} onChange={(e) => set({ source: e.target.value })}>
              <option value="">choose a catalog</option>
              {(catalogs.data?.catalogs ?? []).map((c) => (
                <option key={c.name}>{c.name}</option>
              ))}
            </select>
          )}
        </Field>
        {text('clone_options.destination_catalog', 'Destination catalog (required)', d.destination, (v) =>
          set({ destination: v }),
        )}
        <Field name="clone_options.clone_type" label="Clone type" errors={errors}>
          {(p) => (
            <select
              {...p}
              value={d.clone_type}
              onChange={(e) => set({ clone_type: e.target.value as Draft['clone_type'] })}
            >
              <option value="DEEP">DEEP (copies the data)</option>
              <option value="SHALLOW">SHALLOW (references the source files)</option>
            </select>
          )}
        </Field>
        {text(
          'clone_options.include_schemas',
          'Only these schemas (optional)',
          d.schemas,
          (v) => set({ schemas: v }),
          'comma-separated; empty: every schema',
        )}
      </div>
      <fieldset>
        <legend>When it runs (required: a cron expression or an interval)</legend>
        <div className="row-actions">
          <label className="field checkbox">
            <input
              type="radio"
              name="schedule-when"
              checked={d.when === 'cron'}
              onChange={() => set({ when: 'cron' })}
            />
            By cron expression
          </label>
          <label className="field checkbox">
            <input
              type="radio"
              name="schedule-when"
              checked={d.when === 'interval'}
              onChange={() => set({ when: 'interval' })}
            />
            By fixed interval
          </label>
        </div>
        <div className="row-actions">
          {d.when === 'cron'
            ? text(
                'schedule.cron',
                'Cron expression',
                d.cron,
                (v) => set({ cron: v }),
                'minute hour day-of-month month day-of-week, e.g. 0 3 * * *',
              )
            : text('schedule.interval', 'Interval', d.interval, (v) => set({ interval: v }), 'e.g. 15m, 6h or 1d')}
          {text('schedule.timezone', 'Time zone (IANA)', d.timezone, (v) => set({ timezone: v }))}
        </div>
        <label className="field checkbox">
          <input type="checkbox" checked={d.drift_check} onChange={(e) => set({ drift_check: e.target.checked })} />
          Clone only when the source drifted since the last run
        </label>
        <label className="field checkbox">
          <input type="checkbox" checked={d.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          Enabled (unchecked: created paused)
        </label>
      </fieldset>
      <ActionButton type="submit" operation="post /api/schedule" disabled={create.isPending}>
        Create the schedule
      </ActionButton>
    </form>
  );
}
