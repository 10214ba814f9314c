import type { Securable, TableRef } from '../../types';
import type { LocalWorkspace } from '../workspace';

/**
 * Governance of the demo catalog: owners, grants to several principals, tags, a masked column, a row filter,
 * CHECK constraints and a volume.
 *
 * PII tag vocabulary (the clone engine's PII handling relies on it): a column holding personal data carries
 * the tag `pii` with one of the values `email`, `phone` or `ssn`, plus `classification` = `confidential`
 * (email, phone) or `restricted` (ssn). Tables holding such columns carry `contains_pii = true`.
 */
export const PII_TAGS: Record<string, { pii: 'email' | 'phone' | 'ssn'; classification: string }> = {
  email: { pii: 'email', classification: 'confidential' },
  contact_email: { pii: 'email', classification: 'confidential' },
  phone: { pii: 'phone', classification: 'confidential' },
  ssn: { pii: 'ssn', classification: 'restricted' },
};

export const SCHEMA_OWNERS: Record<string, string> = {
  sales: 'sales_eng',
  crm: 'crm_team',
  finance: 'finance',
  ops: 'ops_team',
};

export async function applyFunctionsAndViews(ws: LocalWorkspace, c: string): Promise<void> {
  await ws.createFunction({
    ref: { catalog: c, schema: 'sales', name: 'mask_ssn' },
    parameters: 'ssn STRING',
    returnType: 'STRING',
    body: "CASE WHEN is_account_group_member('pii_readers') THEN ssn ELSE concat('***-**-', right(ssn, 4)) END",
    comment: 'Shows the last four digits unless the reader is in pii_readers',
  });
  await ws.createFunction({
    ref: { catalog: c, schema: 'crm', name: 'region_filter' },
    parameters: 'region STRING',
    returnType: 'BOOLEAN',
    body: "is_account_group_member('admins') OR region <> 'APAC'",
    comment: 'APAC accounts only for admins',
  });
  await ws.createFunction({
    ref: { catalog: c, schema: 'finance', name: 'fiscal_quarter' },
    parameters: 'd DATE',
    returnType: 'STRING',
    body: "concat('Q', CAST(quarter(d) AS STRING))",
    comment: 'Calendar quarter label of a date',
  });
  await ws.createView({
    ref: { catalog: c, schema: 'sales', name: 'customer_orders' },
    comment: 'Orders with their customer',
    definition: `SELECT c.customer_id, c.name, c.region, o.order_id, o.order_date, o.amount FROM ${c}.sales.customers c JOIN ${c}.sales.orders o ON o.customer_id = c.customer_id`,
  });
  await ws.createView({
    ref: { catalog: c, schema: 'sales', name: 'top_customers' },
    comment: 'Top 20 customers by spend (a view over a view)',
    definition: `SELECT customer_id, name, sum(amount) AS total_spent, count(*) AS order_count FROM ${c}.sales.customer_orders GROUP BY customer_id, name ORDER BY total_spent DESC LIMIT 20`,
  });
  await ws.createView({
    ref: { catalog: c, schema: 'finance', name: 'quarterly_revenue' },
    comment: 'Invoiced revenue per quarter and currency',
    definition: `SELECT ${c}.finance.fiscal_quarter(issued_on) AS quarter, currency, sum(total) AS revenue FROM ${c}.finance.invoices GROUP BY 1, 2`,
  });
}

export async function applyPolicies(ws: LocalWorkspace, c: string): Promise<void> {
  const t = (schema: string, name: string): TableRef => ({ catalog: c, schema, name });
  await ws.setColumnMask(t('sales', 'customers'), {
    column: 'ssn',
    functionName: `${c}.sales.mask_ssn`,
    usingColumns: [],
  });
  await ws.setRowFilter(t('crm', 'accounts'), { functionName: `${c}.crm.region_filter`, columns: ['region'] });
  await ws.addCheckConstraint(t('sales', 'orders'), { name: 'amount_non_negative', expression: 'amount >= 0' });
  await ws.addCheckConstraint(t('sales', 'order_items'), { name: 'positive_quantity', expression: 'quantity > 0' });
  await ws.setProperties(t('sales', 'customers'), { quality: 'silver', owner_team: 'sales' });
}

