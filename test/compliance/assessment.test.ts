import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { Command } from 'commander';
import { startServer } from '../../api/server';
import { registerComplianceCommands } from '../../cli/commands/compliance';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import type { Workspace } from '../../platform/port';
import { ROLES, type Role } from '../../schemas/governance';
import { recordAudit } from '../../store/audit/repo';
import { recordValidation } from '../../store/contracts/repo';
import { saveRunResult } from '../../store/data-quality/runs';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { ordersWorkspace } from '../data-quality/fixtures';
import { createTestStore } from '../helpers/db';

const KEYS = Object.fromEntries(ROLES.map((r) => [r, `compliance-${r}-key-0123456789`])) as Record<Role, string>;
const as = (role: Role) => ({ Authorization: `Bearer ${KEYS[role]}` });
const DAY = 86_400_000;
const RTBF = { catalog: 'shop', schema: 'privacy', name: 'rtbf_requests' };

/** A custom framework whose five controls start fresh, stale, empty, mixed and fresh-from-the-workspace. */
const FRAMEWORK = `
id: acme-privacy
name: ACME privacy controls
version: "1.0"
freshness_days: 30
controls:
  - control_id: AP-1
    title: Copies are audited
    description: Every clone leaves an audit row.
    category: Audit
    evidence_sources: [{ type: audit_log, op_type: clone }]
  - control_id: AP-2
    title: Customers are never null
    description: The customer_not_null check runs.
    category: Quality
    evidence_sources: [{ type: dq_rule, rule_name: customer_not_null }]
  - control_id: AP-3
    title: Conversions are audited
    description: A format conversion left an audit row.
    category: Recovery
    evidence_sources: [{ type: audit_log, op_type: convert_table }]
  - control_id: AP-4
    title: Access is by role and copies are signed
    description: Keys carry roles; manifests are signed.
    category: Access
    evidence_sources: [{ type: role_config }, { type: provenance_signature }]
  - control_id: AP-5
    title: Erasure requests are completed
    description: Completed erasure requests in the workspace table.
    category: Rights
    evidence_sources:
      - { type: rtbf_request, table: shop.privacy.rtbf_requests, filter: "status = 'completed'", freshness_days: 90 }
`;

let store: Store;
let ws: Workspace;
let remove: () => void;
let app: Express;
let deps: AppDeps;
let tmp: string;

async function dqRun(runId: string, checkName: string, executedAt: Date) {
  await saveRunResult(
    store.db,
    {
      runId,
      jobId: runId,
      tableFqn: 'shop.sales.orders',
      totalRows: 10,
      validRows: 8,
      invalidRows: 2,
      errorRows: 2,
      warningRows: 0,
      passRate: 80,
      checksApplied: 1,
      checkResults: [
        { check_id: 'c1', name: checkName, check_function: 'is_not_null', criticality: 'error', failures: 2 },
      ],
      executionTimeMs: 5,
      status: 'completed',
      executedAt,
      executedBy: 'editor-bot',
    },
    [],
  );
}

