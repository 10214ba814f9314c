import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CopyHelper } from '../../platform/local/delta/copy-helper';
import { SYSTEM_COPY_MIN_BYTES } from '../../platform/local/delta/file-copy';

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A fresh copy of the module (its "is cp usable" memory starts empty). */
function freshModule(): typeof import('../../platform/local/delta/file-copy') {
  let mod!: typeof import('../../platform/local/delta/file-copy');
  jest.isolateModules(() => {
    mod = jest.requireActual('../../platform/local/delta/file-copy');
  });
  return mod;
}

describe('copyFileFast (deep-clone data file copies)', () => {
  let dir: string;
  let big: string;
  let small: string;
  const savedPath = process.env.PATH;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'lw-file-copy-'));
    big = path.join(dir, 'big.parquet');
    small = path.join(dir, 'small.parquet');
    writeFileSync(big, randomBytes(SYSTEM_COPY_MIN_BYTES + 12_345));
    writeFileSync(small, randomBytes(4096));
  });
  afterEach(() => {
    process.env.PATH = savedPath;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('big and small files arrive byte for byte', async () => {
    const { copyFileFast } = freshModule();
    await copyFileFast(big, path.join(dir, 'big-copy'), statSync(big).size);
    await copyFileFast(small, path.join(dir, 'small-copy'), statSync(small).size);
    expect(sha(path.join(dir, 'big-copy'))).toBe(sha(big));
    expect(sha(path.join(dir, 'small-copy'))).toBe(sha(small));
  });

  test('without a usable cp the copy still happens, in-process', async () => {
    const { copyFileFast } = freshModule();
    process.env.PATH = path.join(dir, 'no-such-bin');
    await copyFileFast(big, path.join(dir, 'big-no-cp'), statSync(big).size);
    expect(sha(path.join(dir, 'big-no-cp'))).toBe(sha(big));
  });

  test('a missing source fails, with or without cp, and leaves no file behind', async () => {
    for (const pathEnv of [savedPath, path.join(dir, 'no-such-bin')]) {
      const { copyFileFast } = freshModule();
      process.env.PATH = pathEnv;
      const dest = path.join(dir, `from-nothing-${pathEnv === savedPath ? 'cp' : 'node'}`);
      await expect(copyFileFast(path.join(dir, 'missing'), dest, SYSTEM_COPY_MIN_BYTES * 2)).rejects.toThrow(
        /ENOENT|no such file/i,
      );
      expect(() => statSync(dest)).toThrow();
    }
  });

  test('it never overwrites an existing file, big or small', async () => {
    const { copyFileFast } = freshModule();
    for (const src of [small, big]) {
      const dest = path.join(dir, `taken-${path.basename(src)}`);
      writeFileSync(dest, 'keep me');
      await expect(copyFileFast(src, dest, statSync(src).size)).rejects.toThrow(/EEXIST|exists/i);
      expect(readFileSync(dest, 'utf8')).toBe('keep me');
    }
  });

  test('the copy helper runs cp for concurrent requests, reports cp errors and restarts after it dies', async () => {
    const h = new CopyHelper();
    await Promise.all([0, 1, 2].map((i) => h.copy(big, path.join(dir, `helper-${i}`))));
    for (const i of [0, 1, 2]) expect(sha(path.join(dir, `helper-${i}`))).toBe(sha(big));
    await expect(h.copy(path.join(dir, 'missing'), path.join(dir, 'helper-x'))).rejects.toThrow(/^cp: .*missing/);
    // A helper killed between copies is started again for the next one.
    (h as unknown as { child: { kill(): void } }).child.kill();
    await new Promise((r) => setTimeout(r, 200));
    await h.copy(small, path.join(dir, 'helper-after-kill'));
    expect(sha(path.join(dir, 'helper-after-kill'))).toBe(sha(small));
  });
});
