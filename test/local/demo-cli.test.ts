import { Command } from 'commander';
import { registerDemoCommands } from '../../cli/commands/demo';
import { LocalWorkspace } from '../../platform/local/workspace';
import { tempRoots } from './helpers';

const roots = tempRoots();
afterAll(() => roots.cleanup());

async function run(args: string[]): Promise<string> {
  const program = new Command('lakeward').exitOverride();
  registerDemoCommands(program);
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await program.parseAsync(['node', 'lakeward', ...args]);
  } finally {
    spy.mockRestore();
  }
  return lines.join('');
}

describe('lakeward demo seed', () => {
  it('seeds the named catalog into the given workspace and prints what it built', async () => {
    const root = roots.make();
    const out = await run(['demo', 'seed', '--workspace', root, '--catalog', 'shop']);
    expect(out).toMatch(/Seeded catalog shop \(small\)/);
    expect(out).toMatch(/tables: +21/);
    expect((await new LocalWorkspace({ root }).listSchemas('shop')).map((s) => s.name)).toEqual([
      'crm',
      'finance',
      'ops',
      'sales',
    ]);
    await expect(run(['demo', 'seed', '--workspace', root, '--catalog', 'shop'])).rejects.toThrow(
      /shop already exists/,
    );
  });

  it('rejects an unknown scale before touching the workspace', async () => {
    const root = roots.make();
    jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await expect(run(['demo', 'seed', '--workspace', root, '--scale', 'huge'])).rejects.toThrow(/huge/);
    jest.restoreAllMocks();
    expect(await new LocalWorkspace({ root }).listCatalogs()).toEqual([]);
  });
});
