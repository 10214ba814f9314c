import { loadBuiltinFrameworks, parseFrameworkYaml, FrameworkDocumentError } from '../../config/compliance';
import {
  controlStatus,
  evidenceState,
  evidenceSummary,
  isPiiColumn,
  overallScore,
  ownerKind,
  scoreOf,
  sectionStatus,
} from '../../activities/compliance/logic';

test('a source is fresh with a record in its window, stale with only older ones, none without any', () => {
  expect(evidenceState({ count: 3, freshCount: 1, newestAt: new Date() })).toBe('fresh');
  expect(evidenceState({ count: 3, freshCount: 0, newestAt: new Date(0) })).toBe('stale');
  expect(evidenceState({ count: 0, freshCount: 0, newestAt: null })).toBe('none');
});

test('a control is met when all sources are fresh, partial when some evidence exists, a gap when none', () => {
  expect(controlStatus(['fresh', 'fresh'])).toBe('met');
  expect(controlStatus(['fresh', 'none'])).toBe('partial');
  expect(controlStatus(['stale'])).toBe('partial');
  expect(controlStatus(['stale', 'none'])).toBe('partial');
  expect(controlStatus(['none', 'none'])).toBe('gap');
});

test('the score is (met + half of partial) over the controls', () => {
  expect(scoreOf(['met', 'partial', 'gap', 'met'])).toEqual({ total: 4, met: 2, partial: 1, gap: 1, score: 0.625 });
  expect(scoreOf(['gap', 'partial', 'partial'])).toMatchObject({ score: 0.3333 });
  expect(scoreOf([]).score).toBe(0);
});

test('a summary says how many records, how many inside the window and when the newest was', () => {
  const newest = new Date('2026-01-02T03:04:05Z');
  expect(evidenceSummary('audit rows (clone)', { count: 4, freshCount: 0, newestAt: newest }, 30)).toBe(
    'audit rows (clone)'.replace(/^/, '4 ') + '; none in the last 30 days (stale), newest 2026-01-02T03:04:05.000Z',
  );
  expect(evidenceSummary('RTBF requests', { count: 0, freshCount: 0, newestAt: null }, 30)).toBe('No RTBF requests');
});

test('every built-in framework loads, validated, with at least six controls and known source types', () => {
  const all = loadBuiltinFrameworks();
  expect(all.map((f) => f.id).sort()).toEqual(['ccpa', 'dora', 'gdpr', 'hipaa', 'soc2']);
  for (const f of all) expect(f.controls.length).toBeGreaterThanOrEqual(6);
  const soc2 = all.find((f) => f.id === 'soc2')!;
  expect(soc2.controls.map((c) => c.control_id)).toContain('CC6.1');
  expect(all.find((f) => f.id === 'gdpr')!.controls.map((c) => c.control_id)).toContain('Art.17');
});

test('a framework document with problems names the path of each', () => {
  const yaml =
    'id: Bad Id\nname: x\nversion: "1"\ncontrols:\n  - control_id: A\n    title: t\n    category: c\n    description: d\n    evidence_sources: [{ type: carrier_pigeon }]\n';
  try {
    parseFrameworkYaml(yaml, 'test');
    throw new Error('accepted');
  } catch (err) {
    expect(err).toBeInstanceOf(FrameworkDocumentError);
    const paths = (err as FrameworkDocumentError).problems.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['id', 'controls.0.evidence_sources.0.type']));
  }
});

test('governance report helpers: owner kinds, PII columns by tag or name, section bands and the overall mean', () => {
  expect(ownerKind('ana@example.com')).toBe('user');
  expect(ownerKind('sp-etl')).toBe('service_principal');
  expect(ownerKind('data_owners')).toBe('group');
  expect(ownerKind(null)).toBe('missing');
  expect(isPiiColumn('customer', { pii: 'name' })).toBe(true);
  expect(isPiiColumn('email_address', {})).toBe(true);
  expect(isPiiColumn('amount', {})).toBe(false);
  expect(isPiiColumn('notes', { pii: 'false' })).toBe(false);
  expect([sectionStatus(80), sectionStatus(79), sectionStatus(49)]).toEqual(['COMPLIANT', 'WARNING', 'NON_COMPLIANT']);
  const s = (score: number) => ({ name: 'x', score, status: sectionStatus(score), summary: '', details: {} });
  expect(overallScore([s(90), s(75)])).toBe(82);
  expect(overallScore([])).toBe(0);
});
