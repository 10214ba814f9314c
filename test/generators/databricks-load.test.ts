import { createDatabricksWorkspace, type DatabricksWorkspace } from '../../platform/databricks';
import { InvalidInputError } from '../../platform/errors';
import { RecordingSqlSession } from '../databricks/recording-session';
import { StubServer } from '../databricks/stub-server';

const VOLUME = { catalog: 'main', schema: 'demo_unstructured', name: 'demo_unstructured' };
const TABLE = { catalog: 'main', schema: 'demo_unstructured', name: 'demo_logs_catalog' };

describe('generator loads on Databricks: COPY INTO from a volume folder, folder deletes over the Files API', () => {
  const stub = new StubServer();
  let ws: DatabricksWorkspace;
  let rec: RecordingSqlSession;
  beforeAll(() => stub.start());
  afterAll(() => stub.stop());
  beforeEach(async () => {
    stub.seen.length = 0;
    rec = new RecordingSqlSession([['COPY INTO', { rows: [{ num_affected_rows: 7, num_inserted_rows: 7 }] }]]);
    ws = await createDatabricksWorkspace({
      host: stub.url,
      warehouseId: 'wh1',
      auth: { type: 'pat', token: 'dapi0123' },
      sqlSession: rec,
      retry: { baseDelayMs: 10, maxDelayMs: 20 },
    });
  });

  it('sends one COPY INTO of the staged JSON folder and answers the inserted row count', async () => {
    const out = await ws.copyIntoFromVolume(TABLE, { volume: VOLUME, path: '_lakeward_staging/generate-1/rows' });
    expect(out).toEqual({ numOutputRows: 7 });
    expect(rec.statements).toEqual([
      [
        'COPY INTO `main`.`demo_unstructured`.`demo_logs_catalog`',
        "FROM '/Volumes/main/demo_unstructured/demo_unstructured/_lakeward_staging/generate-1/rows/'",
        'FILEFORMAT = JSON',
        "FORMAT_OPTIONS ('multiLine' = 'false')",
        "COPY_OPTIONS ('force' = 'true', 'mergeSchema' = 'false')",
      ].join('\n'),
    ]);
    // With columns: each selected and cast; a map (read from JSON as a struct) goes through JSON text.
    await ws.copyIntoFromVolume(TABLE, {
      volume: VOLUME,
      path: 'stage',
      columns: [
        { name: 'file_id', type: 'string' },
        { name: 'size_bytes', type: 'bigint' },
        { name: 'metadata', type: 'map<string,string>' },
        { name: 'generated_at', type: 'timestamp' },
      ],
    });
    expect(rec.statements[1]).toBe(
      [
        'COPY INTO `main`.`demo_unstructured`.`demo_logs_catalog`',
        'FROM (SELECT CAST(`file_id` AS STRING) AS `file_id`, CAST(`size_bytes` AS BIGINT) AS `size_bytes`, ' +
          "from_json(to_json(`metadata`), 'map<string,string>') AS `metadata`, " +
          'CAST(`generated_at` AS TIMESTAMP) AS `generated_at` ' +
          "FROM '/Volumes/main/demo_unstructured/demo_unstructured/stage/')",
        'FILEFORMAT = JSON',
        "FORMAT_OPTIONS ('multiLine' = 'false')",
        "COPY_OPTIONS ('force' = 'true', 'mergeSchema' = 'false')",
      ].join('\n'),
    );
    await expect(
      ws.copyIntoFromVolume(TABLE, {
        volume: VOLUME,
        path: 'stage',
        columns: [{ name: 'x', type: 'string); DROP TABLE t; --' }],
      }),
    ).rejects.toBeInstanceOf(InvalidInputError);
    await expect(ws.copyIntoFromVolume(TABLE, { volume: VOLUME, path: '../x' })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    expect(rec.statements).toHaveLength(2);
  });

  it('deletes a folder: every file, then the folders deepest first; a missing path is no error', async () => {
    const base = '/api/2.0/fs/directories/Volumes/main/demo_unstructured/demo_unstructured';
    stub
      .on(`GET ${base}/logs`, {
        json: {
          contents: [
            { path: '/Volumes/main/demo_unstructured/demo_unstructured/logs/syslog', is_directory: true },
            { path: '/Volumes/main/demo_unstructured/demo_unstructured/logs/a.log', is_directory: false },
          ],
        },
      })
      .on(`GET ${base}/logs/syslog`, {
        json: { contents: [{ path: '/Volumes/main/demo_unstructured/demo_unstructured/logs/syslog/b.log' }] },
      })
      .on('DELETE /api/2.0/fs/files/Volumes/main/demo_unstructured/demo_unstructured/logs/a.log', { status: 204 })
      .on('DELETE /api/2.0/fs/files/Volumes/main/demo_unstructured/demo_unstructured/logs/syslog/b.log', {
        status: 204,
      })
      .on(`DELETE ${base}/logs/syslog`, { status: 204 })
      .on(`DELETE ${base}/logs`, { status: 204 });
    await ws.deleteVolumePath(VOLUME, 'logs');
    expect(stub.paths().filter((p) => p.startsWith('DELETE'))).toEqual([
      'DELETE /api/2.0/fs/files/Volumes/main/demo_unstructured/demo_unstructured/logs/a.log',
      'DELETE /api/2.0/fs/files/Volumes/main/demo_unstructured/demo_unstructured/logs/syslog/b.log',
      `DELETE ${base}/logs/syslog`,
      `DELETE ${base}/logs`,
    ]);
    stub.seen.length = 0;
    await expect(ws.deleteVolumePath(VOLUME, 'media')).resolves.toBeUndefined();
    expect(stub.paths()).toEqual([
      `GET ${base}/media`,
      'DELETE /api/2.0/fs/files/Volumes/main/demo_unstructured/demo_unstructured/media',
    ]);
  });
});