beforeAll(async () => {
  store = await createTestStore();
  ({ ws, remove } = await ordersWorkspace());
  await ws.createSchema({ catalog: 'shop', name: 'privacy' });
  await ws.createTable({
    ref: RTBF,
    columns: [
      { name: 'request_id', type: 'bigint' },
      { name: 'status', type: 'string' },
      { name: 'requested_at', type: 'timestamp' },
    ],
  });
  await ws.insertRows(RTBF, [
    { request_id: 1, status: 'completed', requested_at: new Date(Date.now() - 2 * DAY).toISOString() },
    { request_id: 2, status: 'open', requested_at: new Date(Date.now() - DAY).toISOString() },
  ]);
  deps = testAppDeps({ store, open: async () => ws });
  const keys = ROLES.map((role) => ({ name: `${role}-bot`, key: KEYS[role], key_env: null, role }));
  deps.config = { ...deps.config, api_server: { ...deps.config.api_server, keys } };
  app = createApp(deps);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'lw-compliance-'));

  // Evidence written by the real producers: the audit store and the data-quality results store.
  await recordAudit(store.db, { jobId: 'clone-1', action: 'clone', status: 'completed' });
  await dqRun('dq-old', 'customer_not_null', new Date(Date.now() - 60 * DAY));
});
afterAll(async () => {
  await store?.close();
  remove?.();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

type Control = { control_id: string; status: string; sources: { state: string; evidence_summary: string }[] };
const statuses = (body: { evidence: Control[] }) =>
  Object.fromEntries(body.evidence.map((c) => [c.control_id, c.status]));

test('load-template needs a steward and answers 422 naming the path of every problem', async () => {
  await request(app)
    .post('/api/compliance/frameworks/load-template')
    .set(as('editor'))
    .send({ yaml: FRAMEWORK })
    .expect(403);
  const bad = FRAMEWORK.replace('op_type: clone', 'op_typo: clone').replace('    title: Conversions are audited\n', '');
  const refused = await request(app)
    .post('/api/compliance/frameworks/load-template')
    .set(as('steward'))
    .send({ yaml: bad })
    .expect(422);
  const paths = refused.body.error.details.map((d: { path: string }) => d.path);
  expect(paths).toEqual(
    expect.arrayContaining(['body.yaml.controls.0.evidence_sources.0', 'body.yaml.controls.2.title']),
  );
  await request(app)
    .post('/api/compliance/frameworks/load-template')
    .set(as('steward'))
    .send({ yaml: 'id: soc2\nname: x\nversion: "1"\ncontrols: []' })
    .expect(422);
  const loaded = await request(app)
    .post('/api/compliance/frameworks/load-template')
    .set(as('steward'))
    .send({ yaml: FRAMEWORK })
    .expect(201);
  expect(loaded.body).toMatchObject({ id: 'acme-privacy', control_count: 5, score: null });
  await request(app)
    .post('/api/compliance/frameworks/load-template')
    .set(as('admin'))
    .send({ yaml: FRAMEWORK })
    .expect(409);
});

test('fresh, stale and missing evidence give met, partial and gap; evidence appearing raises the trend', async () => {
  const first = await request(app).post('/api/compliance/frameworks/ACME-Privacy/assess').set(as('editor')).expect(200);
  expect(statuses(first.body)).toEqual({
    'AP-1': 'met',
    'AP-2': 'partial',
    'AP-3': 'gap',
    'AP-4': 'partial',
    'AP-5': 'met',
  });
  expect(first.body).toMatchObject({
    total_controls: 5,
    met_controls: 2,
    partial_controls: 2,
    gap_controls: 1,
    score: 0.6,
  });
  const ap2 = first.body.evidence.find((c: Control) => c.control_id === 'AP-2');
  expect(ap2.sources[0].state).toBe('stale');
  const ap5 = first.body.evidence.find((c: Control) => c.control_id === 'AP-5');
  expect(ap5.sources[0].evidence_summary).toMatch(/^1 RTBF requests/);

  const gaps = await request(app).get('/api/compliance/frameworks/acme-privacy/gaps').set(as('viewer')).expect(200);
  expect(gaps.body.map((g: { control_id: string; status: string }) => `${g.control_id}:${g.status}`)).toEqual([
    'AP-2:partial',
    'AP-3:gap',
    'AP-4:partial',
    'AP-4:partial',
  ]);
  const onlyGaps = await request(app).get('/api/compliance/frameworks/acme-privacy/gaps?status=gap').set(as('viewer'));
  expect(onlyGaps.body.map((g: { control_id: string }) => g.control_id)).toEqual(['AP-3']);

  // New evidence from real producers: a conversion audit row, a fresh DQ run, a signed provenance manifest.
  await recordAudit(store.db, { jobId: 'clone-1', action: 'convert_table', status: 'completed' });
  await dqRun('dq-new', 'customer_not_null', new Date());
  await request(app)
    .post('/api/clone-provenance/sign')
    .set(as('editor'))
    .send({ source_catalog: 'shop', destination_catalog: 'shop_dev' })
    .expect(200);
  const second = await request(app)
    .post('/api/compliance/frameworks/acme-privacy/assess')
    .set(as('editor'))
    .expect(200);
  expect(second.body).toMatchObject({ met_controls: 5, partial_controls: 0, gap_controls: 0, score: 1 });

  const trend = await request(app).get('/api/compliance/frameworks/Acme-Privacy/trend').set(as('viewer')).expect(200);
  expect(trend.body.map((t: { score: number }) => t.score)).toEqual([0.6, 1]);
  const list = await request(app).get('/api/compliance/frameworks').set(as('viewer')).expect(200);
  expect(list.body.find((f: { id: string }) => f.id === 'acme-privacy')).toMatchObject({
    score: 1,
    last_assessed: second.body.assessed_at,
  });
});

test('built-in frameworks are listed and assessed by any spelling of their name; unknown names are 404', async () => {
  const list = await request(app).get('/api/compliance/frameworks').set(as('viewer')).expect(200);
  expect(list.body.map((f: { id: string }) => f.id)).toEqual(
    expect.arrayContaining(['soc2', 'gdpr', 'hipaa', 'ccpa', 'dora']),
  );
  await request(app).post('/api/compliance/frameworks/SOC2/assess').set(as('viewer')).expect(403);
  const soc2 = await request(app).post('/api/compliance/frameworks/SOC2/assess').set(as('editor')).expect(200);
  expect(soc2.body).toMatchObject({ framework_id: 'soc2', total_controls: 8 });
  expect(soc2.body.met_controls + soc2.body.partial_controls + soc2.body.gap_controls).toBe(8);
  const missing = await request(app).post('/api/compliance/frameworks/iso27001/assess').set(as('editor')).expect(404);
  expect(missing.body.error.message).toContain('soc2');
});

test('the PDF dossier opens with pdftotext and shows every control; the JSON twin has the same numbers', async () => {
  await request(app).post('/api/compliance/frameworks/soc2/assess').set(as('editor')).expect(200);
  const period = {
    period_start: new Date(Date.now() - DAY).toISOString(),
    period_end: new Date(Date.now() + DAY).toISOString(),
  };
  const json = await request(app)
    .post('/api/compliance/reports')
    .set(as('editor'))
    .send({ framework_id: 'SOC2', format: 'JSON', ...period })
    .expect(200);
  const pdf = await request(app)
    .post('/api/compliance/reports')
    .set(as('editor'))
    .send({ framework_id: 'soc2', format: 'pdf', ...period })
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    })
    .expect(200)
    .expect('Content-Type', /application\/pdf/);
  const file = path.join(tmp, 'soc2.pdf');
  writeFileSync(file, pdf.body as Buffer);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });

  const a = json.body.assessment;
  for (const c of a.evidence as { control_id: string; status: string; evidence_count: number }[]) {
    expect(text).toMatch(new RegExp(`${c.control_id.replace('.', '\\.')}\\s+${c.status.toUpperCase()}`));
    expect(text).toContain(`evidence count ${c.evidence_count}`);
  }
  expect(a.evidence).toHaveLength(8);
  const pct = `${(a.score * 100).toFixed(1)}%`;
  expect(text).toContain(
    `Score ${pct}: ${a.met_controls} met, ${a.partial_controls} partial, ${a.gap_controls} gap of ${a.total_controls} controls.`,
  );
  expect(text).toContain('Score trend');
  expect(text).toContain(`${json.body.trend.length} assessments`);
  for (const g of json.body.gaps as { control_id: string; evidence_summary: string }[])
    expect(text).toContain(g.control_id);

  await request(app)
    .post('/api/compliance/reports')
    .set(as('editor'))
    .send({ framework_id: 'soc2', format: 'JSON', period_start: '2020-01-01', period_end: '2020-01-31' })
    .expect(422);
});

