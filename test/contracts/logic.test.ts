import {
  documentIssues,
  endpointProblem,
  freshnessHours,
  generateContract,
  judgeValidation,
  meetsThreshold,
  nextVersion,
  odcsIssues,
  parseContractId,
  planValidation,
  typesCompatible,
  type GenerateOptions,
  type TableFacts,
} from '../../activities/contracts/logic';

const ALL: GenerateOptions = {
  include_quality_rules: true,
  include_dqx_profiling: true,
  include_lineage: true,
  include_sla: true,
  include_tags: true,
  include_properties: true,
  include_masks: true,
  include_row_filters: true,
  include_history: true,
};

const facts: TableFacts = {
  fqn: 'main.sales.orders',
  comment: 'Orders',
  owner: 'ana',
  tableType: 'MANAGED',
  columns: [
    { name: 'id', type: 'bigint', nullable: false, comment: 'key' },
    { name: 'email', type: 'string', nullable: true, comment: null },
    { name: 'status', type: 'string', nullable: true, comment: null },
    { name: 'ts', type: 'timestamp', nullable: true, comment: null },
  ],
  partitionColumns: [],
  tags: { domain: 'sales' },
  columnTags: { email: { pii: 'true' } },
  properties: { 'delta.logRetentionDuration': 'interval 30 days' },
  masks: [{ column: 'email', functionName: 'main.sec.mask_email', usingColumns: [] }],
  rowFilter: { functionName: 'main.sec.region_filter', columns: ['status'] },
  history: [
    { version: 2, timestamp: '2026-11-20T12:00:00Z', operation: 'WRITE' },
    { version: 1, timestamp: '2026-11-19T00:00:00Z', operation: 'WRITE' },
    { version: 0, timestamp: '2026-11-18T12:00:00Z', operation: 'CREATE TABLE' },
  ],
  upstream: ['prod.sales.orders'],
  downstream: [],
  checks: [
    {
      id: 'c1',
      table_fqn: 'main.sales.orders',
      name: 'status_known',
      check_function: 'is_in_list',
      arguments: { column: 'status', allowed: ['open', 'paid'] },
      criticality: 'warn',
      enabled: true,
    },
    {
      id: 'c2',
      table_fqn: 'main.sales.orders',
      name: 'email_unique',
      check_function: 'is_unique',
      arguments: { columns: ['email'] },
      criticality: 'error',
      enabled: true,
    },
  ],
  profileChecks: [
    {
      table_fqn: 'main.sales.orders',
      name: 'positive_ids',
      check_function: 'sql_expression',
      arguments: { expression: 'id > 0' },
      criticality: 'error',
      enabled: true,
    },
  ],
  rowCount: 100,
};

test('a generated contract carries pii, masks, row filter, lineage, history, SLA and the DQ checks, and is valid ODCS', () => {
  const doc = generateContract(facts, ALL, 'orders', '1.0');
  expect(odcsIssues(doc)).toEqual([]);
  expect(documentIssues(doc)).toEqual([]);
  const [obj] = doc.schema!;
  const email = obj.properties!.find((p) => p.name === 'email')!;
  expect(email).toMatchObject({
    tags: ['pii'],
    encryptedName: 'email_masked',
    classification: 'restricted',
    quality: [{ type: 'library', rule: 'duplicateCount', mustBe: 0, severity: 'error' }],
  });
  expect(obj.properties!.find((p) => p.name === 'ts')).toMatchObject({
    logicalType: 'date',
    physicalType: 'TIMESTAMP',
  });
  expect(obj.properties![0]).toMatchObject({ name: 'id', required: true, logicalType: 'integer' });
  expect(obj.quality).toEqual([
    expect.objectContaining({ type: 'custom', engine: 'dqx', severity: 'warning', name: 'status_known' }),
    expect.objectContaining({ type: 'text', name: 'positive_ids' }),
    expect.objectContaining({ rule: 'rowCount', mustBeGreaterOrEqualTo: 80 }),
  ]);
  const custom = Object.fromEntries(
    (obj.customProperties as { property: string; value: unknown }[]).map((c) => [c.property, c.value]),
  );
  expect(custom).toMatchObject({
    rowFilter: { function: 'main.sec.region_filter', columns: ['status'] },
    upstreamTables: ['prod.sales.orders'],
    tableVersion: 2,
    'tblproperty:delta.logRetentionDuration': 'interval 30 days',
  });
  // mean gap 24 h → twice that
  expect(doc.slaProperties).toEqual([
    { property: 'latency', value: 48, unit: 'h', element: 'main.sales.orders' },
    { property: 'retention', value: 30, unit: 'd', element: 'main.sales.orders' },
  ]);
  const bare = generateContract(
    facts,
    { ...ALL, include_masks: false, include_lineage: false, include_sla: false },
    'o',
    '1.0',
  );
  expect(bare.slaProperties).toBeUndefined();
  expect(bare.schema![0].properties!.find((p) => p.name === 'email')!.encryptedName).toBeUndefined();
});

