import { execFileSync, spawn } from 'node:child_process';
import {
  constants as fsConstants,
  copyFileSync,
  promises as fs,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { DeltaTable } from '../../platform/local/delta';
import { SYSTEM_COPY_MIN_BYTES } from '../../platform/local/delta/file-copy';
import { rows, tempRoot } from './helpers';

const PYTHON = path.resolve(__dirname, '../../.venv/bin/python');
const PROBE = path.resolve(__dirname, 'delta_rs_probe.py');
const DELTA = path.resolve(__dirname, '../../platform/local/delta');
const UUID = '0f8e1c2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

const tmp = tempRoot('delta-temp-copies');
afterAll(() => tmp.cleanup());

function tempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => /\.tmp-[0-9a-f-]{36}$/.test(n));
}

/** Ages a file as a killed worker's copy is aged when its retry starts (after the 10 s heartbeat timeout). */
function ageBy(file: string, ms: number): void {
  const t = new Date(Date.now() - ms);
  utimesSync(file, t, t);
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function digest(t: DeltaTable): Promise<unknown> {
  return rows(`SELECT count(*)::BIGINT AS n, sum(hash(name))::HUGEINT::VARCHAR AS h FROM ${await t.scanSql()}`);
}

/** A source table with one data file above the system-copy threshold (so the clone copies it with `cp`). */
async function bigSource(name: string): Promise<{ table: DeltaTable; bigFile: string }> {
  const table = await DeltaTable.create(tmp.dir(name), {
    schema: [
      { name: 'id', type: 'bigint', nullable: false },
      { name: 'name', type: 'string', nullable: true },
    ],
  });
  await table.append(
    `SELECT i::BIGINT AS id, md5(i::VARCHAR) || md5((i * 7)::VARCHAR) AS name FROM range(0, 300000) t(i)`,
  );
  const big = (await table.snapshot()).files.find((f) => f.size >= SYSTEM_COPY_MIN_BYTES);
  if (!big) throw new Error('expected a data file above the system-copy threshold');
  return { table, bigFile: path.join(tmp.dir(name), big.path) };
}

describe('temp files of a deep-clone copy killed with its worker', () => {
  test('the killed copy stops writing, and the retried clone removes its temp file and arrives whole', async () => {
    const { table: src, bigFile } = await bigSource('killed-src');
    const target = tmp.dir('killed-dst');
    // The big source file becomes a FIFO we feed by hand, so the worker is killed while `cp` is mid-file.
    const real = `${bigFile}.real`;
    renameSync(bigFile, real);
    execFileSync('mkfifo', [bigFile]);
    const script = tmp.dir('worker.ts');
    writeFileSync(
      script,
      `import { DeltaTable } from ${JSON.stringify(DELTA)};\n` +
        `void DeltaTable.open(${JSON.stringify(src.dir)}).then((t) => t.cloneTo(${JSON.stringify(target)}, { mode: 'DEEP' }));\n`,
    );
    const worker = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let feeding = false;
    worker.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<never>((_, reject) =>
      worker.on('exit', (code) => {
        if (feeding) return; // killed by this test, as planned
        // Unblocks our pending open of the FIFO before failing, so nothing is left hanging.
        void fs.open(bigFile, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK).then((fh) => fh.close());
        reject(new Error(`the clone worker exited (${code}) before copying the big file: ${stderr}`));
      }),
    );
    // Resolves once the worker's cp opened the FIFO for reading.
    const feed = await Promise.race([fs.open(bigFile, 'w'), exited]);
    feeding = true;
    await feed.write((await fs.readFile(real)).subarray(0, 1024 * 1024));
    const partial = await waitFor('the worker to write part of the big file under a temp name', () => {
      const names = tempFiles(target);
      return names.length === 1 && statSync(path.join(target, names[0])).size > 0 ? names[0] : undefined;
    });
    worker.kill('SIGKILL');
    // With its worker gone the copy helper kills its cp: the FIFO loses its only reader.
    await waitFor('the killed worker’s cp to stop reading', async () =>
      feed.write(Buffer.alloc(64 * 1024)).then(
        () => undefined,
        (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' ? true : undefined),
      ),
    );
    await feed.close();
    rmSync(bigFile);
    renameSync(real, bigFile);
    expect(tempFiles(target)).toEqual([partial]);
    expect(statSync(path.join(target, partial)).size).toBeLessThan(statSync(bigFile).size);

    ageBy(path.join(target, partial), 10_000);
    await src.cloneTo(target, { mode: 'DEEP' }); // the activity's retry

    expect(tempFiles(target)).toEqual([]);
    const clone = await DeltaTable.open(target);
    expect(await digest(clone)).toEqual(await digest(src));
    const rs = JSON.parse(execFileSync(PYTHON, [PROBE, 'read', target], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    expect(rs.rows).toHaveLength(300000);
  });

  test('re-cloning over an existing table removes stale temp files in the table and its partition folders', async () => {
    const src = await DeltaTable.create(tmp.dir('part-src'), {
      schema: [
        { name: 'id', type: 'bigint', nullable: false },
        { name: 'name', type: 'string', nullable: true },
        { name: 'region', type: 'string', nullable: true },
      ],
      partitionColumns: ['region'],
    });
    await src.append(`SELECT i::BIGINT AS id, 'p' || i AS name, 'r' || (i % 2) AS region FROM range(0, 100) t(i)`);
    const target = tmp.dir('part-dst');
    await src.cloneTo(target, { mode: 'DEEP' });
    const dataFile = (await DeltaTable.open(target).then((t) => t.snapshot())).files[0].path;
    const stale = path.join(target, `${decodeURIComponent(dataFile)}.tmp-${UUID}`);
    copyFileSync(path.join(target, decodeURIComponent(dataFile)), stale);
    ageBy(stale, 10_000);
    await src.append(`SELECT 100::BIGINT AS id, 'p100' AS name, 'r0' AS region`);

    await src.cloneTo(target, { mode: 'DEEP', replace: true });

    expect(tempFiles(target)).toEqual([]);
    expect(await rows(`SELECT count(*)::INT AS n FROM ${await (await DeltaTable.open(target)).scanSql()}`)).toEqual([
      { n: 101 },
    ]);
  });

  test('VACUUM removes a temp file no live copy owns, whatever the retention, and keeps one a live copy owns', async () => {
    const src = await DeltaTable.create(tmp.dir('vac-src'), {
      schema: [
        { name: 'id', type: 'bigint', nullable: false },
        { name: 'name', type: 'string', nullable: true },
      ],
    });
    await src.append(`SELECT i::BIGINT AS id, 'p' || i AS name FROM range(0, 50) t(i)`);
    const target = tmp.dir('vac-dst');
    await src.cloneTo(target, { mode: 'DEEP' });
    const clone = await DeltaTable.open(target);
    const dataFile = path.join(target, (await clone.snapshot()).files[0].path);
    const stale = `${dataFile}.tmp-${UUID}`;
    const alive = `${dataFile}.tmp-${UUID.replace('0f8e', '1f8e')}`; // another process's copy, touched just now
    copyFileSync(dataFile, stale);
    copyFileSync(dataFile, alive);
    ageBy(stale, 60_000);

    const planned = await clone.vacuum({ dryRun: true });
    expect(planned.files).toEqual([path.basename(stale)]);
    const done = await clone.vacuum();

    expect(done.files).toEqual([path.basename(stale)]);
    expect(tempFiles(target)).toEqual([path.basename(alive)]);
    expect(await rows(`SELECT count(*)::INT AS n FROM ${await clone.scanSql()}`)).toEqual([{ n: 50 }]);
  });
});
