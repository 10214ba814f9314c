import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { evaluateAccess, type PolicyRule } from '../../activities/governance/logic/policy';
import { ROLES, type Role } from '../../schemas/governance';
import { listJobs } from '../../store/jobs/jobs';
import { eventually } from '../helpers/harness';
import { realStack, type RealStack } from '../jobs/real-stack';

const KEYS = Object.fromEntries(ROLES.map((r) => [r, `gov-${r}-key-0123456789`])) as Record<Role, string>;
const as = (role: Role) => ({ Authorization: `Bearer ${KEYS[role]}` });

let stack: RealStack;
let deps: AppDeps;
let app: Express;
beforeAll(async () => {
  stack = await realStack('governance');
  // A second catalog the editor must not read, in the same lakehouse as `prod`.
  const ws = stack.h.open(stack.root);
  await ws.createCatalog({ name: 'hr_secret', ifNotExists: true });
  await ws.createSchema({ catalog: 'hr_secret', name: 'crm', ifNotExists: true });
  const accounts = { catalog: 'hr_secret', schema: 'crm', name: 'accounts' };
  await ws.createTable({ ref: accounts, columns: [{ name: 'id', type: 'bigint' }] });
  await ws.insertRows(accounts, [{ id: 1 }, { id: 2 }]);
  await ws.close?.();
  deps = stack.appDeps();
  const keys = ROLES.map((role) => ({ name: `${role}-bot`, key: KEYS[role], key_env: null, role }));
  deps.config = { ...deps.config, api_server: { ...deps.config.api_server, keys } };
  app = createApp(deps);
}, 120_000);
afterAll(async () => stack?.teardown());

const rule = (r: Partial<PolicyRule> & { name: string }): PolicyRule => ({
  principals: ['*'],
  allowed_sources: ['*'],
  allowed_destinations: ['*'],
  allowed_schemas: ['*'],
  allowed_operations: ['*'],
  deny: false,
  ...r,
});

describe('evaluation (pure)', () => {
  const editor = { name: 'ed', role: 'editor' as const };
  const admin = { name: 'root', role: 'admin' as const };
  const noProd = rule({ name: 'no-prod', principals: ['editor'], allowed_destinations: ['prod_*'], deny: true });

  test('no policies: allowed; a deny rule refuses only what it covers, naming itself', () => {
    expect(evaluateAccess([], editor, { operation: 'clone', source: 'a', destination: 'prod_x' }).allowed).toBe(true);
    const denied = evaluateAccess([noProd], editor, { operation: 'clone', source: 'a', destination: 'PROD_eu' });
    expect(denied).toMatchObject({ allowed: false, rule: 'no-prod' });
    expect(evaluateAccess([noProd], editor, { operation: 'clone', source: 'a', destination: 'dev' }).allowed).toBe(
      true,
    );
    expect(evaluateAccess([noProd], admin, { operation: 'clone', source: 'a', destination: 'prod_x' }).allowed).toBe(
      true,
    );
    // a read has no destination: the rule about destinations does not cover it
    expect(evaluateAccess([noProd], editor, { operation: 'read', source: 'prod_x' }).allowed).toBe(true);
  });

  test('deny wins over allow; a caller named by allow rules is limited to them', () => {
    const onlyA = rule({ name: 'only-a', principals: ['ed'], allowed_sources: ['a'], allowed_schemas: ['s1', 's2'] });
    const rules = [
      onlyA,
      rule({ name: 'no-a-s2', principals: ['*'], allowed_sources: ['a'], allowed_schemas: ['s2'], deny: true }),
    ];
    expect(evaluateAccess(rules, editor, { operation: 'read', source: 'a', schemas: ['s1'] })).toMatchObject({
      allowed: true,
      rule: 'only-a',
    });
    expect(evaluateAccess(rules, editor, { operation: 'read', source: 'a', schemas: ['s2'] })).toMatchObject({
      allowed: false,
      rule: 'no-a-s2',
    });
    expect(evaluateAccess(rules, editor, { operation: 'read', source: 'b', schemas: ['s1'] })).toMatchObject({
      allowed: false,
      rule: 'only-a',
    });
    // a whole-catalog request is not covered by an allow rule limited to some schemas
    expect(evaluateAccess([onlyA], editor, { operation: 'read', source: 'a' }).allowed).toBe(false);
  });
});

