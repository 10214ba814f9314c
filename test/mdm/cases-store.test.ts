import { slaDueAt } from '../../activities/mdm/logic/sla';
import {
  cannotLinksFor,
  listCases,
  mustLinksFor,
  openCases,
  overridesFor,
  putOverrides,
  recordLinkDecisions,
} from '../../store/mdm/cases';
import type { Store } from '../../store/db';
import { createTestStore } from '../helpers/db';

let store: Store;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(() => store.close());

const a = { system: 'crm', record_id: '7' };
const b = { system: 'erp', record_id: '3' };

describe('MDM stewardship store', () => {
  it('openCases is idempotent by type and sorted record keys, and sets due_at from the SLA calendar', async () => {
    const due = slaDueAt('');
    const opened = new Date('2026-11-19T10:00:00Z');
    const first = await openCases(
      store.db,
      [{ entity_type: 'person', type: 'match_review', records: [b, a], score: 82 }],
      due,
      opened,
    );
    expect(first.opened).toHaveLength(1);
    const again = await openCases(
      store.db,
      [
        { entity_type: 'person', type: 'match_review', records: [a, b], score: 83 },
        { entity_type: 'person', type: 'suspected_duplicate', records: [a, b], score: 60 },
      ],
      due,
      opened,
    );
    expect(again).toMatchObject({ existing: 1 });
    expect(again.opened).toHaveLength(1);
    const cases = await listCases(store.db, { entityType: 'person' });
    expect(cases.map((c) => [c.type, c.dueAt.toISOString()]).sort()).toEqual([
      ['match_review', '2026-11-26T10:00:00.000Z'],
      ['suspected_duplicate', '2026-11-30T10:00:00.000Z'],
    ]);
    expect(cases.find((c) => c.type === 'match_review')?.records).toEqual([a, b]);
  });

  it('must-link and cannot-link decisions are kept per pair; a later decision replaces an earlier one', async () => {
    await recordLinkDecisions(store.db, 'person', 'must_link', [b, a], 'steward-1', null);
    expect(await mustLinksFor(store.db, 'person')).toEqual([{ a, b, case_id: null }]);
    await recordLinkDecisions(store.db, 'person', 'cannot_link', [a, b], 'steward-1', 'CASE-1');
    expect(await mustLinksFor(store.db, 'person')).toEqual([]);
    expect(await cannotLinksFor(store.db, 'person')).toEqual([{ a, b, case_id: 'CASE-1' }]);
    expect(await cannotLinksFor(store.db, 'company')).toEqual([]);
  });

  it('overridesFor answers the latest value per target and attribute', async () => {
    await putOverrides(store.db, 'person', { entity_id: 'GR-1' }, { email: 'x@y.z', city: 'Oslo' }, 's', null);
    await putOverrides(store.db, 'person', { entity_id: 'GR-1' }, { city: 'Bergen' }, 's', 'CASE-2');
    const got = await overridesFor(store.db, 'person');
    expect(got.map((o) => [o.entity_id, o.attribute, o.value]).sort()).toEqual([
      ['GR-1', 'city', 'Bergen'],
      ['GR-1', 'email', 'x@y.z'],
    ]);
  });
});
