import { describe, expect, it } from 'vitest';
import { cloneFields, parseFieldValue } from './fields';
import { plannedStatements } from './plan';
import { buildCloneRequest, templateFieldValues } from './template-values';
import { createRequestValidator } from './validate';

const schema = {
  type: 'object',
  properties: {
    source_catalog: { type: 'string', minLength: 1 },
    destination_catalog: { type: 'string', minLength: 1 },
    parallel_tables: { type: 'integer', minimum: 1, maximum: 64 },
    clone_type: { type: 'string', enum: ['DEEP', 'SHALLOW'] },
    include_schemas: { type: 'array', items: { type: 'string' } },
    throttle: { $ref: '#/components/schemas/Throttle' },
    copy_permissions: { type: 'boolean' },
  },
  required: ['source_catalog', 'destination_catalog'],
  additionalProperties: false,
};
const doc = {
  components: { schemas: { Throttle: { type: 'object', properties: { max_rps: { type: 'number', minimum: 0 } } } } },
};

describe('clone wizard fields', () => {
  it('derives a control kind for every property and parses control text', () => {
    const fields = cloneFields(schema);
    expect(Object.fromEntries(fields.map((f) => [f.name, f.kind]))).toEqual({
      source_catalog: 'text',
      destination_catalog: 'text',
      parallel_tables: 'integer',
      clone_type: 'enum',
      include_schemas: 'list',
      throttle: 'json',
      copy_permissions: 'boolean',
    });
    const list = fields.find((f) => f.name === 'include_schemas')!;
    expect(parseFieldValue(list, 'a, b')).toEqual(['a', 'b']);
    expect(() =>
      parseFieldValue(
        fields.find((f) => f.name === 'throttle')!,
        '{bad',
      ),
    ).toThrow('must be JSON');
  });

  it('flags parallel_tables 0 at its field before submitting, resolving components through the document', () => {
    const validate = createRequestValidator(doc, schema);
    expect(validate({ source_catalog: 'a', destination_catalog: 'b', parallel_tables: 0 })).toEqual([
      { path: 'parallel_tables', message: 'must be >= 1' },
    ]);
    expect(validate({ source_catalog: 'a', destination_catalog: 'b', throttle: { max_rps: -1 } })[0].path).toBe(
      'throttle',
    );
    expect(validate({ destination_catalog: 'b' })).toEqual([{ path: 'source_catalog', message: 'is required' }]);
  });

  it('marks what a template sets and sends only the user edits with the template name', () => {
    const t = {
      name: 'dev-refresh',
      clone_options: { clone_type: 'SHALLOW', parallel_tables: 4 },
      metadata: { copy_permissions: false },
    };
    expect(templateFieldValues(t, ['clone_type', 'parallel_tables', 'copy_permissions'])).toEqual({
      clone_type: 'SHALLOW',
      parallel_tables: 4,
      copy_permissions: false,
    });
    expect(buildCloneRequest({ parallel_tables: 2, x: undefined }, 'dev-refresh')).toEqual({
      parallel_tables: 2,
      template: 'dev-refresh',
    });
  });

  it('finds the planned statements in a dry run result', () => {
    expect(
      plannedStatements({
        targets: [{ plan: ['CREATE CATALOG IF NOT EXISTS `d`', 'CREATE SCHEMA `d`.`s`'] }],
        note: ['x'],
      }),
    ).toHaveLength(2);
  });
});
