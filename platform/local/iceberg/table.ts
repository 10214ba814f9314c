import { randomInt, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { InvalidInputError, NotFoundError } from '../../errors';
import type { TimeTravel } from '../../types';
import { decodeAvro, encodeAvro } from './avro';
import {
  databricksType,
  icebergType,
  manifestEntrySchema,
  MANIFEST_FILE_SCHEMA,
  type IcebergField,
  type PartitionField,
  type Snapshot,
  type TableMetadata,
} from './spec';

/**
 * Iceberg v2 tables on the local lakehouse: Parquet data files plus `metadata/v<N>.metadata.json`, a manifest list
 * and a manifest per snapshot (Avro), and `metadata/version-hint.text`. Every snapshot's manifest lists all its live
 * files (ADDED for this snapshot's, EXISTING for the others), so one manifest is a whole snapshot. Files are named
 * by absolute `file://` URIs (what pyiceberg and other engines open); a name mapping (`schema.name-mapping.default`)
 * maps column names to field ids for data files written without Parquet field ids (UniForm's Delta files).
 */

export const METADATA_DIR = 'metadata';
const HINT = 'version-hint.text';

export interface IcebergColumn {
  name: string;
  type: string;
  nullable: boolean;
  /** Field id (default: position, 1-based). */
  id?: number;
}

export interface IcebergDataFile {
  /** Absolute filesystem path. */
  path: string;
  size: number;
  records: number;
  /** Identity partition values as text (Delta's serialisation), by column name. */
  partition: Record<string, string | null>;
}

const uri = (p: string) => pathToFileURL(p).href;
const fromUri = (u: string) => (u.startsWith('file:') ? fileURLToPath(u) : u);
const metaDir = (dir: string) => path.join(dir, METADATA_DIR);
const metadataFile = (dir: string, n: number) => path.join(metaDir(dir), `v${n}.metadata.json`);

/** The latest metadata version (version-hint, else the highest v<N>.metadata.json), or null without metadata. */
export async function currentVersion(dir: string): Promise<number | null> {
  const hint = await fs.readFile(path.join(metaDir(dir), HINT), 'utf8').catch(() => null);
  const names = await fs.readdir(metaDir(dir)).catch(() => [] as string[]);
  const versions = names
    .map((n) => /^v(\d+)\.metadata\.json$/.exec(n))
    .filter(Boolean)
    .map((m) => Number(m![1]));
  const hinted = hint !== null && /^\d+$/.test(hint.trim()) ? Number(hint.trim()) : null;
  const top = versions.length ? Math.max(...versions) : null;
  if (hinted !== null && versions.includes(hinted)) return top !== null && top > hinted ? top : hinted;
  return top;
}

export async function isIcebergTable(dir: string): Promise<boolean> {
  if ((await currentVersion(dir)) !== null) return true;
  return (await fs.readdir(metaDir(dir)).catch(() => [] as string[])).some((n) => n.endsWith('.metadata.json'));
}

/**
 * After the table folder moved (a managed table renamed), writes metadata whose files are at the new place: the
 * current snapshot's files become the one snapshot of a new metadata version (Iceberg names files by absolute
 * paths, so older snapshots, which name the old place, are not kept).
 */
export async function relocate(dir: string, fromDir: string): Promise<void> {
  const meta = await readMetadata(dir);
  const remap = (p: string) => {
    const abs = fromUri(p);
    const rel = path.relative(fromDir, abs);
    return rel.startsWith('..') || path.isAbsolute(rel) ? abs : path.join(dir, rel);
  };
  const snap = meta.snapshots.find((x) => x['snapshot-id'] === meta['current-snapshot-id']) ?? null;
  const files = snap ? await snapshotFilesOf(meta, snap, remap) : [];
  const prev = await currentVersion(dir);
  const moved: TableMetadata = {
    ...meta,
    location: uri(path.resolve(dir)).replace(/\/$/, ''),
    'current-snapshot-id': null,
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
    refs: {},
  };
  await publish(dir, moved, prev);
  if (snap)
    await commitSnapshot(dir, files, { operation: 'append', summary: { 'lakeward.relocated-from': uri(fromDir) } });
}

/** The newest metadata; also reads metadata written by other engines (any `*.metadata.json` file name). */
export async function readMetadata(dir: string): Promise<TableMetadata> {
  const v = await currentVersion(dir);
  if (v !== null) return JSON.parse(await fs.readFile(metadataFile(dir, v), 'utf8')) as TableMetadata;
  const names = (await fs.readdir(metaDir(dir)).catch(() => [] as string[])).filter((n) =>
    n.endsWith('.metadata.json'),
  );
  if (names.length === 0) throw new NotFoundError(`no Iceberg metadata at ${dir}`);
  const stats = await Promise.all(
    names.map(async (n) => ({ n, t: (await fs.stat(path.join(metaDir(dir), n))).mtimeMs })),
  );
  const newest = stats.sort((a, b) => b.t - a.t || b.n.localeCompare(a.n))[0].n;
  return JSON.parse(await fs.readFile(path.join(metaDir(dir), newest), 'utf8')) as TableMetadata;
}

/** Columns of the current schema as Databricks types. */
export function columnsOf(meta: TableMetadata): IcebergColumn[] {
  const schema = meta.schemas.find((s) => s['schema-id'] === meta['current-schema-id']) ?? meta.schemas[0];
  return schema.fields.map((f) => ({ id: f.id, name: f.name, type: databricksType(f.type), nullable: !f.required }));
}

export function partitionFields(meta: TableMetadata): PartitionField[] {
  return meta['partition-specs'].find((s) => s['spec-id'] === meta['default-spec-id'])?.fields ?? [];
}

function nameMapping(fields: IcebergField[]): string {
  return JSON.stringify(fields.map((f) => ({ 'field-id': f.id, names: [f.name] })));
}

/** Writes a new metadata version atomically (temp file, then rename) and the version hint. */
async function publish(dir: string, meta: TableMetadata, prev: number | null): Promise<number> {
  const n = (prev ?? 0) + 1;
  await fs.mkdir(metaDir(dir), { recursive: true });
  const tmp = path.join(metaDir(dir), `.v${n}-${randomUUID()}.tmp`);
  await fs.writeFile(tmp, JSON.stringify(meta, null, 2));
  try {
    await fs.link(tmp, metadataFile(dir, n)); // fails if another writer took version n
  } catch (err) {
    await fs.rm(tmp, { force: true });
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new InvalidInputError(`concurrent Iceberg commit to ${dir}: version ${n} exists`);
    throw err;
  }
  await fs.rm(tmp, { force: true });
  const hintTmp = path.join(metaDir(dir), `.hint-${randomUUID()}.tmp`);
  await fs.writeFile(hintTmp, String(n));
  await fs.rename(hintTmp, path.join(metaDir(dir), HINT));
  return n;
}

/**
 * A new Iceberg table (no snapshot yet), or the schema of an existing one replaced (UniForm after a Delta schema
 * change). Identity partitions on `partitionColumns`.
 */
export async function createIcebergTable(
  dir: string,
  opts: { columns: IcebergColumn[]; partitionColumns?: string[]; properties?: Record<string, string> },
): Promise<TableMetadata> {
  const fields: IcebergField[] = opts.columns.map((c, i) => ({
    id: c.id ?? i + 1,
    name: c.name,
    required: !c.nullable,
    type: icebergType(c.type),
  }));
  const spec: PartitionField[] = (opts.partitionColumns ?? []).map((p, i) => {
    const f = fields.find((x) => x.name === p);
    if (!f) throw new InvalidInputError(`partition column ${p} is not a column`);
    return { 'source-id': f.id, 'field-id': 1000 + i, name: p, transform: 'identity' };
  });
  const now = Date.now();
  const meta: TableMetadata = {
    'format-version': 2,
    'table-uuid': randomUUID(),
    location: uri(path.resolve(dir)).replace(/\/$/, ''),
    'last-sequence-number': 0,
    'last-updated-ms': now,
    'last-column-id': Math.max(0, ...fields.map((f) => f.id)),
    'current-schema-id': 0,
    schemas: [{ type: 'struct', 'schema-id': 0, fields }],
    'default-spec-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: spec }],
    'last-partition-id': spec.length ? 999 + spec.length : 999,
    'default-sort-order-id': 0,
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    properties: { ...(opts.properties ?? {}), 'schema.name-mapping.default': nameMapping(fields) },
    'current-snapshot-id': null,
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
    refs: {},
  };
  await publish(dir, meta, await currentVersion(dir));
  return meta;
}

interface ManifestEntry {
  status: number;
  snapshot_id: number | null;
  sequence_number: number | null;
  file_sequence_number: number | null;
  data_file: {
    content: number;
    file_path: string;
    file_format: string;
    partition: Record<string, unknown>;
    record_count: number;
    file_size_in_bytes: number;
  };
}

function avroPartitionType(icebergT: string): string {
  if (
    icebergT === 'long' ||
    icebergT === 'int' ||
    icebergT === 'string' ||
    icebergT === 'boolean' ||
    icebergT === 'double'
  )
    return icebergT;
  if (icebergT === 'date') return 'int';
  throw new InvalidInputError(`identity partitions on ${icebergT} columns are not supported by the local lakehouse`);
}

function partitionValue(text: string | null, icebergT: string): unknown {
  if (text === null) return null;
  if (icebergT === 'long' || icebergT === 'int' || icebergT === 'double') return Number(text);
  if (icebergT === 'boolean') return text === 'true';
  if (icebergT === 'date') return Math.round(Date.parse(`${text}T00:00:00Z`) / 86_400_000);
  return text;
}

function partitionText(value: unknown, icebergT: string): string | null {
  if (value === null || value === undefined) return null;
  if (icebergT === 'date') return new Date(Number(value) * 86_400_000).toISOString().slice(0, 10);
  return String(value);
}

/**
 * Commits a snapshot whose live files are exactly `files` (an append passes the previous files plus the new ones;
 * an overwrite only the new ones). Files already in the current snapshot keep their snapshot and sequence number.
 */
export async function commitSnapshot(
  dir: string,
  files: IcebergDataFile[],
  opts: { operation: 'append' | 'overwrite' | 'replace' | 'delete'; summary?: Record<string, string> } = {
    operation: 'append',
  },
): Promise<Snapshot> {
  const prev = await currentVersion(dir);
  if (prev === null) throw new NotFoundError(`no Iceberg metadata at ${dir}`);
  const meta = JSON.parse(await fs.readFile(metadataFile(dir, prev), 'utf8')) as TableMetadata;
  const fields = (meta.schemas.find((s) => s['schema-id'] === meta['current-schema-id']) ?? meta.schemas[0]).fields;
  const spec = partitionFields(meta).map((p) => {
    const f = fields.find((x) => x.id === p['source-id'])!;
    return { name: p.name, column: f.name, fieldId: p['field-id'], type: f.type, avroType: avroPartitionType(f.type) };
  });
  const existing = new Map<string, ManifestEntry>();
  const current = meta.snapshots.find((s) => s['snapshot-id'] === meta['current-snapshot-id']);
  if (current) for (const e of await manifestEntries(current)) existing.set(fromUri(e.data_file.file_path), e);
  const snapshotId = randomInt(1, 2 ** 47) * 64 + randomInt(0, 64);
  const seq = meta['last-sequence-number'] + 1;
  const now = Math.max(Date.now(), meta['last-updated-ms'] + 1);
  const entries: ManifestEntry[] = files.map((f) => {
    const abs = path.resolve(f.path);
    const old = existing.get(abs);
    if (old)
      return {
        ...old,
        status: 0,
        sequence_number: old.sequence_number,
        file_sequence_number: old.file_sequence_number,
      };
    return {
      status: 1,
      snapshot_id: snapshotId,
      sequence_number: seq,
      file_sequence_number: seq,
      data_file: {
        content: 0,
        file_path: uri(abs),
        file_format: 'PARQUET',
        partition: Object.fromEntries(spec.map((p) => [p.name, partitionValue(f.partition[p.column] ?? null, p.type)])),
        record_count: f.records,
        file_size_in_bytes: f.size,
      },
    };
  });
  const schemaJson = JSON.stringify(meta.schemas.find((s) => s['schema-id'] === meta['current-schema-id']));
  const specJson = JSON.stringify(partitionFields(meta));
  const manifest = path.join(metaDir(dir), `${randomUUID()}-m0.avro`);
  const manifestBytes = await encodeAvro(manifestEntrySchema(spec), entries, {
    schema: schemaJson,
    'schema-id': String(meta['current-schema-id']),
    'partition-spec': specJson,
    'partition-spec-id': String(meta['default-spec-id']),
    'format-version': '2',
    content: 'data',
  });
  await fs.mkdir(metaDir(dir), { recursive: true });
  await fs.writeFile(manifest, manifestBytes);
  const added = entries.filter((e) => e.status === 1);
  const kept = entries.filter((e) => e.status === 0);
  const rows = (list: ManifestEntry[]) => list.reduce((a, e) => a + e.data_file.record_count, 0);
  const list = path.join(metaDir(dir), `snap-${snapshotId}-1-${randomUUID()}.avro`);
  const listMeta: Record<string, string> = {
    'snapshot-id': String(snapshotId),
    'sequence-number': String(seq),
    'format-version': '2',
  };
  if (current) listMeta['parent-snapshot-id'] = String(current['snapshot-id']);
  const minSeq = Math.min(seq, ...entries.map((e) => e.sequence_number ?? seq));
  await fs.writeFile(
    list,
    await encodeAvro(
      MANIFEST_FILE_SCHEMA,
      [
        {
          manifest_path: uri(manifest),
          manifest_length: manifestBytes.length,
          partition_spec_id: meta['default-spec-id'],
          content: 0,
          sequence_number: seq,
          min_sequence_number: minSeq,
          added_snapshot_id: snapshotId,
          added_files_count: added.length,
          existing_files_count: kept.length,
          deleted_files_count: 0,
          added_rows_count: rows(added),
          existing_rows_count: rows(kept),
          deleted_rows_count: 0,
        },
      ],
      listMeta,
    ),
  );
  const totalRecords = rows(entries);
  const snapshot: Snapshot = {
    'snapshot-id': snapshotId,
    ...(current ? { 'parent-snapshot-id': current['snapshot-id'] } : {}),
    'sequence-number': seq,
    'timestamp-ms': now,
    'manifest-list': uri(list),
    summary: {
      operation: opts.operation,
      'added-data-files': String(added.length),
      'added-records': String(rows(added)),
      'total-data-files': String(entries.length),
      'total-records': String(totalRecords),
      'total-files-size': String(entries.reduce((a, e) => a + e.data_file.file_size_in_bytes, 0)),
      ...(opts.summary ?? {}),
    },
    'schema-id': meta['current-schema-id'],
  };
  const next: TableMetadata = {
    ...meta,
    'last-sequence-number': seq,
    'last-updated-ms': now,
    'current-snapshot-id': snapshotId,
    snapshots: [...meta.snapshots, snapshot],
    'snapshot-log': [...meta['snapshot-log'], { 'snapshot-id': snapshotId, 'timestamp-ms': now }],
    'metadata-log': [
      ...meta['metadata-log'],
      { 'metadata-file': uri(metadataFile(dir, prev)), 'timestamp-ms': meta['last-updated-ms'] },
    ],
    refs: { ...(meta.refs ?? {}), main: { 'snapshot-id': snapshotId, type: 'branch' } },
  };
  await publish(dir, next, prev);
  return snapshot;
}

async function manifestEntries(snapshot: Snapshot, remap: (p: string) => string = fromUri): Promise<ManifestEntry[]> {
  const list = await decodeAvro<{ manifest_path: string; content?: number }>(
    await fs.readFile(remap(snapshot['manifest-list'])),
  );
  const out: ManifestEntry[] = [];
  for (const m of list) {
    if ((m.content ?? 0) !== 0)
      throw new InvalidInputError('Iceberg delete files are not supported by the local lakehouse');
    for (const e of await decodeAvro<ManifestEntry>(await fs.readFile(remap(m.manifest_path)))) {
      if (e.status !== 2) out.push(e);
    }
  }
  return out;
}

/** The snapshot to read: current, `version` as a snapshot id, or the latest at or before `timestamp`. */
export function snapshotAt(meta: TableMetadata, at?: TimeTravel): Snapshot | null {
  if (at?.version !== undefined) {
    const s = meta.snapshots.find((x) => x['snapshot-id'] === Number(at.version));
    if (!s)
      throw new InvalidInputError(
        `version: Iceberg table has no snapshot ${at.version}; snapshots: ${meta.snapshots.map((x) => x['snapshot-id']).join(', ') || 'none'}`,
      );
    return s;
  }
  if (at?.timestamp !== undefined) {
    const t = Date.parse(
      at.timestamp.includes('T') || at.timestamp.endsWith('Z') ? at.timestamp : `${at.timestamp.replace(' ', 'T')}Z`,
    );
    if (!Number.isFinite(t)) throw new InvalidInputError(`timestamp: cannot read '${at.timestamp}'`);
    const s = [...meta.snapshots].reverse().find((x) => x['timestamp-ms'] <= t);
    if (!s) throw new InvalidInputError(`timestamp: '${at.timestamp}' is before the first snapshot`);
    return s;
  }
  return meta.snapshots.find((x) => x['snapshot-id'] === meta['current-snapshot-id']) ?? null;
}

/** Live data files of a snapshot (default current), with partition values as text. */
export async function snapshotFiles(dir: string, at?: TimeTravel): Promise<IcebergDataFile[]> {
  const meta = await readMetadata(dir);
  const snap = snapshotAt(meta, at);
  if (!snap) return [];
  return snapshotFilesOf(meta, snap);
}

async function snapshotFilesOf(
  meta: TableMetadata,
  snap: Snapshot,
  remap: (p: string) => string = fromUri,
): Promise<IcebergDataFile[]> {
  const fields = (meta.schemas.find((s) => s['schema-id'] === snap['schema-id']) ?? meta.schemas[0]).fields;
  const spec = partitionFields(meta);
  return (await manifestEntries(snap, remap)).map((e) => ({
    path: remap(e.data_file.file_path),
    size: Number(e.data_file.file_size_in_bytes),
    records: Number(e.data_file.record_count),
    partition: Object.fromEntries(
      spec.map((p) => {
        const f = fields.find((x) => x.id === p['source-id']);
        return [f?.name ?? p.name, partitionText(e.data_file.partition?.[p.name], f?.type ?? 'string')];
      }),
    ),
  }));
}
