import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { explainCheck, parseRule } from '../../activities/nl-rules/logic';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { startServer } from '../../api/server';
import { listChecks } from '../../store/data-quality/checks';
import { harnessAppDeps } from '../helpers/harness-app';
import { createHarness, type Harness } from '../helpers/harness';
import corpus from './corpus.json';
import { runCli } from '../helpers/cli';

interface CorpusRule {
  text: string;
  checks: { function: string; arguments: Record<string, unknown> }[];
  filter?: string;
}
const rules = corpus.rules as CorpusRule[];

describe('the grammar (pure)', () => {
  test('the committed corpus has at least 120 phrasings and each parses to exactly its checks', () => {
    expect(rules.length).toBeGreaterThanOrEqual(120);
    const wrong = rules.flatMap((r): Record<string, unknown>[] => {
      const out = parseRule(r.text, corpus.columns);
      if (!out.ok) return [{ text: r.text, error: out.message }];
      const got = out.checks.map((c) => ({ function: c.check.function, arguments: c.check.arguments }));
      const filters = [...new Set(out.checks.map((c) => c.filter))];
      const same = JSON.stringify(got) === JSON.stringify(r.checks) && filters.length === 1 && filters[0] === r.filter;
      return same ? [] : [{ text: r.text, got, filters }];
    });
    expect(wrong).toEqual([]);
  });

  test('explain → parse gives every corpus check back', () => {
    for (const r of rules) {
      const out = parseRule(r.text, corpus.columns);
      if (!out.ok) throw new Error(r.text);
      for (const c of out.checks) {
        const sentence = explainCheck(c);
        expect(sentence).not.toBeNull();
        const again = parseRule(sentence!, corpus.columns);
        expect(again).toEqual({ ok: true, checks: [c] });
      }
    }
  });

  test('columns match exactly, never by substring; an unknown one lists the nearest columns', () => {
    expect(parseRule('customer must not be null', corpus.columns)).toMatchObject({
      ok: false,
      reason: 'column',
      column: 'customer',
    });
    const id = parseRule('id must be unique', corpus.columns);
    expect(id).toMatchObject({ ok: false, reason: 'column' });
    expect((id as { nearest: string[] }).nearest.slice(0, 2).sort()).toEqual(['customer_id', 'order_id']);
    expect(parseRule('amount must be lovely', corpus.columns)).toMatchObject({ ok: false, reason: 'unparseable' });
  });
});

