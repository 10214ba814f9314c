import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import YAML from 'yaml';

const ROOT = path.resolve(__dirname, '../..');
const hasCompose = spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0;
// Needs Debian's docker-compose (validates without a Docker engine); .ci/run installs it.
const composeTest = hasCompose ? test : test.skip;
if (!hasCompose) console.warn('compose test skipped: the docker-compose binary is not installed');

composeTest('docker-compose.temporal.yml validates and wires Temporal on Postgres, UI, API and worker', () => {
  const out = execFileSync('docker-compose', ['-f', 'docker-compose.temporal.yml', 'config'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, LAKEWARD_API_KEY: '' },
  });
  const { services } = YAML.parse(out) as { services: Record<string, Record<string, unknown>> };
  expect(Object.keys(services).sort()).toEqual([
    'lakeward-api',
    'lakeward-db',
    'lakeward-worker',
    'postgresql',
    'temporal',
    'temporal-admin-tools',
    'temporal-create-namespace',
    'temporal-ui',
  ]);
  expect(services.temporal.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgresql' });
  expect(services.temporal.depends_on).toEqual({
    'temporal-admin-tools': { condition: 'service_completed_successfully' },
  });
  expect(services['temporal-ui'].environment).toMatchObject({ TEMPORAL_ADDRESS: 'temporal:7233' });
  for (const name of ['lakeward-api', 'lakeward-worker']) {
    expect(services[name].build).toEqual({ context: ROOT });
    expect(services[name].environment).toMatchObject({ TEMPORAL_ADDRESS: 'temporal:7233' });
    expect(services[name].depends_on).toMatchObject({
      'temporal-create-namespace': { condition: 'service_completed_successfully' },
    });
  }
  expect(services['lakeward-api'].command).toEqual(['serve', '--api-only']);
  expect(services['lakeward-worker'].command).toEqual(['serve', '--worker-only']);
});
