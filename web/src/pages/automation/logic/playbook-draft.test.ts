import { describe, expect, it } from 'vitest';
import { atField, EMPTY_PLAYBOOK, fieldsOf, newAction, paramValue, playbookBody } from './playbook-draft';

describe('playbook drafts', () => {
  it('reads a parameter as JSON only when it looks like JSON', () => {
    expect(paramValue('in_app')).toEqual({ value: 'in_app' });
    expect(paramValue('{{event.table_fqn}}')).toEqual({ value: '{{event.table_fqn}}' });
    expect(paramValue('{"owner": "dq"}')).toEqual({ value: { owner: 'dq' } });
    expect(paramValue(' 3 ')).toEqual({ value: 3 });
    expect(paramValue('true')).toEqual({ value: true });
    expect(paramValue('[1, 2]')).toEqual({ value: [1, 2] });
    expect(paramValue('{owner: dq}')).toMatchObject({ error: expect.stringMatching(/^not JSON/) });
  });

  it('builds the body: trigger config by trigger, empty parts left out, parameters typed', () => {
    const { body, problems } = playbookBody({
      ...EMPTY_PLAYBOOK,
      name: ' dq-alert ',
      trigger_type: 'job_failed',
      tables: 'prod.*.orders, ',
      job_types: 'clone',
      actions: [
        {
          ...newAction('notify'),
          params: [
            { key: 'channel', value: 'in_app' },
            { key: 'message', value: 'hi' },
          ],
        },
        { ...newAction('tag_table'), on_failure: 'continue', params: [{ key: 'tags', value: '{"a": "b"}' }] },
      ],
    });
    expect(problems).toEqual([]);
    expect(body).toEqual({
      name: 'dq-alert',
      trigger_type: 'job_failed',
      trigger_config: { tables: ['prod.*.orders'], job_types: ['clone'] },
      actions: [
        { type: 'notify', on_failure: 'stop', params: { channel: 'in_app', message: 'hi' } },
        { type: 'tag_table', on_failure: 'continue', params: { tags: { a: 'b' } } },
      ],
      max_executions_per_hour: 5,
      enabled: true,
    });
    const sched = playbookBody({ ...EMPTY_PLAYBOOK, trigger_type: 'schedule', cron: '0 6 * * *', tables: 'x' });
    expect(sched.body.trigger_config).toEqual({ cron: '0 6 * * *', timezone: 'UTC' });
  });

  it('names its own findings at the parameter: bad JSON, a value without a name, a name given twice', () => {
    const { problems } = playbookBody({
      ...EMPTY_PLAYBOOK,
      actions: [
        {
          ...newAction('tag_table'),
          params: [
            { key: 'tags', value: '{bad' },
            { key: '', value: 'x' },
            { key: 'tags', value: '{}' },
          ],
        },
      ],
    });
    expect(problems.map((p) => p.path)).toEqual([
      'actions.0.params.tags',
      'actions.0.paramkey.1',
      'actions.0.params.tags',
    ]);
  });

  it('puts a server path at the nearest field the form has', () => {
    const d = { ...EMPTY_PLAYBOOK, actions: [{ ...newAction('run_pipeline'), params: [] }] };
    const fields = fieldsOf(d);
    expect(atField({ path: 'actions.0.params.pipeline_id', message: 'required' }, fields)).toEqual({
      path: 'actions.0.params',
      message: 'pipeline_id: required',
    });
    expect(atField({ path: 'trigger_config.tables.0', message: 'bad glob' }, fields)).toEqual({
      path: 'trigger_config.tables',
      message: '0: bad glob',
    });
    expect(atField({ path: 'name', message: 'too long' }, fields)).toEqual({ path: 'name', message: 'too long' });
    expect(atField({ path: 'elsewhere', message: 'm' }, fields)).toEqual({ path: 'elsewhere', message: 'm' });
  });
});
