import { col, day, fk, instant, key, money, pick, REGIONS, type DemoTable } from './spec';

/** crm, finance and ops schemas; ops.sensor_readings_raw is a plain Parquet table (CONVERT TO DELTA material). */
export const OTHER: DemoTable[] = [
  {
    schema: 'crm', name: 'accounts', comment: 'Business accounts (row filter by region)', rows: 60,
    columns: [key('account_id', 'Account key'), col('name', 'string'), col('region', 'string'), col('industry', 'string'), col('customer_id', 'bigint', 'References sales.customers')],
    select: `i, 'Account ' || i, ${pick(REGIONS, 109)}, ${pick(['retail', 'banking', 'health', 'energy'], 113)}, ${fk('customers', 127)}`,
  },
  {
    schema: 'crm', name: 'contacts', comment: 'People at accounts', rows: 150,
    columns: [key('contact_id', 'Contact key'), col('account_id', 'bigint', 'References crm.accounts'), col('full_name', 'string'), col('email', 'string'), col('phone', 'string')],
    select: `i, ${fk('accounts', 131)}, 'Contact ' || i, 'contact' || i || '@corp.example', '+44-20-' || lpad(CAST(i AS VARCHAR), 4, '0')`,
  },
  {
    schema: 'crm', name: 'leads', comment: 'Inbound leads', rows: 100,
    columns: [key('lead_id', 'Lead key'), col('source', 'string'), col('email', 'string'), col('score', 'int'), col('created_at', 'timestamp')],
    select: `i, ${pick(['web', 'event', 'partner'], 137)}, 'lead' || i || '@mail.example', CAST(hash(i) % 100 AS INTEGER), ${instant(139)}`,
  },
  {
    schema: 'crm', name: 'opportunities', comment: 'Open and closed deals', rows: 80,
    columns: [key('opportunity_id', 'Opportunity key'), col('account_id', 'bigint', 'References crm.accounts'), col('stage', 'string'), col('value', 'decimal(12,2)'), col('close_date', 'date')],
    select: `i, ${fk('accounts', 149)}, ${pick(['prospect', 'proposal', 'won', 'lost'], 151)}, ${money(157, 100000)}, ${day(163)}`,
  },
  {
    schema: 'crm', name: 'support_tickets', comment: 'Customer support tickets', rows: 120,
    columns: [key('ticket_id', 'Ticket key'), col('customer_id', 'bigint', 'References sales.customers'), col('priority', 'string'), col('opened_at', 'timestamp'), col('resolved', 'boolean')],
    select: `i, ${fk('customers', 167)}, ${pick(['low', 'medium', 'high'], 173)}, ${instant(179)}, hash(i) % 3 <> 0`,
  },
  {
    schema: 'finance', name: 'invoices', comment: 'Invoices issued for orders', rows: 400,
    columns: [key('invoice_id', 'Invoice key'), col('order_id', 'bigint', 'References sales.orders'), col('issued_on', 'date'), col('total', 'decimal(12,2)'), col('currency', 'string')],
    select: `i, ${fk('orders', 181)}, ${day(191)}, ${money(193, 2000)}, ${pick(['USD', 'EUR', 'GBP'], 197)}`,
    tags: { domain: 'finance', sox: 'in_scope' },
  },
  {
    schema: 'finance', name: 'ledger_entries', comment: 'General ledger', rows: 800,
    columns: [key('entry_id', 'Entry key'), col('invoice_id', 'bigint', 'References finance.invoices'), col('account_code', 'string'), col('debit', 'decimal(12,2)'), col('credit', 'decimal(12,2)'), col('posted_at', 'timestamp')],
    select: `i, ${fk('invoices', 199)}, ${pick(['4000', '1200', '2100', '5000'], 211)}, ${money(223, 1000)}, ${money(227, 1000)}, ${instant(229)}`,
  },
  {
    schema: 'finance', name: 'exchange_rates', comment: 'Daily FX rates to USD', rows: 30,
    columns: [col('rate_date', 'date', undefined, false), col('currency', 'string'), col('rate_to_usd', 'double')],
    select: `DATE '2024-01-01' + CAST(i AS INTEGER), ${pick(['EUR', 'GBP', 'JPY'], 233)}, 0.5 + (hash(i) % 100) / 100.0`,
  },
  {
    schema: 'finance', name: 'budgets', comment: 'Monthly budget per region', rows: 24,
    columns: [col('month', 'date', undefined, false), col('region', 'string'), col('budget', 'decimal(14,2)')],
    select: `DATE '2024-01-01' + CAST((i - 1) * 30 AS INTEGER), ${pick(REGIONS, 239)}, ${money(241, 900000)}`,
  },
  {
    schema: 'ops', name: 'warehouses', comment: 'Distribution centres', rows: 5,
    columns: [key('warehouse_id', 'Warehouse key'), col('city', 'string'), col('region', 'string'), col('capacity', 'int')],
    select: `i, ['Rotterdam', 'Dallas', 'Singapore', 'Leeds', 'Denver'][i], ['EMEA', 'AMER', 'APAC', 'EMEA', 'AMER'][i], CAST(1000 * i AS INTEGER)`,
  },
  {
    schema: 'ops', name: 'suppliers', comment: 'Product suppliers', rows: 20,
    columns: [key('supplier_id', 'Supplier key'), col('name', 'string'), col('country', 'string'), col('contact_email', 'string')],
    select: `i, 'Supplier ' || i, ${pick(['NL', 'US', 'SG', 'DE'], 251)}, 'orders@supplier' || i || '.example'`,
  },
  {
    schema: 'ops', name: 'inventory', comment: 'Stock per product and warehouse', rows: 250,
    columns: [key('inventory_id', 'Inventory key'), col('product_id', 'bigint', 'References sales.products'), col('warehouse_id', 'bigint', 'References ops.warehouses'),
      col('supplier_id', 'bigint', 'References ops.suppliers'), col('on_hand', 'int'), col('updated_at', 'timestamp')],
    select: `i, ${fk('products', 257)}, ${fk('warehouses', 263)}, ${fk('suppliers', 269)}, CAST(hash(i) % 500 AS INTEGER), ${instant(271)}`,
  },
  {
    schema: 'ops', name: 'sensor_readings_raw', comment: 'Raw warehouse sensor dumps (plain Parquet)', rows: 300, format: 'PARQUET',
    columns: [col('sensor_id', 'string'), col('warehouse_id', 'bigint'), col('reading', 'double'), col('read_at', 'timestamp')],
    select: `'S-' || (hash(i) % 20), ${fk('warehouses', 277)}, (hash(i * 281) % 1000) / 10.0, ${instant(283)}`,
  },
];
