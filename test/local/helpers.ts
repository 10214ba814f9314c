import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LocalWorkspace, type LocalWorkspaceOptions } from '../../platform/local/workspace';
import type { TableRef } from '../../platform/types';

/** Temp workspace roots for one test file, removed afterwards. */
export function tempRoots() {
  const made: string[] = [];
  return {
    make(prefix = 'lw-test-'): string {
      const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    cleanup(): void {
      for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}

export async function workspaceWithSchema(root: string, opts: Partial<LocalWorkspaceOptions> = {}) {
  const ws = new LocalWorkspace({ root, user: 'alice', ...opts });
  await ws.createCatalog({ name: 'main' });
  await ws.createSchema({ catalog: 'main', name: 'sales' });
  return ws;
}

export const ref = (name: string, schema = 'sales', catalog = 'main'): TableRef => ({ catalog, schema, name });

export async function peopleTable(
  ws: LocalWorkspace,
  name = 'people',
  properties?: Record<string, string>,
): Promise<TableRef> {
  const r = ref(name);
  await ws.createTable({
    ref: r,
    properties,
    comment: 'People',
    columns: [
      { name: 'id', type: 'bigint', nullable: false, comment: 'key' },
      { name: 'name', type: 'string' },
      { name: 'ssn', type: 'string' },
      { name: 'region', type: 'string' },
      { name: 'score', type: 'decimal(10,2)' },
    ],
  });
  await ws.insertRows(r, [
    { id: 1, name: 'Ann', ssn: '111-22-3333', region: 'EMEA', score: 1.5 },
    { id: 2, name: "O'Brien", ssn: '444-55-6666', region: 'APAC', score: 2 },
    { id: 3, name: null, ssn: null, region: 'AMER', score: null },
  ]);
  return r;
}