export async function applyVolume(ws: LocalWorkspace, c: string): Promise<void> {
  const ref = { catalog: c, schema: 'ops', name: 'landing_zone' };
  await ws.createVolume({ ref, comment: 'Files dropped by upstream systems' });
  await ws.writeVolumeFile(ref, 'README.md', Buffer.from('# Landing zone\nRaw exports land here before ingestion.\n'));
  await ws.writeVolumeFile(ref, 'exports/orders_2024-01.csv', Buffer.from('order_id,amount\n1,10.50\n2,99.00\n'));
  await ws.writeVolumeFile(ref, 'exports/orders_2024-02.csv', Buffer.from('order_id,amount\n3,12.00\n'));
  await ws.writeVolumeFile(
    ref,
    'config/pipeline.json',
    Buffer.from(JSON.stringify({ schedule: 'daily', target: `${c}.sales.orders` })),
  );
  await ws.grant({ type: 'VOLUME', catalog: c, schema: 'ops', name: 'landing_zone' }, 'data_engineers', [
    'READ VOLUME',
    'WRITE VOLUME',
  ]);
}

export async function applyGrantsAndTags(
  ws: LocalWorkspace,
  c: string,
  tables: { schema: string; name: string; tags?: Record<string, string>; columns: { name: string }[] }[],
): Promise<void> {
  const cat: Securable = { type: 'CATALOG', catalog: c };
  await ws.setOwner(cat, 'data_platform');
  await ws.setTags(cat, { env: 'demo', cost_center: 'cc-1042' });
  await ws.grant(cat, 'data_engineers', ['ALL PRIVILEGES']);
  await ws.grant(cat, 'analysts', ['USE CATALOG', 'BROWSE']);
  await ws.grant(cat, 'finance', ['USE CATALOG']);
  for (const [schema, owner] of Object.entries(SCHEMA_OWNERS)) {
    const s: Securable = { type: 'SCHEMA', catalog: c, schema };
    await ws.setOwner(s, owner);
    await ws.setTags(s, { domain: schema });
    await ws.grant(s, 'data_engineers', ['USE SCHEMA', 'MODIFY', 'CREATE TABLE']);
    if (schema !== 'finance') await ws.grant(s, 'analysts', ['USE SCHEMA', 'SELECT']);
  }
  await ws.grant({ type: 'SCHEMA', catalog: c, schema: 'finance' }, 'finance', ['USE SCHEMA', 'SELECT', 'MODIFY']);
  for (const tbl of tables) {
    const s: Securable = { type: 'TABLE', catalog: c, schema: tbl.schema, name: tbl.name };
    await ws.setOwner(s, SCHEMA_OWNERS[tbl.schema] ?? 'data_platform');
    if (tbl.tags) await ws.setTags(s, tbl.tags);
    for (const col of tbl.columns) {
      const pii = PII_TAGS[col.name];
      if (pii) await ws.setColumnTags({ catalog: c, schema: tbl.schema, name: tbl.name }, col.name, pii);
    }
  }
  await ws.grant({ type: 'TABLE', catalog: c, schema: 'sales', name: 'orders' }, 'analysts', ['SELECT']);
  await ws.grant({ type: 'TABLE', catalog: c, schema: 'sales', name: 'orders' }, 'finance', ['SELECT']);
  await ws.grant({ type: 'TABLE', catalog: c, schema: 'sales', name: 'customers' }, 'analysts', ['SELECT']);
  await ws.grant({ type: 'TABLE', catalog: c, schema: 'finance', name: 'invoices' }, 'finance', ['SELECT', 'MODIFY']);
  await ws.grant({ type: 'VIEW', catalog: c, schema: 'sales', name: 'top_customers' }, 'analysts', ['SELECT']);
  await ws.grant({ type: 'FUNCTION', catalog: c, schema: 'sales', name: 'mask_ssn' }, 'analysts', ['EXECUTE']);
}

/** Several versions of history: updates, deletes and a late insert. */
export async function applyHistory(ws: LocalWorkspace, c: string): Promise<void> {
  const orders = { catalog: c, schema: 'sales', name: 'orders' };
  await ws.updateWhere(orders, { status: "'SHIPPED'" }, "status = 'PAID' AND order_id % 5 = 0");
  await ws.deleteWhere(orders, "status = 'CANCELLED' AND order_id % 7 = 0");
  await ws.insertQuery(
    orders,
    `SELECT order_id + 100000, customer_id, order_date, 'NEW', amount, region FROM ${c}.sales.orders WHERE order_id <= 20`,
  );
  await ws.updateWhere(
    { catalog: c, schema: 'sales', name: 'products' },
    { list_price: 'list_price * 1.1' },
    "category = 'software'",
  );
  await ws.updateWhere(
    { catalog: c, schema: 'sales', name: 'customers' },
    { region: "'EMEA'" },
    'customer_id % 50 = 0',
  );
}
