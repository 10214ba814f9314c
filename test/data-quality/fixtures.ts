import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Workspace } from '../../platform/port';

/** The orders table the data-quality tests check: 10 rows with hand-placed problems (see each row's note). */
export const ORDERS = { catalog: 'shop', schema: 'sales', name: 'orders' };
export const ORDERS_FQN = 'shop.sales.orders';

export const ORDER_ROWS: Record<string, unknown>[] = [
  { id: 1, customer: 'ann', amount: 10, status: 'new', region: 'eu' },
  { id: 2, customer: 'bob', amount: 20, status: 'new', region: 'eu' },
  { id: 3, customer: null, amount: 30, status: 'paid', region: 'eu' }, // customer null (error)
  { id: 4, customer: 'dan', amount: -5, status: 'paid', region: 'us' }, // amount < 0 (error)
  { id: 5, customer: 'eve', amount: 50, status: 'lost', region: 'us' }, // status not in list (warn)
  { id: 6, customer: 'fay', amount: 60, status: 'new', region: 'us' },
  { id: 7, customer: null, amount: 700, status: 'odd', region: 'us' }, // null (error) + amount > 500 (warn) + status (warn)
  { id: 8, customer: 'hal', amount: 80, status: 'paid', region: 'apac' },
  { id: 9, customer: 'ivy', amount: 900, status: 'new', region: 'apac' }, // amount > 500 (warn)
  { id: 10, customer: 'jon', amount: 100, status: 'paid', region: null },
];

/** Creates shop.sales.orders with ORDER_ROWS in a workspace. */
export async function seedOrders(ws: Workspace): Promise<void> {
  await ws.createCatalog({ name: 'shop' });
  await ws.createSchema({ catalog: 'shop', name: 'sales' });
  await ws.createTable({
    ref: ORDERS,
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'customer', type: 'string' },
      { name: 'amount', type: 'double' },
      { name: 'status', type: 'string' },
      { name: 'region', type: 'string' },
    ],
  });
  await ws.insertRows(ORDERS, ORDER_ROWS);
}

/** A temp local lakehouse holding shop.sales.orders (and an unchecked shop.sales.returns). */
export async function ordersWorkspace(): Promise<{ root: string; ws: Workspace; remove: () => void }> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'lw-dq-'));
  const ws = new LocalWorkspace({ root, user: 'lakeward' });
  await seedOrders(ws);
  const returns = { catalog: 'shop', schema: 'sales', name: 'returns' };
  await ws.createTable({ ref: returns, columns: [{ name: 'id', type: 'bigint' }] });
  await ws.insertRows(returns, [{ id: 1 }]);
  return { root, ws, remove: () => rmSync(root, { recursive: true, force: true }) };
}