test('the CLI: frameworks, assess, gaps, report --format pdf|json --out, governance, with --json', async () => {
  const server = await startServer(deps, { host: '127.0.0.1', port: 0 });
  const out: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((s: unknown) => void out.push(String(s)));
  const cli = async (role: Role, ...args: string[]) => {
    const program = new Command().exitOverride();
    registerComplianceCommands(program);
    out.length = 0;
    await program.parseAsync(['node', 'lakeward', ...args, '--url', server.url, '--api-key', KEYS[role]]);
    return out.join('\n');
  };
  try {
    expect(await cli('viewer', 'compliance', 'frameworks')).toMatch(/^hipaa\s+-\s+7 controls\s+never assessed/m);
    await expect(cli('viewer', 'compliance', 'assess', 'HIPAA')).rejects.toThrow(/editor/);
    const assessed = JSON.parse(await cli('editor', 'compliance', 'assess', 'HIPAA', '--json'));
    expect(assessed).toMatchObject({ framework_id: 'hipaa', total_controls: 7 });
    const text = await cli('viewer', 'compliance', 'gaps', 'hipaa');
    for (const g of assessed.evidence.filter((c: Control) => c.status !== 'met')) expect(text).toContain(g.control_id);
    const pdf = path.join(tmp, 'cli.pdf');
    expect(await cli('editor', 'compliance', 'report', 'hipaa', '--format', 'pdf', '--out', pdf)).toMatch(
      /^wrote PDF dossier of hipaa/,
    );
    const pdfText = execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' });
    for (const c of assessed.evidence as Control[]) expect(pdfText).toContain(c.control_id);
    const json = path.join(tmp, 'cli.json');
    await cli('editor', 'compliance', 'report', 'hipaa', '--format', 'json', '--out', json);
    expect(JSON.parse(readFileSync(json, 'utf8')).assessment.score).toBe(assessed.score);
    const gov = JSON.parse(await cli('editor', 'compliance', 'governance', '--catalog', 'shop', '--json'));
    expect(gov.sections.map((s: { name: string }) => s.name)).toEqual(['ownership', 'tag_coverage', 'pii_masking']);
  } finally {
    log.mockRestore();
    await server.close(500);
  }
});

test('data-contract validations recorded by the contracts store are evidence', async () => {
  const yaml = [
    'id: acme-contracts',
    'name: ACME contracts',
    'version: "1"',
    'controls:',
    '  - { control_id: AC-1, title: Contracts validated, description: d, category: c, evidence_sources: [{ type: contract_validation }] }',
  ].join('\n');
  await request(app).post('/api/compliance/frameworks/load-template').set(as('steward')).send({ yaml }).expect(201);
  const before = await request(app).post('/api/compliance/frameworks/acme-contracts/assess').set(as('editor'));
  expect(before.body).toMatchObject({ gap_controls: 1, score: 0 });
  await recordValidation(store.db, {
    contractId: 'orders@1.0',
    name: 'orders',
    version: '1.0',
    tableFqn: 'shop.sales.orders',
    status: 'failed',
    severity: 'error',
    trigger: 'api',
    violationCount: 2,
    sections: {},
    createdBy: 'editor-bot',
  });
  const after = await request(app).post('/api/compliance/frameworks/acme-contracts/assess').set(as('editor'));
  expect(after.body).toMatchObject({ met_controls: 1, score: 1 });
  expect(after.body.evidence[0].sources[0].evidence_summary).toMatch(
    /^1 data-contract validations; 1 in the last 30 days/,
  );
});
