import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childProcesses, exited, freePort, isAlive, spawnLakeward, waitFor } from './stack-process';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lakeward-dev-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test('lakeward dev serves health with Temporal and the store reachable, and Ctrl-C leaves no temporal process', async () => {
  const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
  const args = ['dev', '--data-dir', dataDir, '--port', String(port), '--temporal-port', String(temporalPort)];
  const dev = spawnLakeward([...args, '--ui-port', String(uiPort)]);
  let temporalPid: number | undefined;
  try {
    const health = await waitFor(
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        const body = (await res.json()) as { status: string; runtime: Record<string, { reachable: boolean }> };
        return body.status === 'ok' ? body : undefined;
      },
      90_000,
      `health on port ${port}`,
    );
    expect(health.runtime.temporal.reachable).toBe(true);
    expect(health.runtime.store.reachable).toBe(true);
    expect((await fetch(`http://127.0.0.1:${uiPort}/`)).status).toBe(200);

    const temporal = childProcesses(dev.pid!).filter(([, cmd]) => cmd.includes('server start-dev'));
    expect(temporal).toHaveLength(1);
    temporalPid = temporal[0][0];
    expect(temporal[0][1]).toContain(path.join(dataDir, 'temporal.db'));

    // A second stack on the same data folder is refused instead of corrupting the first one's files.
    const second = spawnLakeward(['dev', '--data-dir', dataDir, '--port', String(await freePort())]);
    expect(await exited(second)).not.toBe(0);
    expect(second.output()).toContain('another Lakeward stack');

    dev.kill('SIGINT');
    expect(await exited(dev)).toBe(0);
    expect(isAlive(temporal[0][0])).toBe(false);
    expect(dev.output()).toContain('Lakeward stopped.');
  } finally {
    if (dev.exitCode === null) dev.kill('SIGKILL');
    // The dev server has its own process group: if the test failed early, do not leave it running.
    if (temporalPid && isAlive(temporalPid)) process.kill(-temporalPid, 'SIGKILL');
  }
}, 150_000);
