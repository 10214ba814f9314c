import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeLogFiles } from '../../activities/generators/logs-writer';
import { buildLogFile } from '../../activities/generators/logic/logs';

/**
 * Log files are built three ways — on the log threads (several files, lines not kept), in the calling thread, and
 * as text with their rows kept (the direct table). All three must give the same bytes for the same seed.
 */
const SPEC = { type: 'nginx_access', seed: 11, asOf: '2026-03-01', daysBack: 2, linesPerFile: 5_000 };
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let dir: string;
beforeAll(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'lw-log-threads-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('log files built on threads', () => {
  it.each(['nginx_access', 'app_json', 'syslog', 'otel_trace'])(
    '%s: files written through the threads hold the bytes the calling thread builds, with their sha256',
    async (type) => {
      const target = path.join(dir, type);
      const written = await writeLogFiles({ ...SPEC, type, files: 5, start: 2, dir: target });
      expect(written.map((f) => f.index)).toEqual([2, 3, 4, 5, 6]);
      for (const f of written) {
        const disk = readFileSync(path.join(target, f.name));
        const here = buildLogFile({ ...SPEC, type, index: f.index });
        expect(disk.equals(here.data)).toBe(true);
        expect(f.sha256).toBe(sha(disk));
        expect(f.bytes).toBe(disk.length);
        expect(f.service).toBe(here.service);
        expect(disk.toString('latin1').split('\n')).toHaveLength(SPEC.linesPerFile + 1);
      }
    },
  );

  it.each(['nginx_access', 'app_json', 'syslog', 'otel_trace'])(
    '%s: the file is the same with rows kept, and every row matches its line (message and time)',
    (type) => {
      for (const index of [0, 7]) {
        const bytes = buildLogFile({ ...SPEC, type, index });
        const rows = buildLogFile({ ...SPEC, type, index, keepLines: true });
        expect(bytes.data.equals(rows.data)).toBe(true);
        const lines = rows.data.toString('latin1').split('\n');
        for (const i of [0, 1, 2_500, SPEC.linesPerFile - 1]) {
          const row = rows.lines![i];
          expect(lines[i]).toContain(type === 'nginx_access' ? `"${row.message}"` : row.message);
          if (type === 'nginx_access') {
            const t = new Date(row.ts);
            const day = t.toUTCString().split(' '); // Sun, 01 Mar 2026 13:45:07 GMT
            expect(lines[i]).toContain(`[${day[1]}/${day[2]}/${day[3]}:${day[4]} +0000]`);
          } else if (type === 'otel_trace') {
            expect(lines[i]).toContain(`"start_time_unix_nano":"${Date.parse(row.ts)}000000"`);
            expect(lines[i]).toContain(`"trace_id":"${row.attrs.trace_id}"`);
          } else expect(lines[i]).toContain(row.ts);
        }
      }
    },
  );

  it('a file built in a reused buffer is byte-identical to one built in a fresh buffer', () => {
    const first = buildLogFile({ ...SPEC, index: 1 });
    const fresh = Buffer.from(buildLogFile({ ...SPEC, index: 2 }).data);
    const reused = buildLogFile({ ...SPEC, index: 2, reuse: first.buffer });
    expect(reused.buffer).toBe(first.buffer);
    expect(reused.data.equals(fresh)).toBe(true);
  });

  it('a file streamed into a folder appears whole or not at all, and a failed one fails the call', async () => {
    const target = path.join(dir, 'streamed-failure');
    // A folder already at the name of file 2 makes its rename fail, after its bytes were written.
    const blocker = path.join(target, 'nginx_access-s11-00002.log');
    mkdirSync(blocker, { recursive: true });
    writeFileSync(path.join(blocker, 'keep'), 'x');
    let whole = 0;
    await expect(writeLogFiles({ ...SPEC, files: 4, dir: target, onFile: () => void whole++ })).rejects.toThrow(
      /nginx_access-s11-00002\.log/,
    );
    const names = readdirSync(target).sort();
    expect(names.filter((n) => n.includes('.tmp-'))).toEqual([]);
    // The three other files are whole (each was announced), and the threads write the next call's files.
    expect(names).toEqual([1, 2, 3, 4].map((i) => `nginx_access-s11-0000${i}.log`));
    expect(whole).toBe(3);
    for (const i of [0, 2, 3]) {
      expect(readFileSync(path.join(target, names[i])).equals(buildLogFile({ ...SPEC, index: i }).data)).toBe(true);
    }
    rmSync(blocker, { recursive: true });
    const again = await writeLogFiles({ ...SPEC, files: 4, dir: target });
    expect(again.map((f) => f.bytes)).toEqual([0, 1, 2, 3].map((i) => buildLogFile({ ...SPEC, index: i }).data.length));
  });

  it("a file whose rename fails never disturbs another thread's file", async () => {
    // File descriptors belong to the process, not the thread: a thread that closed its file twice after a failed
    // rename could close the file another thread had just opened under the same number (a file went missing).
    for (let round = 0; round < 4; round++) {
      const target = path.join(dir, `streamed-siblings-${round}`);
      const blocked = [1, 3, 5, 7, 9, 11];
      for (const i of blocked)
        mkdirSync(path.join(target, `nginx_access-s11-${String(i + 1).padStart(5, '0')}.log`), { recursive: true });
      let whole = 0;
      await expect(writeLogFiles({ ...SPEC, files: 12, dir: target, onFile: () => void whole++ })).rejects.toThrow(
        /nginx_access-s11-000\d\d\.log/,
      );
      expect(readdirSync(target).filter((n) => n.includes('.tmp-'))).toEqual([]);
      expect(whole).toBe(6);
      for (let i = 0; i < 12; i += 2) {
        const name = `nginx_access-s11-${String(i + 1).padStart(5, '0')}.log`;
        expect({
          name,
          same: readFileSync(path.join(target, name)).equals(buildLogFile({ ...SPEC, index: i }).data),
        }).toEqual({ name, same: true });
      }
    }
  });

  it('a write that fails rejects the call and names the file', async () => {
    await expect(
      writeLogFiles({
        ...SPEC,
        files: 3,
        write: async (name) => {
          if (name.endsWith('00002.log')) throw new Error(`volume refused ${name}`);
        },
      }),
    ).rejects.toThrow(/volume refused .*00002/);
  });

  it('after calls whose writes failed, the threads still write every file of the next call', async () => {
    // The threads keep a few file buffers; a failed call must hand all of its back, or later calls wait forever.
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(
        writeLogFiles({
          ...SPEC,
          files: 6,
          write: async (name) => {
            if (!name.endsWith('00001.log')) throw new Error(`volume refused ${name}`);
          },
        }),
      ).rejects.toThrow(/volume refused/);
    }
    const names: string[] = [];
    const written = await writeLogFiles({
      ...SPEC,
      files: 12,
      write: async (name, data) => {
        expect(data.length).toBeGreaterThan(0);
        names.push(name);
      },
    });
    expect(written.map((f) => f.index)).toEqual([...Array(12).keys()]);
    expect(names).toHaveLength(12);
  });
});
