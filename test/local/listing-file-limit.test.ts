import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../..');

/**
 * A schema's listing reads one file per object. Listing tables and views of a large schema at once (as the catalog
 * explorer's tree does) must stay within the process's file-descriptor limit: here 600 tables listed twice in
 * parallel under `ulimit -n 256`, which reading every file at once exceeds (EMFILE).
 */
test('listing a schema of many tables twice at once stays within the open-file limit', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lw-fd-'));
  try {
    const script = path.join(dir, 'list.ts');
    writeFileSync(
      script,
      `import { LocalWorkspace } from ${JSON.stringify(path.join(ROOT, 'platform/local/workspace'))};
(async () => {
  const ws = new LocalWorkspace({ root: ${JSON.stringify(path.join(dir, 'ws'))}, user: 'x' });
  await ws.createCatalog({ name: 'c' });
  await ws.createSchema({ catalog: 'c', name: 's' });
  for (let i = 0; i < 600; i++) await ws.createTable({ ref: { catalog: 'c', schema: 's', name: 't' + i }, columns: [{ name: 'id', type: 'bigint' }] });
  const [tables, views] = await Promise.all([ws.listTables('c', 's'), ws.listViews('c', 's')]);
  console.log(JSON.stringify({ tables: tables.length, views: views.length }));
})().catch((err) => { console.error(String(err)); process.exit(1); });
`,
    );
    const tsx = path.join(ROOT, 'node_modules/.bin/tsx');
    const { stdout } = await promisify(execFile)('bash', ['-c', `ulimit -n 256 && exec ${tsx} ${script}`], {
      cwd: ROOT,
    });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ tables: 600, views: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
