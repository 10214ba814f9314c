import Ajv2020 from 'ajv/dist/2020';
import type { Express } from 'express';
import request from 'supertest';
import { createApp, routeModules } from '../../api/app';
import { buildOpenApiDocument } from '../../api/openapi';
import type { Store } from '../../store/db';
import { createJob } from '../../store/jobs/jobs';
import { appendRunLog } from '../../store/jobs/run-logs';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

/** The console's reads: each 2xx body must be described field by field, not as an open record. */
const CONSOLE_READS: [string, string][] = [
  ['get', '/api/health'],
  ['get', '/api/jobs'],
  ['get', '/api/jobs/{jobId}'],
  ['get', '/api/clone/{jobId}'],
  ['get', '/api/catalogs'],
  ['get', '/api/catalogs/{catalog}/schemas'],
  ['get', '/api/catalogs/{catalog}/schemas/{schema}/tables'],
  ['get', '/api/tables/{full_name}'],
  ['get', '/api/templates'],
  ['get', '/api/templates/{name}'],
  ['get', '/api/rollback/logs'],
  ['get', '/api/rollback/{logId}'],
  ['get', '/api/sql/history'],
  ['get', '/api/notebooks'],
  ['get', '/api/notebooks/{id}'],
];

type Schema = Record<string, any>;
const doc = buildOpenApiDocument(routeModules) as unknown as {
  paths: Record<string, Record<string, { responses: Record<string, any> }>>;
  components: { schemas: Record<string, Schema> };
};
const resolve = (s: Schema | undefined): Schema | undefined =>
  s?.$ref ? resolve(doc.components.schemas[String(s.$ref).split('/').pop()!]) : s;

/** Paths inside a schema that are objects without any named property (an open record) or have no schema at all. */
function openRecords(s: Schema | undefined, at: string, depth = 0): string[] {
  const r = resolve(s);
  if (!r || depth > 3) return [];
  const alternatives = r.anyOf ?? r.oneOf ?? r.allOf;
  if (alternatives) return alternatives.flatMap((a: Schema) => openRecords(a, at, depth));
  if (r.type === 'array') return openRecords(r.items, `${at}[]`, depth + 1);
  if (Object.keys(r).length === 0) return [`${at} (no schema)`];
  if (r.type !== 'object') return [];
  const props = Object.entries<Schema>(r.properties ?? {});
  if (props.length === 0) return resolve(r.additionalProperties)?.type ? [] : [at || '(body)'];
  return props.flatMap(([k, v]) => openRecords(v, `${at}.${k}`, depth + 1));
}

const jsonBody = (method: string, path: string) => {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in the OpenAPI document`);
  return op.responses['200'].content['application/json'].schema as Schema;
};

test('every 2xx body the console reads is typed field by field (jobs, clone, catalogs, templates, health …)', () => {
  const open = CONSOLE_READS.flatMap(([m, p]) => openRecords(jsonBody(m, p), '').map((at) => `${m} ${p} ${at}`));
  expect(open).toEqual([]);
});

describe('the job records the API sends match their OpenAPI schemas', () => {
  let store: Store;
  let app: Express;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const check = (method: string, path: string, body: unknown) => {
    const schema = JSON.parse(JSON.stringify(jsonBody(method, path)).replaceAll('"#/components/', '"doc#/components/'));
    const valid = ajv.compile(schema);
    expect(valid(body) ? [] : valid.errors).toEqual([]);
  };
  const jobId = 'clone-20261124-090000-ab12';

  beforeAll(async () => {
    store = await createTestStore();
    app = createApp(testAppDeps({ store }));
    const at = new Date('2026-11-24T09:00:00Z');
    await createJob(store.db, {
      jobId,
      jobType: 'clone',
      status: 'completed',
      sourceCatalog: 'demo_sales',
      destinationCatalog: 'demo_sales_dev',
      cloneType: 'DEEP',
      request: { source_catalog: 'demo_sales', destination_catalog: 'demo_sales_dev', clone_type: 'DEEP' },
      summary: {
        jobId,
        status: 'completed',
        mode: 'full',
        tables_cloned: 3,
        tables_failed: 0,
        tables_skipped: 1,
        views_cloned: 1,
        functions_cloned: 0,
        volumes_cloned: 0,
        bytes_copied: 4096,
        files_copied: 3,
        formats: { delta: 3 },
        duration_seconds: 12.5,
        warnings: [],
        validation: { passed: true },
      },
      progress: { completed: 4, total: 4, schemas: '2/2' },
      createdAt: at,
      startedAt: at,
      completedAt: new Date(at.getTime() + 12_500),
    });
    await createJob(store.db, { jobId: 'dq-20261124-090100-cd34', jobType: 'dq_run', status: 'failed', error: 'x' });
    await appendRunLog(store.db, jobId, [{ message: 'Clone completed: 3 tables', data: { event: 'completed' } }]);
  });
  afterAll(() => store?.close());

  test('GET /api/jobs/{id}, GET /api/clone/{id} and GET /api/jobs', async () => {
    const job = (await request(app).get(`/api/jobs/${jobId}`).expect(200)).body;
    expect(job).toMatchObject({ job_id: jobId, source_catalog: 'demo_sales', result: { tables_cloned: 3 } });
    check('get', '/api/jobs/{jobId}', job);
    const clone = (await request(app).get(`/api/clone/${jobId}`).expect(200)).body;
    expect(clone).toMatchObject({ id: jobId, destination: 'demo_sales_dev', tables_cloned: 3 });
    check('get', '/api/clone/{jobId}', clone);
    const list = (await request(app).get('/api/jobs').expect(200)).body;
    expect(list.map((j: { job_id: string }) => j.job_id)).toEqual(['dq-20261124-090100-cd34', jobId]);
    check('get', '/api/jobs', list);
  });

  test('the schema check fails on a record of the wrong shape (it is not vacuous)', () => {
    const schema = JSON.parse(
      JSON.stringify(jsonBody('get', '/api/jobs/{jobId}')).replaceAll('"#/components/', '"doc#/components/'),
    );
    const valid = ajv.compile(schema);
    expect(valid({ job_id: jobId, status: 'done', result: { tables_cloned: 'three' } })).toBe(false);
  });
});
