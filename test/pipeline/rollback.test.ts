import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { eventually } from '../helpers/harness';
import { automationStack, type AutomationStack } from '../automation/stack';

/**
 * on_failure rollback of every step kind that changes tables, read back with delta-rs (an independent Delta
 * reader): a writing custom_sql, an optimize and an incremental sync are undone; vacuum and notify say why not.
 */
const PYTHON = path.resolve(__dirname, '../../.venv/bin/python');
const PROBE = path.resolve(__dirname, '../delta/delta_rs_probe.py');
type Rs = { version: number; rows: Record<string, string | null>[]; numFiles: number };
const deltaRs = (dir: string, version?: number): Rs =>
  JSON.parse(
    execFileSync(PYTHON, [PROBE, 'read', dir, ...(version === undefined ? [] : [String(version)])], {
      encoding: 'utf8',
    }),
  ) as Rs;

let s: AutomationStack;
beforeAll(async () => {
  s = await automationStack('pipeline-rollback');
}, 120_000);
afterAll(async () => s?.stop());

type StepState = { name: string; status: string; error: string | null; output: Record<string, unknown> | null };

test('rollback restores what a writing custom_sql, an optimize and a sync changed; vacuum and notify say why not', async () => {
  const ws = s.h.open(s.root);
  const orders = { catalog: 'prod', schema: 'sales', name: 'orders' };
  const dir = (await ws.describeTable(orders)).location!;
  const before = deltaRs(dir);
  const p = await s
    .api()
    .post('/api/pipeline/pipelines')
    .send({
      name: 'undo-all',
      steps: [
        {
          type: 'sync',
          name: 'sync',
          config: { source_catalog: 'prod', destination_catalog: 'prod_sy', schema_name: 'sales' },
        },
        {
          type: 'custom_sql',
          name: 'add',
          config: {
            sql: 'INSERT INTO prod.sales.orders SELECT id + 1000, region, amount FROM prod.sales.orders',
            allow_write: true,
          },
        },
        { type: 'optimize', name: 'compact', config: { table_fqn: 'prod.sales.orders' } },
        { type: 'vacuum', name: 'vac', config: { table_fqn: 'prod.sales.orders' } },
        { type: 'notify', name: 'tell', config: { message: 'written' } },
        { type: 'custom_sql', name: 'bad', config: { sql: 'SELECT * FROM prod.sales.nope' }, on_failure: 'rollback' },
      ],
    })
    .expect(201);
  const runId = (await s.api().post(`/api/pipeline/pipelines/${p.body.pipeline_id}/run`).expect(202)).body.run_id;
  const r = await eventually(
    async () => {
      const body = (await s.api().get(`/api/pipeline/runs/${runId}`).expect(200)).body;
      return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : null;
    },
    { what: `run ${runId} ended`, timeoutMs: 120_000 },
  );
  const by = Object.fromEntries((r.steps as StepState[]).map((x) => [x.name, x]));
  expect(r.status).toBe('failed');
  expect((r.steps as StepState[]).map((x) => [x.name, x.status])).toEqual([
    ['sync', 'rolled_back'],
    ['add', 'rolled_back'],
    ['compact', 'rolled_back'],
    ['vac', 'succeeded'],
    ['tell', 'succeeded'],
    ['bad', 'failed'],
  ]);
  expect(by.vac.error).toContain('not undone: VACUUM deletes data files');
  expect(by.tell.error).toBe('not undone: a notification cannot be unsent');
  expect(r.error).toContain('rolled back: compact, add, sync; not undone: tell, vac');

  // delta-rs: the rows are the ones before the run, in a new version that restored them.
  const after = deltaRs(dir);
  expect(after.rows).toEqual(before.rows);
  expect(after.version).toBeGreaterThan(before.version);
  expect(deltaRs(dir, before.version + 1).rows).toHaveLength(before.rows.length * 2);
  const history = await ws.tableHistory(orders, 10);
  expect(history[0].operation).toMatch(/RESTORE/);
  expect((by.add.output!.rollback as { steps: { fqn: string; version: number }[] }[])[0].steps).toEqual([
    expect.objectContaining({ fqn: 'prod.sales.orders', outcome: 'restored', version: before.version }),
  ]);
  // The sync created prod_sy: the catalog, its schema and tables are gone again.
  expect((await ws.listCatalogs()).map((c) => c.name)).not.toContain('prod_sy');
  const syncUndo = (by.sync.output!.rollback as { dropped: number; failed: number }[])[0];
  expect(syncUndo.failed).toBe(0);
  expect(syncUndo.dropped).toBeGreaterThan(1);
}, 180_000);