test('validation plans schema differences from columns alone and judges measured values per section', () => {
  const doc = generateContract(facts, ALL, 'orders', '1.0');
  const plan = planValidation(doc, 'main.sales.orders', [
    { name: 'id', type: 'int' },
    { name: 'email', type: 'varchar(200)' },
    { name: 'ts', type: 'string' },
  ]);
  expect(plan.sections.schema.violations.map((v) => [v.type, v.column])).toEqual([
    ['missing_column', 'status'],
    ['type_mismatch', 'ts'],
  ]);
  expect(plan.sections.quality.skipped).toEqual([
    'status_known: column status is missing',
    'positive_ids: text rule is not executed',
  ]);
  expect(plan.checks.map((c) => c.label)).toEqual(['required:id', 'row_count_at_least_80_percent', 'email_unique']);
  const out = judgeValidation(plan, {
    rows: 50,
    failures: new Map([
      ['required:id', 2],
      ['email_unique', 0],
    ]),
    errors: new Map(),
    lastModified: '2026-11-20T00:00:00Z',
    now: new Date('2026-11-23T00:00:00Z'),
  });
  expect(out.status).toBe('failed');
  expect(out.drift).toBe(true);
  expect(out.sections.schema.violations.map((v) => v.type)).toEqual([
    'missing_column',
    'type_mismatch',
    'required_has_nulls',
  ]);
  expect(out.sections.quality.violations).toEqual([
    expect.objectContaining({ rule: 'row_count_at_least_80_percent', observed: 50 }),
  ]);
  expect(out.sections.sla.violations).toEqual([
    expect.objectContaining({ type: 'freshness_exceeded', expected: 48, observed: 72 }),
  ]);
  expect(out.violation_count).toBe(5);
  expect(planValidation(doc, 'main.sales.gone', null).sections.schema.violations[0].type).toBe('table_not_found');
});

test('thresholds, types, ids, versions and enforcement endpoints', () => {
  expect(meetsThreshold({ mustBeLessThan: 3 }, 2, 'failures')).toBe(true);
  expect(meetsThreshold({ mustBeBetween: [1, 5] }, 6, 'rows')).toBe(false);
  expect(meetsThreshold({}, 1, 'failures')).toBe(false);
  expect(meetsThreshold({}, 0, 'rows')).toBe(true);
  expect(typesCompatible('VARCHAR(10)', 'string')).toBe(true);
  expect(typesCompatible('INT', 'bigint')).toBe(true);
  expect(typesCompatible('DECIMAL(10,2)', 'double')).toBe(true);
  expect(typesCompatible('TIMESTAMP', 'date')).toBe(false);
  expect(parseContractId('orders@1.10')).toEqual({ name: 'orders', version: '1.10' });
  expect(parseContractId('orders')).toEqual({ name: 'orders' });
  expect(parseContractId('x@1')).toBeNull();
  expect([nextVersion(null), nextVersion('1.0'), nextVersion('1.9')]).toEqual(['1.0', '1.1', '1.10']);
  expect(endpointProblem('https://hooks.example.com/x')).toBeNull();
  expect(endpointProblem('http://127.0.0.1:8080/x')).toBeNull();
  expect(endpointProblem('http://hooks.example.com/x')).toMatch(/https/);
  expect(freshnessHours([])).toBe(24);
  const doc = generateContract(facts, ALL, 'orders', '1.0');
  expect(documentIssues({ ...doc, id: 'orders-1' })).toEqual([
    { path: '$.id', message: 'must have the form name@major.minor' },
  ]);
  const sql = {
    ...doc,
    schema: [
      {
        ...doc.schema![0],
        quality: [
          { type: 'custom', engine: 'dqx', implementation: { check_function: 'sql_expression', arguments: {} } },
        ],
      },
    ],
  };
  expect(documentIssues(sql)[0].message).toMatch(/SQL rules/);
});
