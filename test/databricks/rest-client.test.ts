import { NotFoundError, PermissionDeniedError, TransientError, InvalidInputError } from '../../platform/errors';
import { createDatabricksWorkspace, type DatabricksWorkspace } from '../../platform/databricks';
import { RecordingSqlSession } from './recording-session';
import { StubServer } from './stub-server';

const TOKEN = 'dapi0123456789abcdef0123456789abcdef';

describe('REST calls over HTTP against a stub workspace', () => {
  let stub: StubServer;
  let ws: DatabricksWorkspace;
  beforeEach(async () => {
    stub = await new StubServer().start();
    ws = await createDatabricksWorkspace({
      host: stub.url,
      warehouseId: 'wh1',
      auth: { type: 'pat', token: TOKEN },
      sqlSession: new RecordingSqlSession(),
      retry: { baseDelayMs: 20, maxDelayMs: 50 },
    });
  });
  afterEach(() => stub.stop());

  it('follows next_page_token until the last page', async () => {
    stub.on('GET /api/2.1/unity-catalog/catalogs', (req) =>
      req.query.page_token === undefined
        ? { json: { catalogs: [{ name: 'a' }, { name: 'b' }], next_page_token: 'p2' } }
        : req.query.page_token === 'p2'
          ? { json: { catalogs: [{ name: 'c' }], next_page_token: 'p3' } }
          : { json: { catalogs: [{ name: 'd' }] } },
    );
    const catalogs = await ws.rest.uc.listCatalogs();
    expect(catalogs.map((c) => c.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(stub.seen.map((r) => r.query.page_token ?? null)).toEqual([null, 'p2', 'p3']);
    expect(stub.seen[0].query.max_results).toBe('1000');
  });

  it('waits out a 429 for the Retry-After seconds, then succeeds', async () => {
    stub.on('GET /api/2.0/sql/warehouses/wh1', (_r, attempt) =>
      attempt === 1
        ? {
            status: 429,
            headers: { 'Retry-After': '1' },
            json: { error_code: 'REQUEST_LIMIT_EXCEEDED', message: 'slow down' },
          }
        : { json: { id: 'wh1', name: 'Shared', state: 'RUNNING' } },
    );
    const started = Date.now();
    const wh = await ws.rest.workspace.getWarehouse('wh1');
    expect(wh.state).toBe('RUNNING');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(stub.seen).toHaveLength(2);
  });

  it('does not sit out a Retry-After beyond its limit; the TransientError carries the delay instead', async () => {
    stub.on('GET /api/2.0/sql/warehouses', {
      status: 429,
      headers: { 'Retry-After': '120' },
      json: { message: 'quota' },
    });
    const err = await ws.rest.workspace.listWarehouses().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransientError);
    expect(err).toMatchObject({ retryable: true, retryAfterSeconds: 120 });
    expect(stub.seen).toHaveLength(1);
  });

  it('retries a 503 and returns the later success', async () => {
    stub.on('POST /api/2.0/sql/warehouses/wh1/start', (_r, attempt) =>
      attempt < 3
        ? { status: 503, json: { error_code: 'TEMPORARILY_UNAVAILABLE', message: 'try later' } }
        : { json: {} },
    );
    await ws.rest.workspace.startWarehouse('wh1');
    expect(stub.paths()).toEqual(Array(3).fill('POST /api/2.0/sql/warehouses/wh1/start'));
  });

  it('gives up on a persistent 5xx with a TransientError after the attempt limit', async () => {
    stub.on('POST /api/2.0/sql/warehouses/wh1/stop', { status: 502, body: 'bad gateway' });
    await expect(ws.rest.workspace.stopWarehouse('wh1')).rejects.toBeInstanceOf(TransientError);
    expect(stub.seen).toHaveLength(4);
  });

  it('maps 404 to NotFoundError without retrying', async () => {
    stub.on('GET /api/2.1/unity-catalog/catalogs/nope', {
      status: 404,
      json: { error_code: 'CATALOG_DOES_NOT_EXIST', message: 'Catalog nope does not exist.' },
    });
    const err = await ws.getCatalog('nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toContain('Catalog nope does not exist.');
    expect(stub.seen).toHaveLength(1);
  });

  it('maps 403 to PermissionDeniedError without retrying, and keeps the token out of the message', async () => {
    stub.on('GET /api/2.1/unity-catalog/permissions/table/main.sales.orders', {
      status: 403,
      json: { error_code: 'PERMISSION_DENIED', message: `token ${TOKEN} lacks MANAGE on main.sales.orders` },
    });
    const err = await ws
      .getGrants({ type: 'TABLE', catalog: 'main', schema: 'sales', name: 'orders' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect((err as Error).message).toContain('lacks MANAGE');
    expect((err as Error).message).not.toContain(TOKEN);
    expect(stub.seen).toHaveLength(1);
  });

  it('maps 400 to InvalidInputError at once', async () => {
    stub.on('POST /api/2.2/jobs/create', {
      status: 400,
      json: { error_code: 'INVALID_PARAMETER_VALUE', message: 'name too long' },
    });
    await expect(ws.rest.workspace.createJob({ name: 'x' })).rejects.toBeInstanceOf(InvalidInputError);
    expect(stub.seen).toHaveLength(1);
  });

  it('reports an unreachable workspace as transient after retrying', async () => {
    await stub.stop();
    await expect(ws.rest.workspace.currentUser()).rejects.toBeInstanceOf(TransientError);
  });

  it('lists jobs across pages and resets a job with its new settings', async () => {
    stub
      .on('GET /api/2.2/jobs/list', (req) =>
        req.query.page_token
          ? { json: { jobs: [{ job_id: 2 }], has_more: false } }
          : { json: { jobs: [{ job_id: 1 }], has_more: true, next_page_token: 'n' } },
      )
      .on('POST /api/2.2/jobs/reset', { json: {} });
    expect((await ws.rest.workspace.listJobs()).map((j) => j.job_id)).toEqual([1, 2]);
    await ws.rest.workspace.resetJob(2, { name: 'nightly' });
    const reset = stub.seen.find((r) => r.path === '/api/2.2/jobs/reset')!;
    expect(JSON.parse(reset.body.toString())).toEqual({ job_id: 2, new_settings: { name: 'nightly' } });
    expect(reset.headers['content-type']).toBe('application/json');
  });

  it('reads owner and comment, serving endpoints and the current user', async () => {
    stub
      .on('GET /api/2.1/unity-catalog/volumes/main.raw.files', {
        json: { catalog_name: 'main', schema_name: 'raw', name: 'files', owner: 'ops', comment: 'drops' },
      })
      .on('GET /api/2.0/serving-endpoints', { json: { endpoints: [{ name: 'claude', state: { ready: 'READY' } }] } })
      .on('GET /api/2.0/preview/scim/v2/Me', { json: { userName: 'ana@x.com' } });
    const vol = { type: 'VOLUME' as const, catalog: 'main', schema: 'raw', name: 'files' };
    expect(await ws.getOwner(vol)).toBe('ops');
    expect(await ws.getComment(vol)).toBe('drops');
    expect((await ws.rest.workspace.listServingEndpoints())[0].name).toBe('claude');
    expect((await ws.rest.workspace.currentUser()).userName).toBe('ana@x.com');
  });

  it('writes, lists and reads volume files through the Files API', async () => {
    const files = new Map<string, Buffer>();
    stub
      .on(
        'PUT /api/2.0/fs/files/Volumes/main/raw/files/in/a%20b.csv',
        (req) => (files.set('in/a b.csv', req.body), { status: 204 }),
      )
      .on('GET /api/2.0/fs/directories/Volumes/main/raw/files', {
        json: { contents: [{ path: '/Volumes/main/raw/files/in', is_directory: true }] },
      })
      .on('GET /api/2.0/fs/directories/Volumes/main/raw/files/in', {
        json: { contents: [{ path: '/Volumes/main/raw/files/in/a b.csv', is_directory: false, file_size: 3 }] },
      })
      .on('GET /api/2.0/fs/files/Volumes/main/raw/files/in/a%20b.csv', () => ({ body: files.get('in/a b.csv') }));
    const ref = { catalog: 'main', schema: 'raw', name: 'files' };
    await ws.writeVolumeFile(ref, 'in/a b.csv', Buffer.from('1,2'));
    expect(stub.seen[0].query.overwrite).toBe('true');
    expect(await ws.listVolumeFiles(ref)).toEqual([{ path: 'in/a b.csv', size: 3 }]);
    expect((await ws.readVolumeFile(ref, 'in/a b.csv')).toString()).toBe('1,2');
    await expect(ws.readVolumeFile(ref, '../other/x')).rejects.toBeInstanceOf(InvalidInputError);
  });
});
