import { col, day, fk, instant, key, money, pick, REGIONS, type DemoTable } from './spec';

/** The sales schema: the heart of the demo, with PII (email, phone, ssn), a masked ssn and change data feed on orders. */
export const SALES: DemoTable[] = [
  {
    schema: 'sales', name: 'customers', comment: 'One row per customer account', rows: 200,
    columns: [key('customer_id', 'Customer key'), col('name', 'string', 'Full name'), col('email', 'string', 'Contact e-mail'),
      col('phone', 'string', 'Contact phone'), col('ssn', 'string', 'Social security number (masked)'), col('region', 'string', 'Sales region'),
      col('signup_date', 'date'), col('lifetime_value', 'decimal(12,2)')],
    select: `i, 'Customer ' || i, 'customer' || i || '@example.com', '+1-555-' || lpad(CAST(i AS VARCHAR), 4, '0'),
      lpad(CAST(100 + hash(i) % 800 AS VARCHAR), 3, '0') || '-' || lpad(CAST(hash(i * 3) % 100 AS VARCHAR), 2, '0') || '-' || lpad(CAST(hash(i * 5) % 10000 AS VARCHAR), 4, '0'),
      ${pick(REGIONS, 7)}, ${day(11)}, ${money(13, 50000)}`,
    tags: { domain: 'sales', contains_pii: 'true' },
  },
  {
    schema: 'sales', name: 'products', comment: 'Product catalogue', rows: 50,
    columns: [key('product_id', 'Product key'), col('sku', 'string'), col('name', 'string'), col('category', 'string'), col('list_price', 'decimal(12,2)'), col('active', 'boolean')],
    select: `i, 'SKU-' || lpad(CAST(i AS VARCHAR), 5, '0'), 'Product ' || i, ${pick(['hardware', 'software', 'services', 'support'], 3)}, ${money(17, 500)} + 1, hash(i) % 10 <> 0`,
  },
  {
    schema: 'sales', name: 'orders', comment: 'Customer orders (change data feed on)', rows: 500,
    columns: [key('order_id', 'Order key'), col('customer_id', 'bigint', 'References sales.customers'), col('order_date', 'date'), col('status', 'string'),
      col('amount', 'decimal(12,2)', 'Order total'), col('region', 'string')],
    select: `i, ${fk('customers', 19)}, ${day(23)}, ${pick(['NEW', 'PAID', 'SHIPPED', 'CANCELLED'], 29)}, ${money(31, 2000)}, ${pick(REGIONS, 37)}`,
    properties: { 'delta.enableChangeDataFeed': 'true', quality: 'gold' },
    tags: { domain: 'sales', tier: 'gold' },
  },
  {
    schema: 'sales', name: 'order_items', comment: 'Lines of each order', rows: 1200,
    columns: [key('order_item_id', 'Line key'), col('order_id', 'bigint', 'References sales.orders'), col('product_id', 'bigint', 'References sales.products'),
      col('quantity', 'int'), col('unit_price', 'decimal(12,2)')],
    select: `i, ${fk('orders', 41)}, ${fk('products', 43)}, CAST(1 + hash(i * 47) % 9 AS INTEGER), ${money(53, 500)}`,
  },
  {
    schema: 'sales', name: 'payments', comment: 'Payments received against orders', rows: 450,
    columns: [key('payment_id', 'Payment key'), col('order_id', 'bigint', 'References sales.orders'), col('paid_at', 'timestamp'), col('method', 'string'), col('amount', 'decimal(12,2)')],
    select: `i, ${fk('orders', 59)}, ${instant(61)}, ${pick(['card', 'wire', 'paypal'], 67)}, ${money(71, 2000)}`,
  },
  {
    schema: 'sales', name: 'shipments', comment: 'Shipments of orders', rows: 400,
    columns: [key('shipment_id', 'Shipment key'), col('order_id', 'bigint', 'References sales.orders'), col('warehouse_id', 'bigint', 'References ops.warehouses'),
      col('shipped_on', 'date'), col('carrier', 'string')],
    select: `i, ${fk('orders', 73)}, ${fk('warehouses', 79)}, ${day(83)}, ${pick(['UPS', 'DHL', 'FedEx'], 89)}`,
  },
  {
    schema: 'sales', name: 'returns', comment: 'Returned order lines', rows: 40,
    columns: [key('return_id', 'Return key'), col('order_item_id', 'bigint', 'References sales.order_items'), col('reason', 'string'), col('returned_on', 'date')],
    select: `i, ${fk('order_items', 97)}, ${pick(['damaged', 'wrong item', 'not needed'], 101)}, ${day(103)}`,
  },
  {
    schema: 'sales', name: 'promotions', comment: 'Discount campaigns', rows: 10,
    columns: [key('promotion_id', 'Promotion key'), col('code', 'string'), col('discount_pct', 'double'), col('starts_on', 'date'), col('ends_on', 'date')],
    select: `i, 'PROMO' || i, CAST(5 + hash(i) % 30 AS DOUBLE), ${day(107)}, ${day(107)} + 30`,
  },
];