const policy = (body: object) => request(app).post('/api/rbac/policies').set(as('admin')).send(body);

describe('through the API', () => {
  test('policies: only an admin creates or deletes them; created_by is the key name', async () => {
    await request(app)
      .post('/api/rbac/policies')
      .set(as('steward'))
      .send({ name: 'x', principals: ['*'] })
      .expect(403);
    const made = await policy({ name: 'tmp-rule', principals: ['viewer'], deny: true }).expect(201);
    expect(made.body).toMatchObject({ name: 'tmp-rule', created_by: 'admin-bot', allowed_sources: ['*'] });
    await policy({ name: 'tmp-rule', principals: ['viewer'] }).expect(409);
    const bad = await policy({ name: 'bad', principals: [], allowed_sources: ['a b'] }).expect(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['body.principals', 'body.allowed_sources.0']),
    );
    const listed = await request(app).get('/api/rbac/policies').set(as('viewer')).expect(200);
    expect(listed.body.map((p: { name: string }) => p.name)).toContain('tmp-rule');
    await request(app).delete('/api/rbac/policies/tmp-rule').set(as('editor')).expect(403);
    await request(app).delete('/api/rbac/policies/tmp-rule').set(as('admin')).expect(200);
    await request(app).delete('/api/rbac/policies/tmp-rule').set(as('admin')).expect(404);
  });

  test('plugins: listed with defaults, toggled by an admin only, and the switch persists', async () => {
    const listed = (await request(app).get('/api/plugins').set(as('viewer')).expect(200)).body;
    expect(listed.find((p: { name: string }) => p.name === 'ai_features')).toMatchObject({ enabled: false });
    await request(app).post('/api/plugins/toggle').set(as('editor')).send({ name: 'ai_features' }).expect(403);
    await request(app).post('/api/plugins/toggle').set(as('admin')).send({ name: 'nope' }).expect(404);
    const on = await request(app)
      .post('/api/plugins/toggle')
      .set(as('admin'))
      .send({ name: 'ai_features' })
      .expect(200);
    expect(on.body).toMatchObject({ name: 'ai_features', enabled: true, updated_by: 'admin-bot' });
    const again = (await request(createApp(deps)).get('/api/plugins').set(as('viewer')).expect(200)).body;
    expect(again.find((p: { name: string }) => p.name === 'ai_features').enabled).toBe(true);
    await request(app)
      .post('/api/plugins/toggle')
      .set(as('admin'))
      .send({ name: 'ai_features', enabled: false })
      .expect(200);
  });

  test('a policy denying clones into prod_* for editors: such a clone is 403 naming the rule, others are accepted', async () => {
    await policy({
      name: 'no-prod-clones-for-editors',
      principals: ['editor'],
      allowed_destinations: ['prod_*'],
      allowed_operations: ['clone'],
      deny: true,
    }).expect(201);
    try {
      await stack.h.withWorker(() => cloneIntoProdRefused());
    } finally {
      await request(app).delete('/api/rbac/policies/no-prod-clones-for-editors').set(as('admin')).expect(200);
    }
  });
});

/** Accepted jobs run to their end before the worker stops. */
async function ended(jobId: string) {
  await eventually(
    async () => {
      const job = (await request(app).get(`/api/clone/${jobId}`).set(as('viewer')).expect(200)).body;
      return ['completed', 'failed', 'cancelled'].includes(job.status);
    },
    { what: `the accepted dry-run clone ${jobId} to end`, timeoutMs: 60_000 },
  );
}

