import {
  CHECK_FUNCTIONS,
  DqxYamlError,
  fromDqxYaml,
  normalizeCheck,
  toDqxYaml,
  type CheckArg,
  type CheckFunction,
  type DqCheck,
} from '../../../activities/data-quality/logic';

const FQN = 'main.sales.orders';
const SPATIAL = { spatial: true };
/** Functions no workspace can run in Lakeward (no model registry): refused at create time. */
const NEVER_ACCEPTED = ['has_no_row_anomalies'];

/** Values that satisfy a function's own rules (enumerations, formats); everything else follows the argument type. */
const SPECIAL: Record<string, unknown> = {
  aggr_type: 'avg',
  time_interval: 'day',
  case: 'upper',
  country: 'us',
  entities: ['email', 'iban'],
  cidr_block: '10.0.0.0/8',
  regex: '^[A-Z]{2}-\\d+$',
  expected_schema: 'id INT, name STRING',
  schema: 'a INT, b STRING',
  query: 'SELECT id, amount > 100 AS too_big FROM {{input}}',
  expression: "status <> 'void' AND amount >= 0",
  row_filter: 'amount > 0',
  ref_row_filter: "region = 'EU'",
  reference_geometry: 'POLYGON ((0 0, 1 0, 1 1, 0 0))',
  aggr_params: { percentile: 0.9 },
  curr_timestamp: '2024-06-30 12:00:00',
  curr_date: '2024-06-30',
  base_timestamp: '2024-06-30T12:00:00Z',
};
const CODE_FORMAT: Record<string, string> = {
  is_valid_country_code: 'alpha-3',
  is_valid_currency_code: 'alpha-3',
  is_valid_language_code: 'alpha-2',
};

function valueFor(fn: CheckFunction, arg: CheckArg, i: number): unknown {
  if (arg.name === 'code_format') return CODE_FORMAT[fn.name];
  if (fn.name === 'is_ipv6_address_in_cidr' && arg.name === 'cidr_block') return '2001:db8::/32';
  if (arg.name in SPECIAL) return SPECIAL[arg.name];
  switch (arg.type) {
    case 'column':
      return arg.name === 'time_column' ? 'created_at' : `col_${i}`;
    case 'columns':
      return arg.name.startsWith('ref_') ? ['ref_id', 'ref_region'] : ['id', 'region'];
    case 'string':
      return `${arg.name} for ${fn.name}`;
    case 'number':
      return 1.5 + i;
    case 'integer':
      return 7 + i;
    case 'boolean':
      return i % 2 === 0;
    case 'list':
      return ['yes', 'no', '2024-01-01', 42, null];
    case 'object':
      return { z: 1, a: 'b' };
    case 'table':
      return 'main.ref.customers';
    case 'limit':
      return arg.name === 'min_limit' ? '2024-01-01' : arg.name === 'max_limit' ? '2024-12-31' : 10;
    default:
      return `${arg.name}`;
  }
}

/** One stored check per function, with every optional argument a function accepts given a value. */
function everyFunction(): DqCheck[] {
  const checks: DqCheck[] = [];
  CHECK_FUNCTIONS.filter((f) => !NEVER_ACCEPTED.includes(f.name)).forEach((fn, n) => {
    const args: Record<string, unknown> = {};
    fn.args.forEach((a, i) => {
      const refused = a.name === 'ref_df_name' || a.name === 'nlp_engine_config';
      if (!refused) args[a.name] = valueFor(fn, a, i);
    });
    const r = normalizeCheck(
      {
        table_fqn: FQN,
        check_function: fn.name,
        arguments: args,
        criticality: n % 3 === 0 ? 'warn' : 'error',
        filter: n % 4 === 0 ? "region = 'EU'" : null,
        user_metadata: n % 5 === 0 ? { owner: 'data-team', tags: ['pii', 'gold'], b: { y: 2, x: 1 } } : null,
      },
      undefined,
      SPATIAL,
    );
    if (!r.ok) throw new Error(`${fn.name}: ${JSON.stringify(r.issues)}`);
    checks.push(...r.check);
  });
  return checks;
}