describe('/api/nl-rules', () => {
  let h: Harness;
  let app: Express;
  let deps: AppDeps;
  beforeAll(async () => {
    h = await createHarness('nl-rules');
    const root = h.config.workspace.root;
    const ws = h.open(root);
    await ws.createCatalog({ name: 'nl' });
    await ws.createSchema({ catalog: 'nl', name: 'sales' });
    await ws.createTable({
      ref: { catalog: 'nl', schema: 'sales', name: 'orders' },
      columns: [
        { name: 'order_id', type: 'bigint' },
        { name: 'customer_id', type: 'bigint' },
        { name: 'amount', type: 'double' },
        { name: 'status', type: 'string' },
      ],
    });
    deps = harnessAppDeps(h);
    app = createApp(deps);
  });
  afterAll(async () => h?.teardown());
  const T = 'nl.sales.orders';

  test('"customer_id must not be null" gives is_not_null; save stores it as a check of the table', async () => {
    const res = await request(app)
      .post('/api/nl-rules/from-natural-language')
      .send({ text: 'customer_id must not be null', table_fqn: T, save: true })
      .expect(200);
    expect(res.body).toMatchObject({
      check: { criticality: 'error', check: { function: 'is_not_null', arguments: { column: 'customer_id' } } },
      confidence: 1,
      explanation: 'customer_id must not be null',
    });
    const stored = await listChecks(h.store.db, { tableFqn: T });
    expect(stored.map((c) => [c.checkId, c.checkFunction])).toEqual([[res.body.saved_check_ids[0], 'is_not_null']]);
  });

  test('"id must be unique" is a 422 naming both id columns; unparseable text is a 422 with suggestions', async () => {
    const id = await request(app)
      .post('/api/nl-rules/from-natural-language')
      .send({ text: 'id must be unique', table_fqn: T })
      .expect(422);
    expect(id.body.error.code).toBe('UNKNOWN_COLUMN');
    expect(id.body.error.message).toMatch(/no column id; nearest: (order_id, customer_id|customer_id, order_id)/);
    const bad = await request(app)
      .post('/api/nl-rules/from-natural-language')
      .send({ text: 'amount should feel right', table_fqn: T })
      .expect(422);
    expect(bad.body.error.code).toBe('UNPARSEABLE_RULE');
    const suggestions = bad.body.error.details.filter((d: { path: string }) => d.path.startsWith('suggestions.'));
    expect(suggestions.length).toBeGreaterThan(0);
    expect(
      suggestions.every(
        (d: { message: string }) => d.message.startsWith('amount ') || d.message.startsWith('the table'),
      ),
    ).toBe(true);
    await request(app)
      .post('/api/nl-rules/from-natural-language')
      .send({ text: 'x must be unique', table_fqn: 'nl.sales.nope' })
      .expect(404);
  });

  test('batch-parse answers each rule in order (at most 100); explain gives a sentence or a 422', async () => {
    const res = await request(app)
      .post('/api/nl-rules/batch-parse')
      .send({
        table_fqn: T,
        rules: ["status must be one of 'new', 'paid'", 'amount must be lovely', 'at least 1k rows'],
      })
      .expect(200);
    expect(res.body).toMatchObject({ parsed: 2, failed: 1 });
    expect(res.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, true]);
    expect(res.body.results[2].checks[0].check.arguments).toEqual({ column: '*', aggr_type: 'count', limit: 1000 });
    await request(app)
      .post('/api/nl-rules/batch-parse')
      .send({ table_fqn: T, rules: Array.from({ length: 101 }, () => 'amount must be at least 1') })
      .expect(400);
    const ex = await request(app)
      .post('/api/nl-rules/explain')
      .send({
        rule: {
          name: 'r',
          criticality: 'error',
          check: { function: 'is_in_range', arguments: { column: 'amount', min_limit: 1, max_limit: 9 } },
        },
      })
      .expect(200);
    expect(ex.body.explanation).toBe('amount must be between 1 and 9');
    await request(app)
      .post('/api/nl-rules/explain')
      .send({
        rule: {
          name: 'r',
          criticality: 'error',
          check: { function: 'is_valid_ipv4_address', arguments: { column: 'a' } },
        },
      })
      .expect(422);
  });

  test('lakeward nl-rule parse, batch (exit 1 when a rule fails) and explain against a running API', async () => {
    const server = await startServer(deps, { host: '127.0.0.1', port: 0 });
    const dir = mkdtempSync(path.join(tmpdir(), 'lw-nl-cli-'));
    const cli = (...args: string[]) => runCli(['nl-rule', ...args, '--url', server.url], { cwd: dir });
    try {
      const one = await cli('parse', T, 'amount', 'must', 'be', 'at', 'least', '1.5k');
      expect(one.code).toBe(0);
      expect(one.stdout).toContain('amount must be at least 1500');
      expect(one.stdout).toContain('is_not_less_than {"column":"amount","limit":1500}');
      writeFileSync(path.join(dir, 'rules.txt'), 'order_id must be unique\nid must be unique\n');
      const batch = await cli('batch', T, 'rules.txt');
      expect(batch.code).toBe(1);
      expect(batch.stdout).toContain('FAIL  id must be unique: the table has no column id');
      expect(batch.stdout).toContain('1 parsed, 1 failed');
      const ex = await cli(
        'explain',
        JSON.stringify({
          name: 'n',
          criticality: 'error',
          check: { function: 'is_not_null', arguments: { column: 'status' } },
        }),
      );
      expect(ex.stdout.trim()).toBe('status must not be null');
      const bad = await cli('parse', T, 'id', 'must', 'be', 'unique');
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('nearest');
    } finally {
      await server.close(500);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