async function cloneIntoProdRefused() {
  const before = (await listJobs(deps.store.db, { limit: 1000 })).length;
  const refused = await request(app)
    .post('/api/clone')
    .set(as('editor'))
    .send({ source_catalog: 'prod', destination_catalog: 'prod_copy' })
    .expect(403);
  expect(refused.body.error).toMatchObject({ code: 'POLICY_DENIED' });
  expect(refused.body.error.message).toContain('no-prod-clones-for-editors');
  expect((await listJobs(deps.store.db, { limit: 1000 })).length).toBe(before);
  // an admin is not named by the rule; an editor into another catalog is not covered by it
  const ok = await request(app)
    .post('/api/clone')
    .set(as('editor'))
    .send({ source_catalog: 'prod', destination_catalog: 'dev_copy', dry_run: true });
  expect(ok.status).toBeLessThan(300);
  expect(ok.body.job_id).toEqual(expect.any(String));
  const jobs = await listJobs(deps.store.db, { limit: 1000 });
  expect(jobs.find((j) => j.jobId === ok.body.job_id)?.user).toBe('editor-bot');
  const byAdmin = await request(app)
    .post('/api/clone')
    .set(as('admin'))
    .send({ source_catalog: 'prod', destination_catalog: 'prod_copy', dry_run: true });
  expect(byAdmin.status).toBeLessThan(300);
  await ended(ok.body.job_id);
  await ended(byAdmin.body.job_id);
}

test('the same policy refuses a multi-clone, a catalog sync and an incremental sync into prod_* for an editor', async () => {
  await policy({
    name: 'no-prod-writes-for-editors',
    principals: ['editor'],
    allowed_destinations: ['prod_*'],
    allowed_operations: ['clone', 'sync'],
    deny: true,
  }).expect(201);
  try {
    const before = (await listJobs(deps.store.db, { limit: 1000 })).length;
    const calls: [string, object][] = [
      ['/api/multi-clone', { source_catalog: 'prod', destinations: [{ catalog: 'dev_a' }, { catalog: 'prod_b' }] }],
      ['/api/sync', { source_catalog: 'prod', destination_catalog: 'prod_c' }],
      ['/api/incremental/sync', { source_catalog: 'prod', destination_catalog: 'prod_d', schema_name: 'sales' }],
    ];
    for (const [path, body] of calls) {
      const res = await request(app).post(path).set(as('editor')).send(body);
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
        path,
        status: 403,
        code: 'POLICY_DENIED',
      });
      expect(res.body.error.message).toContain('no-prod-writes-for-editors');
    }
    expect((await listJobs(deps.store.db, { limit: 1000 })).length).toBe(before);
  } finally {
    await request(app).delete('/api/rbac/policies/no-prod-writes-for-editors').set(as('admin')).expect(200);
  }
});

