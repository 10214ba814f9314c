import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const cli = (args: string[], cwd: string) =>
  execFileSync(
    path.resolve(__dirname, '../../node_modules/.bin/tsx'),
    [path.resolve(__dirname, '../../cli/main.ts'), ...args],
    { cwd, encoding: 'utf8' },
  );

test('`lakeward templates` lists built-ins and custom templates; a name shows the template', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lw-cli-templates-'));
  try {
    writeFileSync(
      path.join(dir, 'nightly.yaml'),
      'name: nightly\ndescription: our nightly copy\nclone_options:\n  clone_type: SHALLOW\n',
    );
    const list = JSON.parse(cli(['templates', '--json', '--dir', dir], dir)) as { name: string; clone_type: string }[];
    expect(list.map((t) => t.name)).toEqual([
      'audit-copy',
      'dev-refresh',
      'dr-replica',
      'full-mirror',
      'minimal',
      'nightly',
      'pii-safe',
    ]);
    expect(cli(['templates', '--dir', dir], dir)).toMatch(/^nightly\s+SHALLOW\s+our nightly copy$/m);
    expect(JSON.parse(cli(['templates', 'dr-replica', '--json'], dir)).safety).toMatchObject({
      auto_rollback: true,
      rollback_threshold: 1,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
