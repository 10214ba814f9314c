import { generatePeople } from '../../../activities/mdm/logic/synthetic';
import { syntheticModel, syntheticSources } from '../../../activities/mdm/logic/synthetic-model';
import { recordKey, syntheticTables } from '../../../activities/mdm/logic/synthetic-tables';
import { MdmModelSchema, SourceSchema } from '../../../schemas/mdm';

const data = generatePeople(3000, 11);

test('a seed gives the same records; another seed other ones', () => {
  expect(generatePeople(3000, 11).records).toEqual(data.records);
  expect(generatePeople(3000, 12).records).not.toEqual(data.records);
  expect(data.records).toHaveLength(3000);
});

test('duplicates carry every kind of perturbation, and untouched copies are the easy examples', () => {
  const kinds = new Set(data.records.flatMap((r) => r.perturbations));
  for (const k of ['typo_first', 'typo_last', 'nickname', 'swap_names', 'no_email', 'no_phone', 'no_dob', 'move'])
    expect(kinds).toContain(k);
  expect(data.easy.length).toBeGreaterThanOrEqual(10);
  for (const [a, b] of data.easy) {
    const [x, y] = [data.records[a], data.records[b]];
    expect(x.entity).toBe(y.entity);
    expect([y.first, y.last, y.dob, y.email, y.phone]).toEqual([x.first, x.last, x.dob, x.email, x.phone]);
  }
});

test('hard non-pairs are different people sharing surname, address and phone (twins also the birth date)', () => {
  expect(data.hard.length).toBeGreaterThanOrEqual(10);
  let twins = 0;
  for (const [a, b] of data.hard) {
    const [x, y] = [data.records[a], data.records[b]];
    expect(x.entity).not.toBe(y.entity);
    expect(y.last).toBe(data.people[x.entity].last);
    expect(y.zip).toBe(data.people[x.entity].zip);
    expect(y.first).not.toBe(data.people[x.entity].first);
    if (y.dob === data.people[x.entity].dob) twins++;
  }
  expect(twins).toBeGreaterThan(0);
  expect(twins).toBeLessThan(data.hard.length);
});

test('the three tables name and format the same facts differently; the truth covers every keyed row', () => {
  const { tables, truth } = syntheticTables(data, 11);
  const [crm, erp, web] = tables;
  expect(crm.columns.map((c) => c.name)).toContain('given_name');
  expect(erp.columns.map((c) => c.name)).toContain('fname');
  expect(web.columns.map((c) => c.name)).toContain('first_name');
  expect(crm.rows[0].phone).toMatch(/^\+1 \(\d{3}\) \d{3}-\d{4}$/);
  expect(erp.rows[0].tel ?? '555.555.5555').toMatch(/^\d{3}\.\d{3}\.\d{4}$/);
  expect(String(erp.rows.find((r) => r.dob)?.dob)).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  expect(String(web.rows.find((r) => r.date_of_birth)?.date_of_birth)).toMatch(/^\d{8}$/);
  expect(truth.rows).toHaveLength(3000);
  const keys = new Set(truth.rows.map((r) => `${r.system}/${r.record_id}`));
  expect(keys.size).toBe(3000);
  expect(keys).toContain(`${['crm', 'erp', 'web'][data.records[5].system]}/${recordKey(data.records[5], 5)}`);
});

test('the model and sources it answers with are valid as posted', () => {
  expect(MdmModelSchema.parse(syntheticModel())).toEqual(syntheticModel());
  for (const s of syntheticSources('c', 's')) expect(SourceSchema.parse(s)).toEqual(s);
});
