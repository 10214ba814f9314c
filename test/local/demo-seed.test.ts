import { AlreadyExistsError } from '../../platform/errors';
import { seedDemo, type SeedSummary } from '../../platform/local/demo/seed';
import { LocalWorkspace } from '../../platform/local/workspace';
import { tempRoots } from './helpers';

const roots = tempRoots();
let root: string;
let summary: SeedSummary;
let ws: LocalWorkspace;
const c = 'demo_sales';
const t = (schema: string, name: string) => ({ catalog: c, schema, name });

beforeAll(async () => {
  root = roots.make();
  const steps: string[] = [];
  summary = await seedDemo({ root, onProgress: (p) => steps.push(p.step) });
  expect(steps[steps.length - 1]).toBe('done');
  ws = new LocalWorkspace({ root, user: 'reader' });
}, 60_000);
afterAll(() => roots.cleanup());

describe('demo seed (small)', () => {
  it('builds four schemas of related tables, one of them Parquet', async () => {
    expect(summary).toMatchObject({
      catalog: c,
      scale: 'small',
      schemas: ['sales', 'crm', 'finance', 'ops'],
      tables: 21,
      views: 3,
      functions: 3,
      volumes: 1,
    });
    expect((await ws.listSchemas(c)).map((s) => s.name)).toEqual(['crm', 'finance', 'ops', 'sales']);
    const formats = (
      await ws.query(
        `SELECT data_source_format AS f, count(*) AS n FROM ${c}.information_schema.tables WHERE table_type <> 'VIEW' GROUP BY 1 ORDER BY 1`,
      )
    ).rows;
    expect(formats).toEqual([
      { f: 'DELTA', n: 20 },
      { f: 'PARQUET', n: 1 },
    ]);
    const orphans = await ws.query(
      `SELECT count(*) AS n FROM ${c}.sales.order_items i LEFT JOIN ${c}.sales.orders o ON o.order_id = i.order_id WHERE o.order_id IS NULL AND i.order_id % 7 <> 0`,
    );
    expect(Number(orphans.rows[0].n)).toBeLessThan(50);
  });

  it('masks ssn, filters accounts by region and serves a view over a view', async () => {
    const ssn = (await ws.query(`SELECT ssn FROM ${c}.sales.customers LIMIT 5`)).rows.map((r) => r.ssn as string);
    expect(ssn.every((s) => /^\*\*\*-\*\*-\d{4}$/.test(s))).toBe(true);
    const regions = (await ws.query(`SELECT DISTINCT region FROM ${c}.crm.accounts ORDER BY 1`)).rows.map(
      (r) => r.region,
    );
    expect(regions).not.toContain('APAC');
    const admin = new LocalWorkspace({ root, groups: ['admins', 'pii_readers'] });
    expect(
      (await admin.query(`SELECT DISTINCT region FROM ${c}.crm.accounts ORDER BY 1`)).rows.map((r) => r.region),
    ).toContain('APAC');
    const top = await ws.query(`SELECT * FROM ${c}.sales.top_customers`);
    expect(top.rows).toHaveLength(20);
    expect(top.columns.map((col) => col.name)).toEqual(['customer_id', 'name', 'total_spent', 'order_count']);
  });

  it('tags PII columns, grants to several principals and records owners and comments', async () => {
    expect(await ws.getColumnTags(t('sales', 'customers'))).toEqual({
      email: { pii: 'email', classification: 'confidential' },
      phone: { pii: 'phone', classification: 'confidential' },
      ssn: { pii: 'ssn', classification: 'restricted' },
    });
    const grantees = (
      await ws.query(`SELECT DISTINCT grantee FROM ${c}.information_schema.table_privileges ORDER BY 1`)
    ).rows.map((r) => r.grantee);
    expect(grantees).toEqual(['analysts', 'finance']);
    expect((await ws.getGrants({ type: 'CATALOG', catalog: c })).map((g) => g.principal)).toEqual([
      'analysts',
      'data_engineers',
      'finance',
    ]);
    expect(await ws.getOwner({ type: 'TABLE', ...t('finance', 'invoices') })).toBe('finance');
    expect(await ws.getComment({ type: 'TABLE', ...t('sales', 'orders') })).toMatch(/orders/i);
    expect((await ws.getColumnComments(t('sales', 'customers'))).ssn).toMatch(/social security/i);
    expect(await ws.getProperties(t('sales', 'customers'))).toMatchObject({ quality: 'silver' });
    expect((await ws.listConstraints(t('sales', 'orders'))).map((x) => x.name)).toEqual(['amount_non_negative']);
  });

  it('has history, change data feed and a volume with files', async () => {
    const history = await ws.tableHistory(t('sales', 'orders'));
    expect(history.map((h) => h.operation)).toEqual(
      expect.arrayContaining(['UPDATE', 'DELETE', 'WRITE', 'CREATE TABLE']),
    );
    expect(history.length).toBeGreaterThanOrEqual(5);
    const changes = await ws.tableChanges(t('sales', 'orders'), 2);
    expect(new Set(changes.map((x) => x._change_type))).toEqual(
      new Set(['update_preimage', 'update_postimage', 'delete', 'insert']),
    );
    expect((await ws.listVolumeFiles(t('ops', 'landing_zone'))).map((f) => f.path)).toEqual([
      'README.md',
      'config/pipeline.json',
      'exports/orders_2024-01.csv',
      'exports/orders_2024-02.csv',
    ]);
  });

  it('refuses to seed a catalog that already exists, leaving it intact', async () => {
    await expect(seedDemo({ root })).rejects.toThrow(AlreadyExistsError);
    await expect(seedDemo({ root })).rejects.toThrow(/demo_sales already exists/);
    expect((await ws.listTables(c, 'sales')).length).toBe(8);
  });
});
