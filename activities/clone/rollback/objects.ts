import { NotFoundError } from '../../../platform/errors';
import type { Workspace } from '../../../platform/port';
import type { TableRef } from '../../../platform/types';
import { readGovernance, type TableGovernance } from './governance';
import type { RollbackObjectType } from './plan';

/** A recorded object: `catalog`, `catalog.schema`, `catalog.schema.name` or (masks) `catalog.schema.table.column`. */
export interface ObjectRef {
  type: RollbackObjectType;
  fqn: string;
}

export function splitFqn(fqn: string): string[] {
  return fqn.split('.');
}

export const tableOf = (fqn: string): TableRef => {
  const [catalog, schema, name] = splitFqn(fqn);
  return { catalog, schema, name };
};

async function found(p: Promise<unknown>): Promise<boolean> {
  try {
    await p;
    return true;
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
}

async function inSchema(list: Promise<{ name: string }[]>, name: string): Promise<boolean> {
  try {
    return (await list).some((o) => o.name === name);
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
}

export interface Observed {
  exists: boolean;
  version: number | null;
  /** Tables that exist: their grants and tags. */
  governance?: TableGovernance;
}

/** Whether the object exists now, and (tables) its current Delta version, grants and tags. */
export async function observe(ws: Workspace, o: ObjectRef): Promise<Observed> {
  const [catalog, schema, name, column] = splitFqn(o.fqn);
  switch (o.type) {
    case 'catalog':
      return { exists: await found(ws.getCatalog(catalog)), version: null };
    case 'schema':
      return { exists: await found(ws.getSchema(catalog, schema)), version: null };
    case 'table': {
      const ref = { catalog, schema, name };
      if (!(await ws.tableExists(ref))) return { exists: false, version: null };
      const [desc, governance] = await Promise.all([
        ws.describeTable(ref),
        readGovernance(ws, { type: 'TABLE', ...ref }),
      ]);
      return { exists: true, version: desc.version, governance };
    }
    case 'view':
      return { exists: await inSchema(ws.listViews(catalog, schema), name), version: null };
    case 'function':
      return { exists: await inSchema(ws.listFunctions(catalog, schema), name), version: null };
    case 'volume':
      return { exists: await inSchema(ws.listVolumes(catalog, schema), name), version: null };
    case 'column_mask': {
      const ref = { catalog, schema, name };
      if (!(await ws.tableExists(ref))) return { exists: false, version: null };
      return { exists: (await ws.getColumnMasks(ref)).some((m) => m.column === column), version: null };
    }
  }
}

/** Drops one object if it is still there (idempotent). */
export async function dropObject(ws: Workspace, o: ObjectRef): Promise<void> {
  const [catalog, schema, name, column] = splitFqn(o.fqn);
  const ref = { catalog, schema, name };
  switch (o.type) {
    case 'catalog':
      return ws.dropCatalog(catalog, { ifExists: true });
    case 'schema':
      return ws.dropSchema(catalog, schema, { ifExists: true });
    case 'table':
      return ws.dropTable(ref, { ifExists: true });
    case 'view':
      return ws.dropView(ref, { ifExists: true });
    case 'function':
      return ws.dropFunction(ref, { ifExists: true });
    case 'volume':
      return ws.dropVolume(ref, { ifExists: true });
    case 'column_mask':
      if (!(await ws.tableExists(ref))) return;
      if ((await ws.getColumnMasks(ref)).some((m) => m.column === column)) await ws.dropColumnMask(ref, column);
  }
}