describe('user SQL through the API', () => {
  describe('an editor limited to catalog prod cannot read hr_secret through user SQL', () => {
    beforeAll(async () => {
      await policy({ name: 'editors-read-prod-only', principals: ['editor'], allowed_sources: ['prod'] }).expect(201);
    });
    afterAll(async () => {
      await request(app).delete('/api/rbac/policies/editors-read-prod-only').set(as('admin')).expect(200);
    });
    const subquery = 'id IN (SELECT id FROM hr_secret.crm.accounts)';

    test('a where_clauses subquery: 403 naming the table and the rule, no job, nothing copied', async () => {
      const before = (await listJobs(deps.store.db, { limit: 1000 })).length;
      const res = await request(app)
        .post('/api/clone')
        .set(as('editor'))
        .send({ source_catalog: 'prod', destination_catalog: 'copy_x', where_clauses: { 'sales.orders': subquery } })
        .expect(403);
      expect(res.body.error.message).toContain('hr_secret.crm.accounts');
      expect(res.body.error.message).toContain('editors-read-prod-only');
      expect(res.body.error.details[0].path).toBe('body.where_clauses.sales.orders');
      expect((await listJobs(deps.store.db, { limit: 1000 })).length).toBe(before);
      const ws = stack.h.open(stack.root);
      expect((await ws.listCatalogs()).map((c) => c.name)).not.toContain('copy_x');
      await ws.close?.();
    });

    test('backtick quoting and a CTE do not hide the table; the own table in a subquery is fine', async () => {
      const hidden = 'id IN (WITH x AS (SELECT id FROM `hr_secret`.`crm`.`accounts`) SELECT id FROM x)';
      const res = await request(app)
        .post('/api/clone')
        .set(as('editor'))
        .send({ source_catalog: 'prod', destination_catalog: 'copy_y', where_clauses: { 'sales.orders': hidden } })
        .expect(403);
      expect(res.body.error.message).toContain('hr_secret.crm.accounts');
      await stack.h.withWorker(async () => {
        const own = await request(app)
          .post('/api/clone')
          .set(as('editor'))
          .send({
            source_catalog: 'prod',
            destination_catalog: 'copy_z',
            dry_run: true,
            where_clauses: { 'sales.orders': 'amount > (SELECT avg(amount) FROM prod.sales.orders)' },
          });
        expect(own.status).toBeLessThan(300);
        await ended(own.body.job_id);
      });
      // another table of the same catalog: the predicate may read only its own table
      const other = await request(app)
        .post('/api/clone')
        .set(as('editor'))
        .send({
          source_catalog: 'prod',
          destination_catalog: 'copy_w',
          where_clauses: { 'sales.orders': 'region IN (SELECT name FROM prod.hr.employees)' },
        })
        .expect(403);
      expect(other.body.error.details[0].message).toBe('rule own-table-only');
      const fn = await request(app)
        .post('/api/clone')
        .set(as('editor'))
        .send({
          source_catalog: 'prod',
          destination_catalog: 'copy_v',
          where_clauses: { '*': "id IN (SELECT 1 FROM read_parquet('/etc/passwd'))" },
        })
        .expect(403);
      expect(fn.body.error.details[0].message).toBe('rule no-table-functions');
    });

    test('a check sql_expression and a check filter reading hr_secret: 403, no check stored', async () => {
      const G = '/api/governance/dqx/checks';
      const count = async () => (await request(app).get(G).set(as('viewer')).expect(200)).body.length;
      const before = await count();
      const expr = await request(app)
        .post(G)
        .set(as('editor'))
        .send({
          table_fqn: 'prod.sales.orders',
          check_function: 'sql_expression',
          arguments: { expression: subquery },
        })
        .expect(403);
      expect(expr.body.error.message).toContain('hr_secret.crm.accounts');
      expect(expr.body.error.details[0].path).toBe('body.arguments.expression');
      const filter = await request(app)
        .post(G)
        .set(as('editor'))
        .send({
          table_fqn: 'prod.sales.orders',
          check_function: 'is_not_null',
          arguments: { column: 'id' },
          filter: subquery,
        })
        .expect(403);
      expect(filter.body.error.details[0].path).toBe('body.filter');
      expect(await count()).toBe(before);
      // the same check on its own table is stored, by the editor's key name
      const fine = await request(app)
        .post(G)
        .set(as('editor'))
        .send({
          table_fqn: 'prod.sales.orders',
          check_function: 'sql_expression',
          arguments: { expression: 'amount >= 0' },
        })
        .expect(201);
      expect(fine.body[0].created_by).toBe('editor-bot');
    });

    test('custom SQL (profile-results) reading hr_secret: 403, nothing returned', async () => {
      const res = await request(app)
        .post('/api/profile-results')
        .set(as('editor'))
        .send({ sql: 'SELECT o.id FROM prod.sales.orders o JOIN hr_secret.crm.accounts a ON a.id = o.id' })
        .expect(403);
      expect(res.body.error.message).toContain('hr_secret.crm.accounts');
      expect(res.body).not.toHaveProperty('columns');
    });
  });
});
