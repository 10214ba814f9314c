import { initialParams, type FsParams } from '../../../activities/mdm/logic/em';
import { hardIdentifierConflict, runCases } from '../../../activities/mdm/logic/match-cases';
import { attributesOf, gammaColumn, levelCount } from '../../../activities/mdm/logic/match-sql';
import { syntheticModel } from '../../../activities/mdm/logic/synthetic-model';

const model = syntheticModel();
const attrs = attributesOf(model);
const params: FsParams = { ...initialParams(attrs.map((a) => levelCount(model, a))), lambda: 0.01 };
const top = (a: string) => levelCount(model, a) - 1;

/** A suspected pair's row: every attribute at its exact level unless `levels` says otherwise. */
const row = (uid: string, levels: Record<string, number>, score: number) => ({
  uid_l: `crm:${uid}1`,
  uid_r: `erp:${uid}2`,
  score,
  entity_l: `GR-${uid}1`,
  entity_r: `GR-${uid}2`,
  ...Object.fromEntries(attrs.map((a) => [gammaColumn(a), levels[a] ?? top(a)])),
  ...Object.fromEntries(
    attrs.flatMap((a) => [
      [`l__${a}`, 'x'],
      [`r__${a}`, 'x'],
    ]),
  ),
});

test('a pair held below 75 only by a disagreeing hard identifier is a negative-match candidate, others stay suspected duplicates', () => {
  expect(model.attributes.first_name.hard_identifier).toBe(true);
  // twins: everything agrees but the first name (a hard identifier) → capped at 74
  const twins = row('t', { first_name: 0 }, 74);
  // a weak pair: little agrees, first name missing on one side → a plain suspected duplicate
  const weak = row('w', { first_name: -1, email: 0, phone: 0, national_id: -1, dob: 1 }, 60);
  // first name disagrees, but so does nearly everything else: without the cap it would not link either
  const far = row('f', { first_name: 0, last_name: 0, dob: 0, email: 0, phone: 0, zip: 0, national_id: -1 }, 55);

  const conflict = hardIdentifierConflict(model, params, twins);
  expect(conflict?.differing).toEqual(['first_name']);
  expect(conflict?.uncapped_score).toBeGreaterThanOrEqual(75);
  expect(hardIdentifierConflict(model, params, weak)).toBeNull();
  expect(hardIdentifierConflict(model, params, far)).toBeNull();
  expect(hardIdentifierConflict(model, null, twins)).toBeNull();

  const cases = runCases(
    model,
    'run-1',
    params,
    { review: [], suspected: [twins, weak, far], conflicts: [], members: [] },
    new Set(),
  );
  expect(cases.map((c) => [c.type, c.records.map((r) => r.record_id)])).toEqual([
    ['negative_match_candidate', ['t1', 't2']],
    ['suspected_duplicate', ['w1', 'w2']],
    ['suspected_duplicate', ['f1', 'f2']],
  ]);
  expect(cases[0].details).toEqual({
    hard_identifiers_differ: ['first_name'],
    uncapped_score: conflict!.uncapped_score,
  });
  // a pair a steward rejected opens neither
  const rejected = runCases(
    model,
    'run-2',
    params,
    { review: [], suspected: [twins], conflicts: [], members: [] },
    new Set(['crm:t1|erp:t2']),
  );
  expect(rejected).toEqual([]);
});
