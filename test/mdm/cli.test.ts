import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { syntheticModel } from '../../activities/mdm/logic/synthetic-model';
import { startServer, type RunningServer } from '../../api/server';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { testAppDeps } from '../api/deps';
import { createHarness, type Harness } from '../helpers/harness';

const run = promisify(execFile);
let h: Harness;
let server: RunningServer;
let dir: string;

/** The real `lakeward` command against the test server (a child process, so the server keeps answering). */
const cli = async (...args: string[]) =>
  (
    await run(
      path.resolve(__dirname, '../../node_modules/.bin/tsx'),
      [path.resolve(__dirname, '../../cli/main.ts'), ...args, '--url', server.url],
      { cwd: dir, encoding: 'utf8' },
    )
  ).stdout;

beforeAll(async () => {
  h = await createHarness('mdm-cli');
  dir = mkdtempSync(path.join(tmpdir(), 'lw-mdm-cli-'));
  const root = h.config.workspace.root;
  const temporal = { client: h.env.client, connection: h.env.client.connection, address: 'test' };
  const deps = testAppDeps({
    store: h.store,
    temporal,
    flags: { dataDir: h.config.data_dir },
    env: { LAKEWARD_TASK_QUEUE: h.taskQueue },
    open: async () => h.open(root),
  });
  server = await startServer(deps, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await h.env.client.workflow
    .getHandle(jobQueueWorkflowId('mdm_ingest', h.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await server?.close(500);
  await h?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

test('generate --register, model put/get, sources list, ingest, analyse, match, evaluate and entities', async () => {
  const generated = await cli('mdm', 'generate', '--catalog', 'raw', '--records', '300', '--register');
  expect(generated).toMatch(/^300 person records of \d+ people written; truth in raw\.mdm_synthetic\.truth/);
  expect(generated).toMatch(/crm\s+person\s+raw\.mdm_synthetic\.crm_customers\s+cust_id\s+90/);

  writeFileSync(path.join(dir, 'person.yaml'), stringify({ ...syntheticModel(), review_floor: 55 }));
  expect(await cli('mdm', 'model', 'put', 'person', 'person.yaml')).toContain('model person stored (7 attributes)');
  expect(JSON.parse(await cli('mdm', 'model', 'get', 'person')).review_floor).toBe(55);

  const list = await cli('mdm', 'sources', 'list', '--json');
  expect(JSON.parse(list).map((s: { system: string }) => s.system)).toEqual(['crm', 'erp', 'web']);

  await h.withWorker(async () => {
    const report = await cli('mdm', 'ingest', 'person', '--systems', 'crm,web');
    expect(report).toMatch(/^mdm_ingest-\S+: completed/);
    expect(report).toMatch(/^crm\s+\d+\s+\d+/m);
    expect(report).toMatch(/^web\s+\d+\s+\d+/m);
    expect(report).not.toMatch(/^erp/m);
    expect(await cli('mdm', 'analyse', 'person')).toMatch(/^dob\s+\d+$/m);
    const matched = await cli('mdm', 'match', 'person');
    expect(matched).toMatch(/^mdm_match-\S+: completed/);
    expect(matched).toMatch(/^golden records: \d+ \(\d+ created, 0 merged, 0 archived;/m);
    expect(matched).toMatch(/^time per step \(ms\): blocking \d+, comparing \d+, training \d+/m);
    // the last run's model, every record compared again: nothing moves
    const again = await cli('mdm', 'match', 'person', '--mode', 'full', '--no-retrain', '--json');
    expect(JSON.parse(again).result).toMatchObject({
      mode: 'full',
      retrained: false,
      changed_records: expect.any(Number),
    });
    expect(JSON.parse(again).result.golden_records).toMatchObject({ created: 0, merged: 0, archived: 0 });
  });
  const evaluation = await cli('mdm', 'evaluate', 'person', '--truth', 'raw.mdm_synthetic.truth');
  expect(evaluation).toMatch(/^pairwise\s+[\d.]+\s+[\d.]+\s+[\d.]+$/m);
  expect(evaluation).toMatch(/^b-cubed\s+/m);
  const crm = JSON.parse(await cli('mdm', 'entities', '--entity-type', 'person', '--limit', '1', '--json'));
  const ref = crm[0].source_records[0];
  const found = await cli('mdm', 'entities', '--system', ref.system, '--record-id', ref.record_id);
  expect(found).toContain(crm[0].entity_id);

  // negative-match rules: add (records and pattern), list, deactivate, activate, delete
  const two = JSON.parse(await cli('mdm', 'entities', '--entity-type', 'person', '--limit', '2', '--json'));
  const [a, b] = [two[0].source_records[0], two[1].source_records[0]];
  const pair = JSON.parse(
    await cli(
      'mdm',
      'rules',
      'add',
      'person',
      '--type',
      'pair',
      '--reason',
      'different people',
      '--record',
      `${a.system}:${a.record_id}`,
      '--record',
      `${b.system}:${b.record_id}`,
      '--json',
    ),
  );
  expect(pair).toMatchObject({ type: 'pair', status: 'active', records: [a, b], created_by: expect.any(String) });
  const badPattern = cli(
    'mdm',
    'rules',
    'add',
    'person',
    '--type',
    'pattern',
    '--reason',
    'x',
    '--predicate',
    'a.zip = b.zip; DROP TABLE t',
  );
  await expect(badPattern).rejects.toThrow(/body\.predicate/);
  const pattern = await cli(
    'mdm',
    'rules',
    'add',
    'person',
    '--type',
    'pattern',
    '--reason',
    'twins',
    '--predicate',
    'a.first_name <> b.first_name',
  );
  expect(pattern).toMatch(/^\S+\s+person\s+pattern\s+active\s+0\s+a\.first_name <> b\.first_name\s+twins$/m);
  const listed = await cli('mdm', 'rules', 'list', '--entity-type', 'person');
  expect(listed).toMatch(
    new RegExp(
      `^${pair.id}\\s+person\\s+pair\\s+active\\s+0\\s+${a.system}:${a.record_id} ${b.system}:${b.record_id}`,
      'm',
    ),
  );
  expect(await cli('mdm', 'rules', 'deactivate', pair.id)).toMatch(
    new RegExp(`^${pair.id}\\s+person\\s+pair\\s+inactive`, 'm'),
  );
  expect(
    JSON.parse(await cli('mdm', 'rules', 'list', '--status', 'inactive', '--json')).map((r: { id: string }) => r.id),
  ).toEqual([pair.id]);
  expect(await cli('mdm', 'rules', 'activate', pair.id)).toMatch(/\spair\s+active\s/);
  expect(JSON.parse(await cli('mdm', 'rules', 'show', pair.id, '--json')).status).toBe('active');
  expect(await cli('mdm', 'rules', 'delete', pair.id)).toContain(`rule ${pair.id} deleted`);
  await expect(cli('mdm', 'rules', 'show', pair.id)).rejects.toThrow(/404|No negative-match rule/);
}, 300_000);
