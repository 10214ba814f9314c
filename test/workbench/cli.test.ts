import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../api/server';
import { csvText, parseParam } from '../../cli/commands/workbench';
import { harnessAppDeps } from '../helpers/harness-app';
import { cliOut, runCli } from '../helpers/cli';
import { createHarness, eventually, type Harness } from '../helpers/harness';

/** `lakeward sql` and `lakeward notebook` end to end: the real CLI as a child process against a real API. */
let h: Harness;
let server: RunningServer;
let dir: string;

const cli = (...args: string[]) => cliOut([...args, '--url', server.url], { cwd: dir });
/** The exit code and stderr of a CLI call expected to fail. */
const cliFails = async (...args: string[]) => {
  const r = await runCli([...args, '--url', server.url], { cwd: dir });
  if (r.code === 0) throw new Error(`lakeward ${args.join(' ')} succeeded`);
  return { code: r.code, stderr: r.stderr };
};

beforeAll(async () => {
  h = await createHarness('workbench-cli');
  dir = mkdtempSync(path.join(tmpdir(), 'lw-wb-cli-'));
  const root = h.config.workspace.root;
  const ws = h.open(root);
  await ws.createCatalog({ name: 'wb' });
  await ws.createSchema({ catalog: 'wb', name: 's' });
  await ws.createTableAs({
    ref: { catalog: 'wb', schema: 's', name: 'orders' },
    query: "SELECT id, CASE WHEN id % 3 = 0 THEN 'EU' ELSE 'US' END AS region FROM range(2500) AS t(id)",
  });
  const deps = harnessAppDeps(h);
  server = await startServer(deps, { host: '127.0.0.1', port: 0 });
}, 120_000);
afterAll(async () => {
  await server?.close(500);
  await h?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

test('parameters parse as name=value[:TYPE]; CSV quotes what needs it', () => {
  expect(parseParam('min=10:INT')).toEqual({ name: 'min', value: '10', type: 'INT' });
  expect(parseParam('t=12:30')).toEqual({ name: 't', value: '12:30' });
  expect(parseParam('d=1.5:decimal(10,2)')).toEqual({ name: 'd', value: '1.5', type: 'DECIMAL(10,2)' });
  expect(() => parseParam('oops')).toThrow(/name=value/);
  expect(
    csvText(
      ['a', 'b'],
      [
        ['x,y', null],
        ['say "hi"', '1'],
      ],
    ),
  ).toBe('a,b\r\n"x,y",\r\n"say ""hi""",1\r\n');
});

test('lakeward sql: a table, a typed parameter, every chunk, CSV, a refused write, history', async () => {
  const table = await cli('sql', 'SELECT region, count(*) AS n FROM wb.s.orders GROUP BY region ORDER BY region');
  expect(table).toMatch(/^region\s+n$/m);
  expect(table).toMatch(/^EU\s+834$/m);
  expect(table).toMatch(/^US\s+1666$/m);
  expect(table).toMatch(/\(2 rows\)/);

  const param = JSON.parse(
    await cli(
      'sql',
      'SELECT id FROM orders WHERE id < :top ORDER BY id',
      '--catalog',
      'wb',
      '--schema',
      's',
      '--param',
      'top=3:INT',
      '--json',
    ),
  ) as { id: string }[];
  expect(param).toEqual([{ id: '0' }, { id: '1' }, { id: '2' }]);

  // 2,500 rows come back in three 1,000-row chunks; the CLI fetches all of them.
  const csv = await cli('sql', 'SELECT id, region FROM wb.s.orders ORDER BY id', '--csv');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines).toHaveLength(2501);
  expect(lines[0]).toBe('id,region');
  expect(lines[2500]).toBe('2499,EU');

  const refused = await cliFails('sql', 'DELETE FROM wb.s.orders');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/DELETE/);

  const history = await cli('sql', 'history');
  expect(history).toMatch(/^time\s+state\s+rows\s+ms\s+statement$/m);
  expect(history).toMatch(/SUCCEEDED\s+2500\s+\d+\s+SELECT id, region FROM wb\.s\.orders ORDER BY id/);
  expect(history).toMatch(/SUCCEEDED\s+3\s+\d+\s+SELECT id FROM orders WHERE id < :top/);
}, 120_000);

test('lakeward notebook: import → export round trip, list, show, run --wait', async () => {
  copyFileSync(path.join(__dirname, 'golden/sales-review.sql'), path.join(dir, 'in.sql'));
  const imported = JSON.parse(await cli('notebook', 'import', 'in.sql', '--json')) as { id: string; title: string };
  expect(imported.title).toBe('Sales review');
  await cli('notebook', 'export', imported.id, '-o', 'out.sql');
  expect(readFileSync(path.join(dir, 'out.sql'), 'utf8')).toBe(readFileSync(path.join(dir, 'in.sql'), 'utf8'));

  expect(await cli('notebook', 'list')).toMatch(new RegExp(`^${imported.id}\\s+1\\s+\\d+\\s.*Sales review$`, 'm'));
  expect(await cli('notebook', 'create', 'scratch')).toMatch(/^created notebook \S+ {2}scratch {2}\(0 cells\)/);

  const ran = await h.withWorker(() => cli('notebook', 'run', imported.id, '--wait'));
  expect(ran).toMatch(/^job \S+ completed$/m);
  const shown = await cli('notebook', 'show', imported.id);
  expect(shown).toMatch(/→ SUCCEEDED, 2 rows/);
  expect(shown).toMatch(/→ SUCCEEDED, 1 rows/);
}, 180_000);

test('lakeward dlt pipelines: the local lakehouse has none', async () => {
  expect((await cli('dlt', 'pipelines', '--filter', "name LIKE 's%'")).trim()).toBe('no pipelines');
  expect(JSON.parse(await cli('dlt', 'pipelines', '--json'))).toEqual({ pipelines: [] });
});

test('lakeward sql: Ctrl-C while a statement runs cancels it on the server and exits 1', async () => {
  const child = spawn(
    path.resolve(__dirname, '../../node_modules/.bin/tsx'),
    [
      path.resolve(__dirname, '../../cli/main.ts'),
      'sql',
      'SELECT count(*) AS n FROM wb.s.orders a, wb.s.orders b, wb.s.orders c WHERE (a.id + b.id * c.id) % 7 = 3',
      '--url',
      server.url,
    ],
    { cwd: dir },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const running = await eventually(
    async () => {
      const res = await fetch(`${server.url}/api/sql/history`);
      const { history } = (await res.json()) as {
        history: { statement_id: string; statement: string; state: string }[];
      };
      if (child.exitCode !== null) throw new Error(`lakeward sql exited ${child.exitCode}: ${stderr}`);
      const entry = history.find((x) => x.statement.includes('wb.s.orders c'));
      if (entry && entry.state !== 'PENDING' && entry.state !== 'RUNNING') throw new Error(`ended: ${entry.state}`);
      return entry ?? null;
    },
    { what: 'the statement running in the history' },
  );
  child.kill('SIGINT');
  expect(await exited).toBe(1);
  expect(stderr).toMatch(new RegExp(`statement ${running.statement_id} CANCELED`));
  expect(await cli('sql', 'history')).toMatch(/CANCELED\s+\d*\s*\d*\s+SELECT count\(\*\) AS n FROM wb\.s\.orders a/);
}, 120_000);
