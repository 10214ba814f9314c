import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Workspace } from '../../platform/port';
import type { TableRef } from '../../platform/types';
import type { Store } from '../../store/db';
import type { WorkspaceRef } from '../../workflows/clone/definitions';
import { createTestStore } from '../helpers/db';
import type { SafetyDeps } from '../../activities/clone/rollback/activities';

/** A temporary local lakehouse plus a migrated store; `cleanup()` removes both. */
export async function safetyFixture(prefix: string) {
  const root = mkdtempSync(path.join(tmpdir(), `lw-${prefix}-`));
  const store: Store = await createTestStore();
  const ws = new LocalWorkspace({ root, user: 'lakeward' });
  const ref: WorkspaceRef = { kind: 'local', root };
  const deps: SafetyDeps = {
    db: store.db,
    resolveWorkspace: async (r) =>
      r.kind === 'local' && r.root === root
        ? ws
        : new LocalWorkspace({ root: (r as { root: string }).root, user: 'lakeward' }),
  };
  return {
    root,
    store,
    ws,
    ref,
    deps,
    async cleanup() {
      await store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export async function makeTable(
  ws: Workspace,
  ref: TableRef,
  rows: { id: number; name: string | null }[],
): Promise<void> {
  await ws.createTable({
    ref,
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'name', type: 'string' },
    ],
  });
  if (rows.length) await ws.insertRows(ref, rows);
}

export async function rowsOf(ws: Workspace, ref: TableRef): Promise<unknown[]> {
  const r = await ws.query(`SELECT id, name FROM ${ref.catalog}.${ref.schema}.${ref.name} ORDER BY id`);
  return r.rows.map((x) => ({ id: Number(x.id), name: x.name }));
}
