import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../config/load';
import { applyCloneDefaults, cloneRequestSchema } from '../../schemas/clone';
import type { CloneJobInput } from '../../workflows/clone/definitions';
import { contextFor } from '../../workflows/clone/schema-pool';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lakeward-tz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function loadWith(yaml: string) {
  const file = path.join(dir, 'lakeward.yaml');
  writeFileSync(file, yaml);
  return loadConfig({ configPath: file, env: {}, cwd: dir });
}

test('clone.throttle_timezone defaults to UTC and accepts an IANA zone', () => {
  expect(loadConfig({ env: {}, cwd: dir }).clone.throttle_timezone).toBe('UTC');
  expect(loadWith('clone:\n  throttle_timezone: Europe/Berlin\n').clone.throttle_timezone).toBe('Europe/Berlin');
});

test('an unknown time zone stops start-up naming clone.throttle_timezone', () => {
  let err: unknown;
  try {
    loadWith('clone:\n  throttle_timezone: Mars/Olympus\n');
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ConfigError);
  expect((err as ConfigError).issues).toEqual([
    expect.objectContaining({ path: 'clone.throttle_timezone', message: expect.stringContaining('IANA time zone') }),
  ]);
});

test('the job input zone reaches every target context; a job without one reads windows in UTC', () => {
  const source = { kind: 'local' as const, root: dir };
  const input: CloneJobInput = {
    jobId: 'clone-tz',
    options: applyCloneDefaults(cloneRequestSchema.parse({ source_catalog: 's', destination_catalog: 'd' })),
    source,
    targets: [{ label: dir, workspace: source, destinationCatalog: 'd' }],
    createdAt: '2026-11-20T23:30:00Z',
    maxRetries: 0,
  };
  expect(contextFor({ ...input, throttleTimezone: 'Asia/Tokyo' }, 0).throttleTimezone).toBe('Asia/Tokyo');
  expect(contextFor(input, 0).throttleTimezone).toBe('UTC');
});
