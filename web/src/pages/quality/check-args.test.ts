import { describe, expect, it } from 'vitest';
import { buildArguments, controlOf } from './check-args';

const RANGE = [
  { name: 'column', type: 'column', required: true, description: 'column' },
  { name: 'min_limit', type: 'limit', required: true, description: 'min' },
  { name: 'max_limit', type: 'limit', required: true, description: 'max' },
];

describe('check arguments from the form', () => {
  it('turns texts into typed arguments: numbers, lists, booleans, limits that are dates', () => {
    const r = buildArguments(
      [
        ...RANGE,
        { name: 'allowed', type: 'list', required: false, description: 'allowed' },
        { name: 'case_sensitive', type: 'boolean', required: false, description: 'cs' },
        { name: 'n', type: 'integer', required: false, description: 'n' },
      ],
      {
        column: ' amount ',
        min_limit: '0',
        max_limit: '2026-01-01',
        allowed: 'a, b,,c',
        case_sensitive: 'false',
        n: '3',
      },
    );
    expect(r.problems).toEqual([]);
    expect(r.arguments).toEqual({
      column: 'amount',
      min_limit: 0,
      max_limit: '2026-01-01',
      allowed: ['a', 'b', 'c'],
      case_sensitive: false,
      n: 3,
    });
  });

  it('names each missing or malformed argument at arguments.<name>, and leaves empty optional ones out', () => {
    const r = buildArguments(
      [
        ...RANGE,
        { name: 'n', type: 'integer', required: false, description: 'n' },
        { name: 'o', type: 'object', required: false, description: 'o' },
        { name: 'skip', type: 'string', required: false, description: 's' },
      ],
      { column: 'x', max_limit: '5', n: '1.5', o: '[1]' },
    );
    expect(r.problems).toEqual([
      { path: 'arguments.min_limit', message: 'is required' },
      { path: 'arguments.n', message: 'must be an integer' },
      { path: 'arguments.o', message: 'must be a JSON object' },
    ]);
    expect(r.arguments).toEqual({ column: 'x', max_limit: 5 });
  });

  it('picks a control per argument type', () => {
    expect(['column', 'columns', 'integer', 'boolean', 'sql_query', 'object', 'aggr_type'].map(controlOf)).toEqual([
      'column',
      'list',
      'number',
      'boolean',
      'textarea',
      'json',
      'text',
    ]);
  });
});
