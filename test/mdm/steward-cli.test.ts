import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { slaDueAt } from '../../activities/mdm/logic/sla';
import { startServer } from '../../api/server';
import { registerMdmCommand } from '../../cli/commands/mdm';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Store } from '../../store/db';
import { openCases } from '../../store/mdm/cases';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

let store: Store;
let root: string;
beforeAll(async () => {
  store = await createTestStore();
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-mdm-cli-'));
});
afterAll(async () => {
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

test('lakeward mdm cases, resolve, reference import/resolve, templates apply, reports list', async () => {
  const ws = new LocalWorkspace({ root, user: 'lakeward' });
  const server = await startServer(testAppDeps({ store, open: async () => ws }), { host: '127.0.0.1', port: 0 });
  const out: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((s: unknown) => void out.push(String(s)));
  const cli = async (...args: string[]) => {
    const program = new Command().exitOverride();
    registerMdmCommand(program);
    out.length = 0;
    await program.parseAsync(['node', 'lakeward', 'mdm', ...args, '--url', server.url]);
    return out.join('\n');
  };
  try {
    const { opened } = await openCases(
      store.db,
      [
        {
          entity_type: 'person',
          type: 'suspected_duplicate',
          records: [
            { system: 'crm', record_id: '5' },
            { system: 'erp', record_id: '6' },
          ],
        },
      ],
      slaDueAt(''),
    );
    expect(await cli('cases', '--status', 'open')).toMatch(
      new RegExp(`${opened[0]}\\s+suspected_duplicate\\s+open\\s+on_track`),
    );
    expect(await cli('resolve', opened[0], 'reject', '--notes', 'different people')).toContain(
      `${opened[0]} resolved (reject)`,
    );
    await expect(cli('resolve', opened[0], 'reject')).rejects.toThrow(/resolved already/);

    const csv = path.join(root, 'regions.csv');
    writeFileSync(
      csv,
      'code,description,aliases,valid_from\nEMEA,"Europe, Middle East, Africa","EU, Europe",2020-01-01\n',
    );
    expect(await cli('reference', 'import', 'region', csv)).toBe('1 created, 0 updated, 0 failed');
    expect(await cli('reference', 'resolve', 'region', 'europe')).toBe('EMEA');
    expect(await cli('reference', 'resolve', 'iso_3166_1', 'U.S.A.')).toBe('US');

    expect(await cli('templates', 'apply', 'retail_360', '--target-catalog', 'demo')).toMatch(
      /applied retail_360\ncustomer: model created, table created/,
    );
    expect(await cli('templates', 'apply', 'retail_360', '--target-catalog', 'demo')).toMatch(
      /retail_360: nothing to change/,
    );
    expect(await cli('reports', 'list')).toMatch(/stewardship_backlog\s+builtin\s+Stewardship backlog/);
  } finally {
    log.mockRestore();
    await server.close(500);
  }
});
