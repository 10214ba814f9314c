import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { DeltaTable } from '../../platform/local/delta';
import { PEOPLE, peopleSql, rows, tempRoot } from './helpers';

/**
 * delta-rs (PyPI `deltalake`, an independent implementation on delta-kernel) is the oracle: it must open
 * what Lakeward writes with the same rows, schema and versions, and Lakeward must open what it writes.
 * Shallow clones are exempt: delta-rs does not read absolute add paths reliably (delta-io/delta-rs#865).
 */
const PYTHON = path.resolve(__dirname, '../../.venv/bin/python');
const PROBE = path.resolve(__dirname, 'delta_rs_probe.py');

interface RsTable {
  version: number;
  schema: { name: string; type: unknown }[];
  rows: Record<string, string | null>[];
  numFiles: number;
}

function python(args: string[]): string {
  if (!existsSync(PYTHON))
    throw new Error(`Python venv with deltalake missing at ${PYTHON}: run \`npm run setup\` first`);
  return execFileSync(PYTHON, [PROBE, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Values as text with numbers canonicalised, rows sorted the same way the probe sorts them. */
function normalise(list: Record<string, unknown>[]): Record<string, string | null>[] {
  const out = list.map((r) => {
    const o: Record<string, string | null> = {};
    for (const k of Object.keys(r).sort()) {
      const v = r[k];
      o[k] = v === null || v === undefined ? null : /^-?\d+(\.\d+)?$/.test(String(v)) ? String(Number(v)) : String(v);
    }
    return o;
  });
  return out
    .map((r) => JSON.stringify(r))
    .sort()
    .map((s) => JSON.parse(s));
}

async function lakewardRows(t: DeltaTable, version?: number): Promise<Record<string, string | null>[]> {
  return normalise(await rows(`SELECT * FROM ${await t.scanSql(version === undefined ? undefined : { version })}`));
}

const tmp = tempRoot('delta-interop');
afterAll(() => tmp.cleanup());

const PEOPLE_SPARK = [
  { name: 'id', type: 'long' },
  { name: 'name', type: 'string' },
  { name: 'score', type: 'integer' },
];

describe('delta-rs interoperability', () => {
  test('delta-rs opens tables Lakeward wrote: plain, updated, deep-cloned, optimized, restored, converted, checkpointed', async () => {
    const cases: {
      label: string;
      table: DeltaTable;
      version?: number;
      spark?: unknown;
      filter?: [string, string, unknown, string];
    }[] = [];

    const plain = await DeltaTable.create(tmp.dir('plain'), { schema: PEOPLE });
    await plain.append(peopleSql(0, 5));
    await plain.append(peopleSql(5, 5));
    cases.push({ label: 'plain', table: plain, spark: PEOPLE_SPARK });
    // Stats-based file skipping in delta-rs must agree with a full scan.
    cases.push({ label: 'plain, id = 7', table: plain, filter: ['id', '=', 7, 'id = 7'] });
    cases.push({ label: "plain, name >= 'p3'", table: plain, filter: ['name', '>=', 'p3', "name >= 'p3'"] });

    const updated = await DeltaTable.create(tmp.dir('updated'), {
      schema: [...PEOPLE, { name: 'day', type: 'date', nullable: true }],
      partitionColumns: ['day'],
      configuration: { 'delta.enableChangeDataFeed': 'true' },
    });
    await updated.append(`SELECT i::BIGINT, 'u'||i, i::INT, DATE '2024-03-01' + (i % 2)::INT FROM range(6) t(i)`);
    await updated.updateWhere({ name: `'renamed'`, score: 'score * 100' }, 'id % 3 = 0');
    await updated.deleteWhere('id = 4');
    cases.push({ label: 'updated', table: updated });
    cases.push({ label: 'updated@v1', table: updated, version: 1 });

    const evolved = await DeltaTable.create(tmp.dir('evolved'), { schema: PEOPLE });
    await evolved.append(peopleSql(0, 2));
    await evolved.updateMetadata({ schema: [...PEOPLE, { name: 'email', type: 'string', nullable: true }] });
    await evolved.append(`SELECT 5::BIGINT, 'p5', 50, 'p5@x'`);
    cases.push({ label: 'evolved (ADD COLUMNS)', table: evolved });

    const cloneDir = tmp.dir('deep-clone');
    await updated.cloneTo(cloneDir, { mode: 'DEEP', version: 2 });
    cases.push({ label: 'deep clone', table: await DeltaTable.open(cloneDir) });

    const optimized = await DeltaTable.create(tmp.dir('optimized'), { schema: PEOPLE });
    for (let i = 0; i < 3; i++) await optimized.append(peopleSql(i * 10, 2));
    await optimized.optimize();
    cases.push({ label: 'optimized', table: optimized, spark: PEOPLE_SPARK });

    const restored = await DeltaTable.create(tmp.dir('restored'), { schema: PEOPLE });
    await restored.append(peopleSql(0, 3));
    await restored.overwrite(peopleSql(7, 1));
    await restored.restore({ version: 1 });
    cases.push({ label: 'restored', table: restored, spark: PEOPLE_SPARK });

    const convertedDir = tmp.dir('converted');
    mkdirSync(convertedDir);
    await rows(
      `COPY (SELECT i::BIGINT AS id, 'c'||i AS name, i::INT AS score FROM range(4) t(i)) TO '${convertedDir}/data.parquet' (FORMAT parquet)`,
    );
    await DeltaTable.convertParquet(convertedDir);
    cases.push({ label: 'converted', table: await DeltaTable.open(convertedDir), spark: PEOPLE_SPARK });

    const checkpointed = await DeltaTable.create(tmp.dir('checkpointed'), {
      schema: [
        ...PEOPLE,
        { name: 'tags', type: 'array<string>', nullable: true },
        { name: 'attrs', type: 'map<string,bigint>', nullable: true },
      ],
    });
    for (let v = 1; v <= 12; v++)
      await checkpointed.append(`SELECT ${v}::BIGINT, 'k${v}', ${v}::INT, ['t${v}'], MAP {'a': ${v}::BIGINT}`);
    await checkpointed.deleteWhere('id = 2');
    expect(existsSync(path.join(checkpointed.dir, '_delta_log', '00000000000000000010.checkpoint.parquet'))).toBe(true);
    cases.push({ label: 'checkpointed', table: checkpointed });

    const rs: RsTable[] = JSON.parse(
      python([
        'read-many',
        JSON.stringify(
          cases.map((c) => ({
            dir: c.table.dir,
            version: c.version ?? null,
            filters: c.filter ? [c.filter.slice(0, 3)] : null,
          })),
        ),
      ]),
    );
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i];
      const snap = await c.table.snapshot(c.version === undefined ? undefined : { version: c.version });
      const label = c.label;
      expect({ label, version: rs[i].version }).toEqual({ label, version: snap.version });
      expect({ label, fields: rs[i].schema.map((f) => f.name) }).toEqual({
        label,
        fields: snap.metadata.schema.map((f) => f.name),
      });
      if (c.spark) expect({ label, schema: rs[i].schema }).toEqual({ label, schema: c.spark });
      expect({ label, numFiles: rs[i].numFiles }).toEqual({ label, numFiles: snap.numFiles });
      if (label === 'checkpointed') {
        // delta-rs prints nested values its own way; compare the scalar columns and the row count.
        const pick = (r: Record<string, string | null>[]) => r.map((x) => [x.id, x.name, x.score]);
        expect({ label, rows: pick(normalise(rs[i].rows)) }).toEqual({
          label,
          rows: pick(await lakewardRows(c.table, c.version)),
        });
      } else if (c.filter) {
        const expected = normalise(await rows(`SELECT * FROM ${await c.table.scanSql()} WHERE ${c.filter[3]}`));
        expect(expected.length).toBeGreaterThan(0);
        expect({ label, rows: normalise(rs[i].rows) }).toEqual({ label, rows: expected });
      } else {
        expect({ label, rows: normalise(rs[i].rows) }).toEqual({ label, rows: await lakewardRows(c.table, c.version) });
      }
    }
  });

  test('Lakeward opens a table delta-rs wrote over several versions (append, overwrite, delete)', async () => {
    const dir = tmp.dir('written-by-delta-rs');
    const rs: RsTable = JSON.parse(python(['write', dir]));
    const t = await DeltaTable.open(dir);
    expect(await t.latestVersion()).toBe(rs.version);
    expect(await lakewardRows(t)).toEqual(normalise(rs.rows));
    const snap = await t.snapshot();
    expect(snap.metadata.schema.map((f) => `${f.name}:${f.type}`)).toEqual([
      'id:bigint',
      'name:string',
      'score:double',
    ]);
    expect((await lakewardRows(t, 1)).map((r) => r.id)).toEqual(['1', '2', '3', '4', '5']);
    expect((await t.history()).map((h) => h.operation)).toEqual(['WRITE', 'DELETE', 'WRITE', 'WRITE', 'WRITE']);
    // And Lakeward can keep writing to it, with delta-rs still reading the result.
    await t.updateWhere({ name: `'both'` }, 'id = 10');
    const after: RsTable = JSON.parse(python(['read', dir]));
    expect(after.version).toBe(rs.version + 1);
    expect(normalise(after.rows)).toEqual(await lakewardRows(t));
  });
});
