import type { Express } from 'express';
import request from 'supertest';
import { Command } from 'commander';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { startServer } from '../../api/server';
import { registerGovernanceCommands } from '../../cli/commands/governance';
import type { Workspace } from '../../platform/port';
import { ROLES, type Role } from '../../schemas/governance';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { ordersWorkspace } from '../data-quality/fixtures';

const KEYS = Object.fromEntries(ROLES.map((r) => [r, `glossary-${r}-key-0123456789`])) as Record<Role, string>;
const as = (role: Role) => ({ Authorization: `Bearer ${KEYS[role]}` });

let store: Store;
let ws: Workspace;
let remove: () => void;
let app: Express;
let deps: AppDeps;
beforeAll(async () => {
  store = await createTestStore();
  ({ ws, remove } = await ordersWorkspace());
  deps = testAppDeps({ store, open: async () => ws });
  const keys = ROLES.map((role) => ({ name: `${role}-bot`, key: KEYS[role], key_env: null, role }));
  deps.config = { ...deps.config, api_server: { ...deps.config.api_server, keys } };
  app = createApp(deps);
});
afterAll(async () => {
  await store?.close();
  remove?.();
});

test('a term goes draft → approved → deprecated by a steward, every change in its history, delete is admin', async () => {
  const made = await request(app)
    .post('/governance/glossary')
    .set(as('editor'))
    .send({ name: 'Customer', definition: 'A party that placed an order', abbreviation: 'CUST', tags: ['core'] })
    .expect(201);
  const id = made.body.term_id as string;
  expect(made.body).toMatchObject({ status: 'draft', domain: 'General', created_by: 'editor-bot', linked_columns: [] });

  await request(app).post(`/api/governance/glossary/${id}/approve`).set(as('editor')).expect(403);
  const approved = await request(app).post(`/governance/glossary/${id}/approve`).set(as('steward')).expect(200);
  expect(approved.body.status).toBe('approved');
  await request(app).post(`/governance/glossary/${id}/approve`).set(as('steward')).expect(409);

  await request(app)
    .patch(`/governance/glossary/${id}`)
    .set(as('editor'))
    .send({ definition: 'A party that placed at least one order' })
    .expect(200);
  const linked = await request(app)
    .post(`/governance/glossary/${id}/links`)
    .set(as('editor'))
    .send({ column_fqns: ['shop.sales.orders.customer'] })
    .expect(200);
  expect(linked.body.linked_columns).toEqual(['shop.sales.orders.customer']);
  const missing = await request(app)
    .post(`/governance/glossary/${id}/links`)
    .set(as('editor'))
    .send({ column_fqns: ['shop.sales.orders.customer', 'shop.sales.orders.nope'] })
    .expect(404);
  expect(missing.body.error.details[0]).toMatchObject({ path: 'body.column_fqns.1' });

  const deprecated = await request(app).post(`/governance/glossary/${id}/deprecate`).set(as('steward')).expect(200);
  expect(deprecated.body.history.map((h: { change_type: string }) => h.change_type)).toEqual([
    'created',
    'approved',
    'updated',
    'linked',
    'deprecated',
  ]);
  expect(deprecated.body.history[2]).toMatchObject({
    changed_by: 'editor-bot',
    details: { definition: { from: 'A party that placed an order', to: 'A party that placed at least one order' } },
  });
  expect(deprecated.body.history[1].changed_by).toBe('steward-bot');

  const list = await request(app).get('/governance/glossary?status=deprecated&q=cust').set(as('viewer')).expect(200);
  expect(list.body.map((t: { term_id: string }) => t.term_id)).toEqual([id]);

  await request(app).delete(`/governance/glossary/${id}`).set(as('steward')).expect(403);
  await request(app).delete(`/governance/glossary/${id}`).set(as('admin')).expect(200);
  await request(app).get(`/governance/glossary/${id}`).set(as('viewer')).expect(404);
});

test('bad input names the field', async () => {
  const res = await request(app).post('/governance/glossary').set(as('editor')).send({ name: ' ' }).expect(400);
  expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(
    expect.arrayContaining(['body.name', 'body.definition']),
  );
  const link = await request(app)
    .post('/governance/glossary/x/links')
    .set(as('editor'))
    .send({ column_fqns: ['orders.customer'] })
    .expect(400);
  expect(link.body.error.details[0].path).toBe('body.column_fqns.0');
});

test('the CLI: glossary add, approve (steward key), list and show; policies add, list, rm', async () => {
  const server = await startServer(deps, { host: '127.0.0.1', port: 0 });
  const out: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((s: unknown) => void out.push(String(s)));
  const cli = async (role: Role, ...args: string[]) => {
    const program = new Command().exitOverride();
    registerGovernanceCommands(program);
    out.length = 0;
    await program.parseAsync(['node', 'lakeward', ...args, '--url', server.url, '--api-key', KEYS[role]]);
    return out.join('\n');
  };
  try {
    const added = await cli(
      'editor',
      'glossary',
      'add',
      'Net revenue',
      'Revenue after refunds',
      '--abbreviation',
      'NR',
    );
    const id = /^created (\w+)/.exec(added)![1];
    await expect(cli('editor', 'glossary', 'approve', id)).rejects.toThrow(/steward/);
    expect(await cli('steward', 'glossary', 'approve', id)).toContain('[approved]');
    expect(await cli('viewer', 'glossary', 'list', '--status', 'approved')).toMatch(
      new RegExp(`${id}\\s+approved\\s+Net revenue \\(NR\\)`),
    );
    expect(await cli('viewer', 'glossary', 'show', id)).toMatch(/approved\s+steward-bot/);
    await cli('admin', 'policies', 'add', 'cli-rule', '--principals', 'editor', '--destinations', 'prod_*', '--deny');
    expect(await cli('viewer', 'policies', 'list')).toMatch(/DENY\s+cli-rule\s+to editor/);
    expect(await cli('admin', 'policies', 'rm', 'cli-rule')).toBe('deleted cli-rule');
  } finally {
    log.mockRestore();
    await server.close(500);
  }
});
