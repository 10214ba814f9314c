import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { fieldDetails, fieldPath, subSchema, under } from './nested';

const DOC = {
  components: {
    schemas: {
      Body: {
        type: 'object',
        properties: { actions: { type: 'array', items: { $ref: '#/components/schemas/Action' } } },
      },
      Action: { type: 'object', properties: { type: { type: 'string', enum: ['notify'] } } },
    },
  },
};

describe('nested form field paths', () => {
  it('names server paths from the body down, whatever the separator', () => {
    expect(fieldPath('body.schedule.cron')).toBe('schedule.cron');
    expect(fieldPath('body/actions/0/params/url')).toBe('actions.0.params.url');
    expect(fieldPath('name')).toBe('name');
  });

  it('maps an API error with details to its fields, and one without to null', () => {
    const info = { status: 400, code: 'BAD', message: 'm', request_id: null, retryable: false };
    const withDetails = new ApiError({ ...info, details: [{ path: 'body.schedule.cron', message: 'bad cron' }] });
    expect(fieldDetails(withDetails)).toEqual([{ path: 'schedule.cron', message: 'bad cron' }]);
    expect(fieldDetails(new ApiError({ ...info, details: [] }))).toBeNull();
    expect(fieldDetails(new Error('x'))).toBeNull();
  });

  it('prefixes findings of a part of the body', () => {
    expect(under('actions.2', [{ path: 'type', message: 'is required' }])).toEqual([
      { path: 'actions.2.type', message: 'is required' },
    ]);
    expect(under('schedule', [{ path: '', message: 'must be object' }])).toEqual([
      { path: 'schedule', message: 'must be object' },
    ]);
  });

  it('finds a part of a schema through $refs and array items', () => {
    const body = { $ref: '#/components/schemas/Body' };
    expect(subSchema(DOC, body, 'actions', '[]')).toEqual(DOC.components.schemas.Action);
    expect(subSchema(DOC, body, 'actions', '[]', 'type')).toEqual({ type: 'string', enum: ['notify'] });
    expect(subSchema(DOC, body, 'nope')).toBeUndefined();
  });
});
