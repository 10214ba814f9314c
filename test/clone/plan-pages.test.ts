import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { planSchemaTables, type PlanPage } from '../../activities/clone/schema-plan';
import { LocalWorkspace } from '../../platform/local/workspace';
import { applyCloneDefaults, type CloneRequestInput } from '../../schemas/clone';
import type { Store } from '../../store/db';
import type { TargetContext } from '../../workflows/clone/engine-types';
import { createTestStore } from '../helpers/db';

/**
 * A schema's plan a page at a time (one page per schema-workflow run, so a 100,000-table schema never needs
 * its whole plan in one payload): the pages, read in turn, are the whole plan in the same order — by name or
 * by size — with each table in exactly one page, and load_type skips reported in the page of the table.
 */
let store: Store;
let root: string;
let ws: LocalWorkspace;
const sizes: Record<string, number> = { a: 30, b: 10, c: 50, d: 10, e: 20, f: 40, g: 5 };

beforeAll(async () => {
  store = await createTestStore();
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-plan-pages-'));
  ws = new LocalWorkspace({ root, user: 'lakeward' });
  await ws.createCatalog({ name: 'prod' });
  await ws.createSchema({ catalog: 'prod', name: 's' });
  // Row counts make the sizes differ (ties included: b and d), so size order is not name order.
  for (const [name, rows] of Object.entries(sizes))
    await ws.createTableAs({
      ref: { catalog: 'prod', schema: 's', name },
      query: `SELECT range AS k, repeat('x', 200) AS v FROM range(${rows * 100})`,
    });
  await ws.createCatalog({ name: 'dev' });
  await ws.createSchema({ catalog: 'dev', name: 's' });
  await ws.cloneTable({
    source: { catalog: 'prod', schema: 's', name: 'c' },
    target: { catalog: 'dev', schema: 's', name: 'c' },
    cloneType: 'SHALLOW',
  });
}, 60_000);
afterAll(async () => {
  await ws?.close();
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

function ctx(request: Partial<CloneRequestInput>): TargetContext {
  const options = applyCloneDefaults({ source_catalog: 'prod', destination_catalog: 'dev', ...request } as never);
  return {
    jobId: 'plan-pages',
    options,
    source: { kind: 'local', root },
    target: { label: 'local', workspace: { kind: 'local', root }, destinationCatalog: 'dev' },
    crossWorkspace: false,
  };
}

async function inPages(c: TargetContext, limit: number) {
  const pages: { tables: string[]; skips: string[] }[] = [];
  let page: PlanPage = { limit };
  let listed = 0;
  for (;;) {
    const p = await planSchemaTables(store.db, ws, ws, c, 's', undefined, new Set(), page);
    pages.push({ tables: p.tables.map((t) => t.name), skips: p.skips.map((s) => s.name) });
    listed = p.listed!;
    if (!p.next) break;
    page = { limit, after: p.next };
    if (pages.length > 10) throw new Error('the pages never end');
  }
  return { pages, listed };
}

test.each([
  ['by name', {}],
  ['by size, ascending', { order_by_size: 'asc' }],
  ['by size, descending', { order_by_size: 'desc' }],
] as const)('pages of 2 tables are the whole plan, %s', async (_label, request) => {
  const c = ctx(request as Partial<CloneRequestInput>);
  const whole = await planSchemaTables(store.db, ws, ws, c, 's');
  const { pages, listed } = await inPages(c, 2);
  expect(pages.map((p) => p.tables.length)).toEqual([2, 2, 2, 1]);
  expect(pages.flatMap((p) => p.tables)).toEqual(whole.tables.map((t) => t.name));
  expect(listed).toBe(7);
  const order = (request as { order_by_size?: 'asc' | 'desc' }).order_by_size;
  const first = { none: 'a', asc: 'g', desc: 'c' }[order ?? 'none'];
  expect(whole.tables[0].name).toBe(first);
});

test('INCREMENTAL reports a table already in the destination as skipped, in its own page only', async () => {
  const { pages, listed } = await inPages(ctx({ load_type: 'INCREMENTAL' }), 3);
  expect(pages).toEqual([
    { tables: ['a', 'b'], skips: ['c'] },
    { tables: ['d', 'e', 'f'], skips: [] },
    { tables: ['g'], skips: [] },
  ]);
  expect(listed).toBe(7);
});