describe('DQX YAML export and import', () => {
  it('export → import → export of a check for every accepted DQX function is byte-identical', () => {
    const checks = everyFunction();
    expect(checks).toHaveLength(CHECK_FUNCTIONS.length - NEVER_ACCEPTED.length);
    const first = toDqxYaml(checks);
    const imported = fromDqxYaml(first, FQN, { capabilities: SPATIAL });
    expect(imported.filter((i) => i.status !== 'created')).toEqual([]);
    expect(imported.map((i) => i.check)).toEqual(checks.map((c) => ({ ...c, enabled: true })));
    expect(toDqxYaml(imported.map((i) => i.check!))).toBe(first);
    expect(first).toContain('        - "yes"\n'); // PyYAML (YAML 1.1) would read a bare yes as true
    expect(first).toContain('min_limit: "2024-01-01"');
  });

  it('the function Lakeward can never run is rejected on import with the reason, beside one it runs', () => {
    const yaml = toDqxYaml([
      {
        table_fqn: FQN,
        name: 'anomalies',
        check_function: 'has_no_row_anomalies',
        arguments: { model_name: 'm', registry_table: 'main.ml.registry' },
        criticality: 'error',
        enabled: true,
      },
      {
        table_fqn: FQN,
        name: 'v6',
        check_function: 'is_ipv6_address_in_cidr',
        arguments: { column: 'ip', cidr_block: '2001:db8::/32' },
        criticality: 'warn',
        enabled: true,
      },
    ]);
    const [model, v6] = fromDqxYaml(yaml, FQN, { capabilities: SPATIAL });
    expect(model).toMatchObject({ status: 'rejected', index: 0 });
    expect(model.reason).toMatch(/check_function: .*model registry/);
    expect(v6).toMatchObject({ status: 'created', index: 1 });
  });

  it('imports a DQX documentation example without edits (comments, for_each_column, filter, user_metadata)', () => {
    const dqxDocs = `# Completeness check on two columns
- criticality: error
  check:
    function: is_not_null_and_not_empty
    for_each_column:
    - sensor_id
    - machine_id

# Filter and range check
- criticality: warn
  filter: sensor_type = 'temperature'
  check:
    function: is_in_range
    arguments:
      column: reading_value
      min_limit: 0
      max_limit: 100

- criticality: warn
  name: machine_id_format
  check:
    function: regex_match
    arguments:
      column: machine_id
      regex: '^MCH-\\\\d{3}$'
  user_metadata:
    check_type: format
    owner: ops@example.com

- check:
    function: is_not_in_future
    arguments:
      column: reading_timestamp
      offset: 259200

- criticality: error
  check:
    function: sql_expression
    arguments:
      expression: (calibration_date > date(reading_timestamp))
      msg: Sensor calibration_date is later than sensor reading_timestamp
      name: calib_dt_gt_reading_ts
      negate: true

- criticality: error
  check:
    function: is_unique
    arguments:
      columns:
      - sensor_id
      - reading_timestamp
`;
    const items = fromDqxYaml(dqxDocs, 'iot.raw.sensors');
    expect(items.map((i) => [i.index, i.status, i.check?.name])).toEqual([
      [0, 'created', 'is_not_null_and_not_empty_sensor_id'],
      [0, 'created', 'is_not_null_and_not_empty_machine_id'],
      [1, 'created', 'is_in_range_reading_value'],
      [2, 'created', 'machine_id_format'],
      [3, 'created', 'is_not_in_future_reading_timestamp'],
      [4, 'created', 'sql_expression'],
      [5, 'created', 'is_unique_sensor_id_reading_timestamp'],
    ]);
    expect(items[2].check).toMatchObject({ criticality: 'warn', filter: "sensor_type = 'temperature'" });
    expect(items[3].check?.arguments.regex).toBe('^MCH-\\\\d{3}$');
    expect(items[3].check?.user_metadata).toEqual({ check_type: 'format', owner: 'ops@example.com' });
    expect(items[4].check?.criticality).toBe('error');
    expect(items.every((i) => i.check?.table_fqn === 'iot.raw.sensors')).toBe(true);
  });

  it('accepts the older DQX argument names col_name and col_names', () => {
    const items = fromDqxYaml(
      `- criticality: error
  check:
    function: is_not_null
    arguments:
      col_name: id
- criticality: warn
  check:
    function: is_not_empty
    arguments:
      col_names: [name, city]
- check:
    function: is_unique
    arguments:
      col_names: [id]
`,
      FQN,
    );
    expect(items.map((i) => [i.check?.check_function, i.check?.arguments])).toEqual([
      ['is_not_null', { column: 'id' }],
      ['is_not_empty', { column: 'name' }],
      ['is_not_empty', { column: 'city' }],
      ['is_unique', { columns: ['id'] }],
    ]);
  });

  it("imports Clone-Xs's export: its argument names and the warning criticality become DQX's", () => {
    const cloneXs = `- criticality: warning
  check:
    function: is_not_in_list
    arguments:
      column: status
      not_allowed:
      - void
  name: no_void
- criticality: error
  check:
    function: regex_match
    arguments:
      column: sku
      pattern: ^[A-Z]+$
  filter: region = 'EU'
- criticality: error
  check:
    function: is_data_fresh
    arguments:
      column: updated_at
      freshness: 60
`;
    const items = fromDqxYaml(cloneXs, FQN);
    expect(items.every((i) => i.status === 'created')).toBe(true);
    expect(items.map((i) => [i.check?.name, i.check?.criticality, i.check?.arguments])).toEqual([
      ['no_void', 'warn', { column: 'status', forbidden: ['void'] }],
      ['regex_match_sku', 'error', { column: 'sku', regex: '^[A-Z]+$' }],
      ['is_data_fresh_updated_at', 'error', { column: 'updated_at', max_age_minutes: 60 }],
    ]);
    expect(toDqxYaml(items.map((i) => i.check!))).toContain('      forbidden:\n        - void\n');
  });

  it('rejects bad items with a reason naming the field while the good items in the same file are created', () => {
    const items = fromDqxYaml(
      `- check: {function: is_not_null, arguments: {column: id}}
- check: {function: is_not_nul, arguments: {column: id}}
- check: {function: is_in_range, arguments: {column: amount, min_limit: 0}}
- critcality: warn
  check: {function: is_not_null, arguments: {column: id}}
- check: {function: sql_expression, arguments: {expression: "1 = 1; DROP TABLE x"}}
- check: {function: is_not_null, arguments: {column: city}}
  filter: "a = 1 -- hidden"
- just a string
- criticality: fatal
  check: {function: is_not_null, arguments: {column: name}}
- check: {function: is_not_null, arguments: {column: missing}}
`,
      FQN,
      {
        table: {
          columns: [
            { name: 'id', type: 'bigint' },
            { name: 'amount', type: 'double' },
            { name: 'city', type: 'string' },
            { name: 'name', type: 'string' },
          ],
        },
      },
    );
    expect(items.map((i) => [i.index, i.status])).toEqual([
      [0, 'created'],
      [1, 'rejected'],
      [2, 'rejected'],
      [3, 'rejected'],
      [4, 'rejected'],
      [5, 'rejected'],
      [6, 'rejected'],
      [7, 'rejected'],
      [8, 'rejected'],
    ]);
    const reasons = items.map((i) => i.reason ?? '');
    expect(reasons[1]).toMatch(/^check_function: unknown check function "is_not_nul"/);
    expect(reasons[2]).toMatch(/^arguments\.max_limit: .*needs argument max_limit/);
    expect(reasons[3]).toMatch(/^critcality: not a DQX check field/);
    expect(reasons[4]).toMatch(/^arguments\.expression: .*single statement/);
    expect(reasons[5]).toMatch(/^filter: .*-- comments/);
    expect(reasons[6]).toMatch(/must be a mapping/);
    expect(reasons[7]).toMatch(/^criticality: .*"fatal"/);
    expect(reasons[8]).toMatch(/^arguments\.column: column "missing" is not in the table/);
  });

  it('refuses geo checks for a workspace without spatial functions, naming why', () => {
    const [item] = fromDqxYaml('- check: {function: is_point, arguments: {column: geom}}\n', FQN, {
      capabilities: { spatial: false },
    });
    expect(item.status).toBe('rejected');
    expect(item.reason).toMatch(/check_function: is_point needs geometry/);
  });

  it('a file that is not a list of checks is an error, an empty file imports nothing', () => {
    expect(() => fromDqxYaml('criticality: error\ncheck: {}\n', FQN)).toThrow(
      new DqxYamlError('YAML must be a list of check definitions'),
    );
    expect(() => fromDqxYaml('- [unclosed\n', FQN)).toThrow(/not valid YAML/);
    expect(fromDqxYaml('', FQN)).toEqual([]);
    expect(fromDqxYaml('# only a comment\n', FQN)).toEqual([]);
  });

  it('without a table_fqn argument each item must name its own table', () => {
    const items = fromDqxYaml(
      `- table_fqn: main.a.b
  check_function: is_not_null
  arguments: {column: id}
  filter_expr: id > 0
- check: {function: is_not_null, arguments: {column: id}}
`,
    );
    expect(items[0]).toMatchObject({ status: 'created', check: { table_fqn: 'main.a.b', filter: 'id > 0' } });
    expect(items[1]).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/^table_fqn:/) });
  });
});
