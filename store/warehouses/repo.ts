import { asc, eq, ne } from 'drizzle-orm';
import type { WarehouseSpec, WarehouseState } from '../../schemas/warehouses';
import type { Db } from '../db';
import { warehouseEvents, warehouses } from '../schema';

export type WarehouseRow = typeof warehouses.$inferSelect;
export type WarehouseEventRow = typeof warehouseEvents.$inferSelect;

export function specOf(row: WarehouseRow): WarehouseSpec {
  return {
    name: row.name,
    clusterSize: row.clusterSize as WarehouseSpec['clusterSize'],
    minNumClusters: row.minNumClusters,
    maxNumClusters: row.maxNumClusters,
    autoStopMins: row.autoStopMins,
    warehouseType: row.warehouseType as WarehouseSpec['warehouseType'],
    enableServerlessCompute: row.enableServerlessCompute,
    enablePhoton: row.enablePhoton,
    channel: row.channel as WarehouseSpec['channel'],
    tags: row.tags,
  };
}

export async function insertWarehouse(
  db: Db,
  w: { id: string; location: string; spec: WarehouseSpec; state: WarehouseState; creatorName: string | null },
): Promise<WarehouseRow> {
  const [row] = await db
    .insert(warehouses)
    .values({ id: w.id, location: w.location, state: w.state, creatorName: w.creatorName, ...w.spec })
    .returning();
  return row;
}

export async function updateWarehouseSpec(db: Db, id: string, spec: WarehouseSpec): Promise<WarehouseRow | undefined> {
  const [row] = await db
    .update(warehouses)
    .set({ ...spec, updatedAt: new Date() })
    .where(eq(warehouses.id, id))
    .returning();
  return row;
}

export async function getWarehouse(db: Db, id: string): Promise<WarehouseRow | undefined> {
  const [row] = await db.select().from(warehouses).where(eq(warehouses.id, id));
  return row;
}

export async function getWarehouseByName(db: Db, name: string): Promise<WarehouseRow | undefined> {
  const [row] = await db.select().from(warehouses).where(eq(warehouses.name, name));
  return row;
}

/** Warehouses not deleted, by name. */
export async function listWarehouses(db: Db): Promise<WarehouseRow[]> {
  return db.select().from(warehouses).where(ne(warehouses.state, 'DELETED')).orderBy(asc(warehouses.name));
}

/** Every warehouse, deleted ones too (the ledger bills them for the time they ran). */
export async function listAllWarehouses(db: Db): Promise<WarehouseRow[]> {
  return db.select().from(warehouses).orderBy(asc(warehouses.id));
}

/** Moves a warehouse to `state` and records the transition as an event row, in one transaction. */
export async function recordTransition(
  db: Db,
  id: string,
  state: WarehouseState,
  clusterCount: number,
  message: string | null = null,
  at: Date = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(warehouses).set({ state, numClusters: clusterCount, updatedAt: at }).where(eq(warehouses.id, id));
    await tx
      .insert(warehouseEvents)
      .values({ warehouseId: id, eventType: state, clusterCount, eventTime: at, message });
  });
}

/** A warehouse's events, oldest first. */
export async function listWarehouseEvents(db: Db, id?: string): Promise<WarehouseEventRow[]> {
  const q = db.select().from(warehouseEvents);
  return (id ? q.where(eq(warehouseEvents.warehouseId, id)) : q).orderBy(asc(warehouseEvents.seq));
}
